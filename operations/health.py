"""``/healthz`` for a reverse proxy or a monitor: the database answers, every migration is in, and
the data folder (the SQLite database, backups, the log) has room and can be written."""

import shutil
import tempfile
from pathlib import Path

from django.conf import settings
from django.db import DatabaseError, connection
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from operations.logs import log_file_failure

_migrations_applied = False


def _pending_migrations() -> int:
    """How many migrations wait; once none do, this process does not look again."""
    global _migrations_applied
    if _migrations_applied:
        return 0
    executor = MigrationExecutor(connection)
    pending = len(executor.migration_plan(executor.loader.graph.leaf_nodes()))
    _migrations_applied = pending == 0
    return pending


def storage_problem(folder: Path, min_free_bytes: int) -> str | None:
    """Why the data folder cannot take what the desk writes (a full disk, a folder that cannot be
    written, a failing log file), or None."""
    try:
        free = shutil.disk_usage(folder).free
    except OSError as error:
        return f"data folder unavailable: {error.strerror or error}"
    if free < min_free_bytes:
        return f"disk full: {free // 1_000_000} MB free, {min_free_bytes // 1_000_000} MB needed"
    try:
        # A file is made, written and removed, as a backup or the SQLite journal would be.
        with tempfile.TemporaryFile(dir=folder) as probe:
            probe.write(b"healthz")
            probe.flush()
    except OSError as error:
        return f"data folder not writable: {error.strerror or error}"
    return log_file_failure()


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        pending = _pending_migrations()
    except DatabaseError as error:
        return JsonResponse(
            {"status": "error", "database": f"unreachable: {error.__class__.__name__}"},
            status=503,
        )
    if pending:
        return JsonResponse(
            {"status": "error", "database": "ok", "migrations": f"{pending} not applied"},
            status=503,
        )
    problem = storage_problem(Path(settings.DATA_DIR), settings.DESK_MIN_FREE_BYTES)
    if problem:
        return JsonResponse(
            {"status": "error", "database": "ok", "migrations": "applied", "storage": problem},
            status=503,
        )
    return JsonResponse(
        {"status": "ok", "database": "ok", "migrations": "applied", "storage": "ok"}
    )
