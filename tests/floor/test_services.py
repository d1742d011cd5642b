"""The floor's writes: the clock, time extensions, judge calls and the public pages."""

import datetime
import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from core.errors import DomainError
from floor import selectors, services
from floor.clock import ClockStatus
from floor.models import (
    CallStatus,
    CheckIn,
    ExtensionReason,
    JudgeCall,
    PublicPages,
    ReportEntry,
    RoundClock,
    TableReport,
)
from floor.models import TimeExtension as Extension
from tournaments import services as tournament_services
from tournaments.models import Game, Match, Registration

pytestmark = pytest.mark.django_db


@pytest.fixture
def paired(desk):
    desk.pair((0, 1), (2, 3))
    return desk


def refused(code, action, **kwargs):
    with pytest.raises(DomainError) as caught:
        action(**kwargs)
    assert caught.value.code == code
    return caught.value


# The clock ---------------------------------------------------------------------------------


def test_the_clock_needs_a_round(desk):
    refused("no_round", services.start_clock, tournament=desk.tournament)
    assert not RoundClock.objects.exists()


def test_start_pause_resume_end(paired):
    tournament = paired.tournament
    tournament.round_minutes = 40
    tournament.save()
    started = services.start_clock(tournament=tournament)
    assert started.status == ClockStatus.RUNNING
    assert 39 * 60 < started.seconds_left <= 40 * 60
    refused("clock_started", services.start_clock, tournament=tournament)
    refused("clock_not_paused", services.resume_clock, tournament=tournament)

    paused = services.pause_clock(tournament=tournament)
    assert paused.status == ClockStatus.PAUSED
    refused("clock_not_running", services.pause_clock, tournament=tournament)

    clock = RoundClock.objects.get()
    clock.paused_at -= datetime.timedelta(minutes=5)  # five minutes of pause
    clock.save()
    resumed = services.resume_clock(tournament=tournament)
    assert resumed.status == ClockStatus.RUNNING
    clock.refresh_from_db()
    assert clock.paused_seconds == 300
    assert clock.paused_at is None
    assert clock.minutes == 40

    ended = services.end_clock(tournament=tournament)
    assert ended.status == ClockStatus.TIME_CALLED
    refused("time_called", services.end_clock, tournament=tournament)


def test_pause_before_start_is_refused(paired):
    refused("clock_not_started", services.pause_clock, tournament=paired.tournament)
    refused("clock_not_started", services.end_clock, tournament=paired.tournament)


def test_a_new_round_has_its_own_clock(paired):
    services.start_clock(tournament=paired.tournament)
    for index in (0, 2):
        paired.win(index)
        paired.win(index)
    paired.pair((0, 2), (1, 3))
    time = selectors.round_time(tournament=paired.tournament)
    assert time.round.number == 2
    assert time.clock.status == ClockStatus.NOT_STARTED


# Time extensions ---------------------------------------------------------------------------


def extend(desk, minutes=3, reason=ExtensionReason.DECK_CHECK, key=None, player=0):
    return services.extend_time(
        match=desk.match_of(player),
        minutes=minutes,
        reason=reason,
        given_by=desk.floor,
        client_key=key or uuid.uuid4(),
    )


def test_an_extension_is_recorded_once_per_key(paired):
    key = uuid.uuid4()
    first = extend(paired, key=key)
    again = extend(paired, key=key, minutes=5)
    assert again.pk == first.pk
    assert list(Extension.objects.values_list("minutes", "reason")) == [(3, "deck_check")]


@pytest.mark.parametrize("minutes", [0, -3, 31, 600])
def test_absurd_minutes_are_refused(paired, minutes):
    refused("bad_minutes", extend, desk=paired, minutes=minutes)
    assert not Extension.objects.exists()


def test_a_table_gets_at_most_an_hour(paired):
    extend(paired, minutes=30)
    extend(paired, minutes=30)
    error = refused("too_much_time", extend, desk=paired, minutes=1)
    assert "60" in str(error)


def test_a_bad_reason_is_refused(paired):
    refused("bad_reason", extend, desk=paired, reason="nap")


def test_no_extension_for_a_finished_match(paired):
    match = paired.match_of(0)
    paired.finish(0)
    with pytest.raises(DomainError) as caught:
        services.extend_time(
            match=match, minutes=2, reason="ruling", given_by=paired.floor, client_key=uuid.uuid4()
        )
    assert caught.value.code == "match_over"


def test_no_extension_in_an_earlier_round(paired):
    match = paired.match_of(0)
    for index in (0, 2):
        paired.win(index)
        paired.win(index)
    paired.pair((0, 2), (1, 3))
    with pytest.raises(DomainError) as caught:
        services.extend_time(
            match=match, minutes=2, reason="ruling", given_by=paired.floor, client_key=uuid.uuid4()
        )
    assert caught.value.code == "old_round"
    assert not Extension.objects.exists()


def test_the_table_list_shows_extensions_and_their_end(paired):
    services.start_clock(tournament=paired.tournament)
    extend(paired, minutes=3)
    extend(paired, minutes=2, reason=ExtensionReason.RULING)
    time = selectors.round_time(tournament=paired.tournament)
    rows = selectors.table_rows(round_=time.round, clock=time.clock)
    assert [(row.match.table, row.extra) for row in rows] == [(1, 5), (2, 0)]
    assert rows[0].ends_at == time.clock.ends_at + datetime.timedelta(minutes=5)
    with CaptureQueriesContext(connection) as queries:
        extended = selectors.table_rows(round_=time.round, clock=time.clock, extended_only=True)
        names = [row.match.player2.player.name for row in extended]
    assert [row.match.table for row in extended] == [1]
    # The clock page's list reads as the full one: the players, the extensions, the end.
    assert names == [rows[0].match.player2.player.name]
    assert extended[0].match.player1.player.name == rows[0].match.player1.player.name
    assert [e.pk for e in extended[0].extensions] == [e.pk for e in rows[0].extensions]
    assert (extended[0].extra, extended[0].ends_at) == (rows[0].extra, rows[0].ends_at)
    assert len(queries) == 2


def test_the_clock_pages_list_is_one_query_when_no_table_has_extra_time(paired):
    services.start_clock(tournament=paired.tournament)
    time = selectors.round_time(tournament=paired.tournament)

    with CaptureQueriesContext(connection) as queries:
        assert selectors.table_rows(round_=time.round, clock=time.clock, extended_only=True) == []
    assert len(queries) == 1


# Judge calls -------------------------------------------------------------------------------


def call(desk, table=1, caller="phone-a"):
    return services.call_judge(tournament=desk.tournament, table=table, caller=caller)


def test_a_call_is_open_until_resolved_and_one_per_table(paired):
    first = call(paired)
    assert first.status == CallStatus.OPEN
    assert first.match == paired.match_of(0)
    refused("call_open", call, desk=paired)
    services.resolve_call(call=first, judge=paired.floor)
    first.refresh_from_db()
    assert first.status == CallStatus.RESOLVED
    assert first.resolved_by == paired.floor


def test_a_table_may_not_call_again_within_a_minute(paired):
    first = call(paired)
    services.resolve_call(call=first, judge=paired.floor)
    refused("call_too_soon", call, desk=paired, caller="phone-b")
    JudgeCall.objects.filter(pk=first.pk).update(
        created_at=timezone.now() - datetime.timedelta(minutes=2)
    )
    assert call(paired, caller="phone-b").status == CallStatus.OPEN


def test_one_phone_may_not_spam_calls_across_tables(desk):
    desk = desk
    from tests.factories import crowd

    crowd(desk, 4)
    desk.pair((0, 1), (2, 3), (4, 5), (6, 7))
    for table in (1, 2, 3):
        call(desk, table=table)
    error = refused("call_spam", call, desk=desk, table=4)
    assert "Слишком много вызовов" in str(error)
    assert JudgeCall.objects.count() == 3


def test_a_call_needs_a_table_of_the_round(paired):
    refused("no_table", call, desk=paired, table=7)


def test_claim_is_seen_taken_and_another_judge_may_not_take_it(paired):
    from tests.factories import UserFactory
    from tournaments import services as tournament_services
    from tournaments.models import StaffRole

    other = UserFactory()
    tournament_services.add_staff(
        tournament=paired.tournament, user=other, role=StaffRole.FLOOR_JUDGE
    )
    open_call = call(paired)
    claimed = services.claim_call(call=open_call, judge=paired.floor)
    assert (claimed.status, claimed.claimed_by) == (CallStatus.CLAIMED, paired.floor)
    assert services.claim_call(call=open_call, judge=paired.floor).pk == open_call.pk
    refused("call_taken", services.claim_call, call=open_call, judge=other)
    refused("call_taken", services.resolve_call, call=open_call, judge=other)
    refused("call_taken", services.escalate_call, call=open_call, judge=other)


def test_an_escalated_call_is_the_head_judges(paired):
    open_call = call(paired)
    services.claim_call(call=open_call, judge=paired.floor)
    escalated = services.escalate_call(call=open_call, judge=paired.floor)
    assert escalated.status == CallStatus.ESCALATED
    assert escalated.escalated_at is not None
    assert [
        c.pk for c in selectors.open_calls(tournament=paired.tournament, escalated_only=True)
    ] == [open_call.pk]
    refused("call_escalated", services.resolve_call, call=open_call, judge=paired.floor)
    services.resolve_call(call=open_call, judge=paired.head)
    refused("call_resolved", services.claim_call, call=open_call, judge=paired.head)


def test_open_calls_come_oldest_first(desk):
    from tests.factories import crowd

    crowd(desk, 2)
    desk.pair((0, 1), (2, 3), (4, 5))
    for table, phone in ((3, "a"), (1, "b"), (2, "c")):
        call(desk, table=table, caller=phone)
    assert [c.table for c in selectors.open_calls(tournament=desk.tournament)] == [3, 1, 2]


def test_the_caller_is_kept_as_a_keyed_hash():
    key = services.caller_key("192.168.1.20")
    assert "192.168" not in key and len(key) == 64
    assert key == services.caller_key("192.168.1.20") != services.caller_key("192.168.1.21")


# Public pages ------------------------------------------------------------------------------


def test_a_new_link_replaces_the_old(desk):
    pages = services.ensure_public_pages(tournament=desk.tournament)
    old = pages.token
    assert len(old) >= 20
    services.renew_public_link(tournament=desk.tournament)
    assert selectors.pages_by_token(old) is None
    assert selectors.pages_by_token(PublicPages.objects.get().token).tournament == desk.tournament


def test_standings_are_published_through_the_last_finished_round(paired):
    refused("no_finished_round", services.publish_standings, tournament=paired.tournament)
    for index in (0, 2):
        paired.win(index)
        paired.win(index)
    pages = services.publish_standings(tournament=paired.tournament)
    assert pages.standings_through == 1
    assert services.hide_standings(tournament=paired.tournament).standings_through is None


# The players' own reports of results (issue 35) --------------------------------------------


def report(match, seat, games, *, phone="phone-a", key=None, code=None):
    return services.report_result(
        match=match,
        seat=seat,
        code=code if code is not None else services.seat_code(match_id=match.pk, seat=seat),
        games=games,
        phone=phone,
        client_key=key or uuid.uuid4(),
    )


def confirm(match, seat, *, phone="phone-b", key=None, code=None):
    return services.confirm_result(
        match=match,
        seat=seat,
        code=code if code is not None else services.seat_code(match_id=match.pk, seat=seat),
        phone=phone,
        client_key=key or uuid.uuid4(),
    )


def refused_report(error_code, match, seat, games, **kwargs):
    before = (
        list(ReportEntry.objects.values_list("id", flat=True)),
        list(TableReport.objects.values_list("id", "state", "games")),
        Game.objects.count(),
        JudgeCall.objects.count(),
    )
    with pytest.raises(DomainError) as caught:
        report(match, seat, games, **kwargs)
    assert caught.value.code == error_code
    after = (
        list(ReportEntry.objects.values_list("id", flat=True)),
        list(TableReport.objects.values_list("id", "state", "games")),
        Game.objects.count(),
        JudgeCall.objects.count(),
    )
    assert after == before
    return caught.value


def test_a_seat_code_is_six_digits_of_its_own():
    codes = {services.seat_code(match_id=m, seat=s) for m in (1, 2) for s in (1, 2)}
    assert len(codes) == 4 and all(len(c) == 6 and c.isdigit() for c in codes)


def test_a_report_confirmed_by_the_opponent_is_the_result_with_stacking(paired):
    match = paired.match_of(0)
    first = report(match, 1, [1, 2, 1])
    assert (first.state, first.seat, first.games) == ("reported", 1, [1, 2, 1])
    match.refresh_from_db()
    assert not match.has_ended
    done = confirm(match, 2)
    assert done.state == "confirmed"
    match.refresh_from_db()
    assert (match.player1_wins, match.player2_wins, match.draws, match.end_reason) == (
        2,
        1,
        0,
        "wins_needed",
    )
    assert list(ReportEntry.objects.filter(match=match).values_list("seat", "action")) == [
        (1, "reported"),
        (2, "confirmed"),
    ]


def test_an_identical_report_of_the_opponent_confirms_too(paired):
    match = paired.match_of(0)
    report(match, 2, [2, 2])
    report(match, 1, [2, 2], phone="phone-b")
    match.refresh_from_db()
    assert (match.player1_wins, match.player2_wins, match.has_ended) == (0, 2, True)
    assert TableReport.objects.get(match=match).state == "confirmed"


def test_a_different_report_is_a_dispute_that_calls_a_judge_and_waits(paired):
    match = paired.match_of(0)
    report(match, 1, [1, 1])
    disputed = report(match, 2, [2, 2], phone="phone-b")
    assert (disputed.state, disputed.games, disputed.other_games) == ("disputed", [1, 1], [2, 2])
    call = JudgeCall.objects.get()
    assert (call.table, call.reason, call.status, call.match) == (1, "dispute", "open", match)
    match.refresh_from_db()
    assert not match.has_ended and match.games.count() == 0
    refused_report("report_disputed", match, 1, [2, 2])
    # The staff enter the result as today; the report then shows the match as done.
    tournament_services.enter_result(match=match, player1_wins=2, player2_wins=0, draws=0)
    refused_report("match_ended", match, 1, [1, 1])


def test_a_dispute_marks_the_tables_open_call(paired):
    match = paired.match_of(0)
    services.call_judge(tournament=paired.tournament, table=1, caller="x")
    report(match, 1, [1, 1])
    report(match, 2, [1, 2, 2], phone="phone-b")
    call = JudgeCall.objects.get()
    assert call.reason == "dispute"


def test_a_player_cannot_confirm_their_own_report(paired):
    match = paired.match_of(0)
    report(match, 1, [1, 1])
    with pytest.raises(DomainError) as caught:
        confirm(match, 1, phone="phone-a")
    assert caught.value.code == "own_report"
    assert (
        caught.value.message
        == "Нельзя подтвердить свой собственный результат: его подтверждает соперник."
    )
    match.refresh_from_db()
    assert not match.has_ended
    assert TableReport.objects.get().state == "reported"


def test_nothing_to_confirm(paired):
    with pytest.raises(DomainError) as caught:
        confirm(paired.match_of(0), 2)
    assert caught.value.code == "nothing_to_confirm"


def test_a_wrong_code_or_seat_changes_nothing(paired):
    match = paired.match_of(0)
    other = paired.match_of(2)
    error = refused_report("bad_code", match, 1, [1, 1], code="000000x")
    assert "код" in str(error.message)
    # The opponent's code, or the same seat's code of another table, is not this player's.
    refused_report("bad_code", match, 1, [1, 1], code=services.seat_code(match_id=match.pk, seat=2))
    refused_report("bad_code", match, 1, [1, 1], code=services.seat_code(match_id=other.pk, seat=1))
    refused_report("bad_seat", match, 3, [1, 1], code="1")


def test_repeated_taps_record_once(paired):
    match = paired.match_of(0)
    key = uuid.uuid4()
    first = report(match, 1, [1, 1], key=key)
    again = report(match, 1, [1, 1], key=key)
    assert again.pk == first.pk
    assert ReportEntry.objects.count() == 1
    # The same report again under a new key (a reload): said so, nothing changed.
    error = refused_report("already_reported", match, 1, [1, 1])
    assert "соперник" in str(error.message)


def test_a_player_may_change_their_report_before_it_is_confirmed(paired):
    match = paired.match_of(0)
    report(match, 1, [1, 1])
    changed = report(match, 1, [1, 2, 1])
    assert (changed.state, changed.games) == ("reported", [1, 2, 1])
    assert ReportEntry.objects.count() == 2


@pytest.mark.parametrize(
    ("games", "code"),
    [
        ([1, 1, 2], "games_after_end"),  # 2–0 ends the match: no game 3
        ([1, 1, 1, 1], "games_after_end"),
        ([], "no_games"),
        ([3], "bad_games"),
    ],
)
def test_an_impossible_report_is_refused(paired, games, code):
    refused_report(code, paired.match_of(0), 1, games)


def test_a_report_for_a_finished_match_or_an_old_round(paired):
    match = paired.match_of(0)
    tournament_services.enter_result(match=match, player1_wins=2, player2_wins=1, draws=0)
    error = refused_report("match_ended", match, 1, [1, 1])
    assert error.message == "У этого матча уже есть результат: сообщать нечего."


def test_a_phone_that_reported_for_one_table_cannot_report_for_another(paired):
    report(paired.match_of(0), 1, [1, 1], phone="same")
    refused_report("phone_other_table", paired.match_of(2), 1, [1, 1], phone="same")
    # The opponent confirms on the same phone, with their own code: the same table.
    confirm(paired.match_of(0), 2, phone="same")


def test_reporting_is_limited_per_table(paired, settings):
    match = paired.match_of(0)
    for _attempt in range(services.TABLE_REPORT_LIMIT.requests):
        with pytest.raises(DomainError):
            report(match, 1, [1, 1], code="bad")
    refused_report("report_too_often", match, 1, [1, 1])
    # Another table is not held up.
    report(paired.match_of(2), 1, [1, 1], phone="phone-c")


def test_a_game_decided_by_a_penalty_stands_and_is_not_the_players_to_report(desk):
    desk.tournament.level = "professional"
    desk.tournament.save()
    desk.pair((0, 1), (2, 3))
    desk.issue(0, "1.1")  # a game loss now: game 1 goes to player 1
    match = desk.match_of(0)
    slots = selectors.report_slots(match=match)
    assert [(s.number, s.winner, s.by_penalty, s.recorded) for s in slots] == [
        (1, 2, True, True),
        (2, None, False, False),
        (3, None, False, False),
    ]
    # Game 1 is the penalty's: two more games for player 2 are one too many.
    refused_report("games_after_end", match, 1, [2, 2])
    report(match, 1, [1, 2])
    confirm(match, 2)
    match.refresh_from_db()
    assert (match.player1_wins, match.player2_wins, match.has_ended) == (1, 2, True)


def test_a_match_lost_by_penalty_is_finished_for_the_report(desk):
    desk.tournament.level = "professional"
    desk.tournament.save()
    desk.pair((0, 1), (2, 3))
    desk.issue(0, "6.1")  # a disqualification: the match is lost at once
    lost = Match.objects.get(round__tournament=desk.tournament, table=1)
    refused_report("match_ended", lost, 2, [2, 2])


def test_a_deferred_game_loss_lands_on_its_game_between_the_reported_games(desk):
    desk.tournament.level = "professional"
    desk.tournament.save()
    desk.pair((0, 1), (2, 3))
    desk.issue(0, "1.1", deferred=True)  # player 0 loses game 2, the game after this one
    match = desk.match_of(0)
    slots = selectors.report_slots(match=match)
    assert [(s.number, s.winner, s.by_penalty) for s in slots] == [
        (1, None, False),
        (2, 2, True),
        (3, None, False),
    ]
    # Game 1 to player 0, game 2 is the penalty's (player 1), game 3 to player 0: 2–1.
    report(match, 1, [1, 1])
    confirm(match, 2)
    match.refresh_from_db()
    games = list(match.games.order_by("number").values_list("winner_id", "decided_by_penalty"))
    assert games == [
        (desk.players[0].pk, False),
        (desk.players[1].pk, True),
        (desk.players[0].pk, False),
    ]
    assert (match.player1_wins, match.player2_wins, match.end_reason) == (2, 1, "wins_needed")
    # Reporting three played games would put a game after the match's end.


def test_with_a_deferred_loss_a_2_0_report_is_impossible(desk):
    desk.tournament.level = "professional"
    desk.tournament.save()
    desk.pair((0, 1), (2, 3))
    desk.issue(0, "1.1", deferred=True)
    match = desk.match_of(0)
    refused_report("games_after_end", match, 2, [2, 2, 2])
    report(match, 2, [2])  # game 1 to player 1, game 2 by penalty: 0–2
    confirm(match, 1)
    match.refresh_from_db()
    assert (match.player1_wins, match.player2_wins, match.has_ended) == (0, 2, True)


def test_a_time_called_report_ends_the_match_undecided(paired):
    match = paired.match_of(0)
    report(match, 1, [1, 0])
    confirm(match, 2)
    match.refresh_from_db()
    assert (match.player1_wins, match.player2_wins, match.draws, match.end_reason) == (
        1,
        0,
        1,
        "time_called",
    )


# Check-in ----------------------------------------------------------------------------------


def test_check_in_with_the_code_or_at_the_desk(desk):
    first, second = desk.players[0], desk.players[1]
    code = services.check_in_code(registration_id=first.pk)
    done = services.check_in_by_name(
        tournament=desk.tournament, name=f"  {first.player.name.upper()} ", code=code
    )
    assert (done.registration, done.round_number, done.by) == (first, 1, None)
    again = services.check_in(registration=first, code=code)
    assert again.pk == done.pk
    at_desk = services.check_in(registration=second, by=desk.organiser)
    assert at_desk.by == desk.organiser
    assert selectors.check_in_counts(tournament=desk.tournament, round_number=1) == (2, 4)


def test_a_wrong_check_in_code_changes_nothing(desk):
    with pytest.raises(DomainError) as caught:
        services.check_in_by_name(
            tournament=desk.tournament, name=desk.players[0].player.name, code="123"
        )
    assert caught.value.code == "no_such_player"
    assert not CheckIn.objects.exists()


def test_check_in_is_before_round_1_unless_every_round_is_asked(desk):
    desk.pair((0, 1), (2, 3))
    with pytest.raises(DomainError) as caught:
        services.check_in(registration=desk.players[0], by=desk.organiser)
    assert caught.value.code == "check_in_closed"
    services.set_check_in_every_round(tournament=desk.tournament, every_round=True)
    done = services.check_in(registration=desk.players[0], by=desk.organiser)
    assert done.round_number == 2


def test_the_no_shows_are_dropped_in_one_step(desk):
    services.check_in(registration=desk.players[0], by=desk.organiser)
    services.check_in(registration=desk.players[2], by=desk.organiser)
    dropped = services.drop_no_shows(tournament=desk.tournament)
    assert sorted(r.pk for r in dropped) == sorted([desk.players[1].pk, desk.players[3].pk])
    statuses = dict(Registration.objects.values_list("pk", "status"))
    assert [statuses[r.pk] for r in desk.players] == ["playing", "dropped", "playing", "dropped"]
    with pytest.raises(DomainError) as caught:
        services.drop_no_shows(tournament=desk.tournament)
    assert caught.value.code == "no_no_shows"


def test_no_shows_are_not_dropped_while_a_round_is_under_way(desk):
    desk.pair((0, 1), (2, 3))
    services.set_check_in_every_round(tournament=desk.tournament, every_round=True)
    with pytest.raises(DomainError) as caught:
        services.drop_no_shows(tournament=desk.tournament)
    assert caught.value.code == "round_in_progress"
    assert not Registration.objects.filter(status="dropped").exists()


def test_a_playoff_final_is_reported_to_its_own_best_of_and_level_games_go_to_a_judge(db):
    from tests.factories import Desk
    from tests.tournaments.test_playoff_services import by_seed, match_of, play_swiss

    desk = Desk.create(players=4, level="professional")
    play_swiss(desk, 2)
    tournament_services.set_playoff(
        tournament=desk.tournament, size="2", best_of=3, final_best_of=5
    )
    tournament_services.publish_cut(tournament=desk.tournament)
    final = match_of(by_seed(desk)[1])
    assert final.round.games_best_of == 5

    # Level games cannot end a playoff match from the phones: a judge decides the winner.
    refused_report("playoff_level", final, 1, [1, 2])
    # A best of five is not over at 2–0: the third win is still to play.
    refused_report("games_after_end", final, 1, [1, 1, 1, 1])
    report(final, 1, [1, 2, 1, 1])
    confirm(final, 2)
    final.refresh_from_db()
    assert (final.player1_wins, final.player2_wins, final.has_ended) == (3, 1, True)
    assert final.won_by == final.player1_id
