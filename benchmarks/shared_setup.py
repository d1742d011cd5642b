"""Set-up shared by the benchmarks: Django set up in a process of its own against a throwaway
database, the environment of the processes that serve it, a benchmark's script run again as such
a process, and an event (a tournament, its players, PostgreSQL's statistics) built through the
app's own services.

A benchmark builds its event in a child process because Django reads its settings, and so the
database's address, once per process; the benchmark's own process serves or measures, and asks
the child for what it built as JSON on the child's last line of output.
"""

import datetime
import json
import os
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tournaments.models import Registration, Tournament

# The app's settings with the benchmarks' URLs and without the per-client limits (every client
# of a benchmark is 127.0.0.1).
BENCHMARK_SETTINGS = "benchmarks.hot_path_settings"
ROOT = Path(__file__).resolve().parent.parent


def start_django(database_url: str, settings_module: str = BENCHMARK_SETTINGS) -> None:
    """Set Django up in this process against the database, logging warnings and worse only."""
    # The settings read these variables when they are imported, so they are set before setup.
    os.environ["DATABASE_URL"] = database_url
    os.environ["DJANGO_SETTINGS_MODULE"] = settings_module
    os.environ["DJANGO_LOG_LEVEL"] = "WARNING"
    import django

    django.setup()


def migrate_database() -> None:
    """Create the app's tables (and its shipped rows, such as the deck formats) in the new
    database."""
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)


def benchmark_environment(database_url: str, data_dir: str) -> dict[str, str]:
    """This process's environment for a child that builds, serves or works on the benchmark's
    event: the app server, its task worker, or the script run again to build the event."""
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "DJANGO_SETTINGS_MODULE": BENCHMARK_SETTINGS,
        "DJANGO_DATA_DIR": data_dir,
        "DJANGO_LOG_LEVEL": "WARNING",
        "PYTHONPATH": str(ROOT),
    }


def run_child(
    script: str,
    *arguments: str,
    purpose: str,
    environment: Mapping[str, str] | None = None,
) -> Any:
    """Run a benchmark's script again in a process of its own and return the JSON that its last
    line of output holds. A child that fails ends the benchmark with the end of its error output,
    ``purpose`` saying what it was doing."""
    run = subprocess.run(
        [sys.executable, script, *arguments],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    if run.returncode != 0:
        raise SystemExit(f"{purpose} failed:\n{run.stderr[-3000:]}")
    return json.loads(run.stdout.strip().splitlines()[-1])


def build_event(script: str, database_url: str, data_dir: str, *arguments: str) -> Any:
    """Build a benchmark's event in a process of its own (its script's ``--prepare``, which
    migrates the new database and prints what the benchmark needs as JSON) and return that."""
    return run_child(
        script,
        "--prepare",
        database_url,
        *arguments,
        purpose="building the event",
        environment=benchmark_environment(database_url, data_dir),
    )


def queued_tasks(task_path: str) -> list[dict[str, Any]]:
    """The queue's record of one task's runs, in the order they were queued: each one's status,
    positional arguments, and when the worker started and finished it (``time.time`` seconds, to
    set beside a judge's submits). Django must be started (``start_django``)."""
    from django_tasks_db.models import DBTaskResult

    return [
        {
            "status": task.status,
            "args": task.args_kwargs["args"],
            "started": task.started_at.timestamp() if task.started_at else None,
            "finished": task.finished_at.timestamp() if task.finished_at else None,
        }
        for task in DBTaskResult.objects.filter(task_path=task_path).order_by("enqueued_at")
    ]


def professional_event_today(*, name: str, slug: str) -> "Tournament":
    """A new professional tournament, best of three, dated today, through the app's service.

    The shipped guideline edition is loaded from its file first, so that the infractions the
    benchmark's judges submit are the file's as it stands, not only those the migrations loaded."""
    from judging.editions import load_edition
    from tournaments.services import create_tournament

    load_edition()
    return create_tournament(
        name=name, slug=slug, date=datetime.date.today(), level="professional", best_of=3
    )


def register_new_players(
    *, tournament: "Tournament", people: Iterable[tuple[str, str]]
) -> list["Registration"]:
    """Enter new players, given as (name, membership id), into the registry and register them
    for the tournament, in the order given, through the services the players' file import calls."""
    from players.services import create_players
    from tournaments.services import register_players

    players = create_players(entries=[(name, membership_id, "") for name, membership_id in people])
    return register_players(tournament=tournament, players=players)


def analyse_like_a_database_in_service() -> None:
    """Give PostgreSQL the statistics a database in service has; SQLite is left as it is.

    Autovacuum analyses a table within a minute of a large change, but a benchmark's event is
    built and measured sooner than that. Without statistics the planner takes a table of
    thousands of rows for a handful, and scans or sorts all of it where it would read a few rows
    from an index. SQLite keeps no statistics unless told to, and the desk does not tell it."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        tables = ", ".join(map(connection.ops.quote_name, connection.introspection.table_names()))
        cursor.execute(f"ANALYZE {tables}")
