"""The round clock's arithmetic: pure, no ORM. The server's moments in, the time left out.

A round runs for its minutes of running time; pauses do not count. Time is called when the
running time is used up or when the organiser ends the round early, whichever comes first. A
table with time extensions plays on for its extra minutes after time is called.
"""

import datetime
from dataclasses import dataclass
from enum import StrEnum


class ClockStatus(StrEnum):
    NOT_STARTED = "not_started"
    RUNNING = "running"
    PAUSED = "paused"
    TIME_CALLED = "time_called"


@dataclass(frozen=True)
class Clock:
    status: ClockStatus
    seconds_left: int  # of the round's own time (0 once time is called)
    ends_at: datetime.datetime | None  # while running: when time will be called
    time_called_at: datetime.datetime | None

    @property
    def is_running(self) -> bool:
        return self.status == ClockStatus.RUNNING

    @property
    def is_paused(self) -> bool:
        return self.status == ClockStatus.PAUSED

    @property
    def is_started(self) -> bool:
        return self.status != ClockStatus.NOT_STARTED

    @property
    def time_is_called(self) -> bool:
        return self.status == ClockStatus.TIME_CALLED

    def table_end(self, extra_minutes: int) -> datetime.datetime | None:
        """When a table with extra minutes ends: known while running or once time is called."""
        base = self.time_called_at if self.time_is_called else self.ends_at
        return base + datetime.timedelta(minutes=extra_minutes) if base is not None else None


def read_clock(
    *,
    minutes: int,
    started_at: datetime.datetime | None,
    paused_at: datetime.datetime | None,
    paused_seconds: int,
    ended_at: datetime.datetime | None,
    now: datetime.datetime,
) -> Clock:
    if started_at is None:
        return Clock(ClockStatus.NOT_STARTED, minutes * 60, None, None)
    length = datetime.timedelta(minutes=minutes)
    paused = datetime.timedelta(seconds=paused_seconds)
    natural_end = started_at + length + paused
    if paused_at is not None:
        # While paused the end moves on with the pause: it is where it would be if resumed now.
        natural_end += max(datetime.timedelta(0), (ended_at or now) - paused_at)
    if ended_at is not None and ended_at < natural_end:
        return Clock(ClockStatus.TIME_CALLED, 0, None, ended_at)
    if now >= natural_end:
        return Clock(ClockStatus.TIME_CALLED, 0, None, natural_end)
    left = int((natural_end - now).total_seconds() + 0.999)  # a partly used second still shows
    if paused_at is not None:
        return Clock(ClockStatus.PAUSED, left, None, None)
    return Clock(ClockStatus.RUNNING, left, natural_end, None)
