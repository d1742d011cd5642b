"""Who may do what with a penalty (rules.md §4, §7), and the locks every write takes first."""

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext as _

from judging.models import PenaltyRecord, RecordStatus
from tournaments import selectors as tournament_selectors
from tournaments import services as tournament_services
from tournaments.errors import DomainError
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
    """Lock the player and, while they play, the opponent; return the player and their match."""
    match = tournament_selectors.current_match(registration=registration)
    ids = [registration.pk]
    if match is not None:
        ids += [match.player1_id, match.player2_id]
    locked_ = tournament_services.lock_registrations(ids)
    # The match may have ended between the look-up and the lock; read it again under the lock.
    match = tournament_selectors.current_match(registration=locked_[registration.pk])
    return locked_[registration.pk], match


def judge_role(tournament: Tournament, user: AbstractBaseUser) -> str:
    role = tournament_selectors.judge_role(tournament=tournament, user=user)
    if role is None:
        raise DomainError("not_a_judge", _("Only a judge of this tournament may issue penalties."))
    return role


def ensure_head_judge(tournament: Tournament, user: AbstractBaseUser) -> str:
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


def ensure_reason(reason: str) -> None:
    if not reason.strip():
        raise DomainError("reason_required", _("Write the reason for this decision."))
