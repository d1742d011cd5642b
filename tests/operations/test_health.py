"""/healthz: the database answers and every migration is applied."""

import json
from pathlib import Path

from tests.processes import run_python

ASK_HEALTH = """
import django
django.setup()
from django.test import Client
response = Client().get("/healthz", HTTP_HOST="localhost")
print(response.status_code)
print(response.content.decode())
"""


def health_of(tmp_path: Path, **env: str) -> tuple[int, dict]:
    run = run_python(ASK_HEALTH, data_dir=tmp_path, **env)
    status, body = run.stdout.split("\n", 1)
    return int(status), json.loads(body)


def test_a_migrated_database_is_healthy(client, db):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "database": "ok",
        "migrations": "applied",
        "storage": "ok",
    }
    assert "no-store" in response["Cache-Control"]


def test_a_database_that_is_not_migrated_is_not_healthy(tmp_path):
    status, body = health_of(tmp_path)

    assert status == 503
    assert body["status"] == "error"
    assert body["database"] == "ok"
    assert body["migrations"].endswith(" not applied")
    assert int(body["migrations"].split()[0]) > 10


def test_a_database_that_does_not_answer_is_not_healthy(tmp_path):
    status, body = health_of(tmp_path, DATABASE_URL="postgres://nobody:nothing@127.0.0.1:1/nowhere")

    assert (status, body) == (503, {"status": "error", "database": "unreachable: OperationalError"})


def test_the_health_check_is_not_redirected_to_https(client, db, settings):
    settings.SECURE_SSL_REDIRECT = True

    assert client.get("/healthz").status_code == 200
    assert client.get("/login/").status_code == 301


def test_the_health_check_only_answers_reads(client, db):
    assert client.post("/healthz").status_code == 405


def test_a_full_disk_is_not_healthy(client, db, settings):
    settings.DESK_MIN_FREE_BYTES = 10**18  # more than any disk has free

    response = client.get("/healthz")

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error"
    assert body["storage"].startswith("disk full: ")
    assert body["storage"].endswith(" MB free, 1000000000000 MB needed")


def test_a_data_folder_that_cannot_be_written_is_not_healthy(client, db, settings, tmp_path):
    not_a_folder = tmp_path / "data"
    not_a_folder.write_text("a file where the folder should be")
    settings.DATA_DIR = not_a_folder / "inside"

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["storage"] == "data folder unavailable: Not a directory"


def test_a_log_file_on_a_full_disk_falls_back_to_the_console_and_healthz_says_so(
    client, db, tmp_path, capsys
):
    import logging

    from operations.logs import FileOrConsoleHandler

    full = tmp_path / "desk.log"
    full.symlink_to("/dev/full")  # every write fails with "No space left on device"
    handler = FileOrConsoleHandler(str(full), maxBytes=10_000, backupCount=1)
    logger = logging.getLogger("tests.full_disk")
    logger.addHandler(handler)
    # Only this handler is under test: the root's console handler may hold a stream an earlier
    # test's capture has closed, and its own error report is not this handler's.
    logger.propagate = False
    try:
        logger.warning("penalty record 1 issued")
        logger.warning("penalty record 2 issued")

        # The 503's own log line goes through the root's console, which is not under test here.
        logging.getLogger("django.request").disabled = True
        response = client.get("/healthz")
    finally:
        logging.getLogger("django.request").disabled = False
        logger.removeHandler(handler)
        logger.propagate = True
        handler.close()

    assert response.status_code == 503
    assert response.json()["storage"] == "log file not writable: No space left on device"
    said = capsys.readouterr().err
    assert (
        said.count("cannot be written (No space left on device); log lines go to the console") == 1
    )
    assert "Traceback" not in said


def test_a_log_file_that_cannot_be_opened_does_not_stop_the_start(tmp_path):
    blocked = tmp_path / "logs"
    blocked.write_text("a file where the log folder should be")
    run = run_python(
        "import logging, django; django.setup(); logging.getLogger('desk').warning('started')",
        data_dir=tmp_path,
    )

    assert run.returncode == 0, run.stderr
    assert "log lines go to the console only until it can" in run.stderr
    assert "started" in run.stderr
