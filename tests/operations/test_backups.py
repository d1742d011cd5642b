"""Backups into the data folder and restoring one: every record, history entry and result back."""

import logging
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import connection

from judging import services
from judging.models import PenaltyChange, PenaltyRecord, Rank
from tournaments.models import Game, Match, Registration, Round

PROJECT = Path(__file__).resolve().parents[2]


@pytest.fixture
def backups(settings, tmp_path):
    settings.BACKUP_DIR = tmp_path / "backups"
    return settings.BACKUP_DIR


def contents():
    """Everything an event keeps, row by row."""
    return {
        "users": list(get_user_model().objects.order_by("pk").values("username", "password")),
        "registrations": list(Registration.objects.order_by("pk").values()),
        "rounds": list(Round.objects.order_by("pk").values()),
        "matches": list(Match.objects.order_by("pk").values()),
        "games": list(Game.objects.order_by("pk").values()),
        "records": list(PenaltyRecord.objects.order_by("pk").values()),
        "history": list(PenaltyChange.objects.order_by("pk").values()),
    }


def an_event_in_progress(desk):
    desk.pair((0, 1), (2, 3))
    desk.win(0)
    desk.win(0)  # best of 3: the match is over
    record = desk.issue(2, "1.4", by="head")
    services.amend_penalty(record=record, to_rank=Rank(2), author=desk.head, reason="повтор")
    desk.issue(3, "1.1", by="floor")


def test_a_restored_backup_has_every_record_history_entry_and_result(
    transactional_db, desk, backups, capsys, caplog
):
    an_event_in_progress(desk)
    before = contents()
    call_command("backup", "--label", "after round 1")
    backup = next(backups.glob("desk-after-round-1-*"))

    # The event goes on after the backup: a result, a penalty, a revocation.
    desk.win(2)
    later = desk.issue(1, "1.4", "between_matches", by="head")
    services.revoke_penalty(record=later, author=desk.head, reason="ошибка")
    assert contents() != before

    with caplog.at_level(logging.INFO, logger="desk.audit"):
        call_command("restore", str(backup), "--yes")

    assert contents() == before
    assert before["records"] and before["history"] and before["games"]
    # A restore replaces every record: it is on the audit trail.
    assert [r.getMessage() for r in caplog.records if r.name == "desk.audit"][-1] == (
        f"The database was restored from the backup {backup.name}"
    )
    out = capsys.readouterr().out
    assert f"Восстановлено из {backup.name}." in out
    safety = next(backups.glob("desk-before-restore-*"))
    assert f"Прежняя база данных сохранена в {safety}." in out


def test_restore_asks_first_and_a_no_changes_nothing(transactional_db, desk, backups, monkeypatch):
    call_command("backup")
    backup = next(backups.iterdir())
    desk.pair((0, 1), (2, 3))
    asked = []
    monkeypatch.setattr("builtins.input", lambda prompt: asked.append(prompt) or "нет")

    with pytest.raises(CommandError, match=r"Ничего не восстановлено\."):
        call_command("restore", str(backup))

    assert asked == ["Введите «да», чтобы восстановить: "]

    assert Round.objects.count() == 1
    assert list(backups.iterdir()) == [backup]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"hello", "is not"),
        (b"SQLite format 3\x00" + b"\x00" * 200, "cannot be read"),
    ],
)
def test_a_file_that_is_not_a_backup_is_refused_before_anything_changes(
    transactional_db, desk, backups, tmp_path, content, message
):
    desk.pair((0, 1), (2, 3))
    bogus = tmp_path / "bogus.sqlite3"
    bogus.write_bytes(content)
    if connection.vendor != "sqlite" and content.startswith(b"SQLite"):
        message = "is not a pg_dump backup"

    with pytest.raises(CommandError, match=message):
        call_command("restore", str(bogus), "--yes")

    assert Round.objects.count() == 1
    assert not backups.exists() or list(backups.iterdir()) == []


def test_a_missing_file_is_refused(db):
    with pytest.raises(CommandError, match=r"is not a file\."):
        call_command("restore", "/nowhere/backup.sqlite3", "--yes")


def test_the_backup_folder_can_be_another_one(transactional_db, tmp_path, capsys):
    stick = tmp_path / "usb"
    stick.mkdir()

    call_command("backup", "--folder", str(stick))

    [written] = stick.iterdir()
    assert written.name.startswith("desk-")
    assert f"Backup written: {written}" in capsys.readouterr().out
    with pytest.raises(CommandError, match=r"is not a folder\."):
        call_command("backup", "--folder", str(tmp_path / "missing"))


def test_each_published_round_leaves_a_snapshot_and_the_newest_ones_are_kept(tmp_path):
    """The demo publishes four rounds on an SQLite file; two snapshots are kept."""
    data = tmp_path / "data"
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "DATABASE_URL", "PYTEST"))
    }
    env.update(DJANGO_DATA_DIR=str(data), DJANGO_ROUND_SNAPSHOTS="2")
    (data / "backups").mkdir(parents=True)
    (data / "backups" / "desk-by-hand.sqlite3").write_bytes(b"a manual backup stays")

    run = subprocess.run(
        [sys.executable, "manage.py", "demo", "--no-serve"],
        cwd=PROJECT,
        env=env,
        capture_output=True,
        text=True,
    )

    assert run.returncode == 0, run.stderr
    names = sorted(path.name for path in (data / "backups").iterdir())
    assert names[0] == "desk-by-hand.sqlite3"
    assert [name.rsplit("-", 5)[0] for name in names[1:]] == [
        "desk-round-demo-cup-3",
        "desk-round-demo-cup-4",
    ]
    snapshot = sqlite3.connect(data / "backups" / names[2])
    try:
        # The demo's event in progress (its regional, played to the end before it, has 7 rounds).
        assert snapshot.execute(
            "SELECT max(number) FROM tournaments_round JOIN tournaments_tournament"
            " ON tournaments_round.tournament_id = tournaments_tournament.id"
            " WHERE tournaments_tournament.slug = 'demo-cup'"
        ).fetchone() == (4,)
    finally:
        snapshot.close()


def test_restore_takes_a_yes_in_russian(transactional_db, desk, backups, monkeypatch, capsys):
    call_command("backup")
    backup = next(backups.iterdir())
    desk.pair((0, 1), (2, 3))
    monkeypatch.setattr("builtins.input", lambda prompt: "Да")

    call_command("restore", str(backup))

    assert Round.objects.count() == 0
    out = capsys.readouterr().out
    assert "Восстановить " in out and "Всё, что внесено после этой копии, будет заменено." in out
