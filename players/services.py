"""Writes about players: the registry and its membership suspensions. Raises coded errors."""

import datetime
from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import DomainError
from players.models import MembershipSuspension, Player, search_text
from players.selectors import suspensions_in_force


@transaction.atomic
def create_player(*, name: str, membership_id: str, city: str = "") -> Player:
    """Add a player to the registry; a membership id belongs to one player only."""
    return create_players(entries=[(name, membership_id, city)])[0]


@transaction.atomic
def create_players(*, entries: Sequence[tuple[str, str, str]]) -> list[Player]:
    """Add players to the registry, given as (name, membership id, city), all or none, in a
    constant number of queries: a list of 3,000 imported from a file is one insert."""
    cleaned = [
        (name.strip(), membership_id.strip(), city.strip()) for name, membership_id, city in entries
    ]
    if any(not name or not membership_id for name, membership_id, _city in cleaned):
        raise DomainError("player_incomplete", _("A player needs a name and a membership id."))
    ids = [membership_id for _name, membership_id, _city in cleaned]
    taken = Player.objects.filter(membership_id__in=ids).order_by("membership_id").first()
    repeated = _first_repeated(ids)
    if taken is not None or repeated is not None:
        owner = (
            taken.name if taken is not None else next(n for n, i, _c in cleaned if i == repeated)
        )
        raise DomainError(
            "membership_id_taken",
            _("Membership id %(id)s already belongs to %(player)s.")
            % {"id": taken.membership_id if taken is not None else repeated, "player": owner},
        )
    # bulk_create skips Player.save, which fills the search column: it is filled here alike.
    return Player.objects.bulk_create(
        [
            Player(name=name, membership_id=id_, city=city, search_text=search_text(name, id_))
            for name, id_, city in cleaned
        ]
    )


def _first_repeated(values: Sequence[str]) -> str | None:
    seen: set[str] = set()
    for value in values:
        if value in seen:
            return value
        seen.add(value)
    return None


def ensure_not_suspended(*, player: Player, day: datetime.date) -> None:
    """The one suspension rule: a membership suspended on that day may not register."""
    ensure_none_suspended(players=[player], day=day)


def ensure_none_suspended(*, players: Sequence[Player], day: datetime.date) -> None:
    """The suspension rule for several players at once (one query): the first of them, in the
    order given, whose membership is suspended on that day is refused with its reason."""
    suspended = suspensions_in_force(players=players, day=day)
    for player in players:
        suspension = suspended.get(player.pk)
        if suspension is None:
            continue
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
