"""What a new tournament needs before it runs, shown on its page until each step is done.

The steps belong to the apps that own them: this app names the staff, the players and round 1;
an app above it (``decks``: the deck rules) registers its own step from ``AppConfig.ready()``, so
the import still runs one way. A step is a question about the tournament and a link to where it
is done; nothing here writes.
"""

from collections.abc import Callable
from dataclasses import dataclass

from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from tournaments.models import Registration, Round, Staff, StaffRole, Tournament


@dataclass(frozen=True)
class Step:
    key: str
    order: int
    title: str | Promise
    hint: str | Promise
    url_name: str
    is_done: Callable[[Tournament], bool]


@dataclass(frozen=True)
class NextStep:
    title: str
    hint: str
    url: str
    done: bool


_steps: dict[str, Step] = {}


def register(step: Step) -> None:
    """Add (or replace, on a second ``ready()``) a step of the set-up."""
    _steps[step.key] = step


def next_steps(*, tournament: Tournament) -> list[NextStep]:
    """The set-up's steps in order, each marked done or not; an empty list once round 1 exists
    (a tournament under way needs no reminder)."""
    if Round.objects.filter(tournament=tournament).exists():
        return []
    return [
        NextStep(
            title=str(step.title),
            hint=str(step.hint),
            url=reverse(step.url_name, args=[tournament.slug]),
            done=step.is_done(tournament),
        )
        for step in sorted(_steps.values(), key=lambda step: step.order)
    ]


def _has_judges(tournament: Tournament) -> bool:
    # The organiser who created the tournament is on its staff from the start; the step is done
    # once a head judge is named.
    return Staff.objects.filter(tournament=tournament, role=StaffRole.HEAD_JUDGE).exists()


def _has_players(tournament: Tournament) -> bool:
    # Two players are the fewest a round can pair.
    return Registration.objects.filter(tournament=tournament).count() >= 2


register(
    Step(
        key="staff",
        order=10,
        title=_("Add the staff"),
        hint=_("A head judge and the floor judges, each with a role."),
        url_name="tournaments:staff",
        is_done=_has_judges,
    )
)
register(
    Step(
        key="players",
        order=20,
        title=_("Register the players"),
        hint=_("One by one or from a CSV file."),
        url_name="tournaments:registrations",
        is_done=_has_players,
    )
)
register(
    Step(
        key="round-1",
        order=40,
        title=_("Pair round 1"),
        hint=_("Draft the pairings, check them and publish them."),
        url_name="tournaments:rounds",
        is_done=lambda tournament: Round.objects.filter(tournament=tournament).exists(),
    )
)
