"""The federation's round trip across three databases (issue 34, "Done when").

Two event laptops are two SQLite files, each driven in processes of its own through
``manage.py`` (migrate, a script that plays its event through the services, ``export_event``,
``import_suspensions``) with nothing shared but the files. The federation is this test's own
database: PostgreSQL when the suite runs with a PostgreSQL ``DATABASE_URL`` (as CI's second run
does), SQLite otherwise; it imports both files through its page, its coordinator suspends a
player and sets the term of the suspension issued at the first event, and its list goes back to
the first laptop, which then refuses to register that player."""

import json
import subprocess
import sys

import pytest
from django.urls import reverse

from federation.models import ImportedEntry, ImportedEvent
from federation.permissions import make_coordinator
from players.models import MembershipSuspension, Player
from tests.factories import UserFactory
from tests.processes import PROJECT

FIRST = [
    ("Анна Арсеньева", "A-1"),
    ("Борис Белов", "A-2"),
    ("Вера Волкова", "A-3"),
    ("Глеб Гусев", "A-4"),
]
SECOND = [
    ("Дина Дорохова", "B-1"),
    ("Егор Ершов", "B-2"),
    ("Вера Волкова", "A-3"),
    ("Жанна Жук", "B-4"),
]

PLAY = """
import django; django.setup()
from tests.federation.events import finished_event
finished_event(
    slug={slug!r}, name={name!r}, members={members!r}, suspend={suspend!r}, playoff={playoff!r}
)
"""

REGISTER = """
import django; django.setup()
from core.errors import DomainError
from players.models import Player
from tests.factories import Desk
from tournaments.services import register_player
tournament = Desk.create(players=0, slug="next-" + {member!r}.lower()).tournament
try:
    register_player(tournament=tournament, player=Player.objects.get(membership_id={member!r}))
    print("registered")
except DomainError as error:
    print(error.code, error.message)
"""


class Laptop:
    """An event laptop: a data folder with its own SQLite database, used by processes only."""

    def __init__(self, folder):
        folder.mkdir()
        self.env = {
            "PATH": "/usr/bin:/bin",
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DJANGO_DATA_DIR": str(folder),
            "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
        }

    def run(self, *args):
        done = subprocess.run(
            [sys.executable, *args], cwd=PROJECT, env=self.env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr[-3000:]
        return done.stdout

    def manage(self, *args):
        return self.run("manage.py", *args)

    def python(self, code):
        return self.run("-c", code)


@pytest.mark.django_db(transaction=True)
def test_two_events_reach_the_federation_and_its_suspension_reaches_the_first_laptop(
    tmp_path, client
):
    first, second = Laptop(tmp_path / "first"), Laptop(tmp_path / "second")
    # The second event ends with a top 2: its file carries the playoff.
    for laptop, slug, members, suspend, playoff in (
        (first, "cup-a", FIRST, True, False),
        (second, "cup-b", SECOND, False, True),
    ):
        laptop.manage("migrate", "--no-input", "-v", "0")
        laptop.python(
            PLAY.format(
                slug=slug, name=slug.upper(), members=members, suspend=suspend, playoff=playoff
            )
        )
        laptop.manage("export_event", slug, "--output", str(tmp_path / f"{slug}.json"))

    coordinator = UserFactory(username="coordinator")
    make_coordinator(coordinator)
    client.force_login(coordinator)
    for slug in ("cup-a", "cup-b"):
        with (tmp_path / f"{slug}.json").open("rb") as handle:
            client.post(reverse("federation:import-event"), {"file": handle})

    assert sorted(ImportedEvent.objects.values_list("name", "players", "rounds")) == [
        ("CUP-A", 4, 1),
        ("CUP-B", 4, 2),
    ]
    # The playoff came along: its final's winner is the first in the federation's records.
    cup_b = ImportedEvent.objects.get(name="CUP-B").content["event"]
    assert [round_["stage"] for round_ in cup_b["rounds"]] == ["swiss", "playoff"]
    champion = cup_b["playoff"]["standings"][0]
    assert (champion["place"], champion["seed"], champion["champion"]) == (1, 1, True)
    assert ImportedEntry.objects.get(event__name="CUP-B", place=1).name == next(
        player["name"] for player in cup_b["players"] if player["ref"] == champion["player"]
    )
    # The player of both events is one person in the federation's registry, with both events.
    vera = Player.objects.get(membership_id="A-3")
    assert sorted(
        ImportedEntry.objects.filter(player=vera).values_list("event__name", flat=True)
    ) == ["CUP-A", "CUP-B"]
    issued = MembershipSuspension.objects.get(player__membership_id="A-1")
    assert (issued.ends_on, issued.reason) == (None, "Приостановление членства на турнире CUP-A")

    # The coordinator sets the term of the suspension issued at the first event, and suspends a
    # player who played only at the second.
    client.post(
        reverse("federation:set-term", args=[issued.pk]),
        {"ends_on": "2027-06-30", "reason": "полгода"},
    )
    egor = Player.objects.get(membership_id="B-2")
    client.post(
        reverse("federation:suspend", args=[egor.pk]),
        {"starts_on": "2026-11-01", "ends_on": "2027-12-31", "reason": "угрозы судье"},
    )
    answer = client.get(reverse("federation:suspension-list"))
    (tmp_path / "suspensions.json").write_bytes(answer.content)

    printed = first.manage("import_suspensions", str(tmp_path / "suspensions.json"))
    assert printed.splitlines() == [
        "установлен срок: Анна Арсеньева (A-1), 2027-06-30: "
        "Приостановление членства на турнире CUP-A",
        "новое приостановление: Егор Ершов (B-2), 2027-12-31: угрозы судье",
        "Изменений: 2; уже известных: 0",
    ]
    assert first.python(REGISTER.format(member="B-2")).strip() == (
        "membership_suspended Членство игрока Егор Ершов приостановлено до 31.12.2027: угрозы судье"
    )
    assert first.python(REGISTER.format(member="A-1")).strip() == (
        "membership_suspended Членство игрока Анна Арсеньева приостановлено до 30.06.2027: "
        "Приостановление членства на турнире CUP-A"
    )
    # The same list again changes nothing.
    again = first.manage("import_suspensions", str(tmp_path / "suspensions.json"))
    assert again.splitlines() == ["Изменений: 0; уже известных: 2"]
    assert json.loads(answer.content)["counts"] == {"suspensions": 2}
