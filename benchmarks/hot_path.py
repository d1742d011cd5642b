"""The judges' hot path against a hello-world floor, on SQLite and on PostgreSQL.

Run it with ``uv run python benchmarks/hot_path.py`` (``--databases sqlite`` to skip PostgreSQL;
``BENCH_PG_ADMIN_URL`` names a role that may create databases, by default the ``judging`` role of
the local cluster that ``.ci/run`` sets up). For each database it:

1. builds, in a throwaway database, a tournament of 2,000 players, 14 finished rounds and about
   20,000 penalty records (``benchmarks/report.py``'s builder), then publishes round 15 through
   the service and times it; the players the judges penalise start with a clean record (the
   builder's records skip stacking, which their next penalty would otherwise set off all at once);
2. serves the app from one uvicorn process (``benchmarks/hot_path_app.py``) beside a Django
   hello-world view and, on PostgreSQL, a bare server-sent-event endpoint;
3. signs a floor judge in over HTTP (real session, real CSRF) and interleaves hello-world, preview
   and submit requests on keep-alive connections, printing the median and 95th percentile of each
   and their ratios to hello-world;
4. measures submit again while another client downloads the penalties XLSX export over and over;
5. on PostgreSQL, opens 100 app event streams and 100 bare ones, sends the app's NOTIFY and times
   commit → arrival on each.
"""

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if not __package__:
    sys.path.insert(0, str(ROOT))

from benchmarks import shared_setup  # noqa: E402
from benchmarks.hot_path_tools import Browser, Stream, Timings, database, server, timed  # noqa: E402

# BENCH_PLAYERS makes a smaller event, to try the script out quickly; the figures are at 2,000.
PLAYERS = int(os.environ.get("BENCH_PLAYERS", "2000"))
ROUNDS, RECORDS = 14, PLAYERS * 10
# The players the judges penalise start with a clean record (below); the builder makes a few more
# records so that the event still holds about 20,000.
BUILT_RECORDS = RECORDS * 13 // 10
JUDGED = 600
PASSWORD = "bench-pass-2000"
ROUNDS_OF_REQUESTS = 150
WARM_UP = 15
STREAMS = 100
CHANGES = 20


# --- Preparing the event (a child process: settings are read once per process) ---------------


def prepare(database_url: str) -> None:
    """Migrate, build the event, publish its next round; print what the client needs as JSON."""
    shared_setup.start_django(database_url)
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from benchmarks.report import build
    from judging.models import PenaltyChange, PenaltyRecord, RecordStatus
    from tournaments import services
    from tournaments.models import (
        Match,
        Registration,
        RegistrationStatus,
        Tournament,
        TournamentStatus,
    )

    shared_setup.migrate_database()
    slug = "hot-path"
    tournament_id = build(players=PLAYERS, rounds=ROUNDS, records=BUILT_RECORDS, seed=15, slug=slug)
    Tournament.objects.filter(pk=tournament_id).update(
        status=TournamentStatus.RUNNING, rounds_planned=ROUNDS + 1
    )
    tournament = Tournament.objects.get(pk=tournament_id)
    playing = list(
        Registration.objects.filter(tournament=tournament, status=RegistrationStatus.PLAYING)
    )
    random.Random(15).shuffle(playing)  # The matches, and so the list of players, in any order.
    pairings = [
        (playing[i], playing[i + 1] if i + 1 < len(playing) else None)
        for i in range(0, len(playing), 2)
    ]
    # The builder leaves one loss in ten unserved across 14 rounds, where a real event served
    # them round by round: they are set aside (revoked), so that publishing measures the round
    # itself (each loss still waiting adds its own serving, and the stacking at the match end it
    # causes).
    PenaltyRecord.objects.filter(tournament=tournament).pending_losses().update(
        status=RecordStatus.REVOKED
    )
    # Without statistics PostgreSQL's planner takes the event's 2,000 registrations for a
    # handful and scans them all to lock two, where an event in service by its fifteenth round
    # has had them for long.
    shared_setup.analyse_like_a_database_in_service()
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        services.pair_round(tournament=tournament, pairings=pairings)
        publish_seconds = time.perf_counter() - started
    # Losses waiting from earlier rounds were served as the round began: some matches have
    # already ended. The judges penalise players whose match goes on.
    # One player of each such match, so that no penalty ends the match of a player used later.
    in_play = list(
        Match.objects.filter(round__tournament=tournament, ended_at__isnull=True).values_list(
            "player1_id", flat=True
        )
    )
    # The builder's records ignore stacking, so a player's next penalty would set off every
    # stacking the builder skipped. The players the judges penalise start clean instead: the
    # benchmark measures a first infraction at a table, the commonest submit.
    judged = in_play[:JUDGED]
    PenaltyChange.objects.filter(record__registration_id__in=judged).delete()
    PenaltyRecord.objects.filter(registration_id__in=judged).delete()
    records = PenaltyRecord.objects.filter(tournament=tournament).count()
    users = {}
    for role in ("floor_judge-0", "head_judge-0"):
        user = get_user_model().objects.get(username=f"{slug}-{role}")
        user.set_password(PASSWORD)
        user.save()
        users[role] = user.username
    print(
        json.dumps(
            {
                "slug": slug,
                "tournament_id": tournament_id,
                "players": judged,
                "records": records,
                "floor": users["floor_judge-0"],
                "head": users["head_judge-0"],
                "publish_seconds": publish_seconds,
                "publish_queries": len(queries),
            }
        )
    )


# --- HTTP as a tablet speaks it ---------------------------------------------------------------


def hot_path(port: int, event: dict, rounds: int) -> Timings:
    slug = event["slug"]
    judge = Browser(port)
    judge.sign_in(event["floor"], PASSWORD)
    hello = Browser(port)
    # Each player once, from the front of the list; the export phase takes them from the back.
    players = iter(event["players"])
    samples: dict[str, list[float]] = {"hello": [], "preview": [], "submit": []}
    for index in range(rounds + WARM_UP):
        keep = index >= WARM_UP
        player = str(next(players))
        form = {"player": player, "infraction": "1.4", "moment": "in_game"}
        for name in random.Random(index).sample(list(samples), 3):
            target = samples[name] if keep else []
            if name == "hello":
                timed(target, lambda: hello.request("GET", "/bench/hello/"), 200)
            elif name == "preview":
                timed(
                    target,
                    lambda form=form: judge.request(  # type: ignore[misc]
                        "POST",
                        f"/t/{slug}/judge/preview/",
                        {**form, "client_key": str(uuid.uuid4())},
                        **{"HX-Request": "true"},
                    ),
                    200,
                )
            else:
                timed(
                    target,
                    lambda form=form: judge.request(  # type: ignore[misc]
                        "POST",
                        f"/t/{slug}/judge/issue/",
                        {**form, "client_key": str(uuid.uuid4())},
                    ),
                    302,
                )
    return Timings(samples)


def submits_during_export(port: int, event: dict, rounds: int) -> tuple[Timings, int]:
    """Submit while another client downloads the XLSX export again and again."""
    slug = event["slug"]
    stop = threading.Event()
    exports = []

    def export() -> None:
        organiser = Browser(port)
        organiser.sign_in(event["head"], PASSWORD)
        while not stop.is_set():
            status, body = organiser.request("GET", f"/t/{slug}/report/penalties.xlsx")
            if status != 200 or not body.startswith(b"PK"):
                raise SystemExit(f"export failed: HTTP {status}")
            exports.append(len(body))

    exporter = threading.Thread(target=export, daemon=True)
    exporter.start()
    time.sleep(0.5)
    judge = Browser(port)
    judge.sign_in(event["floor"], PASSWORD)
    players = iter(reversed(event["players"]))
    samples: list[float] = []
    for _ in range(rounds):
        form = {
            "player": str(next(players)),
            "infraction": "1.1",
            "moment": "in_game",
            "client_key": str(uuid.uuid4()),
        }
        timed(
            samples,
            lambda form=form: judge.request("POST", f"/t/{slug}/judge/issue/", form),  # type: ignore[misc]
            302,
        )
        time.sleep(0.01)
    stop.set()
    exporter.join(timeout=120)
    return Timings({"submit": samples}), len(exports)


# --- Live updates: the app's streams against bare ones fed by the same NOTIFY ----------------


def live(port: int, event: dict, database_url: str) -> tuple[list[float], list[float]]:
    import psycopg

    head = Browser(port)
    head.sign_in(event["head"], PASSWORD)
    cookie = "; ".join(f"{k}={v}" for k, v in head.cookies.items())
    app_streams = [Stream(port, f"/t/{event['slug']}/events/", cookie) for _ in range(STREAMS)]
    bare_streams = [Stream(port, "/bench/bare-events/", "") for _ in range(STREAMS)]
    for stream in app_streams + bare_streams:
        if not stream.open.wait(30):
            raise SystemExit("a stream did not open")
    time.sleep(1.0)  # Both LISTEN connections up.
    app_latencies: list[float] = []
    bare_latencies: list[float] = []
    with psycopg.connect(database_url, autocommit=True) as connection:
        for version in range(10_000, 10_000 + CHANGES):
            before = [len(s.arrivals) for s in app_streams + bare_streams]
            connection.execute(
                "SELECT pg_notify('judging_desk', %s)", [f"{event['tournament_id']}:{version}"]
            )
            committed = time.perf_counter()
            deadline = time.monotonic() + 5
            streams = app_streams + bare_streams
            while any(len(s.arrivals) <= b for s, b in zip(streams, before, strict=True)):
                if time.monotonic() > deadline:
                    got = [len(s.arrivals) > b for s, b in zip(streams, before, strict=True)]
                    raise SystemExit(
                        f"change {version}: in 5 s the event reached {sum(got[:STREAMS])} app "
                        f"streams and {sum(got[STREAMS:])} bare ones of {STREAMS} each"
                    )
                time.sleep(0.0005)
            for stream, count in zip(app_streams, before, strict=False):
                app_latencies.append(stream.arrivals[count] - committed)
            for stream, count in zip(bare_streams, before[STREAMS:], strict=True):
                bare_latencies.append(stream.arrivals[count] - committed)
            time.sleep(0.1)
    for stream in app_streams + bare_streams:
        stream.socket.close()
    return app_latencies, bare_latencies


# --- Orchestration ----------------------------------------------------------------------------


def run(kind: str, rounds: int) -> dict[str, float]:
    with database(kind) as url, tempfile.TemporaryDirectory() as data_dir:
        started = time.perf_counter()
        event = shared_setup.build_event(__file__, url, data_dir)
        print(f"[{kind}] event built in {time.perf_counter() - started:.0f} s", flush=True)
        result = {
            "publish_seconds": event["publish_seconds"],
            "publish_queries": event["publish_queries"],
            "records": event["records"],
        }
        with server(url, data_dir) as port:
            result["load_before"] = os.getloadavg()[0]
            timings = hot_path(port, event, rounds)
            for name in ("hello", "preview", "submit"):
                result[f"{name}_median"] = timings.median(name)
                result[f"{name}_p95"] = timings.p95(name)
            busy, exports = submits_during_export(port, event, rounds // 2)
            idle = Timings({"submit": timings.samples["submit"]})
            result["submit_p95_idle"] = idle.p95("submit")
            result["submit_p95_export"] = busy.p95("submit")
            result["submit_median_export"] = busy.median("submit")
            result["exports"] = exports
            if kind == "postgres":
                app, bare = live(port, event, url)
                result["live_median"] = statistics.median(app) * 1000
                result["live_p95"] = sorted(app)[int(len(app) * 0.95) - 1] * 1000
                result["bare_median"] = statistics.median(bare) * 1000
                result["bare_p95"] = sorted(bare)[int(len(bare) * 0.95) - 1] * 1000
            result["load_after"] = os.getloadavg()[0]
        return result


def _verdict(ratio: float, goal: float) -> str:
    return "met" if ratio <= goal else "not met"


def report(kind: str, r: dict[str, float]) -> None:
    print(
        f"\n== {kind}: {PLAYERS} players, {r['records']:.0f} records, "
        f"round {ROUNDS + 1} in progress"
    )
    print(
        f"machine load (1-minute average, {os.cpu_count()} cores): "
        f"{r['load_before']:.1f} before, {r['load_after']:.1f} after"
    )
    print(
        f"publish a {PLAYERS}-player round: {r['publish_seconds'] * 1000:.0f} ms, "
        f"{r['publish_queries']:.0f} queries"
    )
    for name in ("hello", "preview", "submit"):
        print(f"{name:<8} median {r[f'{name}_median']:6.1f} ms   p95 {r[f'{name}_p95']:6.1f} ms")
    submit, preview = (r[f"{name}_median"] / r["hello_median"] for name in ("submit", "preview"))
    # Two decimals: a ratio printed as 2.0x may be 2.04x, which misses a goal of 2x.
    print(
        # Issue 29's goal for the submit on plain Django (issue 12's was 3x, with the prepared
        # queries and inserts since taken out); the preview's is issue 12's.
        f"ratios to hello-world (median): submit {submit:.2f}x (goal 5x, {_verdict(submit, 5)}), "
        f"preview {preview:.2f}x (goal 2x, {_verdict(preview, 2)})"
    )
    print(
        f"submit p95 while XLSX exports run ({r['exports']:.0f} built): "
        f"{r['submit_p95_export']:.1f} ms against {r['submit_p95_idle']:.1f} ms idle "
        f"({r['submit_p95_export'] / r['submit_p95_idle']:.2f}x, goal 2x)"
    )
    if "live_median" in r:
        print(
            f"live, commit to {STREAMS} streams: app median {r['live_median']:.1f} ms "
            f"(p95 {r['live_p95']:.1f}), bare SSE median {r['bare_median']:.1f} ms "
            f"(p95 {r['bare_p95']:.1f}): {r['live_median'] / r['bare_median']:.2f}x (goal 2x)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--databases", default="sqlite,postgres")
    parser.add_argument("--rounds", type=int, default=ROUNDS_OF_REQUESTS)
    parser.add_argument("--prepare", metavar="DATABASE_URL", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.prepare:
        prepare(options.prepare)
        return
    results = {kind: run(kind, options.rounds) for kind in options.databases.split(",")}
    for kind, result in results.items():
        report(kind, result)


if __name__ == "__main__":
    main()
