"""The audit trail lives in a file of its own that request noise cannot rotate away; a 404 for a
long or repeated path is one short line."""

import logging

from django.contrib.auth.models import User
from django.urls import reverse

from operations.logs import QuietNotFound
from tests.processes import run_python

FLOOD = """
import logging, django
django.setup()
from django.test import Client
logging.getLogger("desk.audit").info("Penalty record 7 (tournament 1): issued by anna")
client = Client()
for n in range(400):
    client.get("/" + "x" * 3000 + f"/{n}", HTTP_HOST="localhost")
    client.get("/same-old-bookmark/", HTTP_HOST="localhost")
"""


def test_a_flood_of_long_404s_leaves_the_audit_file_whole_and_is_logged_short_once(tmp_path):
    run = run_python(FLOOD, data_dir=tmp_path)
    assert run.returncode == 0, run.stderr

    logs = tmp_path / "logs"
    audit = (logs / "audit.log").read_text(encoding="utf-8")
    assert "desk.audit: Penalty record 7 (tournament 1): issued by anna" in audit
    assert "Not Found" not in audit
    desk = (logs / "desk.log").read_text(encoding="utf-8")
    assert desk.count("Not Found: /same-old-bookmark/") == 1
    long_lines = [line for line in desk.splitlines() if "Not Found: /xxx" in line]
    # Each long path differs only past the cut: one line, 120 characters of it and its length.
    assert len(long_lines) == 1
    assert long_lines[0].endswith("Not Found: /" + "x" * 119 + "… (3003 characters)")


def _not_found(path: str) -> logging.LogRecord:
    class Request:
        pass

    request = Request()
    request.path = path  # type: ignore[attr-defined]
    record = logging.makeLogRecord(
        {"msg": "%s: %s", "args": ("Not Found", path), "status_code": 404, "request": request}
    )
    return record


def test_a_404_path_is_logged_again_once_forgotten():
    quiet = QuietNotFound()
    quiet.REMEMBERED = 2  # type: ignore[misc]

    outcomes = [quiet.filter(_not_found(path)) for path in ("/a/", "/a/", "/b/", "/c/", "/a/")]

    assert outcomes == [True, False, True, True, True]


def test_a_sign_in_reaches_the_audit_trail_with_its_address(client, db, caplog):
    User.objects.create_user("anna", password="desk-pass-123")
    with caplog.at_level(logging.INFO, logger="desk.audit"):
        client.post(
            reverse("login"),
            {"username": "anna", "password": "desk-pass-123"},
            REMOTE_ADDR="10.0.0.7",
        )

    assert [r.getMessage() for r in caplog.records if r.name == "desk.audit"] == [
        "Signed in: 'anna' from 10.0.0.7"
    ]


def test_a_result_correction_reaches_the_audit_trail_once_committed(
    desk, caplog, django_capture_on_commit_callbacks
):
    from tournaments import services

    desk.pair((0, 1), (2, 3))
    match = desk.match_of(0)
    services.enter_result(match=match, player1_wins=2, player2_wins=0)
    with (
        caplog.at_level(logging.INFO, logger="desk.audit"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        services.correct_result(
            match=match,
            player1_wins=0,
            player2_wins=2,
            draws=0,
            reason="перепутали игроков",
            corrected_by=desk.head,
        )

    audit = [r.getMessage() for r in caplog.records if r.name == "desk.audit"]
    assert audit == [
        f"Result of match {match.pk} corrected by {desk.head.username}: 2-0-0 -> 0-2-0; "
        "reason: 'перепутали игроков'"
    ]
