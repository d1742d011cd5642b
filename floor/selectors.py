"""Reads of the round on the floor."""

import datetime
from dataclasses import dataclass

from django.db.models import (
    Count,
    Exists,
    F,
    OuterRef,
    Q,
    Sum,
)
from django.utils import timezone

from decks.models import DeckCheck, DeckCheckPick
from floor.clock import Clock, read_clock
from floor.models import CallStatus, JudgeCall, PublicPages, RoundClock, TimeExtension
from tournaments.models import Match, Round, Tournament
from tournaments.selectors import latest_round


def read(clock: RoundClock, now: datetime.datetime | None = None) -> Clock:
    return read_clock(
        minutes=clock.minutes,
        started_at=clock.started_at,
        paused_at=clock.paused_at,
        paused_seconds=clock.paused_seconds,
        ended_at=clock.ended_at,
        now=now or timezone.now(),
    )


@dataclass(frozen=True)
class RoundTime:
    """The latest round and its clock, as every page shows it."""

    round: Round
    clock: Clock
    now: datetime.datetime

    @property
    def now_ms(self) -> int:
        return int(self.now.timestamp() * 1000)

    @property
    def ends_at_ms(self) -> int | None:
        return int(self.clock.ends_at.timestamp() * 1000) if self.clock.ends_at else None


def round_time(*, tournament: Tournament) -> RoundTime | None:
    """The latest round's clock (one query); a round whose clock was never started reads as
    not started, at the tournament's round length."""
    round_ = (
        Round.objects.filter(tournament=tournament)
        .select_related("clock")
        .order_by("-number")
        .first()
    )
    if round_ is None:
        return None
    now = timezone.now()
    try:
        clock = round_.clock
    except RoundClock.DoesNotExist:  # a round never started has no clock row
        clock = RoundClock(round=round_, minutes=tournament.round_minutes)
    return RoundTime(round=round_, clock=read(clock, now), now=now)


def extra_minutes(*, match: Match) -> int:
    extra = TimeExtension.objects.filter(match=match).aggregate(total=Sum("minutes"))["total"]
    return extra or 0


def match_at_table(*, tournament: Tournament, table: int, lock: bool = False) -> Match | None:
    """The latest round's match at the table (not a bye)."""
    round_ = latest_round(tournament=tournament)
    if round_ is None:
        return None
    matches = Match.objects.filter(round=round_, table=table, player2__isnull=False)
    if not lock:
        match = matches.select_related("player1__player", "player2__player").order_by("id").first()
        if match is not None:
            match.round = round_
        return match
    return (
        # The match's row only, and no key change: a record naming the match need not wait.
        matches.select_for_update(of=("self",), no_key=True)
        .select_related("round", "player1__player", "player2__player")
        .first()
    )


def last_finished_round(*, tournament: Tournament) -> int | None:
    """The number of the latest round whose matches have all ended."""
    rounds = (
        Round.objects.filter(tournament=tournament)
        .annotate(open=Count("matches", filter=Q(matches__ended_at__isnull=True)))
        .filter(open=0)
        .order_by("-number")
        .values_list("number", flat=True)
    )
    return rounds.first()


@dataclass(frozen=True)
class TableRow:
    match: Match
    extensions: list[TimeExtension]
    extra: int
    ends_at: datetime.datetime | None

    @property
    def ends_at_ms(self) -> int | None:
        return int(self.ends_at.timestamp() * 1000) if self.ends_at else None


def table_rows(
    *, round_: Round, clock: Clock | None, extended_only: bool = False
) -> list[TableRow]:
    """The round's tables (byes left out) with their extensions, in table order: two queries
    (one when no table has extra time, as on most clock changes)."""
    tables = Match.objects.filter(round=round_, player2__isnull=False)
    if extended_only:
        # A test of existence rather than a join: the join repeats a match per extension.
        tables = tables.filter(Exists(TimeExtension.objects.filter(match=OuterRef("pk"))))
    matches = list(
        tables.select_related("player1__player", "player2__player").order_by(
            F("table").asc(nulls_last=True), "id"
        )
    )
    given: dict[int, list[TimeExtension]] = {match.pk: [] for match in matches}
    if given:
        extensions = TimeExtension.objects.filter(match_id__in=given).order_by("given_at", "id")
        for extension in extensions:
            given[extension.match_id].append(extension)
    rows = []
    for match in matches:
        extra = sum(extension.minutes for extension in given[match.pk])
        ends = clock.table_end(extra) if clock is not None and extra else None
        rows.append(TableRow(match=match, extensions=given[match.pk], extra=extra, ends_at=ends))
    return rows


class TableState:
    """What the head judge sees of a table at a glance, in the order one state hides another:
    a call waiting matters most, then a table done, then a deck check not yet recorded, then
    extra time; every other table is simply playing."""

    CALL = "call"
    FINISHED = "finished"
    DECK_CHECK = "deck-check"
    EXTRA_TIME = "extra-time"
    PLAYING = "playing"


@dataclass(frozen=True)
class GlanceTile:
    row: TableRow
    state: str

    @property
    def still_playing(self) -> bool:
        return not self.row.match.has_ended


def glance(*, round_: Round, rows: list[TableRow]) -> list[GlanceTile]:
    """Every table of the round with its state (three queries beside the rows: the open calls'
    tables, the tables picked for a deck check, and the tables already checked)."""
    calling = set(
        JudgeCall.objects.filter(round=round_)
        .exclude(status=CallStatus.RESOLVED)
        .values_list("match_id", flat=True)
    )
    picked: set[int] = set()
    for tables in DeckCheckPick.objects.filter(round=round_).values_list("tables", flat=True):
        picked.update(int(table) for table in tables)
    checked = set(
        DeckCheck.objects.filter(round=round_, table__isnull=False).values_list("table", flat=True)
    )
    tiles = []
    for row in rows:
        match = row.match
        if match.pk in calling:
            state = TableState.CALL
        elif match.has_ended:
            state = TableState.FINISHED
        elif match.table in picked and match.table not in checked:
            state = TableState.DECK_CHECK
        elif row.extra:
            state = TableState.EXTRA_TIME
        else:
            state = TableState.PLAYING
        tiles.append(GlanceTile(row=row, state=state))
    return tiles


def open_calls(*, tournament: Tournament, escalated_only: bool = False) -> list[JudgeCall]:
    """Calls not yet resolved, oldest first."""
    calls = JudgeCall.objects.filter(tournament=tournament).exclude(status=CallStatus.RESOLVED)
    if escalated_only:
        calls = calls.filter(status=CallStatus.ESCALATED)
    return list(
        calls.select_related(
            "match__player1__player", "match__player2__player", "claimed_by"
        ).order_by("created_at", "id")
    )


def open_call_count(*, tournament: Tournament) -> int:
    """How many calls are waiting for a judge or with one (not resolved): the staff's badge."""
    return (
        JudgeCall.objects.filter(tournament=tournament).exclude(status=CallStatus.RESOLVED).count()
    )


def call_of(*, tournament: Tournament, call_id: int) -> JudgeCall | None:
    return JudgeCall.objects.filter(tournament=tournament, pk=call_id).first()


def open_call_at(*, tournament: Tournament, table: int) -> JudgeCall | None:
    return (
        JudgeCall.objects.filter(tournament=tournament, table=table)
        .exclude(status=CallStatus.RESOLVED)
        .order_by("created_at", "id")
        .first()
    )


@dataclass(frozen=True)
class PairingLine:
    name: str
    table: int | None
    opponent: str | None


def public_pairings(*, round_: Round, query: str = "") -> list[PairingLine]:
    """Each player of the round once, by name, with their table and opponent: names only (one
    query of plain values, so that hundreds of phones a minute stay cheap)."""
    folded = query.casefold().replace("ё", "е")

    def wanted(name: str) -> bool:
        return not folded or folded in name.casefold().replace("ё", "е")

    lines = []
    # Only the lines the search keeps are made: a phone's search reads 600 names at 300 tables.
    rows = (
        Match.objects.filter(round=round_)
        .order_by("table", "id")
        .values_list("table", "player1__player__name", "player2__player__name")
    )
    for table, first, second in rows:
        if wanted(first):
            lines.append(PairingLine(first, table, second))
        if second is not None and wanted(second):
            lines.append(PairingLine(second, table, first))
    return sorted(lines, key=lambda line: line.name.casefold())


def pages_by_token(token: str) -> PublicPages | None:
    if not token or len(token) > 40:
        return None
    return PublicPages.objects.filter(token=token).select_related("tournament").first()


def public_pages(*, tournament: Tournament) -> PublicPages | None:
    return PublicPages.objects.filter(tournament=tournament).first()


# The judge report --------------------------------------------------------------------------


def report_extensions(*, tournament: Tournament) -> list[TimeExtension]:
    return list(
        TimeExtension.objects.filter(match__round__tournament=tournament)
        .select_related("match__round", "match__player1__player", "match__player2__player")
        .select_related("given_by")
        .order_by("match__round__number", "match__table", "given_at", "id")
    )


def report_calls(*, tournament: Tournament) -> list[JudgeCall]:
    return list(
        JudgeCall.objects.filter(tournament=tournament)
        .select_related("round", "claimed_by", "resolved_by")
        .order_by("created_at", "id")
    )
