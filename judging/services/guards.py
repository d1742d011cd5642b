"""Who may do what with a penalty (rules.md §4, §7), and the locks every write takes first."""

from collections.abc import Collection

from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from core.errors import DomainError
from core.text import bounded_text
from judging.models import PenaltyRecord, RecordStatus
from judging.plain_reads import lock_player_and_opponent
from tournaments import selectors as tournament_selectors
from tournaments import services as tournament_services
from tournaments.models import (
    Level,
    Match,
    Registration,
    RegistrationStatus,
    StaffRole,
    Tournament,
    TournamentStatus,
)


def locked(record: PenaltyRecord) -> PenaltyRecord:
    return PenaltyRecord.objects.select_for_update().get(pk=record.pk)


def lock_player(registration: Registration) -> tuple[Registration, Match | None]:
    """Lock the player and, while they play, the opponent; return the player and their match.

    Only the registration's key and tournament are needed: the player is read here, under the
    lock. A registration that is not the tournament's is refused (``unknown_player``).
    """
    locked_, match = lock_player_and_opponent(registration.pk, registration.tournament_id)
    if registration.pk not in locked_:
        raise DomainError("unknown_player", _("This player is not registered in this tournament."))
    players = [pk for pk in (match.player1_id, match.player2_id) if pk] if match else []
    if not set(players) <= locked_.keys():
        # Only with a second match in progress, which no round allows: no round is published
        # while the lock is held (the tournament's shared lock, tournaments.services.locks).
        locked_ = tournament_services.lock_registrations(players)
        match = tournament_selectors.current_match(registration=locked_[registration.pk])
    elif match is not None:
        # The players as just locked and read, rather than read once more.
        match.player1, match.player2 = (locked_[pk] for pk in players)
    return locked_[registration.pk], match


def judge_role(tournament: Tournament, user: User, roles: Collection[str] | None = None) -> str:
    """The user's strongest judging role in the tournament, or a refusal. ``roles``: the user's
    roles there as the caller read them in this request (``staff_view``); read here otherwise."""
    role = (
        tournament_selectors.judge_role(tournament=tournament, user=user)
        if roles is None
        else tournament_selectors.strongest_judging_role(roles)
    )
    if role is None:
        raise DomainError("not_a_judge", _("Only a judge of this tournament may issue penalties."))
    return role


def ensure_head_judge(tournament: Tournament, user: User) -> str:
    role = tournament_selectors.judge_role(tournament=tournament, user=user)
    if role != StaffRole.HEAD_JUDGE:
        raise DomainError(
            "head_judge_only", _("Only the head judge of this tournament may do this.")
        )
    return role


def ensure_may_suspend(tournament: Tournament, role: str) -> None:
    """Suspension: the head judge, an official representative, professional level or above (§4)."""
    if role != StaffRole.HEAD_JUDGE or not tournament.head_judge_is_official:
        raise DomainError(
            "suspension_not_allowed",
            _(
                "Only a head judge who is an official representative of ООО «Мир Хобби» may "
                "suspend a membership."
            ),
        )
    if tournament.level == Level.AMATEUR:
        raise DomainError(
            "suspension_not_allowed",
            _("A membership can be suspended only at the professional level or above."),
        )


def may_suspend(tournament: Tournament, role: str) -> bool:
    """The same rule as a question, for a form that offers the suspension only where it may."""
    try:
        ensure_may_suspend(tournament, role)
    except DomainError:
        return False
    return True


def ensure_accepts_penalties(registration: Registration) -> None:
    if registration.tournament.status == TournamentStatus.FINISHED:
        raise DomainError("tournament_finished", _("The tournament has finished."))
    if registration.status == RegistrationStatus.DISQUALIFIED:
        raise DomainError(
            "player_disqualified",
            _("%(player)s is disqualified and receives no further penalties in this tournament.")
            % {"player": registration.player.name},
        )


def ensure_awaiting(record: PenaltyRecord) -> None:
    if record.status != RecordStatus.AWAITING_HEAD_JUDGE:
        raise DomainError(
            "not_awaiting", _("This record does not wait for the head judge's decision.")
        )


def ensure_in_force(record: PenaltyRecord) -> None:
    if record.status != RecordStatus.IN_FORCE:
        raise DomainError(
            "not_in_force", _("Only a penalty in force can be changed; this one is not.")
        )


def ensure_in_force_or_awaiting(record: PenaltyRecord) -> None:
    """The head judge changes a penalty in force, or a request that waits for them (§4)."""
    if record.status not in (RecordStatus.IN_FORCE, RecordStatus.AWAITING_HEAD_JUDGE):
        raise DomainError(
            "not_in_force", _("Only a penalty in force can be changed; this one is not.")
        )


# The longest reason a decision keeps (the reason forms allow as much).
REASON_MAX_LENGTH = 2000


def ensure_reason(reason: str, *, required: bool = True) -> None:
    """The one rule for the reasons of decisions: written where required, never too long."""
    bounded_text(
        reason,
        max_length=REASON_MAX_LENGTH,
        missing=DomainError(
            "reason_required", _("Write the reason for this decision."), field="reason"
        )
        if required
        else None,
        too_long=DomainError(
            "reason_too_long",
            _("Keep the reason under %(count)s characters.") % {"count": REASON_MAX_LENGTH},
            field="reason",
        ),
    )
