"""Reads about players."""

import datetime
from collections.abc import Iterable

from django.db.models import F

from players.models import MembershipSuspension, Player


def suspension_in_force(*, player: Player, day: datetime.date) -> MembershipSuspension | None:
    """The suspension that stops the player from registering on that day, if any."""
    return suspensions_in_force(players=[player], day=day).get(player.pk)


def suspensions_in_force(
    *, players: Iterable[Player], day: datetime.date
) -> dict[int, MembershipSuspension]:
    """For each of the players whose membership is suspended on that day, the suspension that
    stops them (the one ending first; one without an end date last), in one query."""
    found: dict[int, MembershipSuspension] = {}
    suspensions = (
        MembershipSuspension.objects.in_force_on(day)
        .filter(player__in=[player.pk for player in players])
        .select_related("player")
        .order_by("player_id", F("ends_on").asc(nulls_last=True), "-starts_on")
    )
    for suspension in suspensions:
        found.setdefault(suspension.player_id, suspension)
    return found
