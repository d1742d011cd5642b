"""Backups of the event's database into the data folder, and restoring one.

SQLite is copied with its online backup API, page by page under SQLite's own locking, so a copy
taken while judges write is consistent; PostgreSQL is dumped with ``pg_dump`` (custom format) and
restored with ``pg_restore``. A file is written under a temporary name and renamed when complete,
so a half-written backup never looks like a backup.
"""

import datetime
import logging
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone
from django.utils.text import slugify

logger = logging.getLogger("desk.backups")
# A restore replaces every record: it belongs to the audit trail (its own file).
audit_logger = logging.getLogger("desk.audit")

PREFIX = "desk-"
ROUND_PREFIX = "desk-round-"
SQLITE_SUFFIX = ".sqlite3"
PG_SUFFIX = ".dump"
SQLITE_HEADER = b"SQLite format 3\x00"


class BackupError(Exception):
    """A backup or a restore that cannot be done; the message says why, for the operator."""


def backup_folder() -> Path:
    folder = Path(settings.BACKUP_DIR)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _stamp() -> str:
    return timezone.localtime().strftime("%Y-%m-%d_%H-%M-%S_%f")


def _on_sqlite() -> bool:
    return connection.vendor == "sqlite"


def create_backup(*, label: str = "", folder: Path | None = None) -> Path:
    """Copy the current database into a new timestamped file; return its path."""
    folder = folder or backup_folder()
    name = f"{PREFIX}{slugify(label) + '-' if label else ''}{_stamp()}"
    if _on_sqlite():
        target = folder / f"{name}{SQLITE_SUFFIX}"
        partial = target.with_name(target.name + ".partial")
        connection.ensure_connection()
        copy = sqlite3.connect(partial)
        try:
            connection.connection.backup(copy)
            # The live database runs in WAL mode; a backup is one self-contained file.
            copy.execute("PRAGMA journal_mode=DELETE")
        finally:
            copy.close()
    else:
        target = folder / f"{name}{PG_SUFFIX}"
        partial = target.with_name(target.name + ".partial")
        _run_pg("pg_dump", "--format=custom", "--no-owner", "--no-privileges", "--file", partial)
    os.replace(partial, target)
    return target


def restore_backup(path: Path) -> None:
    """Replace the current database's content with the backup's."""
    check_backup(path)
    if _on_sqlite():
        connection.ensure_connection()
        source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            source.backup(connection.connection)
        finally:
            source.close()
    else:
        connection.close()  # pg_restore drops the tables: hold no connection to them.
        _run_pg("pg_restore", "--clean", "--if-exists", "--no-owner", "--no-privileges", path)
    audit_logger.warning("The database was restored from the backup %s", path.name)


def check_backup(path: Path) -> None:
    """Refuse a file that is not a backup for this kind of database, before touching anything."""
    if not path.is_file():
        raise BackupError(f"{path} is not a file.")
    with path.open("rb") as file:
        head = file.read(len(SQLITE_HEADER))
    if _on_sqlite():
        if head != SQLITE_HEADER:
            raise BackupError(f"{path} is not an SQLite backup (this database is SQLite).")
        source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            if source.execute("PRAGMA integrity_check").fetchone() != ("ok",):
                raise BackupError(f"{path} is damaged (SQLite's integrity check failed).")
            tables = {row[0] for row in source.execute("SELECT name FROM sqlite_master")}
        except sqlite3.DatabaseError as error:
            raise BackupError(f"{path} cannot be read: {error}") from error
        finally:
            source.close()
        if "django_migrations" not in tables:
            raise BackupError(f"{path} is an SQLite file but not a backup of the desk.")
    elif not head.startswith(b"PGDMP"):
        raise BackupError(f"{path} is not a pg_dump backup (this database is PostgreSQL).")


def describe_backup(path: Path) -> str:
    """A line for the confirmation: when the file was written and its size."""
    stat = path.stat()
    written = timezone.localtime(
        datetime.datetime.fromtimestamp(stat.st_mtime, tz=timezone.get_current_timezone())
    )
    return f"{path.name}, written {written:%Y-%m-%d %H:%M:%S}, {stat.st_size // 1024} KB"


def snapshot_after_round(*, tournament_slug: str, number: int) -> Path | None:
    """The automatic SQLite snapshot once a round is published, keeping the newest ones.

    Nothing on PostgreSQL (its backups are the server's job) nor on an in-memory database; a
    failed snapshot is logged and never stops the round.
    """
    keep = settings.DESK_ROUND_SNAPSHOTS
    if keep <= 0 or not _on_sqlite() or connection.is_in_memory_db():  # type: ignore[attr-defined]
        return None
    try:
        path = create_backup(label=f"round-{tournament_slug}-{number}")
        prune_round_snapshots(keep=keep)
    except (OSError, sqlite3.Error):
        logger.exception("The snapshot after round %s of %s failed", number, tournament_slug)
        return None
    logger.info("Snapshot after round %s of %s: %s", number, tournament_slug, path.name)
    return path


def round_published(sender: type, instance: Any, created: bool, **kwargs: Any) -> None:
    """A new round is a published round: snapshot the database once it is committed."""
    if not created or kwargs.get("raw"):
        return
    slug, number = instance.tournament.slug, instance.number
    transaction.on_commit(
        lambda: snapshot_after_round(tournament_slug=slug, number=number), robust=True
    )


def prune_round_snapshots(*, keep: int) -> list[Path]:
    """Delete all but the newest ``keep`` automatic snapshots; manual backups stay."""
    snapshots = sorted(
        backup_folder().glob(f"{ROUND_PREFIX}*{SQLITE_SUFFIX}"),
        key=lambda path: (path.stat().st_mtime, path.name),
    )
    removed = snapshots[: max(len(snapshots) - keep, 0)]
    for path in removed:
        path.unlink(missing_ok=True)
    return removed


def _run_pg(program: str, *args: Any) -> None:
    if shutil.which(program) is None:
        raise BackupError(
            f"{program} is not installed; install PostgreSQL's client tools "
            "(Debian: apt-get install -y postgresql-client)."
        )
    db = connection.settings_dict
    env = {**os.environ}
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = str(db["PASSWORD"])
    command = [program, "--dbname", str(db["NAME"])]
    if db.get("HOST"):
        command += ["--host", str(db["HOST"])]
    if db.get("PORT"):
        command += ["--port", str(db["PORT"])]
    if db.get("USER"):
        command += ["--username", str(db["USER"])]
    run = subprocess.run(
        [*command, *(str(arg) for arg in args)], env=env, capture_output=True, text=True
    )
    if run.returncode != 0:
        raise BackupError(f"{program} failed: {run.stderr.strip()}")
