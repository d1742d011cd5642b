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
from floor.models import CallStatus, ExtensionReason, JudgeCall, PublicPages, RoundClock
from floor.models import TimeExtension as Extension

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
