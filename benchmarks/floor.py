"""The floor's speed target: 500 player-page loads a minute and 20 open clock pages keep the
judges' submit p95 within 1.5x of idle, on the laptop set-up (one uvicorn process, SQLite).

Run it with ``uv run python benchmarks/floor.py`` (``--databases sqlite,postgres`` to add
PostgreSQL; ``BENCH_PG_ADMIN_URL`` as for ``benchmarks/hot_path.py``). For each database it:

1. builds, in a throwaway database, a tournament of 600 players with round 1 in progress
   (300 tables), its clock running and its players' link;
2. serves the app from one uvicorn process (``benchmarks/hot_path.py``'s server);
3. times a floor judge's submits (a first infraction at a table, the commonest, one every
   0.12 s or so, as a judge's pace) with nothing else running: the idle p95;
4. opens 20 clock pages (the projector page and its event stream, as a browser holds them), loads
   players' pages (the pairings, a table's page, the clock fragment) at 500 a minute from four
   clients, changes the clock every few seconds (every clock page re-fetches), and times the
   same number of submits again: the loaded p95 and its ratio to idle (goal 1.5x).
"""

import argparse
import contextlib
import json
import os
import random
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
if not __package__:
    sys.path.insert(0, str(ROOT))

from benchmarks import shared_setup  # noqa: E402
from benchmarks.hot_path import PASSWORD  # noqa: E402
from benchmarks.hot_path_tools import (  # noqa: E402
    Browser,
    Stream,
    Timings,
    database,
    server,
    timed,
)

PLAYERS = int(os.environ.get("BENCH_FLOOR_PLAYERS", "600"))
SUBMITS = 100
WARM_UP = 10
CLOCK_PAGES = 20
PLAYER_LOADS_PER_MINUTE = 500
PLAYER_CLIENTS = 4
CLOCK_CHANGE_SECONDS = 3.0
# A judge submits at a person's pace, and the loaded phase must span several clock changes: at
# full speed a hundred submits take under a second now, and would see one change or none.
SUBMIT_PACE_SECONDS = 0.12
HTMX = {"HX-Request": "true"}


def prepare(database_url: str) -> None:
    """Migrate, build the event, start its clock; print what the client needs as JSON."""
    shared_setup.start_django(database_url)
    from floor import services as floor_services
    from tournaments import services
    from tournaments.models import Match, StaffRole

    shared_setup.migrate_database()
    tournament = shared_setup.professional_event_today(
        name="Floor benchmark", slug=f"floor-{uuid.uuid4().hex[:6]}"
    )
    users = {}
    for role in (StaffRole.HEAD_JUDGE, StaffRole.FLOOR_JUDGE, StaffRole.ORGANISER):
        user = services.create_account(username=f"bench-{role}", password=PASSWORD)
        services.add_staff(tournament=tournament, user=user, role=role)
        users[role] = user.username
    registrations = shared_setup.register_new_players(
        tournament=tournament,
        people=((f"Игрок {n:04d}", f"FB-{n:05d}") for n in range(PLAYERS)),
    )
    pairs = [(registrations[i], registrations[i + 1]) for i in range(0, PLAYERS, 2)]
    services.pair_round(tournament=tournament, pairings=pairs)
    floor_services.start_clock(tournament=tournament)
    token = floor_services.ensure_public_pages(tournament=tournament).token
    judged = list(
        Match.objects.filter(round__tournament=tournament).values_list("player1_id", flat=True)
    )
    print(
        json.dumps(
            {
                "slug": tournament.slug,
                "token": token,
                "tables": len(pairs),
                "players": judged,
                "names": [f"Игрок {n:04d}" for n in range(0, PLAYERS, 7)],
                "floor": users[StaffRole.FLOOR_JUDGE],
                "head": users[StaffRole.HEAD_JUDGE],
            }
        )
    )


def submits(port: int, event: dict, players: list[int]) -> list[float]:
    judge = Browser(port)
    judge.sign_in(event["floor"], PASSWORD)
    samples: list[float] = []
    for index, player in enumerate(players):
        target = samples if index >= WARM_UP else []
        form = {
            "player": str(player),
            "infraction": "1.4",
            "moment": "in_game",
            "client_key": str(uuid.uuid4()),
        }
        timed(
            target,
            lambda form=form: judge.request(  # type: ignore[misc]
                "POST", f"/t/{event['slug']}/judge/issue/", form
            ),
            302,
        )
        time.sleep(SUBMIT_PACE_SECONDS)
    return samples


@contextlib.contextmanager
def floor_load(port: int, event: dict) -> Iterator[dict[str, float]]:
    """20 clock pages with their streams, players' pages at 500 a minute, clock changes."""
    stop = threading.Event()
    errors: list[str] = []
    counts: dict[str, float] = {"player_pages": 0, "clock_refetches": 0, "clock_changes": 0}
    head = Browser(port)
    head.sign_in(event["head"], PASSWORD)
    cookie = "; ".join(f"{k}={v}" for k, v in head.cookies.items())
    projector = f"/t/{event['slug']}/floor/clock/projector/"
    pages = []
    for _ in range(CLOCK_PAGES):
        page = Browser(port)
        page.cookies = dict(head.cookies)
        status, _body = page.request("GET", projector)
        if status != 200:
            raise SystemExit(f"the clock page answered {status}")
        pages.append(page)
    streams = [Stream(port, f"/t/{event['slug']}/events/", cookie) for _ in range(CLOCK_PAGES)]
    for stream in streams:
        if not stream.open.wait(30):
            raise SystemExit("a clock page's stream did not open")

    def players(seed: int) -> None:
        try:
            load_players(seed)
        except BaseException as error:  # a failed load must fail the benchmark, not vanish
            errors.append(repr(error))
            stop.set()

    def load_players(seed: int) -> None:
        phone = Browser(port)
        rng = random.Random(seed)
        interval = 60.0 / (PLAYER_LOADS_PER_MINUTE / PLAYER_CLIENTS)
        token = event["token"]
        next_at = time.monotonic()
        while not stop.is_set():
            kind = rng.random()
            if kind < 0.5:
                path = f"/p/{token}/?{urlencode({'q': rng.choice(event['names'])})}"
            elif kind < 0.85:
                path = f"/p/{token}/tables/{rng.randint(1, event['tables'])}/"
            else:
                path = f"/p/{token}/clock/"
            status, _body = phone.request("GET", path)
            if status != 200:
                raise SystemExit(f"a player's page {path} answered {status}")
            counts["player_pages"] += 1
            next_at += interval
            stop.wait(max(0.0, next_at - time.monotonic()))

    def clock_pages() -> None:
        try:
            change_clock()
        except BaseException as error:
            errors.append(repr(error))
            stop.set()

    def change_clock() -> None:
        # What each open clock page does on a clock change: re-fetch its fragment.
        running = True
        while not stop.wait(CLOCK_CHANGE_SECONDS):
            action = "pause" if running else "resume"
            # Idle keep-alive connections are closed by the server after a few seconds.
            for browser in (head, *pages):
                browser.connection.close()
            status, _body = head.request("POST", f"/t/{event['slug']}/floor/clock/{action}/", {})
            if status != 302:
                raise SystemExit(f"the clock's {action} answered {status}")
            running = not running
            counts["clock_changes"] += 1
            for page in pages:
                page.request("GET", f"{projector}?fragment=projector-clock", None, **HTMX)
                counts["clock_refetches"] += 1

    threads = [
        threading.Thread(target=players, args=(n,), daemon=True) for n in range(PLAYER_CLIENTS)
    ]
    threads.append(threading.Thread(target=clock_pages, daemon=True))
    started = time.monotonic()
    for thread in threads:
        thread.start()
    try:
        yield counts
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
        counts["seconds"] = time.monotonic() - started
        if errors:
            raise SystemExit(f"the players' load failed: {errors[0]}")
        for stream in streams:
            stream.socket.close()


def run(kind: str) -> dict[str, float]:
    with database(kind) as url, tempfile.TemporaryDirectory() as data_dir:
        event = shared_setup.build_event(__file__, url, data_dir)
        players = event["players"]
        half = SUBMITS + WARM_UP
        with server(url, data_dir) as port:
            idle = submits(port, event, players[:half])
            with floor_load(port, event) as counts:
                time.sleep(2.0)  # the load settles
                loaded = submits(port, event, players[half : 2 * half])
        timings = Timings({"idle": idle, "loaded": loaded})
        minutes = counts["seconds"] / 60
        return {
            "idle_p95": timings.p95("idle"),
            "loaded_p95": timings.p95("loaded"),
            "idle_median": timings.median("idle"),
            "loaded_median": timings.median("loaded"),
            "player_pages_per_minute": counts["player_pages"] / minutes,
            "clock_changes": counts["clock_changes"],
            "clock_refetches": counts["clock_refetches"],
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--databases", default="sqlite")
    parser.add_argument("--prepare", metavar="DATABASE_URL", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.prepare:
        prepare(options.prepare)
        return
    for kind in options.databases.split(","):
        r = run(kind)
        ratio = r["loaded_p95"] / r["idle_p95"]
        print(f"\n== {kind}: {PLAYERS} players, {CLOCK_PAGES} clock pages open")
        print(f"submit idle    median {r['idle_median']:6.1f} ms   p95 {r['idle_p95']:6.1f} ms")
        print(f"submit loaded  median {r['loaded_median']:6.1f} ms   p95 {r['loaded_p95']:6.1f} ms")
        print(
            f"players' pages {r['player_pages_per_minute']:.0f}/min, clock changes "
            f"{r['clock_changes']:.0f} ({r['clock_refetches']:.0f} clock-page re-fetches)"
        )
        print(
            f"loaded p95 / idle p95: {ratio:.2f}x (goal 1.5x) {'ok' if ratio <= 1.5 else 'MISSED'}"
        )


if __name__ == "__main__":
    main()
