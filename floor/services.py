"""Writes of the round on the floor: the clock, time extensions, judge calls, the public pages.

Every function is keyword-only and atomic, locks the row it changes, raises ``DomainError`` before
writing anything when the action is not allowed, and tells the open pages over the live stream
(``clock-changed``, ``extensions-changed``, ``calls-changed``).
"""

import datetime
import hashlib
import hmac
import uuid
from collections.abc import Callable, Sequence

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import DomainError
from core.throttle import Limit, over_limit
from floor import selectors
from floor.clock import Clock
from floor.models import (
    CallReason,
    CallStatus,
    CheckIn,
    ExtensionReason,
    JudgeCall,
    PublicPages,
    ReportAction,
    ReportEntry,
    ReportState,
    RoundClock,
    TableReport,
    TimeExtension,
    new_token,
)
from judging import live
from tournaments import lifecycle
from tournaments.models import Match, Registration, Round, StaffRole, Tournament
from tournaments.selectors import judge_role, latest_round
from tournaments.services import (
    drop_player,
    enter_result,
    finish_match,
    forget_public_stamp,
    lock_registrations,
    mark_public_change,
    record_game,
)
from tournaments.services.setup import ensure_round_over

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
            match=match,
            round_id=match.round_id,
            minutes=minutes,
            reason=reason,
            given_by=given_by,
            client_key=client_key,
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


# The players' own reports of results (issue 35) --------------------------------------------
#
# Who is who without accounts: each player of a table has a short code of their own, printed
# beside their name on the match slip (``seat_code``: a keyed hash of the match and the seat, so
# nothing is stored and a code from another table or round is worth nothing). Every report,
# confirmation or dispute names the seat and carries that seat's code; the table's page then
# remembers the seat on that phone in a signed cookie, so the player types the code once. The
# opponent confirms on their own phone, or on the same phone with their own code. The phone is
# told apart by a signed random cookie of its own (``phone``, kept only as a keyed hash): a phone
# that reported for one table cannot report for another in the same round.

RESULTS_CHANGED = "results-changed"
# Reports per table a minute (every attempt counts, a wrong code too): a table reports and
# confirms in two or three taps, and a six-digit code is out of reach of guessing at this rate.
TABLE_REPORT_LIMIT = Limit(requests=12, seconds=60)
CODE_DIGITS = 6
DRAW, FIRST, SECOND = 0, 1, 2


def _short_code(purpose: str) -> str:
    digest = hmac.new(settings.SECRET_KEY.encode(), purpose.encode(), hashlib.sha256).digest()
    return str(int.from_bytes(digest[:8], "big") % 10**CODE_DIGITS).zfill(CODE_DIGITS)


def seat_code(*, match_id: int, seat: int) -> str:
    """The code of the player in ``seat`` (1 or 2) of the match, printed on the slip."""
    return _short_code(f"table-seat:{match_id}:{seat}")


def check_in_code(*, registration_id: int) -> str:
    """A player's check-in code, handed out at the desk (the check-in screen lists them)."""
    return _short_code(f"check-in:{registration_id}")


def phone_key(cookie: str) -> str:
    """The phone's cookie as a keyed hash: enough to tell phones apart, nothing more."""
    return caller_key(f"phone:{cookie}") if cookie else ""


def _same_code(given: str, expected: str) -> bool:
    given = "".join(given.split())
    return hmac.compare_digest(given.encode(), expected.encode())


def report_refusal(code: str) -> DomainError:
    """The refusal of a report with this code, in the players' words."""
    return _report_error(code)


def _report_error(code: str) -> DomainError:
    refusals: dict[str, Callable[[], DomainError]] = {
        "bad_seat": lambda: DomainError("bad_seat", _("Choose which player you are.")),
        "bad_code": lambda: DomainError(
            "bad_code",
            _("This is not your code: type the code printed beside your name on the slip."),
        ),
        "bad_games": lambda: DomainError("bad_games", _("Choose who won each game you played.")),
        "games_in_order": lambda: DomainError(
            "games_in_order", _("Report the games in the order they were played, without gaps.")
        ),
        "no_games": lambda: DomainError("no_games", _("Report at least one game.")),
        "report_too_often": lambda: DomainError(
            "report_too_often", _("Too many reports from this table. Please wait a minute.")
        ),
        "match_ended": lambda: DomainError(
            "match_ended", _("This match already has its result: nothing to report.")
        ),
        "phone_other_table": lambda: DomainError(
            "phone_other_table",
            _(
                "This phone has already reported the result of another table this round. Report "
                "from your own phone, or ask a judge."
            ),
        ),
        "report_disputed": lambda: DomainError(
            "report_disputed",
            _(
                "Your reports differ: a judge has been called to your table and will enter the "
                "result."
            ),
        ),
        "already_reported": lambda: DomainError(
            "already_reported",
            _("You have already reported this result. Now your opponent confirms it."),
        ),
        "own_report": lambda: DomainError(
            "own_report", _("You cannot confirm your own report: your opponent confirms it.")
        ),
        "playoff_level": lambda: DomainError(
            "playoff_level",
            _(
                "A playoff match needs a winner and your games are level: call a judge, who "
                "decides it by the event's procedure and enters the result."
            ),
        ),
        "nothing_to_confirm": lambda: DomainError(
            "nothing_to_confirm", _("There is no reported result to confirm yet.")
        ),
    }
    return refusals[code]()


def ensure_possible_report(*, match: Match, games: Sequence[int]) -> None:
    """The reported games fit the match (rules.md §6, §9): played one after another, with the
    games a penalty decides where the rules put them, and none after the match has ended.
    Counted with the engine's own rules (``Match.score_game``, ``Match.decided_by_games``)."""
    if any(game not in (DRAW, FIRST, SECOND) for game in games):
        raise _report_error("bad_games")
    slots = selectors.report_slots(match=match)
    played = sum(slot.recorded for slot in slots)
    penalties = {
        slot.number: slot.winner for slot in slots if slot.by_penalty and not slot.recorded
    }
    score = Match(
        player1_id=match.player1_id,
        player2_id=match.player2_id,
        player1_wins=match.player1_wins,
        player2_wins=match.player2_wins,
        draws=match.draws,
    )
    seats = {DRAW: None, FIRST: match.player1_id, SECOND: match.player2_id}
    pending = list(games)
    while not score.decided_by_games(
        games_played=played,
        best_of=match.round.games_best_of,
        wins_needed=match.round.wins_needed,
    ):
        number = played + 1
        if number in penalties:
            score.score_game(seats[penalties[number] or DRAW])
        elif pending:
            score.score_game(seats[pending.pop(0)])
        else:
            break
        played += 1
    if pending:
        raise DomainError(
            "games_after_end",
            _("The match ended with game %(number)s: no game after it is played.")
            % {"number": played},
        )
    if played == 0:
        raise _report_error("no_games")
    if match.round.playoff and score.player1_wins == score.player2_wins:
        # A playoff match always has a winner (issue 32); with the games level, the event's own
        # procedure decides it, and only the staff record how.
        raise _report_error("playoff_level")


def _locked_for_report(match: Match) -> Match:
    """Lock the players, then the match (tournaments.services.locks), and read both fresh."""
    lock_registrations([pk for pk in (match.player1_id, match.player2_id) if pk])
    return (
        Match.objects.select_for_update(of=("self",), no_key=True)
        .select_related("round__tournament", "player1__player", "player2__player")
        .get(pk=match.pk)
    )


def _apply_report(match: Match, games: Sequence[int]) -> None:
    """Enter the confirmed games through the results service the staff use. Without a loss
    waiting for a later game this is the quick form's ``enter_result``; with one, the games go
    in one by one (``record_game``) so that the loss lands on its game, and time is called if
    they leave the match undecided. Stacking at the match's end follows either way."""
    seats = {DRAW: None, FIRST: match.player1, SECOND: match.player2}
    if not lifecycle.policy().has_waiting_game_loss(match):
        first = match.player1_wins + sum(game == FIRST for game in games)
        second = match.player2_wins + sum(game == SECOND for game in games)
        draws = match.draws + sum(game == DRAW for game in games)
        enter_result(match=match, player1_wins=first, player2_wins=second, draws=draws)
        return
    for game in games:
        record_game(match=match, winner=seats[game])
    match.refresh_from_db()
    if not match.has_ended:
        finish_match(match=match)


def report_result(
    *,
    match: Match,
    seat: int,
    code: str,
    games: Sequence[int],
    phone: str,
    client_key: uuid.UUID,
) -> TableReport:
    """A player reports the games of their match; the second player's identical report
    confirms it (the result is entered), a different one disputes it (a judge is called)."""
    games = list(games)
    tournament_id = match.round.tournament_id
    if over_limit(
        scope="table-report", client=f"{tournament_id}:{match.table}", limit=TABLE_REPORT_LIMIT
    ):
        raise _report_error("report_too_often")
    with transaction.atomic():
        match = _locked_for_report(match)
        tournament = match.round.tournament
        earlier = ReportEntry.objects.filter(match=match, client_key=client_key).first()
        report = TableReport.objects.select_for_update().filter(match=match).first()
        if earlier is not None and report is not None:
            return report  # a double tap or a retry: recorded once
        if seat not in (FIRST, SECOND):
            raise _report_error("bad_seat")
        if not _same_code(code, seat_code(match_id=match.pk, seat=seat)):
            raise _report_error("bad_code")
        if tournament.is_finished or match.is_bye or match.has_ended:
            raise _report_error("match_ended")
        if selectors.phone_reported_elsewhere(match=match, phone=phone):
            raise _report_error("phone_other_table")
        if report is not None and report.is_disputed:
            raise _report_error("report_disputed")
        if report is not None and report.seat == seat and report.games == games:
            raise _report_error("already_reported")
        ensure_possible_report(match=match, games=games)

        def entry(action: str) -> None:
            ReportEntry.objects.create(
                match=match,
                round_id=match.round_id,
                seat=seat,
                action=action,
                games=games,
                phone=phone,
                client_key=client_key,
            )

        if report is None or report.seat == seat:
            # The first report, or the same player's own report changed before it is confirmed.
            report, _created = TableReport.objects.update_or_create(
                match=match,
                defaults={
                    "round_id": match.round_id,
                    "state": ReportState.REPORTED,
                    "seat": seat,
                    "games": games,
                },
            )
            entry(ReportAction.REPORTED)
        elif report.games == games:
            report.state = ReportState.CONFIRMED
            report.save(update_fields=["state", "updated_at"])
            entry(ReportAction.CONFIRMED)
            _apply_report(match, games)
        else:
            report.state = ReportState.DISPUTED
            report.other_games = games
            report.save(update_fields=["state", "other_games", "updated_at"])
            entry(ReportAction.DISPUTED)
            _call_for_dispute(match)
        live.publish_event(tournament_id=tournament.pk, event=RESULTS_CHANGED)
        return report


def confirm_result(
    *, match: Match, seat: int, code: str, phone: str, client_key: uuid.UUID
) -> TableReport:
    """The opponent confirms the result reported at their table: the result is entered."""
    report = selectors.table_report(match=match)
    if report is None:
        raise _report_error("nothing_to_confirm")
    if report.seat == seat and report.is_reported:
        if _same_code(code, seat_code(match_id=match.pk, seat=seat)):
            raise _report_error("own_report")
        raise _report_error("bad_code")
    games = report.games
    return report_result(
        match=match, seat=seat, code=code, games=games, phone=phone, client_key=client_key
    )


def _call_for_dispute(match: Match) -> None:
    """The players' reports differ: a judge is called to the table at once (the table's open
    call, if a player called already, stands and is marked a dispute)."""
    call = (
        JudgeCall.objects.select_for_update()
        .filter(tournament_id=match.round.tournament_id, table=match.table or 0)
        .exclude(status=CallStatus.RESOLVED)
        .first()
    )
    if call is not None:
        call.reason = CallReason.DISPUTE
        call.save(update_fields=["reason"])
    else:
        JudgeCall.objects.create(
            tournament_id=match.round.tournament_id,
            round_id=match.round_id,
            match=match,
            table=match.table or 0,
            reason=CallReason.DISPUTE,
        )
    live.publish_event(tournament_id=match.round.tournament_id, event=CALLS_CHANGED)


# Check-in ----------------------------------------------------------------------------------


def _check_in_refusal(code: str) -> DomainError:
    refusals: dict[str, Callable[[], DomainError]] = {
        "check_in_closed": lambda: DomainError(
            "check_in_closed", _("Check-in is not open now: it is before round 1 only.")
        ),
        "no_such_player": lambda: DomainError(
            "no_such_player", _("No player of this tournament has this name and code.")
        ),
        "not_playing": lambda: DomainError(
            "not_playing", _("This player is no longer playing in the tournament.")
        ),
    }
    return refusals[code]()


def check_in(*, registration: Registration, by: User | None = None, code: str = "") -> CheckIn:
    """The player is in the hall for the next round: on their phone with their code, or at the
    desk (``by``). Checking in twice keeps the first."""
    with transaction.atomic():
        registration = lock_registrations([registration.pk])[registration.pk]
        tournament = registration.tournament
        pages = selectors.public_pages(tournament=tournament)
        if not selectors.check_in_open(tournament=tournament, pages=pages):
            raise _check_in_refusal("check_in_closed")
        if by is None and not _same_code(code, check_in_code(registration_id=registration.pk)):
            raise _check_in_refusal("no_such_player")
        if not registration.is_playing:
            raise _check_in_refusal("not_playing")
        number = selectors.next_round_number(tournament=tournament)
        done, _created = CheckIn.objects.get_or_create(
            registration=registration, round_number=number, defaults={"by": by}
        )
        return done


def check_in_by_name(*, tournament: Tournament, name: str, code: str) -> CheckIn:
    """A player checks in on the players' page with their name and their code."""
    wanted = " ".join(name.split()).casefold().replace("ё", "е")
    if not wanted or len(wanted) > 200:
        raise _check_in_refusal("no_such_player")
    for registration in Registration.objects.filter(tournament=tournament).select_related("player"):
        folded = " ".join(registration.player.name.split()).casefold().replace("ё", "е")
        if folded == wanted and _same_code(code, check_in_code(registration_id=registration.pk)):
            return check_in(registration=registration, code=code)
    raise _check_in_refusal("no_such_player")


def set_check_in_every_round(*, tournament: Tournament, every_round: bool) -> PublicPages:
    with transaction.atomic():
        pages, _created = PublicPages.objects.select_for_update().get_or_create(
            tournament=tournament
        )
        pages.check_in_every_round = every_round
        pages.save(update_fields=["check_in_every_round"])
        return pages


def drop_no_shows(*, tournament: Tournament) -> list[Registration]:
    """Drop, in one step before pairing, every player still playing who has not checked in for
    the next round (a tardiness penalty stays the judges' call). Refused while a round is under
    way or check-in is not open."""
    with transaction.atomic():
        ensure_round_over(tournament)
        pages = selectors.public_pages(tournament=tournament)
        if not selectors.check_in_open(tournament=tournament, pages=pages):
            raise _check_in_refusal("check_in_closed")
        number = selectors.next_round_number(tournament=tournament)
        missing = list(selectors.not_checked_in(tournament=tournament, round_number=number))
        if not missing:
            raise DomainError("no_no_shows", _("Every player still playing has checked in."))
        return [drop_player(registration=registration) for registration in missing]
