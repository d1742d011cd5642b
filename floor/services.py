"""Writes of the round on the floor: the clock, time extensions, judge calls, the public pages.

Every function is keyword-only and atomic, locks the row it changes, raises ``DomainError`` before
writing anything when the action is not allowed, and tells the open pages over the live stream
(``clock-changed``, ``extensions-changed``, ``calls-changed``).
"""

import datetime
import hashlib
import hmac
import uuid

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import DomainError
from floor import selectors
from floor.clock import Clock
from floor.models import (
    CallStatus,
    ExtensionReason,
    JudgeCall,
    PublicPages,
    RoundClock,
    TimeExtension,
    new_token,
)
from judging import live
from tournaments.models import Match, Round, StaffRole, Tournament
from tournaments.selectors import judge_role, latest_round
from tournaments.services import forget_public_stamp, mark_public_change

CLOCK_CHANGED = "clock-changed"
EXTENSIONS_CHANGED = "extensions-changed"
CALLS_CHANGED = "calls-changed"

# Extensions: a deck check or a long ruling takes minutes, not hours.
MAX_EXTENSION_MINUTES = 30
MAX_TABLE_EXTRA_MINUTES = 60
# Judge calls: one table may call again a minute after its last call; one phone may make three
# calls in ten minutes, whatever the tables.
TABLE_CALL_COOLDOWN = datetime.timedelta(seconds=60)
CALLER_WINDOW = datetime.timedelta(minutes=10)
CALLER_LIMIT = 3


# The clock ---------------------------------------------------------------------------------


def _locked_clock(tournament: Tournament, *, create: bool = False) -> tuple[Round, RoundClock]:
    round_ = latest_round(tournament=tournament)
    if round_ is None:
        raise DomainError("no_round", _("There is no round to time yet: pair a round first."))
    if tournament.is_finished:
        raise DomainError("tournament_finished", _("The tournament has finished."))
    clock = RoundClock.objects.select_for_update().filter(round=round_).first()
    if clock is None:
        if not create:
            raise DomainError("clock_not_started", _("The round's clock has not been started."))
        clock = RoundClock.objects.create(round=round_, minutes=tournament.round_minutes)
        clock = RoundClock.objects.select_for_update().get(pk=clock.pk)
    return round_, clock


def _changed(clock: RoundClock, tournament: Tournament) -> Clock:
    clock.save()
    mark_public_change(tournament_id=tournament.pk)
    live.publish_event(tournament_id=tournament.pk, event=CLOCK_CHANGED)
    return selectors.read(clock)


def start_clock(*, tournament: Tournament) -> Clock:
    """Start the latest round's clock at the tournament's round length."""
    with transaction.atomic():
        _round, clock = _locked_clock(tournament, create=True)
        if clock.started_at is not None:
            raise DomainError("clock_started", _("The round's clock is already running."))
        clock.minutes = tournament.round_minutes
        clock.started_at = timezone.now()
        return _changed(clock, tournament)


def pause_clock(*, tournament: Tournament) -> Clock:
    with transaction.atomic():
        _round, clock = _locked_clock(tournament)
        state = selectors.read(clock)
        if not state.is_running:
            raise DomainError("clock_not_running", _("The clock is not running."))
        clock.paused_at = timezone.now()
        return _changed(clock, tournament)


def resume_clock(*, tournament: Tournament) -> Clock:
    with transaction.atomic():
        _round, clock = _locked_clock(tournament)
        if not selectors.read(clock).is_paused or clock.paused_at is None:
            raise DomainError("clock_not_paused", _("The clock is not paused."))
        now = timezone.now()
        clock.paused_seconds += max(0, round((now - clock.paused_at).total_seconds()))
        clock.paused_at = None
        return _changed(clock, tournament)


def end_clock(*, tournament: Tournament) -> Clock:
    """End the round now: time is called; tables with extra time play on for it."""
    with transaction.atomic():
        _round, clock = _locked_clock(tournament)
        state = selectors.read(clock)
        if not state.is_started:
            raise DomainError("clock_not_started", _("The round's clock has not been started."))
        if state.time_is_called:
            raise DomainError("time_called", _("Time has already been called in this round."))
        clock.ended_at = timezone.now()
        return _changed(clock, tournament)


# Time extensions ---------------------------------------------------------------------------


def extend_time(
    *, match: Match, minutes: int, reason: str, given_by: User, client_key: uuid.UUID
) -> TimeExtension:
    """Give a table extra minutes (a deck check, a long ruling); once per client key."""
    with transaction.atomic():
        match = (
            # No key change: a record naming the match need not wait (tournaments.services.locks).
            Match.objects.select_for_update(of=("self",), no_key=True)
            .select_related("round__tournament")
            .get(pk=match.pk)
        )
        earlier = TimeExtension.objects.filter(match=match, client_key=client_key).first()
        if earlier is not None:
            return earlier
        tournament = match.round.tournament
        if reason not in ExtensionReason.values:
            raise DomainError(
                "bad_reason", _("Choose a reason: deck check, ruling or other."), field="reason"
            )
        if not 1 <= minutes <= MAX_EXTENSION_MINUTES:
            raise DomainError(
                "bad_minutes",
                _("An extension is from 1 to %(most)s minutes.") % {"most": MAX_EXTENSION_MINUTES},
                field="minutes",
            )
        latest = latest_round(tournament=tournament)
        if latest is None or latest.pk != match.round_id:
            raise DomainError("old_round", _("Time is given only in the current round."))
        if match.is_bye or match.has_ended:
            raise DomainError("match_over", _("This match has ended: it needs no more time."))
        given = selectors.extra_minutes(match=match)
        if given + minutes > MAX_TABLE_EXTRA_MINUTES:
            raise DomainError(
                "too_much_time",
                _("A table gets at most %(most)s extra minutes in a round (%(given)s given).")
                % {"most": MAX_TABLE_EXTRA_MINUTES, "given": given},
                field="minutes",
            )
        extension = TimeExtension.objects.create(
            match=match, minutes=minutes, reason=reason, given_by=given_by, client_key=client_key
        )
        live.publish_event(tournament_id=tournament.pk, event=EXTENSIONS_CHANGED)
        return extension


# Judge calls -------------------------------------------------------------------------------


def caller_key(address: str) -> str:
    """The caller's address as a keyed hash: enough to limit calls, useless to anyone else."""
    return hmac.new(settings.SECRET_KEY.encode(), address.encode(), hashlib.sha256).hexdigest()


def call_judge(*, tournament: Tournament, table: int, caller: str) -> JudgeCall:
    """A player at ``table`` asks for a judge; one open call per table, and no spamming."""
    with transaction.atomic():
        if tournament.is_finished:
            raise DomainError("tournament_finished", _("The tournament has finished."))
        match = selectors.match_at_table(tournament=tournament, table=table, lock=True)
        if match is None:
            raise DomainError("no_table", _("There is no match at this table in this round."))
        now = timezone.now()
        waiting = JudgeCall.objects.filter(tournament=tournament, table=table).exclude(
            status=CallStatus.RESOLVED
        )
        if waiting.exists():
            raise DomainError(
                "call_open", _("A judge has already been called to this table and is on the way.")
            )
        last = JudgeCall.objects.filter(tournament=tournament, table=table).order_by("-id").first()
        if last is not None and now - last.created_at < TABLE_CALL_COOLDOWN:
            raise DomainError(
                "call_too_soon",
                _("This table called a judge a moment ago. Please wait a minute and call again."),
            )
        recent = JudgeCall.objects.filter(
            tournament=tournament, caller=caller, created_at__gte=now - CALLER_WINDOW
        ).count()
        if caller and recent >= CALLER_LIMIT:
            raise DomainError(
                "call_spam",
                _("Too many calls from this phone. Raise your hand and a judge will come."),
            )
        try:
            with transaction.atomic():
                call = JudgeCall.objects.create(
                    tournament=tournament,
                    round_id=match.round_id,
                    match=match,
                    table=table,
                    caller=caller,
                )
        except IntegrityError:
            raise DomainError(
                "call_open", _("A judge has already been called to this table and is on the way.")
            ) from None
        live.publish_event(tournament_id=tournament.pk, event=CALLS_CHANGED)
        return call


def _locked_call(call: JudgeCall) -> JudgeCall:
    # Only the call's row is locked (PostgreSQL cannot lock the empty side of an outer join).
    locked = (
        JudgeCall.objects.select_for_update(of=("self",))
        .select_related("tournament")
        .get(pk=call.pk)
    )
    if locked.status == CallStatus.RESOLVED:
        raise DomainError("call_resolved", _("This call has already been resolved."))
    return locked


def _save_call(call: JudgeCall) -> JudgeCall:
    call.save()
    live.publish_event(tournament_id=call.tournament_id, event=CALLS_CHANGED)
    return call


def claim_call(*, call: JudgeCall, judge: User) -> JudgeCall:
    """A judge takes the call: the others see it taken."""
    with transaction.atomic():
        call = _locked_call(call)
        if call.claimed_by_id == judge.pk and not call.is_escalated:
            return call  # a double tap
        if call.is_claimed:
            raise DomainError("call_taken", _("Another judge has already taken this call."))
        if call.is_escalated and judge_role(tournament=call.tournament, user=judge) != (
            StaffRole.HEAD_JUDGE
        ):
            raise DomainError("call_escalated", _("This call has been sent to the head judge."))
        call.status = CallStatus.CLAIMED
        call.claimed_by = judge
        call.claimed_at = call.claimed_at or timezone.now()
        return _save_call(call)


def escalate_call(*, call: JudgeCall, judge: User) -> JudgeCall:
    """Send the call to the head judge's console."""
    with transaction.atomic():
        call = _locked_call(call)
        if call.is_escalated:
            return call
        if call.is_claimed and call.claimed_by_id != judge.pk:
            raise DomainError("call_taken", _("Another judge has already taken this call."))
        now = timezone.now()
        call.status = CallStatus.ESCALATED
        call.escalated_at = now
        if call.claimed_at is None:
            call.claimed_by, call.claimed_at = judge, now
        return _save_call(call)


def resolve_call(*, call: JudgeCall, judge: User) -> JudgeCall:
    with transaction.atomic():
        call = _locked_call(call)
        role = judge_role(tournament=call.tournament, user=judge)
        if call.is_escalated and role != StaffRole.HEAD_JUDGE:
            raise DomainError("call_escalated", _("This call has been sent to the head judge."))
        if call.is_claimed and call.claimed_by_id != judge.pk and role != StaffRole.HEAD_JUDGE:
            raise DomainError("call_taken", _("Another judge has already taken this call."))
        now = timezone.now()
        call.status = CallStatus.RESOLVED
        call.resolved_by, call.resolved_at = judge, now
        if call.claimed_at is None:
            call.claimed_by, call.claimed_at = judge, now
        return _save_call(call)


# The public pages --------------------------------------------------------------------------


def ensure_public_pages(*, tournament: Tournament) -> PublicPages:
    """The tournament's public pages, made with a fresh token the first time they are needed."""
    with transaction.atomic():
        pages, _created = PublicPages.objects.get_or_create(tournament=tournament)
        return pages


def renew_public_link(*, tournament: Tournament) -> PublicPages:
    """A new token: the old link and every QR code printed with it stop working."""
    with transaction.atomic():
        pages, _created = PublicPages.objects.select_for_update().get_or_create(
            tournament=tournament
        )
        pages.token = new_token()
        pages.save(update_fields=["token"])
        forget_public_stamp(tournament_id=tournament.pk)
        return pages


def publish_standings(*, tournament: Tournament) -> PublicPages:
    """Show players the standings through the latest round whose matches have all ended."""
    with transaction.atomic():
        through = selectors.last_finished_round(tournament=tournament)
        if through is None:
            raise DomainError(
                "no_finished_round", _("No round has finished yet: there are no standings to show.")
            )
        pages, _created = PublicPages.objects.select_for_update().get_or_create(
            tournament=tournament
        )
        pages.standings_through = through
        pages.save(update_fields=["standings_through"])
        forget_public_stamp(tournament_id=tournament.pk)
        return pages


def hide_standings(*, tournament: Tournament) -> PublicPages:
    with transaction.atomic():
        pages, _created = PublicPages.objects.select_for_update().get_or_create(
            tournament=tournament
        )
        pages.standings_through = None
        pages.save(update_fields=["standings_through"])
        forget_public_stamp(tournament_id=tournament.pk)
        return pages
