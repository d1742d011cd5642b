"""Logs: tracebacks with their request id in the data folder's file, sign-in failures, decisions."""

import logging
import re

from django.urls import reverse

from judging import services
from judging.models import Rank
from tests.processes import run_python

FORCE_AN_ERROR = """
import django
django.setup()
from django.test import Client, override_settings
with override_settings(ROOT_URLCONF="tests.operations.failing_urls"):
    response = Client(raise_request_exception=False).get("/boom/", HTTP_HOST="localhost")
print(response.status_code)
print(response["X-Request-ID"])
print(response.content.decode())
"""

FIND_NOTHING = """
import django
django.setup()
from django.test import Client
print(Client().get("/nowhere/", HTTP_HOST="localhost")["X-Request-ID"])
"""


def test_a_forced_error_leaves_its_traceback_and_request_id_in_the_log_file(tmp_path):
    run = run_python(FORCE_AN_ERROR, data_dir=tmp_path, DJANGO_DEBUG="false")

    status, request_id, page = run.stdout.split("\n", 2)
    assert status == "500"
    assert re.fullmatch(r"[0-9a-f]{8}", request_id)
    assert f'<strong id="request-id">{request_id}</strong>' in page
    log = (tmp_path / "logs" / "desk.log").read_text(encoding="utf-8")
    assert f"ERROR [{request_id}] django.request: Internal Server Error: /boom/" in log
    assert "Traceback (most recent call last):" in log
    assert "RuntimeError: forced failure for the log test" in log
    # The console gets the same lines.
    assert f"[{request_id}] django.request: Internal Server Error: /boom/" in run.stderr


def test_a_page_not_found_is_logged_with_its_request_id(tmp_path):
    run = run_python(FIND_NOTHING, data_dir=tmp_path)

    request_id = run.stdout.strip()
    log = (tmp_path / "logs" / "desk.log").read_text(encoding="utf-8")
    assert f"WARNING [{request_id}] django.request: Not Found: /nowhere/" in log


def test_every_response_names_its_request_id(client, db):
    first = client.get(reverse("login"))
    second = client.get(reverse("login"))

    assert re.fullmatch(r"[0-9a-f]{8}", first["X-Request-ID"])
    assert first["X-Request-ID"] != second["X-Request-ID"]


def test_a_failed_sign_in_is_logged_with_the_name_and_address(client, db, caplog):
    with caplog.at_level(logging.INFO, logger="desk.audit"):
        client.post(reverse("login"), {"username": "mallory", "password": "guess"})

    assert [(r.levelname, r.getMessage()) for r in caplog.records if r.name == "desk.audit"] == [
        ("WARNING", "Sign-in failed for 'mallory' from 127.0.0.1")
    ]


def test_every_decision_on_a_penalty_is_logged_once_committed(
    desk, caplog, django_capture_on_commit_callbacks
):
    desk.pair((0, 1), (2, 3))
    with caplog.at_level(logging.INFO, logger="desk.audit"):
        with django_capture_on_commit_callbacks(execute=True):
            record = desk.issue(0, "1.4", by="head")
        with django_capture_on_commit_callbacks(execute=True):
            services.amend_penalty(
                record=record, to_rank=Rank(2), author=desk.head, reason="повтор с прошлого тура"
            )
        with django_capture_on_commit_callbacks(execute=True):
            services.revoke_penalty(record=record, author=desk.head, reason="ошибка")

    tid, head = desk.tournament.pk, desk.head.username
    assert [r.getMessage() for r in caplog.records if r.name == "desk.audit"] == [
        f"Penalty record {record.pk} (tournament {tid}): issued by {head}; "
        "penalty - -> 1, status - -> in_force; reason: ''",
        f"Penalty record {record.pk} (tournament {tid}): amended by {head}; "
        "penalty 1 -> 2, status in_force -> in_force; reason: 'повтор с прошлого тура'",
        f"Penalty record {record.pk} (tournament {tid}): revoked by {head}; "
        "penalty 2 -> 2, status in_force -> revoked; reason: 'ошибка'",
    ]


def test_a_rolled_back_decision_is_not_logged(desk, caplog):
    desk.pair((0, 1), (2, 3))
    with caplog.at_level(logging.INFO, logger="desk.audit"):
        desk.issue(0, "1.4", by="head")  # the test's transaction never commits

    assert [r for r in caplog.records if r.name == "desk.audit"] == []


def test_a_refused_host_is_one_line_in_the_log_without_a_traceback(tmp_path):
    run = run_python(FIND_NOTHING.replace("localhost", "wrong.example"), data_dir=tmp_path)

    request_id = run.stdout.strip()
    log = (tmp_path / "logs" / "desk.log").read_text(encoding="utf-8")
    assert f"ERROR [{request_id}] django.security.DisallowedHost: Invalid HTTP_HOST header: " in log
    assert "Traceback" not in log


def test_a_refused_host_gets_a_page_that_says_what_to_do(client, db):
    response = client.get("/", HTTP_HOST="desk.evil<b>")

    page = response.content.decode()
    assert response.status_code == 400
    assert "Этот адрес не разрешён" in page
    assert "desk.evil&lt;b&gt;" in page
    assert "DJANGO_ALLOWED_HOSTS" in page
    assert f'<strong id="request-id">{response["X-Request-ID"]}</strong>' in page


def test_each_line_carries_an_iso_time_with_the_events_offset(tmp_path):
    run = run_python(FIND_NOTHING, data_dir=tmp_path, DJANGO_TIME_ZONE="Asia/Yekaterinburg")

    request_id = run.stdout.strip()
    line = next(
        line
        for line in (tmp_path / "logs" / "desk.log").read_text(encoding="utf-8").splitlines()
        if f"[{request_id}]" in line
    )
    # Yekaterinburg is UTC+5 all year: the offset says which moment the local time means.
    assert re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+05:00 WARNING ", line), line


DEMO_IN_A_TERMINAL = """
import django
django.setup()
from django.core.management import call_command
call_command("demo", "--no-serve")
"""


def test_the_demo_prints_its_logins_first_and_keeps_its_set_up_lines_in_the_log_file(tmp_path):
    run = run_python(DEMO_IN_A_TERMINAL, data_dir=tmp_path)

    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("Demo tournament: ")
    assert "berserk-demo" in run.stdout.splitlines()[1]
    # Nothing of the set-up reaches the terminal; the log file still has every decision.
    assert run.stderr == ""
    log = (tmp_path / "logs" / "desk.log").read_text(encoding="utf-8")
    assert "desk.audit: Penalty record 1 " in log
    assert "axes.apps" not in log
