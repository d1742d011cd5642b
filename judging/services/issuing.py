"""Issuing: what an infraction becomes for a player now (rules.md §3–§6), and recording it."""

import datetime
import uuid
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import DomainError
from judging import stacking
from judging.models import ChangeKind, Infraction, PenaltyRecord, RecordStatus
from judging.penalties import Moment, Rank
from judging.plain_reads import STANDING_STATUSES, records_held_or_keyed
from judging.selectors import issuable_infraction
from judging.services.effects import applies_to_for, take_effect
from judging.services.guards import (
    ensure_accepts_penalties,
    ensure_may_suspend,
    judge_role,
    lock_player,
)
from judging.services.history import PenaltyOutcome, held_from, held_penalties, log
from tournaments import selectors as tournament_selectors
from tournaments.models import Registration, Round, StaffRole

NEEDS_HEAD_JUDGE = {Rank.DISQUALIFICATION, Rank.DISQUALIFICATION_WITHOUT_PRIZE}

# A judge who records the same infraction for the same player again within this time is far more
# often repeating one intention (Back, a resend after a lost answer, a second tablet) than seeing
# a second infraction; they confirm it as a second one explicitly (docs/decisions.md, issue 26).
SECOND_PENALTY_WINDOW = datetime.timedelta(minutes=5)
# The records such a second penalty is checked against: those that stand or wait for the head
# judge. A revoked or declined record is not one the judge would be repeating.
_STANDING = STANDING_STATUSES


class SecondPenaltyUnconfirmed(DomainError):
    """The same judge recorded this infraction for this player a moment ago; ``first`` is that
    record, so the screen can name it beside the explicit confirmation."""

    def __init__(self, first: PenaltyRecord) -> None:
        local = timezone.localtime(first.issued_at)
        minutes = max(0, int((timezone.now() - first.issued_at).total_seconds() // 60))
        super().__init__(
            "second_penalty_unconfirmed",
            _(
                "You already recorded %(code)s for %(player)s at %(time)s (%(minutes)s min "
                "ago): %(rank)s. Is this a second infraction? If you meant that one, it is "
                "recorded and there is nothing more to do."
            )
            % {
                "code": first.reason,
                "rank": Rank(first.rank).label,
                "player": first.registration.player.name,
                "time": local.strftime("%H:%M"),
                "minutes": minutes,
            },
        )
        self.first = first


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
    confirm_second: bool = False,
    issuer_roles: Collection[str] | None = None,
    entered_at: datetime.datetime | None = None,
    sent_at: datetime.datetime | None = None,
    round_seen: int | None = None,
) -> PenaltyOutcome:
    """Record an infraction and apply the penalty it becomes.

    ``client_key`` is one intention of the judge (one filled form): sent again, it returns the
    record it made. The same infraction for the same player by the same judge within
    ``SECOND_PENALTY_WINDOW`` under another key is refused with ``SecondPenaltyUnconfirmed``
    unless ``confirm_second`` says the judge saw the first and means a second one.
    ``issuer_roles``: the judge's roles in the tournament as the caller's access check read them
    (``staff_view``); read otherwise.

    ``entered_at`` and ``sent_at`` are the tablet's clock when the judge entered the penalty and
    when the tablet sent it (later when it was kept offline); the record keeps the moment of entry
    by the server's clock and the difference of the clocks (``PenaltyRecord.tablet_clock_skew``).
    ``round_seen`` is the round the tablet showed when the penalty was entered (0: none yet); a
    penalty entered in another round than the player's now is refused (``round_changed``).
    """
    clock = _tablet_clock(entered_at, sent_at)
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
                confirm_second=confirm_second,
                issuer_roles=issuer_roles,
                clock=clock,
                round_seen=round_seen,
            )
    except IntegrityError:
        # Two requests with one client key raced past the check on different rows: the first
        # one's record stands and the retry reports it.
        existing = _record_for_key(registration.tournament_id, client_key)
        if existing is None:
            raise
        if existing.registration_id != registration.pk:
            # As when the check finds it: one form's key, used for another player.
            raise _key_reused() from None
        return PenaltyOutcome(record=existing, created=False)


def preview_penalty(
    *,
    registration: Registration,
    infraction_code: str,
    moment: str,
    issued_by: User,
    deferred: bool = False,
    sub_item: str = "",
    in_match: bool | None = None,
    held: Sequence[stacking.HeldPenalty] | None = None,
    issuer_roles: Collection[str] | None = None,
) -> Ruling:
    """The ruling the judge would get if they submitted now; writes nothing, locks nothing.

    The same checks and rules as ``issue_penalty`` run, so the preview and the record agree unless
    another judge records something for the player in between. ``in_match`` (whether the player
    has a match in progress) and ``held`` (the penalties they hold) are read here unless the
    caller read them with the player (``judging.selectors.player_for_ruling``); so are
    ``issuer_roles``, unless the caller's access check read them (``staff_view``).
    """
    if not (
        Registration.tournament.is_cached(registration)
        and Registration.player.is_cached(registration)
    ):
        registration = Registration.objects.select_related("tournament", "player").get(
            pk=registration.pk
        )
    return _rule(
        registration=registration,
        in_match=(
            tournament_selectors.plays_a_match(registration=registration)
            if in_match is None
            else in_match
        ),
        infraction_code=infraction_code,
        moment=moment,
        deferred=deferred,
        sub_item=sub_item,
        issued_by=issued_by,
        held=held,
        issuer_roles=issuer_roles,
    )


@dataclass(frozen=True)
class _TabletClock:
    entered_at: datetime.datetime
    sent_at: datetime.datetime


def _tablet_clock(
    entered_at: datetime.datetime | None, sent_at: datetime.datetime | None
) -> _TabletClock | None:
    """The tablet's two readings, checked: a penalty is sent after it is entered, on one clock."""
    if entered_at is None:
        return None
    sent = entered_at if sent_at is None else sent_at
    if sent < entered_at:
        raise DomainError(
            "entered_after_sent",
            _("The tablet says this penalty was sent before it was entered; send it again."),
        )
    return _TabletClock(entered_at=entered_at, sent_at=sent)


def _entry_moment(clock: _TabletClock | None) -> dict[str, object]:
    """The record's moment of entry by the server's clock and the clocks' difference, measured
    now (when the penalty reaches the server), in whole seconds."""
    if clock is None:
        return {}
    skew = round((timezone.now() - clock.sent_at).total_seconds())
    return {
        "entered_at": clock.entered_at + datetime.timedelta(seconds=skew),
        "tablet_clock_skew": skew,
    }


def _ensure_same_round(
    registration: Registration, round_now: Round | None, round_seen: int | None
) -> None:
    """A penalty entered in one round is not recorded in the next: its moment (in a game, between
    matches) was about a match that is over. ``round_seen`` 0 means that no round had begun."""
    if round_seen is None or round_seen == (round_now.pk if round_now else 0):
        return
    raise DomainError(
        "round_changed",
        _(
            "The round changed since this penalty was entered for %(player)s (now: %(round)s): "
            "if it still applies, enter it again for the round under way."
        )
        % {
            "player": registration.player.name,
            "round": _("round %(number)s") % {"number": round_now.number}
            if round_now
            else _("no round"),
        },
    )


def _key_reused() -> DomainError:
    return DomainError("client_key_reused", _("This form was already used for another player."))


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
    confirm_second: bool,
    issuer_roles: Collection[str] | None,
    clock: _TabletClock | None = None,
    round_seen: int | None = None,
) -> PenaltyOutcome:
    registration, match = lock_player(registration)
    tournament = registration.tournament
    # One read for both: the player's penalties in force and a record made with this form.
    rows = records_held_or_keyed(registration.pk, tournament.pk, client_key)
    existing = next(
        (row for row in rows if client_key is not None and row.client_key == client_key), None
    )
    if existing is not None:
        if existing.registration_id != registration.pk:
            raise _key_reused()
        return PenaltyOutcome(record=existing, created=False)
    ruling = _rule(
        registration=registration,
        in_match=match is not None,
        infraction_code=infraction_code,
        moment=moment,
        deferred=deferred,
        sub_item=sub_item,
        issued_by=issued_by,
        held=held_from(
            row
            for row in rows
            if row.registration_id == registration.pk and row.status == RecordStatus.IN_FORCE
        ),
        issuer_roles=issuer_roles,
    )
    infraction, decision, needs_head_judge = (
        ruling.infraction,
        ruling.decision,
        ruling.needs_head_judge,
    )
    if not confirm_second:
        first = _recent_same(rows, registration=registration, code=infraction.code, judge=issued_by)
        if first is not None:
            raise SecondPenaltyUnconfirmed(first)
    # A match in progress is in the latest round: the next one waits until every match ends.
    round_now = match.round if match else tournament_selectors.latest_round(tournament=tournament)
    _ensure_same_round(registration, round_now, round_seen)
    record = PenaltyRecord.objects.create(
        tournament=tournament,
        registration=registration,
        infraction=infraction,
        sub_item=sub_item,
        reason=infraction.code,
        moment=moment,
        deferred=deferred,
        round=round_now,
        issued_in_match=match,
        issued_in_game=match.games_recorded + 1 if match else None,
        issued_by=issued_by,
        base_rank=ruling.base,
        issued_rank=decision.rank,
        rank=decision.rank,
        because=decision.because,
        explanation=decision.explanation or {},
        repeat_of_id=decision.repeat_of,
        applies_to=ruling.applies_to,
        status=RecordStatus.AWAITING_HEAD_JUDGE if needs_head_judge else RecordStatus.IN_FORCE,
        note=note.strip(),
        client_key=client_key,
        **_entry_moment(clock),
    )
    log(
        record,
        ChangeKind.REQUESTED if needs_head_judge else ChangeKind.ISSUED,
        author=issued_by,
        from_rank=None,
        from_status="",
    )
    if not needs_head_judge:
        take_effect(record, match)
    return PenaltyOutcome(record=record)


def _recent_same(
    rows: Iterable[PenaltyRecord], *, registration: Registration, code: str, judge: User
) -> PenaltyRecord | None:
    """The latest standing record of this infraction that this judge gave this player within
    ``SECOND_PENALTY_WINDOW``, among the rows read under the player's lock."""
    since = timezone.now() - SECOND_PENALTY_WINDOW
    found = [
        row
        for row in rows
        if row.registration_id == registration.pk
        and row.status in _STANDING
        and row.reason == code
        and row.issued_by_id == judge.pk
        and row.issued_at >= since
    ]
    if not found:
        return None
    first = max(found, key=lambda row: (row.issued_at, row.pk))
    first.registration = registration  # locked above, with its player: the message names them
    return first


def _rule(
    *,
    registration: Registration,
    in_match: bool,
    infraction_code: str,
    moment: str,
    deferred: bool,
    sub_item: str,
    issued_by: User,
    held: Sequence[stacking.HeldPenalty] | None = None,
    issuer_roles: Collection[str] | None = None,
) -> Ruling:
    """``held``: the player's penalties in force when the caller has read them already;
    ``issuer_roles``: the judge's roles, likewise."""
    tournament = registration.tournament
    role = judge_role(tournament, issued_by, issuer_roles)
    ensure_accepts_penalties(registration)
    infraction = issuable_infraction(tournament=tournament, code=infraction_code)
    base = infraction.base_penalty(tournament.level)
    assert base is not None  # issuable_infraction refuses an infraction without a penalty here.
    if moment not in Moment.values:
        raise DomainError("unknown_moment", _("Choose when the infraction happened."))
    if moment != Moment.BETWEEN_MATCHES and not in_match:
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
        base=base,
        reason=infraction.code,
        held=held_penalties(registration) if held is None else held,
    )
    if decision.rank == Rank.SUSPENSION:
        ensure_may_suspend(tournament, role)
    return Ruling(
        infraction=infraction,
        base=base,
        decision=decision,
        applies_to=applies_to_for(decision.rank, moment, deferred),
        needs_head_judge=decision.rank in NEEDS_HEAD_JUDGE and role != StaffRole.HEAD_JUDGE,
    )
