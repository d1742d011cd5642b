"""The head judge's decisions on records (rules.md §4, §6, §7): confirming or declining a request,
amending or revoking a penalty, and the floor judges' requests to revoke."""

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import DomainError
from judging.models import ChangeKind, PenaltyRecord, RecordStatus
from judging.penalties import Rank
from judging.services.effects import (
    lift_suspension,
    loss_cancelled,
    loss_owed,
    refresh_standing,
    schedule_amended_loss,
    take_effect,
)
from judging.services.guards import (
    ensure_accepts_penalties,
    ensure_awaiting,
    ensure_head_judge,
    ensure_in_force_or_awaiting,
    ensure_may_suspend,
    ensure_reason,
    judge_role,
    lock_player,
    locked,
)
from judging.services.history import PenaltyOutcome, change, dependents_of


def confirm_request(*, record: PenaltyRecord, head_judge: User, reason: str = "") -> PenaltyOutcome:
    """The head judge confirms a record that waits for them; it takes effect now. A
    disqualification or above is confirmed with the head judge's reasoning (issue 17)."""
    with transaction.atomic():
        registration, match = lock_player(record.registration)
        record = locked(record)
        ensure_head_judge(registration.tournament, head_judge)
        ensure_reason(reason, required=False)
        ensure_awaiting(record)
        ensure_reason(reason, required=record.state.confirms_in_two_steps)
        ensure_accepts_penalties(registration)
        change(
            record,
            ChangeKind.CONFIRMED,
            author=head_judge,
            reason=reason,
            status=RecordStatus.IN_FORCE,
        )
        take_effect(record, match)
        return PenaltyOutcome(record=record)


def decline_request(*, record: PenaltyRecord, head_judge: User, reason: str) -> PenaltyOutcome:
    """The head judge declines a request: it never takes effect and is kept with the reason."""
    with transaction.atomic():
        lock_player(record.registration)
        record = locked(record)
        ensure_head_judge(record.tournament, head_judge)
        ensure_awaiting(record)
        ensure_reason(reason)
        change(
            record,
            ChangeKind.DECLINED,
            author=head_judge,
            reason=reason,
            status=RecordStatus.DECLINED,
            revocation_requested=False,
        )
        return PenaltyOutcome(record=record)


def amend_penalty(
    *, record: PenaltyRecord, to_rank: Rank, author: User, reason: str
) -> PenaltyOutcome:
    """A deviation: the head judge raises or lowers a penalty in force, with a written reason.

    A request awaiting the head judge may be amended too: it is put in force at the new rank at
    once, and only the new rank's effects ever apply (rules.md §4). After an amendment a record
    costs what its new rank costs, once per record (§6): what it has not cost yet is scheduled as
    if it were issued now, what it has cost already is not taken again."""
    with transaction.atomic():
        registration, match = lock_player(record.registration)
        record = locked(record)
        tournament = registration.tournament
        role = ensure_head_judge(tournament, author)
        ensure_reason(reason)
        ensure_in_force_or_awaiting(record)
        awaiting = record.status == RecordStatus.AWAITING_HEAD_JUDGE
        if awaiting:
            ensure_accepts_penalties(registration)
        to_rank = Rank(to_rank)
        if to_rank == record.rank:
            raise DomainError(
                "same_penalty",
                _("The record already is «%(penalty)s».") % {"penalty": to_rank.label},
            )
        if to_rank == Rank.SUSPENSION:
            ensure_may_suspend(tournament, role)
        was = Rank(record.rank)
        owed = loss_owed(record, to_rank)
        change(
            record,
            ChangeKind.AMENDED,
            author=author,
            reason=reason,
            rank=to_rank,
            status=RecordStatus.IN_FORCE,
            loss_cancelled=loss_cancelled(record),
            revocation_requested=False if awaiting else record.revocation_requested,
        )
        if was == Rank.SUSPENSION and not awaiting:
            lift_suspension(record, reason)
        if to_rank.disqualifies:
            take_effect(record, match, amended=True)
        else:
            refresh_standing(registration)
            if owed:
                schedule_amended_loss(record, match)
        return PenaltyOutcome(record=record, dependents=dependents_of(record))


def revoke_penalty(*, record: PenaltyRecord, author: User, reason: str) -> PenaltyOutcome:
    """The head judge revokes a record issued in error; it stays in the log as revoked. A
    request awaiting the head judge may be revoked too: it never took effect, so nothing else
    changes. A penalty made by stacking leaves its sources used (rules.md §7)."""
    with transaction.atomic():
        registration, _match = lock_player(record.registration)
        record = locked(record)
        ensure_head_judge(registration.tournament, author)
        ensure_reason(reason)
        ensure_in_force_or_awaiting(record)
        change(
            record,
            ChangeKind.REVOKED,
            author=author,
            reason=reason,
            status=RecordStatus.REVOKED,
            loss_cancelled=loss_cancelled(record),
            revocation_requested=False,
        )
        if record.rank == Rank.SUSPENSION:
            lift_suspension(record, reason)
        refresh_standing(registration)
        return PenaltyOutcome(record=record, dependents=dependents_of(record))


def request_revocation(*, record: PenaltyRecord, judge: User, reason: str) -> PenaltyOutcome:
    """A judge's undo: ask the head judge to revoke a record. Nothing is revoked or deleted yet."""
    with transaction.atomic():
        record = locked(record)
        judge_role(record.tournament, judge)
        ensure_reason(reason)
        if not record.may_request_revocation:  # the rule the record card shows the form by
            if record.revocation_requested:
                raise DomainError(
                    "revocation_already_requested",
                    _("The head judge has already been asked to revoke this record."),
                )
            raise DomainError(
                "not_in_force", _("Only a penalty in force can be changed; this one is not.")
            )
        change(
            record,
            ChangeKind.REVOCATION_REQUESTED,
            author=judge,
            reason=reason,
            revocation_requested=True,
        )
        return PenaltyOutcome(record=record)


def decline_revocation(*, record: PenaltyRecord, head_judge: User, reason: str) -> PenaltyOutcome:
    """The head judge keeps a record a judge asked to revoke."""
    with transaction.atomic():
        record = locked(record)
        ensure_head_judge(record.tournament, head_judge)
        ensure_reason(reason)
        if not record.revocation_requested:
            raise DomainError("no_revocation_request", _("Nobody asked to revoke this record."))
        change(
            record,
            ChangeKind.REVOCATION_DECLINED,
            author=head_judge,
            reason=reason,
            revocation_requested=False,
        )
        return PenaltyOutcome(record=record)
