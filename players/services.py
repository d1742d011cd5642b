"""Writes about players: the registry and its membership suspensions. Raises coded errors."""

import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import DomainError
from players.models import MembershipSuspension, Player
from players.selectors import suspension_in_force


@transaction.atomic
def create_player(*, name: str, membership_id: str, city: str = "") -> Player:
    """Add a player to the registry; a membership id belongs to one player only."""
    name, membership_id, city = name.strip(), membership_id.strip(), city.strip()
    if not name or not membership_id:
        raise DomainError("player_incomplete", _("A player needs a name and a membership id."))
    existing = Player.objects.filter(membership_id=membership_id).first()
    if existing is not None:
        raise DomainError(
            "membership_id_taken",
            _("Membership id %(id)s already belongs to %(player)s.")
            % {"id": membership_id, "player": existing.name},
        )
    return Player.objects.create(name=name, membership_id=membership_id, city=city)


def ensure_not_suspended(*, player: Player, day: datetime.date) -> None:
    """The one suspension rule: a membership suspended on that day may not register."""
    suspension = suspension_in_force(player=player, day=day)
    if suspension is None:
        return
    until = (
        suspension.ends_on.strftime("%d.%m.%Y")
        if suspension.ends_on
        else _("a date the game coordinator has yet to set")
    )
    raise DomainError(
        "membership_suspended",
        _("%(player)s's membership is suspended until %(until)s: %(reason)s")
        % {"player": player.name, "until": until, "reason": suspension.reason or "—"},
    )


def suspend_membership(
    *, player: Player, starts_on: datetime.date, reason: str
) -> MembershipSuspension:
    """A suspension whose length the game coordinator sets later (no end date yet)."""
    return MembershipSuspension.objects.create(player=player, starts_on=starts_on, reason=reason)


def lift_suspension(*, suspension: MembershipSuspension, reason: str, day: datetime.date) -> None:
    """Mark a suspension lifted (never deleted: the membership keeps its history)."""
    if suspension.lifted_on is not None:
        return
    suspension.lifted_on = day
    suspension.lift_reason = reason
    suspension.save(update_fields=["lifted_on", "lift_reason"])
