"""The only writer of penalties: issue, confirm, decline, amend and revoke (rules.md §4–§7).

Each function loads and locks the player's registration (and the opponent's while they play, since
a loss can end their match and stack their penalties too), asks ``stacking`` for the ruling, writes
the record and its history entry, applies what the penalty takes, and returns. Every refusal is a
``DomainError`` raised before anything is written, so a refused action changes nothing.
"""

import uuid
from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import DomainError
from judging import live, stacking
from judging.models import ChangeKind, Infraction, PenaltyChange, PenaltyRecord, RecordStatus
from judging.penalties import AppliesTo, Because, Moment, Rank
from judging.selectors import issuable_infraction
from players import services as player_services
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

NEEDS_HEAD_JUDGE = {Rank.DISQUALIFICATION, Rank.DISQUALIFICATION_WITHOUT_PRIZE}


@dataclass
class PenaltyOutcome:
    record: PenaltyRecord
    # False when a retry with the same client key found the record made the first time.
    created: bool = True
    # Later records that were repeats of, or stacked from, a changed record (rules.md §6).
    dependents: list[PenaltyRecord] = field(default_factory=list)


def issue_penalty(
    *,
    registration: Registration,
    infraction_code: str,
    moment: str,
    issued_by: User,
    deferred: bool = False,
    sub_item: str = "",
    note: str = "",
    client_key: uuid.UUID | None = None,
) -> PenaltyOutcome:
    """Record an infraction and apply the penalty it becomes."""
    try:
        with transaction.atomic():
            return _issue(
                registration=registration,
                infraction_code=infraction_code,
                moment=moment,
                issued_by=issued_by,
                deferred=deferred,
                sub_item=sub_item,
                note=note,
                client_key=client_key,
            )
    except IntegrityError:
        # Two requests with one client key raced past the check on different rows: the first
        # one's record stands and the retry reports it.
        existing = _record_for_key(registration.tournament_id, client_key)
        if existing is None:
            raise
        return PenaltyOutcome(record=existing, created=False)


def _record_for_key(tournament_id: int, client_key: uuid.UUID | None) -> PenaltyRecord | None:
    if client_key is None:
        return None
    return PenaltyRecord.objects.filter(tournament_id=tournament_id, client_key=client_key).first()


def _issue(
    *,
    registration: Registration,
    infraction_code: str,
    moment: str,
    issued_by: User,
    deferred: bool,
    sub_item: str,
    note: str,
    client_key: uuid.UUID | None,
) -> PenaltyOutcome:
    registration, match = _lock_player(registration)
    tournament = registration.tournament
    existing = _record_for_key(tournament.pk, client_key)
    if existing is not None:
        if existing.registration_id != registration.pk:
            raise DomainError(
                "client_key_reused", _("This form was already used for another player.")
            )
        return PenaltyOutcome(record=existing, created=False)
    ruling = _rule(
        registration=registration,
        match=match,
        infraction_code=infraction_code,
        moment=moment,
        deferred=deferred,
        sub_item=sub_item,
        issued_by=issued_by,
    )
    infraction, decision, needs_head_judge = (
        ruling.infraction,
        ruling.decision,
        ruling.needs_head_judge,
    )
    base = ruling.base
    record = PenaltyRecord.objects.create(
        tournament=tournament,
        registration=registration,
        infraction=infraction,
        sub_item=sub_item,
        reason=infraction.code,
        moment=moment,
        deferred=deferred,
        round=tournament_selectors.latest_round(tournament=tournament),
        issued_in_match=match,
        issued_in_game=match.games.count() + 1 if match else None,
        issued_by=issued_by,
        base_rank=base,
        issued_rank=decision.rank,
        rank=decision.rank,
        because=decision.because,
        explanation=decision.explanation,
        repeat_of_id=decision.repeat_of,
        applies_to=ruling.applies_to,
        status=RecordStatus.AWAITING_HEAD_JUDGE if needs_head_judge else RecordStatus.IN_FORCE,
        note=note.strip(),
        client_key=client_key,
    )
    _log(
        record,
        ChangeKind.REQUESTED if needs_head_judge else ChangeKind.ISSUED,
        author=issued_by,
        from_rank=None,
        from_status="",
    )
    if not needs_head_judge:
        _take_effect(record, match)
    return PenaltyOutcome(record=record)


@dataclass(frozen=True)
class Ruling:
    """What an infraction would become for this player now, before anything is written."""

    infraction: Infraction
    base: Rank
    decision: stacking.IssueDecision
    applies_to: str
    needs_head_judge: bool

    @property
    def rank(self) -> Rank:
        return self.decision.rank


def preview_penalty(
    *,
    registration: Registration,
    infraction_code: str,
    moment: str,
    issued_by: User,
    deferred: bool = False,
    sub_item: str = "",
) -> Ruling:
    """The ruling the judge would get if they submitted now; writes nothing, locks nothing.

    The same checks and rules as ``issue_penalty`` run, so the preview and the record agree unless
    another judge records something for the player in between.
    """
    registration = Registration.objects.select_related("tournament", "player").get(
        pk=registration.pk
    )
    match = tournament_selectors.current_match(registration=registration)
    return _rule(
        registration=registration,
        match=match,
        infraction_code=infraction_code,
        moment=moment,
        deferred=deferred,
        sub_item=sub_item,
        issued_by=issued_by,
    )


def _rule(
    *,
    registration: Registration,
    match: Match | None,
    infraction_code: str,
    moment: str,
    deferred: bool,
    sub_item: str,
    issued_by: User,
) -> Ruling:
    tournament = registration.tournament
    role = _judge_role(tournament, issued_by)
    _ensure_accepts_penalties(registration)
    infraction = issuable_infraction(tournament=tournament, code=infraction_code)
    base = infraction.base_penalty(tournament.level)
    assert base is not None  # issuable_infraction refuses an infraction without a penalty here.
    if moment not in Moment.values:
        raise DomainError("unknown_moment", _("Choose when the infraction happened."))
    if moment != Moment.BETWEEN_MATCHES and match is None:
        raise DomainError(
            "no_match_in_progress",
            _("%(player)s has no match in progress; choose «between matches».")
            % {"player": registration.player.name},
        )
    if sub_item and sub_item not in infraction.sub_item_letters():
        raise DomainError(
            "unknown_sub_item",
            _("Infraction %(code)s has no sub-item «%(letter)s».")
            % {"code": infraction.code, "letter": sub_item},
        )
    decision = stacking.decide_issue(
        base=base, reason=infraction.code, held=held_penalties(registration)
    )
    if decision.rank == Rank.SUSPENSION:
        _ensure_may_suspend(tournament, role)
    return Ruling(
        infraction=infraction,
        base=base,
        decision=decision,
        applies_to=_applies_to(decision.rank, moment, deferred),
        needs_head_judge=decision.rank in NEEDS_HEAD_JUDGE and role != StaffRole.HEAD_JUDGE,
    )


def confirm_request(*, record: PenaltyRecord, head_judge: User, reason: str = "") -> PenaltyOutcome:
    """The head judge confirms a record that waits for them; it takes effect now."""
    with transaction.atomic():
        registration, match = _lock_player(record.registration)
        record = _locked(record)
        _ensure_head_judge(registration.tournament, head_judge)
        _ensure_awaiting(record)
        _ensure_accepts_penalties(registration)
        _change(
            record,
            ChangeKind.CONFIRMED,
            author=head_judge,
            reason=reason,
            status=RecordStatus.IN_FORCE,
        )
        _take_effect(record, match)
        return PenaltyOutcome(record=record)


def decline_request(*, record: PenaltyRecord, head_judge: User, reason: str) -> PenaltyOutcome:
    """The head judge declines a request: it never takes effect and is kept with the reason."""
    with transaction.atomic():
        _lock_player(record.registration)
        record = _locked(record)
        _ensure_head_judge(record.tournament, head_judge)
        _ensure_awaiting(record)
        _ensure_reason(reason)
        _change(
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
    """A deviation: the head judge raises or lowers a penalty in force, with a written reason."""
    with transaction.atomic():
        registration, match = _lock_player(record.registration)
        record = _locked(record)
        tournament = registration.tournament
        role = _ensure_head_judge(tournament, author)
        _ensure_reason(reason)
        _ensure_in_force(record)
        to_rank = Rank(to_rank)
        if to_rank == record.rank:
            raise DomainError(
                "same_penalty",
                _("The record already is «%(penalty)s».") % {"penalty": to_rank.label},
            )
        if to_rank == Rank.SUSPENSION:
            _ensure_may_suspend(tournament, role)
        was = Rank(record.rank)
        _change(
            record,
            ChangeKind.AMENDED,
            author=author,
            reason=reason,
            rank=to_rank,
            loss_cancelled=_loss_cancelled(record),
        )
        if was == Rank.SUSPENSION:
            _lift_suspension(record, reason)
        if to_rank.disqualifies:
            _take_effect(record, match)
        else:
            _refresh_standing(registration)
        return PenaltyOutcome(record=record, dependents=dependents_of(record))


def revoke_penalty(*, record: PenaltyRecord, author: User, reason: str) -> PenaltyOutcome:
    """The head judge revokes a record issued in error; it stays in the log as revoked."""
    with transaction.atomic():
        registration, _match = _lock_player(record.registration)
        record = _locked(record)
        _ensure_head_judge(registration.tournament, author)
        _ensure_reason(reason)
        _ensure_in_force(record)
        _change(
            record,
            ChangeKind.REVOKED,
            author=author,
            reason=reason,
            status=RecordStatus.REVOKED,
            loss_cancelled=_loss_cancelled(record),
            revocation_requested=False,
        )
        if record.rank == Rank.SUSPENSION:
            _lift_suspension(record, reason)
        _refresh_standing(registration)
        return PenaltyOutcome(record=record, dependents=dependents_of(record))


def request_revocation(*, record: PenaltyRecord, judge: User, reason: str) -> PenaltyOutcome:
    """A judge's undo: ask the head judge to revoke a record. Nothing is revoked or deleted yet."""
    with transaction.atomic():
        record = _locked(record)
        _judge_role(record.tournament, judge)
        _ensure_reason(reason)
        if record.status not in (RecordStatus.IN_FORCE, RecordStatus.AWAITING_HEAD_JUDGE):
            raise DomainError(
                "not_in_force", _("Only a penalty in force can be changed; this one is not.")
            )
        if record.revocation_requested:
            raise DomainError(
                "revocation_already_requested",
                _("The head judge has already been asked to revoke this record."),
            )
        _change(
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
        record = _locked(record)
        _ensure_head_judge(record.tournament, head_judge)
        _ensure_reason(reason)
        if not record.revocation_requested:
            raise DomainError("no_revocation_request", _("Nobody asked to revoke this record."))
        _change(
            record,
            ChangeKind.REVOCATION_DECLINED,
            author=head_judge,
            reason=reason,
            revocation_requested=False,
        )
        return PenaltyOutcome(record=record)


def dependents_of(record: PenaltyRecord) -> list[PenaltyRecord]:
    """Records issued later that a change of this one may call into question."""
    later = list(PenaltyRecord.objects.filter(repeat_of=record).order_by("id"))
    if record.stacked_into_id is not None:
        later.append(PenaltyRecord.objects.get(pk=record.stacked_into_id))
    return later


def held_penalties(registration: Registration) -> list[stacking.HeldPenalty]:
    """The player's penalties in force in this tournament, oldest first, as stacking sees them."""
    return [
        stacking.HeldPenalty(
            id=record.pk,
            rank=Rank(record.rank),
            reason=record.reason,
            round_number=record.round.number if record.round else None,
            stacked=record.stacked_into_id is not None,
            from_stacking=record.because == Because.STACKING,
        )
        for record in PenaltyRecord.objects.in_force()
        .filter(registration=registration)
        .select_related("round")
        .order_by("id")
    ]


class JudgingMatchPolicy:
    """What the penalty rules do to a match; registered with ``tournaments.lifecycle``."""

    def settle(self, match: Match) -> None:
        """Serve the pending losses that wait for this match, game by game (rules.md §6)."""
        while not match.has_ended:
            game_number = match.games.count() + 1
            oldest: dict[int, PenaltyRecord] = {}
            for record in (
                PenaltyRecord.objects.pending_losses()
                .filter(registration_id__in=[match.player1_id, match.player2_id])
                .order_by("id")
            ):
                if record.registration_id not in oldest and _may_serve(record, match, game_number):
                    oldest[record.registration_id] = record
            if not oldest:
                return
            # The next game and the match exist at the same moment, so each player's oldest
            # loss is served now: game losses take this game, match losses the whole match.
            game_losses = [r for r in oldest.values() if r.applies_to == AppliesTo.NEXT_GAME]
            match_losses = [r for r in oldest.values() if r.applies_to == AppliesTo.NEXT_MATCH]
            if game_losses:
                losers = {record.registration_id for record in game_losses}
                winner = None
                if len(losers) == 1:
                    winner = match.player2 if match.player1_id in losers else match.player1
                game = tournament_services.add_game(
                    match=match, winner=winner, decided_by_penalty=True, may_end=not match_losses
                )
                for record in game_losses:
                    record.served_game = game
                    record.save(update_fields=["served_game"])
            if match_losses:
                tournament_services.end_match_by_penalty(
                    match=match, losers={record.registration_id for record in match_losses}
                )
                for record in match_losses:
                    record.served_match = match
                    record.save(update_fields=["served_match"])
                return

    def has_waiting_game_loss(self, match: Match) -> bool:
        """A deferred game loss issued in this match waits for the game after the current one."""
        return (
            PenaltyRecord.objects.pending_losses()
            .filter(issued_in_match=match, applies_to=AppliesTo.NEXT_GAME)
            .exists()
        )

    def match_ended(self, match: Match) -> None:
        """Rule 5.2 for each player of the match, the first-listed player first."""
        if match.is_bye:
            return
        for registration_id in (match.player1_id, match.player2_id):
            if registration_id is None:
                continue
            registration = Registration.objects.select_related("tournament").get(pk=registration_id)
            if registration.status == RegistrationStatus.DISQUALIFIED:
                continue  # A disqualified player receives no further penalties.
            _stack(registration, match)


def _stack(registration: Registration, match: Match) -> None:
    decisions = stacking.stack_at_match_end(
        held=held_penalties(registration), round_number=match.round.number
    )
    made: dict[int, PenaltyRecord] = {}
    for decision in decisions:
        record = PenaltyRecord.objects.create(
            tournament_id=registration.tournament_id,
            registration=registration,
            reason=f"stacking:{uuid.uuid4()}",
            moment=Moment.BETWEEN_MATCHES,
            round=match.round,
            issued_in_match=match,
            issued_rank=decision.rank,
            rank=decision.rank,
            because=Because.STACKING,
            explanation=decision.explanation,
            applies_to=_applies_to(decision.rank, Moment.BETWEEN_MATCHES, deferred=False),
            status=RecordStatus.IN_FORCE,
        )
        made[decision.id] = record
        sources = [source for source in decision.sources if source > 0]
        PenaltyRecord.objects.filter(pk__in=sources).update(stacked_into=record)
        for source in decision.sources:
            if source < 0:
                made[source].stacked_into = record
                made[source].save(update_fields=["stacked_into"])
        _log(record, ChangeKind.ISSUED, author=None, from_rank=None, from_status="")
        if decision.rank.disqualifies:
            _refresh_standing(registration)


def _take_effect(record: PenaltyRecord, match: Match | None) -> None:
    """Apply what an in-force record takes now: a game, a match, the tournament, the membership."""
    registration = record.registration
    penalty = Rank(record.rank)
    if penalty.disqualifies:
        _refresh_standing(registration)
        suspension = record.membership_suspension
        if penalty == Rank.SUSPENSION and (suspension is None or suspension.lifted_on is not None):
            # A suspension lifted by an earlier amendment stays lifted in the membership's history;
            # raising the record again suspends anew.
            record.membership_suspension = player_services.suspend_membership(
                player=registration.player,
                starts_on=timezone.localdate(),
                reason=_("Membership suspension in %(tournament)s")
                % {"tournament": registration.tournament.name},
            )
            record.save(update_fields=["membership_suspension"])
        if match is not None and not match.has_ended:
            # The included match loss: the match in progress is lost at once (rules.md §7).
            record.applies_to = AppliesTo.CURRENT_MATCH
            record.served_match = match
            record.save(update_fields=["applies_to", "served_match"])
            tournament_services.end_match_by_penalty(match=match, losers={registration.pk})
        return
    if match is None or match.has_ended:
        return
    if record.applies_to == AppliesTo.CURRENT_MATCH:
        record.served_match = match
        record.save(update_fields=["served_match"])
        tournament_services.end_match_by_penalty(match=match, losers={registration.pk})
        return
    if record.applies_to == AppliesTo.CURRENT_GAME:
        opponent = match.opponent_of(registration)
        record.served_game = tournament_services.add_game(
            match=match, winner=opponent, decided_by_penalty=True
        )
        record.save(update_fields=["served_game"])
    # A loss for the next game of this match may be due at once (issued between games).
    JudgingMatchPolicy().settle(match)


def _may_serve(record: PenaltyRecord, match: Match, game_number: int) -> bool:
    """Whether a pending loss may be served by this game of this match."""
    if record.issued_in_match_id != match.pk:
        return True
    if record.applies_to != AppliesTo.NEXT_GAME:
        return False  # "The next match" is never the match the loss was issued in.
    if record.moment == Moment.BETWEEN_GAMES:
        return True
    if record.moment == Moment.IN_GAME:
        return game_number > (record.issued_in_game or 0)
    return False  # Issued between matches while a match was in progress: it waits for the next.


def _applies_to(rank: Rank, moment: str, deferred: bool) -> str:
    """What a game or match loss takes (rules.md §6); a disqualification's match loss is set
    when it takes effect, since a request may be confirmed after its match has ended."""
    if rank == Rank.GAME_LOSS:
        if moment == Moment.IN_GAME and not deferred:
            return AppliesTo.CURRENT_GAME
        return AppliesTo.NEXT_GAME
    if rank == Rank.MATCH_LOSS:
        if moment != Moment.BETWEEN_MATCHES and not deferred:
            return AppliesTo.CURRENT_MATCH
        return AppliesTo.NEXT_MATCH
    return ""


def _refresh_standing(registration: Registration) -> None:
    """Derive the player's status and prize eligibility from the records in force (§7)."""
    ranks = set(
        PenaltyRecord.objects.in_force()
        .filter(registration=registration, rank__gte=Rank.DISQUALIFICATION)
        .values_list("rank", flat=True)
    )
    if ranks:
        status = RegistrationStatus.DISQUALIFIED
    elif registration.dropped_at is not None:
        status = RegistrationStatus.DROPPED
    else:
        status = RegistrationStatus.PLAYING
    prize_eligible = not any(Rank(rank).takes_prize for rank in ranks)
    if (status, prize_eligible) != (registration.status, registration.prize_eligible):
        registration.status = status
        registration.prize_eligible = prize_eligible
        registration.save(update_fields=["status", "prize_eligible"])


def _lift_suspension(record: PenaltyRecord, reason: str) -> None:
    if record.membership_suspension is not None:
        player_services.lift_suspension(
            suspension=record.membership_suspension, reason=reason, day=timezone.localdate()
        )


def _loss_cancelled(record: PenaltyRecord) -> bool:
    """An amendment or revocation cancels a loss of the record that is still pending (§6)."""
    return record.loss_cancelled or record.is_pending_loss


def _change(
    record: PenaltyRecord,
    kind: str,
    *,
    author: User,
    reason: str,
    **fields: object,
) -> None:
    """Change the record's current state and append the change to its history."""
    from_rank, from_status = record.rank, record.status
    for name, value in fields.items():
        setattr(record, name, value)
    record.save(update_fields=list(fields))
    _log(record, kind, author=author, from_rank=from_rank, from_status=from_status, reason=reason)


def _locked(record: PenaltyRecord) -> PenaltyRecord:
    return PenaltyRecord.objects.select_for_update().get(pk=record.pk)


def _lock_player(registration: Registration) -> tuple[Registration, Match | None]:
    """Lock the player and, while they play, the opponent; return the player and their match."""
    match = tournament_selectors.current_match(registration=registration)
    ids = [registration.pk]
    if match is not None:
        ids += [pk for pk in (match.player1_id, match.player2_id) if pk is not None]
    locked = tournament_services.lock_registrations(ids)
    # The match may have ended between the look-up and the lock; read it again under the lock.
    match = tournament_selectors.current_match(registration=locked[registration.pk])
    return locked[registration.pk], match


def _log(
    record: PenaltyRecord,
    kind: str,
    *,
    author: User | None,
    from_rank: int | None,
    from_status: str,
    reason: str = "",
) -> PenaltyChange:
    """Append a history entry that leads from the given state to the record's current one,
    and announce it to the tournament's open pages once the transaction commits."""
    change = PenaltyChange.objects.create(
        record=record,
        kind=kind,
        author=author,
        from_rank=from_rank,
        to_rank=record.rank,
        from_status=from_status,
        to_status=record.status,
        reason=reason.strip(),
    )
    live.publish(tournament_id=record.tournament_id, version=change.pk)
    return change


def _judge_role(tournament: Tournament, user: User) -> str:
    role = tournament_selectors.judge_role(tournament=tournament, user=user)
    if role is None:
        raise DomainError("not_a_judge", _("Only a judge of this tournament may issue penalties."))
    return role


def _ensure_head_judge(tournament: Tournament, user: User) -> str:
    role = tournament_selectors.judge_role(tournament=tournament, user=user)
    if role != StaffRole.HEAD_JUDGE:
        raise DomainError(
            "head_judge_only", _("Only the head judge of this tournament may do this.")
        )
    return role


def _ensure_may_suspend(tournament: Tournament, role: str) -> None:
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


def _ensure_accepts_penalties(registration: Registration) -> None:
    if registration.tournament.status == TournamentStatus.FINISHED:
        raise DomainError("tournament_finished", _("The tournament has finished."))
    if registration.status == RegistrationStatus.DISQUALIFIED:
        raise DomainError(
            "player_disqualified",
            _("%(player)s is disqualified and receives no further penalties in this tournament.")
            % {"player": registration.player.name},
        )


def _ensure_awaiting(record: PenaltyRecord) -> None:
    if record.status != RecordStatus.AWAITING_HEAD_JUDGE:
        raise DomainError(
            "not_awaiting", _("This record does not wait for the head judge's decision.")
        )


def _ensure_in_force(record: PenaltyRecord) -> None:
    if record.status != RecordStatus.IN_FORCE:
        raise DomainError(
            "not_in_force", _("Only a penalty in force can be changed; this one is not.")
        )


def _ensure_reason(reason: str) -> None:
    if not reason.strip():
        raise DomainError("reason_required", _("Write the reason for this decision."))
