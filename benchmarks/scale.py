"""Every staff screen at 32 and at 10,000 players: the time of each, and the ratio (goal 1.5x).

Run it with ``uv run python benchmarks/scale.py`` (SQLite; ``--database-url postgres://...``
for a PostgreSQL database that may be emptied; ``--players 32,10000`` to change the sizes). For
each size it builds, in a throwaway database, an event with round 1 published, a penalty for a
tenth of the players and one ended match in twenty, then asks each screen through Django's test
client as its user would (signed in), 15 times after 3 to warm up, and prints the medians.
"""

import argparse
import os
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

REPEATS = 15
WARM_UP = 3

# (name, user, URL name, URL arguments after the slug, query, HTMX)
SCREENS: list[tuple[str, str, str, tuple[object, ...], dict[str, str], bool]] = [
    ("judge home", "floor", "judging:judge-home", (), {}, False),
    ("judge home, page 2", "floor", "judging:judge-home", (), {"after": "{page_1_last}"}, False),
    ("judge search by name", "floor", "judging:judge-home", (), {"q": "Игрок 0001"}, False),
    ("judge search by table", "floor", "judging:judge-home", (), {"q": "7"}, False),
    ("log page", "floor", "judging:log", (), {"player": "{player}"}, False),
    ("my penalties", "floor", "judging:mine", (), {}, False),
    ("console", "head", "judging:console", (), {}, False),
    ("console live re-fetch", "head", "judging:console", (), {"fragment": "penalty-log"}, True),
    ("report page", "organiser", "judging:report", (), {}, False),
    ("tournament", "organiser", "tournaments:detail", (), {}, False),
    ("players", "organiser", "tournaments:registrations", (), {}, False),
    ("rounds", "organiser", "tournaments:rounds", (), {}, False),
    ("pairings by table", "organiser", "tournaments:round", (1,), {}, False),
    ("pairings by name", "organiser", "tournaments:round", (1,), {"order": "name"}, False),
    ("standings", "organiser", "tournaments:standings", (), {}, False),
    ("floor", "head", "floor:home", (), {}, False),
    ("players' link", "organiser", "floor:players-link", (), {}, False),
]


def build(players: int) -> dict[str, object]:
    from django.db.models import F
    from django.utils import timezone

    from floor import services as floor_services
    from judging import services as judging_services
    from judging.selectors import players_at_glance
    from tournaments import services
    from tournaments.models import Match, MatchEnd, StaffRole

    tournament = shared_setup.professional_event_today(
        name=f"Scale {players}", slug=f"scale-{players}-{uuid.uuid4().hex[:4]}"
    )
    users = {}
    for role, key in (
        (StaffRole.ORGANISER, "organiser"),
        (StaffRole.HEAD_JUDGE, "head"),
        (StaffRole.FLOOR_JUDGE, "floor"),
    ):
        # No password: the screens are asked through the test client, signed in without one.
        user = services.create_account(username=f"scale-{players}-{key}")
        services.add_staff(tournament=tournament, user=user, role=role)
        users[key] = user
    order = shared_setup.register_new_players(
        tournament=tournament,
        people=((f"Игрок {n:05d}", f"SC{players}-{n}") for n in range(players)),
    )
    services.pair_round(
        tournament=tournament,
        pairings=[(order[i], order[i + 1]) for i in range(0, players - 1, 2)],
    )
    # One ended match in twenty (written at once; entering results is not what is measured).
    ended = Match.objects.filter(round__tournament=tournament).annotate(n=F("id") % 20)
    Match.objects.filter(pk__in=ended.filter(n=0).values("pk")).update(
        player1_wins=2, ended_at=timezone.now(), end_reason=MatchEnd.WINS_NEEDED
    )
    for registration in order[1:players:10]:
        judging_services.issue_penalty(
            registration=registration,
            infraction_code="1.4",
            moment="between_matches",
            issued_by=users["floor"],
            client_key=uuid.uuid4(),
        )
    floor_services.start_clock(tournament=tournament)
    floor_services.ensure_public_pages(tournament=tournament)
    # The server here runs without autovacuum. Without statistics PostgreSQL takes the round's
    # 5,000 matches for a handful and sorts them all for the judges' first page (17 ms), where it
    # would read 32 from the index.
    shared_setup.analyse_like_a_database_in_service()
    # The judges' second page is the one after the first page's last player.
    page_1_last = players_at_glance(tournament=tournament).last
    return {
        "tournament": tournament,
        "users": users,
        "player": order[3].pk,
        "page_1_last": page_1_last,
    }


def time_screens(event: dict[str, object]) -> dict[str, float]:
    from django.test import Client
    from django.urls import reverse

    tournament = event["tournament"]
    users = event["users"]
    assert isinstance(users, dict)
    medians = {}
    for name, user, url, args, query, htmx in SCREENS:
        client = Client()
        client.force_login(users[user])
        path = reverse(url, args=[tournament.slug, *args])  # type: ignore[attr-defined]
        data = {
            k: v.format(player=event["player"], page_1_last=event["page_1_last"])
            for k, v in query.items()
        }
        headers = {"HX-Request": "true"} if htmx else {}
        samples = []
        for attempt in range(WARM_UP + REPEATS):
            started = time.perf_counter()
            response = client.get(path, data, headers=headers)
            # A streamed answer (none of these screens today) is read to its end as well.
            body = b"".join(response) if response.streaming else response.content
            elapsed = time.perf_counter() - started
            if response.status_code != 200:
                raise SystemExit(f"{name}: HTTP {response.status_code}: {body[:300]!r}")
            if attempt >= WARM_UP:
                samples.append(elapsed)
        medians[name] = statistics.median(samples) * 1000
    return medians


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="32,10000")
    parser.add_argument("--database-url")
    parser.add_argument(
        "--screens",
        help="only the screens whose name contains one of these comma-separated words "
        "(e.g. 'console,report'), for working on a few screens at a time",
    )
    options = parser.parse_args()
    if options.screens:
        wanted = [word.strip() for word in options.screens.split(",") if word.strip()]
        SCREENS[:] = [screen for screen in SCREENS if any(word in screen[0] for word in wanted)]
        if not SCREENS:
            raise SystemExit(f"no screen's name contains any of {wanted}")
    sizes = [int(n) for n in options.players.split(",")]
    with tempfile.TemporaryDirectory() as folder:
        os.environ.setdefault("DJANGO_DATA_DIR", folder)
        shared_setup.start_django(
            options.database_url or f"sqlite:///{folder}/scale.sqlite3", "config.settings"
        )
        from django.test.utils import setup_test_environment

        setup_test_environment()  # the test client's host and the templates' context
        shared_setup.migrate_database()
        results = []
        for size in sizes:
            started = time.perf_counter()
            event = build(size)
            print(f"built {size} players in {time.perf_counter() - started:.0f} s", flush=True)
            results.append(time_screens(event))
    small, large = results[0], results[-1]
    print(f"\n{'screen':28} {sizes[0]:>9} {sizes[-1]:>9}   ratio (goal 1.5x)")
    missed = 0
    for name in small:
        ratio = large[name] / small[name]
        ok = ratio <= 1.5
        missed += not ok
        print(
            f"{name:28} {small[name]:7.1f}ms {large[name]:7.1f}ms   "
            f"{ratio:5.2f}x {'ok' if ok else 'MISSED'}"
        )
    print(f"\n{len(small) - missed} of {len(small)} screens within 1.5x")


if __name__ == "__main__":
    main()
