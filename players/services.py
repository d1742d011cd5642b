"""Writes about players: the registry and its membership suspensions. Raises coded errors."""

import datetime
from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import DomainError
from players.models import (
    MembershipSuspension,
    MembershipSuspensionChange,
    Player,
    SuspensionChangeKind,
    search_text,
)
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
    *,
    player: Player,
    starts_on: datetime.date,
    reason: str,
    ends_on: datetime.date | None = None,
    author: User | None = None,
) -> MembershipSuspension:
    """A suspension; without ``ends_on`` its length is for the game coordinator to set later."""
    ensure_term(starts_on=starts_on, ends_on=ends_on)
    suspension = MembershipSuspension.objects.create(
        player=player, starts_on=starts_on, ends_on=ends_on, reason=reason
    )
    if ends_on is not None:
        MembershipSuspensionChange.objects.create(
            suspension=suspension,
            kind=SuspensionChangeKind.TERM_SET,
            ends_on=ends_on,
            reason=reason,
            author=author,
        )
    return suspension


def ensure_term(*, starts_on: datetime.date, ends_on: datetime.date | None) -> None:
    if ends_on is not None and ends_on < starts_on:
        raise DomainError(
            "suspension_ends_before_start",
            _("A suspension cannot end (%(ends)s) before it starts (%(starts)s).")
            % {"ends": ends_on.strftime("%d.%m.%Y"), "starts": starts_on.strftime("%d.%m.%Y")},
        )


@transaction.atomic
def set_suspension_term(
    *,
    suspension: MembershipSuspension,
    ends_on: datetime.date,
    reason: str,
    author: User | None = None,
    kind: str = SuspensionChangeKind.TERM_SET,
) -> bool:
    """The game coordinator sets (or changes) when a suspension ends; the earlier term stays in
    the suspension's history. False when the term was that already (nothing written)."""
    locked = MembershipSuspension.objects.select_for_update().get(pk=suspension.pk)
    if locked.lifted_on is not None:
        raise DomainError(
            "suspension_already_lifted",
            _("This suspension was lifted on %(day)s; its term can no longer be set.")
            % {"day": locked.lifted_on.strftime("%d.%m.%Y")},
        )
    ensure_term(starts_on=locked.starts_on, ends_on=ends_on)
    if locked.ends_on == ends_on:
        return False
    locked.ends_on = ends_on
    locked.save(update_fields=["ends_on"])
    MembershipSuspensionChange.objects.create(
        suspension=locked, kind=kind, ends_on=ends_on, reason=reason, author=author
    )
    suspension.ends_on = ends_on
    return True


@transaction.atomic
def lift_suspension(
    *,
    suspension: MembershipSuspension,
    reason: str,
    day: datetime.date,
    author: User | None = None,
) -> bool:
    """Mark a suspension lifted (never deleted: the membership keeps its history). False when it
    was lifted already."""
    locked = MembershipSuspension.objects.select_for_update().get(pk=suspension.pk)
    if locked.lifted_on is not None:
        return False
    locked.lifted_on = day
    locked.lift_reason = reason
    locked.save(update_fields=["lifted_on", "lift_reason"])
    MembershipSuspensionChange.objects.create(
        suspension=locked,
        kind=SuspensionChangeKind.LIFTED,
        ends_on=locked.ends_on,
        lifted_on=day,
        reason=reason,
        author=author,
    )
    suspension.lifted_on = day
    suspension.lift_reason = reason
    return True
