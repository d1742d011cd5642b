"""Settings come from the environment and fail loudly when a value is wrong."""

import ast

import pytest

from tests.processes import START_DJANGO, run_python


def start(**env):
    return run_python(START_DJANGO, **env)


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DJANGO_DEBUG": "maybe"}, "DJANGO_DEBUG must be true or false"),
        ({"DATABASE_URL": "mysql://x@y/z"}, "DATABASE_URL must point at SQLite or PostgreSQL"),
        ({"DATABASE_URL": "nonsense"}, "DATABASE_URL is not a valid database URL"),
    ],
)
def test_a_wrong_setting_stops_the_start(env, message):
    run = start(**env)

    assert run.returncode != 0
    assert message in run.stderr


def test_production_settings_start_with_a_key_and_hosts():
    run = start(
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY="x" * 50,
        DJANGO_ALLOWED_HOSTS="desk.local, 192.168.0.10",
        DATABASE_URL="postgres://u:p@localhost/desk",
    )

    assert run.returncode == 0, run.stderr


def database_options(url):
    run = run_python(
        f"{START_DJANGO}; from django.conf import settings; "
        "print(repr(settings.DATABASES['default']['OPTIONS']))",
        DATABASE_URL=url,
    )
    assert run.returncode == 0, run.stderr
    return ast.literal_eval(run.stdout)


def test_sqlite_queues_writers_instead_of_failing_them(tmp_path):
    options = database_options(f"sqlite:///{tmp_path}/desk.sqlite3")

    assert options == {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "pool": {"max_idle": 8},
    }


def test_postgresql_keeps_a_pool_of_connections():
    options = database_options("postgres://u:p@localhost/desk")

    assert options == {
        "pool": {"min_size": 2, "max_size": 20, "timeout": 20},
        "server_side_binding": True,
        "prepare_threshold": 5,
    }
