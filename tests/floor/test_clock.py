"""The clock's arithmetic, without the database."""

import datetime

from floor.clock import ClockStatus, read_clock

T0 = datetime.datetime(2026, 12, 5, 10, 0, tzinfo=datetime.UTC)


def at(minutes: float) -> datetime.datetime:
    return T0 + datetime.timedelta(minutes=minutes)


def clock(now, *, started=T0, paused_at=None, paused_seconds=0, ended_at=None, minutes=50):
    return read_clock(
        minutes=minutes,
        started_at=started,
        paused_at=paused_at,
        paused_seconds=paused_seconds,
        ended_at=ended_at,
        now=now,
    )


def test_not_started_shows_the_whole_round():
    state = clock(at(5), started=None)
    assert (state.status, state.seconds_left, state.ends_at) == (
        ClockStatus.NOT_STARTED,
        3000,
        None,
    )


def test_running_counts_down_to_its_end():
    state = clock(at(10))
    assert state.status == ClockStatus.RUNNING
    assert state.seconds_left == 40 * 60
    assert state.ends_at == at(50)


def test_a_pause_stops_the_time_and_moves_the_end():
    paused = clock(at(30), paused_at=at(10))
    assert (paused.status, paused.seconds_left, paused.ends_at) == (ClockStatus.PAUSED, 2400, None)
    resumed = clock(at(30), paused_seconds=20 * 60)
    assert resumed.ends_at == at(70)
    assert resumed.seconds_left == 40 * 60


def test_time_is_called_at_the_end_and_tables_play_on_for_their_extra_minutes():
    state = clock(at(55))
    assert (state.status, state.seconds_left) == (ClockStatus.TIME_CALLED, 0)
    assert state.time_called_at == at(50)
    assert state.table_end(3) == at(53)


def test_ending_early_calls_time_then():
    state = clock(at(45), ended_at=at(40))
    assert state.time_called_at == at(40)
    assert state.table_end(5) == at(45)


def test_ending_while_paused_calls_time_at_the_end():
    state = clock(at(45), paused_at=at(10), ended_at=at(20))
    assert state.status == ClockStatus.TIME_CALLED
    assert state.time_called_at == at(20)


def test_a_table_end_while_running_follows_the_round():
    assert clock(at(1)).table_end(3) == at(53)
    assert clock(at(1), paused_at=at(1)).table_end(3) is None
