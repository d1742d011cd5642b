"""Reads about players."""

import datetime

from players.models import MembershipSuspension, Player


def suspension_in_force(*, player: Player, day: datetime.date) -> MembershipSuspension | None:
    """The suspension that stops the player from registering on that day, if any."""
    return (
        MembershipSuspension.objects.in_force_on(day)
        .filter(player=player)
        .order_by("ends_on", "-starts_on")
        .first()
    )
