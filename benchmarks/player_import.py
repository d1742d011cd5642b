"""Benchmark of the players' CSV import (``tournaments.player_import``) at 300 and 3,000 rows.

Run it with ``uv run python benchmarks/player_import.py`` (``--databases sqlite`` to skip
PostgreSQL; ``BENCH_PG_ADMIN_URL`` names a role that may create databases, by default the local
cluster's ``judging`` role that ``.ci/run`` sets up). For each database, in a throwaway database
and a child process of its own, it makes a tournament and a registry in which a tenth of the
file's players are known already, then imports a file of 300 rows and one of 3,000 rows into it
through the same function the players page calls, several times each (each run into a fresh
tournament), and prints the median beside a floor from the same run: the time to read the same
file's rows with nothing written. The issue's goal is 3,000 rows in under 5 s.

Then it serves the app (one uvicorn process, as ``serve``) with the task worker beside it, as
``serve`` starts it, signs a floor judge in over HTTP, and times the judge's submits idle and while
the worker imports 3,000-row files as the players page queues them (in short steps), one after
another (``--queued-runs``, 3 by default, the submits of all pooled), printing both 95th
percentiles and how long a queued import took.
"""

import argparse
import datetime
import json
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if not __package__:
    sys.path.insert(0, str(ROOT))


from benchmarks import shared_setup  # noqa: E402
from benchmarks.hot_path_tools import Browser, database, follow_progress, server  # noqa: E402
from benchmarks.judge_load import (  # noqa: E402
    SUBMITS_IDLE,
    JudgeBeside,
    Samples,
    submits,
    task_worker,
)

PASSWORD = "bench-import-pass"

SIZES = (300, 3000)
RUNS = 3
GOAL_SECONDS = 5.0


def csv_file(rows: int, offset: int) -> bytes:
    lines = ["Имя;Членский номер;Город"]
    lines += [f"Игрок {offset + n:05d};BI-{offset + n:06d};Москва" for n in range(rows)]
    return "\n".join(lines).encode("utf-8")


def child(database_url: str) -> dict[str, dict[str, float]]:
    # The app's own settings: the import is timed in this process, as the players page runs it.
    shared_setup.start_django(database_url, "config.settings")
    from players.services import create_players
    from tournaments.models import Level
    from tournaments.player_import import import_players, read_upload
    from tournaments.services import create_tournament

    shared_setup.migrate_database()
    figures: dict[str, dict[str, float]] = {}
    offset = 0
    for size in SIZES:
        floor, spent = [], []
        for run in range(RUNS):
            content = csv_file(size, offset)
            # A tenth of the file is already in the registry, as at a club's second event.
            create_players(
                entries=[
                    (f"Игрок {offset + n:05d}", f"BI-{offset + n:06d}", "Москва")
                    for n in range(0, size, 10)
                ]
            )
            tournament = create_tournament(
                name=f"Импорт {size} {run}",
                slug=f"import-{size}-{run}",
                date=datetime.date(2026, 12, 12),
                level=Level.AMATEUR,
            )
            started = time.perf_counter()
            read_upload(content)
            floor.append(time.perf_counter() - started)
            started = time.perf_counter()
            report = import_players(tournament=tournament, content=content)
            spent.append(time.perf_counter() - started)
            if report.imported != size:
                raise SystemExit(f"import refused: {report.errors[:3]}")
            offset += size
        figures[str(size)] = {
            "median_s": statistics.median(spent),
            "floor_s": statistics.median(floor),
        }
    return figures


# One player of each match is a judge's submit: 1,000 of them, for the idle ones and those during
# the queued imports.
EVENT_PLAYERS = 2000


def prepare_event(database_url: str) -> dict[str, object]:
    """A running tournament of 2,000 players in round 1 and a floor judge, for the submits."""
    shared_setup.start_django(database_url)
    from django.contrib.auth import get_user_model

    from tournaments import services
    from tournaments.models import Level, StaffRole
    from tournaments.permissions import make_organiser

    shared_setup.migrate_database()
    tournament = services.create_tournament(
        name="Импорт и судьи",
        slug="import-judges",
        date=datetime.date(2026, 12, 12),
        level=Level.AMATEUR,
    )
    registrations = shared_setup.register_new_players(
        tournament=tournament,
        people=((f"Судимый {n:04d}", f"BS-{n:05d}") for n in range(EVENT_PLAYERS)),
    )
    services.pair_round(
        tournament=tournament,
        pairings=[(registrations[i], registrations[i + 1]) for i in range(0, EVENT_PLAYERS, 2)],
    )
    for username, role in (
        ("bench-floor", StaffRole.FLOOR_JUDGE),
        ("bench-org", StaffRole.ORGANISER),
    ):
        services.add_staff_member(
            tournament=tournament,
            username=username,
            role=role,
            full_name=username,
            password=PASSWORD,
        )
    # The players page's import is for the operator's organisers, as `createorganiser` makes them.
    make_organiser(get_user_model().objects.get(username="bench-org"))
    # One player of each match: a first infraction at a table, the commonest submit.
    return {
        "slug": tournament.slug,
        "tournament_id": tournament.pk,
        "players": [r.pk for r in registrations[::2]],
    }


def upload(browser: Browser, path: str, content: bytes) -> tuple[int, str]:
    """POST a file as the players page's form does (multipart), with the browser's cookies."""
    boundary = uuid.uuid4().hex
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
            f'filename="players.csv"\r\nContent-Type: text/csv\r\n\r\n'
        ).encode()
        + content
        + f"\r\n--{boundary}--\r\n".encode()
    )
    headers = {
        "Host": f"127.0.0.1:{browser.port}",
        "Cookie": "; ".join(f"{k}={v}" for k, v in browser.cookies.items()),
        "Content-Type": f"multipart/form-data; boundary={boundary}",
        "X-CSRFToken": browser.cookies.get("csrftoken", ""),
        "Referer": f"http://127.0.0.1:{browser.port}{path}",
    }
    browser.connection.request("POST", path, body=body, headers=headers)
    response = browser.connection.getresponse()
    response.read()
    return response.status, response.getheader("Location") or ""


def submits_during_import(kind: str, runs: int) -> dict[str, float]:
    """The judge's submits idle, then during ``runs`` queued imports one after another (each of
    3,000 new rows into the running tournament), pooled: a single import lasts a few seconds,
    too few submits for a steady 95th percentile. A submit counts as during an import when it
    started while the worker ran the import's task, as the task queue records it."""
    with database(kind) as url, tempfile.TemporaryDirectory() as data_dir:
        event = shared_setup.run_child(__file__, "--event", url, purpose="building the event")
        with server(url, data_dir) as port, task_worker(url, data_dir):
            players = event["players"]
            idle = submits(
                port,
                event["slug"],
                players[:SUBMITS_IDLE],
                None,
                username="bench-floor",
                password=PASSWORD,
            )
            organiser = Browser(port)
            organiser.sign_in("bench-org", PASSWORD)
            left = players[SUBMITS_IDLE:]
            judges = []
            for run in range(runs):
                judge = JudgeBeside(
                    port, event["slug"], left, username="bench-floor", password=PASSWORD
                )
                with judge:
                    queued_import(organiser, event["slug"], 500_000 + run * 3000)
                left = left[len(judge.samples) :]
                judges.append(judge.samples)
        tasks = shared_setup.run_child(__file__, "--tasks", url, purpose="reading the queue")
    if len(tasks) != runs or any(task["status"] != "SUCCESSFUL" for task in tasks):
        raise SystemExit(f"expected {runs} finished import tasks: {tasks}")
    busy = Samples()
    for samples, task in zip(judges, tasks, strict=True):
        during = samples.between(task["started"], task["finished"])
        if not during.seconds:
            raise SystemExit("no submit during an import: the event's players ran out")
        busy.started += during.started
        busy.seconds += during.seconds
    walls = [task["finished"] - task["started"] for task in tasks]
    return {
        "idle_p95_ms": idle.p95(),
        "busy_p95_ms": busy.p95(),
        "busy_submits": len(busy),
        "queued_import_s": statistics.median(walls),
        "queued_import_max_s": max(walls),
    }


# How often the players page asks for the import's progress (its ``hx-trigger="every 1s"``).
PROGRESS_POLL_SECONDS = 1.0


def queued_import(organiser: Browser, slug: str, offset: int) -> None:
    """Queue a 3,000-row import from the players page and follow its progress as the page does,
    until it says done."""
    status, location = upload(organiser, f"/t/{slug}/players/import/", csv_file(3000, offset))
    if status != 302 or "?job=" not in location:
        raise SystemExit(f"the import was not queued: HTTP {status}")
    job = location.rsplit("=", 1)[1]
    body = follow_progress(
        organiser, f"/t/{slug}/jobs/{job}/", still_running=b"hx-get", every=PROGRESS_POLL_SECONDS
    )
    if b'class="error"' in body:
        raise SystemExit("the queued import failed")


def import_tasks(database_url: str) -> list[dict[str, object]]:
    """The queue's record of the import tasks, in the order they were queued: when the worker
    started and finished each."""
    shared_setup.start_django(database_url)
    return shared_setup.queued_tasks("tournaments.tasks.run_job")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument(
        "--queued-runs",
        type=int,
        default=3,
        help="queued imports during which the judge's submits are timed (pooled)",
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--event", help=argparse.SUPPRESS)
    parser.add_argument("--tasks", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.child:
        print(json.dumps(child(arguments.child)))
        return
    if arguments.event:
        print(json.dumps(prepare_event(arguments.event)))
        return
    if arguments.tasks:
        print(json.dumps(import_tasks(arguments.tasks)))
        return
    failed = False
    for kind in arguments.databases.split(","):
        with database(kind) as url:
            figures = shared_setup.run_child(__file__, "--child", url, purpose="timing the imports")
        for size, figure in figures.items():
            verdict = "met" if int(size) < 3000 or figure["median_s"] < GOAL_SECONDS else "MISSED"
            print(
                f"{kind:<10} {int(size):>5} rows: {figure['median_s'] * 1000:8.0f} ms "
                f"(reading the file alone: {figure['floor_s'] * 1000:6.0f} ms) {verdict}"
            )
            failed |= verdict == "MISSED"
        during = submits_during_import(kind, arguments.queued_runs)
        print(
            f"{kind:<10} submit p95 while a queued 3,000-row import runs: "
            f"{during['busy_p95_ms']:.1f} ms against {during['idle_p95_ms']:.1f} ms idle "
            f"({during['busy_p95_ms'] / during['idle_p95_ms']:.2f}x, {during['busy_submits']:.0f} "
            f"submits during {arguments.queued_runs} imports); the worker's import took "
            f"{during['queued_import_s']:.1f} s (median; the longest "
            f"{during['queued_import_max_s']:.1f} s)"
        )
    if failed:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
