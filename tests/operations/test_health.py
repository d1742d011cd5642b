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
    assert response.json() == {"status": "ok", "database": "ok", "migrations": "applied"}
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
