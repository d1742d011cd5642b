"""Reads of the round on the floor."""

import datetime
from dataclasses import dataclass

from django.db.models import (
    Count,
    Exists,
    F,
    OuterRef,
    Q,
    QuerySet,
    Sum,
)
from django.utils import timezone

from decks.models import DeckCheck, DeckCheckPick
from floor.clock import Clock, read_clock
from floor.models import (
    CallStatus,
    CheckIn,
    JudgeCall,
    PublicPages,
    ReportEntry,
    ReportState,
    RoundClock,
    TableReport,
    TimeExtension,
)
from judging.models import PenaltyRecord
from judging.penalties import AppliesTo, Moment
from tournaments.models import Match, Registration, RegistrationStatus, Round, Tournament
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


def _with_extensions(matches: list[Match], clock: Clock | None) -> list[TableRow]:
    """The matches as table rows with their extensions: one query (none for no match)."""
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
    return _with_extensions(matches, clock)


def _named(matches: QuerySet[Match]) -> QuerySet[Match]:
    """The matches with their players' names beside them (``player1_name``, ``player2_name``):
    all the floor page shows of the players, at a third of the cost of reading their
    registrations and players as models (50 rows: 1 ms against 3 ms)."""
    return matches.annotate(
        player1_name=F("player1__player__name"), player2_name=F("player2__player__name")
    )


def table_row(*, round_: Round, clock: Clock | None, match_id: int) -> TableRow | None:
    """One table of the round (not a bye) with its extensions, or None when the match is not
    one of the round's tables: what a table's row on the floor page is redrawn from."""
    match = _named(Match.objects.filter(round=round_, player2__isnull=False, pk=match_id)).first()
    return _with_extensions([match], clock)[0] if match is not None else None


class TableState:
    """What the head judge and the scorekeeper see of a table at a glance, in the order one
    state hides another: players' reports that differ matter most, then a call waiting, then a
    table done (its result confirmed by both players, or entered by the staff), then a result
    reported and not yet confirmed, then a deck check not yet recorded, then extra time; every
    other table is simply playing (no result yet)."""

    DISPUTED = "disputed"
    CALL = "call"
    CONFIRMED = "confirmed"
    FINISHED = "finished"
    REPORTED = "reported"
    DECK_CHECK = "deck-check"
    EXTRA_TIME = "extra-time"
    PLAYING = "playing"


# The legend of the round at a glance, in the order a head judge scans it.
GLANCE_ORDER = (
    TableState.DISPUTED,
    TableState.CALL,
    TableState.REPORTED,
    TableState.DECK_CHECK,
    TableState.EXTRA_TIME,
    TableState.PLAYING,
    TableState.CONFIRMED,
    TableState.FINISHED,
)


def table_state(
    *, ended: bool, report: str | None, calling: bool, deck_check: bool, extended: bool
) -> str:
    """A table's state on the round at a glance, by the precedence ``TableState`` describes."""
    if report == ReportState.DISPUTED and not ended:
        return TableState.DISPUTED
    if calling:
        return TableState.CALL
    if ended:
        return TableState.CONFIRMED if report == ReportState.CONFIRMED else TableState.FINISHED
    if report == ReportState.REPORTED:
        return TableState.REPORTED
    if deck_check:
        return TableState.DECK_CHECK
    if extended:
        return TableState.EXTRA_TIME
    return TableState.PLAYING


class Show:
    """Which of the round's tables the floor page lists: by default those still playing (the
    ones the scorekeeper chases at the end of a round), or those of one result state, those
    done, or all of them."""

    PLAYING = "playing"
    DISPUTED = "disputed"
    REPORTED = "reported"
    NO_RESULT = "no-result"
    DONE = "done"
    ALL = "all"


SHOW_ORDER = (Show.PLAYING, Show.DISPUTED, Show.REPORTED, Show.NO_RESULT, Show.DONE, Show.ALL)
# A page of tables: a tablet's screen of rows, a few rows of tiles; the same at 16 tables as at
# 5,000, where the whole round on one page took over a second to read and draw.
TABLES_PER_PAGE = 50
_OPEN_REPORTS = (ReportState.REPORTED, ReportState.DISPUTED)


def _shown(round_: Round, show: str) -> QuerySet[Match]:
    """The round's tables the filter keeps. The tables still playing and those done are read
    from their own partial indexes (``match_round_table_playing`` / ``_ended``) in table order."""
    tables = Match.objects.filter(round=round_, player2__isnull=False, table__isnull=False)
    if show == Show.ALL:
        return tables
    if show == Show.DONE:
        return tables.filter(ended_at__isnull=False)
    playing = tables.filter(ended_at__isnull=True)
    if show == Show.DISPUTED:
        return playing.filter(player_report__state=ReportState.DISPUTED)
    if show == Show.REPORTED:
        return playing.filter(player_report__state=ReportState.REPORTED)
    if show == Show.NO_RESULT:
        reported = TableReport.objects.filter(match=OuterRef("pk"), state__in=_OPEN_REPORTS)
        return playing.exclude(Exists(reported))
    return playing


@dataclass(frozen=True)
class TablePage:
    """One page of the round's tables, by table number: ``previous_before`` and ``next_after``
    are the cursors of the pages around it (None where there is none)."""

    rows: list[TableRow]
    show: str
    previous_before: int | None
    next_after: int | None


def table_page(
    *,
    round_: Round,
    clock: Clock | None,
    show: str = Show.PLAYING,
    after: int | None = None,
    before: int | None = None,
    size: int | None = None,
) -> TablePage:
    """A page of the tables ``show`` keeps: those numbered above ``after`` (or the last page
    below ``before``), walked in table order on an index and stopped at the page, so it costs
    the same at any size of event. A table number is a round's own key (one table, one match),
    so it serves as the cursor. A cursor past either end gives an empty page that links back."""
    size = size or TABLES_PER_PAGE
    shown = _shown(round_, show)
    matches_of = _named(shown)
    previous_before: int | None = None
    next_after: int | None = None
    if before is not None:
        picked = list(matches_of.filter(table__lt=before).order_by("-table", "-id")[: size + 1])
        matches = picked[:size][::-1]
        if len(picked) > size:
            previous_before = matches[0].table
        last = matches[-1].table if matches else before - 1
        if shown.filter(table__gt=last).exists():
            next_after = last
    else:
        window = matches_of.filter(table__gt=after) if after is not None else matches_of
        picked = list(window.order_by("table", "id")[: size + 1])
        matches = picked[:size]
        if len(picked) > size:
            next_after = matches[-1].table
        first = matches[0].table if matches else (after or 0) + 1
        if after is not None and shown.filter(table__lt=first).exists():
            previous_before = first
    return TablePage(
        rows=_with_extensions(matches, clock),
        show=show,
        previous_before=previous_before,
        next_after=next_after,
    )


@dataclass(frozen=True)
class RoundCounts:
    """How many of the round's tables (byes left out) stand where: still playing, of those the
    ones whose players' reports differ or wait for the second player, and done, of those the
    ones both players confirmed."""

    playing: int
    disputed: int
    reported: int
    done: int
    confirmed: int

    @property
    def no_result(self) -> int:
        return self.playing - self.disputed - self.reported

    @property
    def tables(self) -> int:
        return self.playing + self.done

    def of(self, show: str) -> int:
        return {
            Show.PLAYING: self.playing,
            Show.DISPUTED: self.disputed,
            Show.REPORTED: self.reported,
            Show.NO_RESULT: self.no_result,
            Show.DONE: self.done,
            Show.ALL: self.tables,
        }[show]


def round_counts(*, round_: Round) -> RoundCounts:
    """The round's counts, in four queries each answered from an index: the tables still
    playing and those done (their partial indexes, without reading a match), the confirmed
    reports (the reports' round-and-state index), and the reports still open on a table still
    playing (the few reports waiting for a second player or a judge)."""
    tables = Match.objects.filter(round=round_, player2__isnull=False)
    playing = tables.filter(ended_at__isnull=True).count()
    done = tables.filter(ended_at__isnull=False).count()
    # Confirming a report enters the result in the same transaction, so a confirmed report is
    # always of a table done: counted without reading its match.
    confirmed = TableReport.objects.filter(round=round_, state=ReportState.CONFIRMED).count()
    still_open = dict(
        TableReport.objects.filter(
            round=round_, state__in=_OPEN_REPORTS, match__ended_at__isnull=True
        )
        .values("state")
        .annotate(count=Count("pk"))
        .values_list("state", "count")
    )
    return RoundCounts(
        playing=playing,
        disputed=still_open.get(ReportState.DISPUTED, 0),
        reported=still_open.get(ReportState.REPORTED, 0),
        done=done,
        confirmed=confirmed,
    )


@dataclass(frozen=True)
class GlanceTile:
    row: TableRow
    state: str

    @property
    def still_playing(self) -> bool:
        return not self.row.match.has_ended


@dataclass(frozen=True)
class Glance:
    """The round at a glance: the page's tiles, and the round's counts per state (the whole
    round's, not the page's)."""

    tiles: list[GlanceTile]
    counts: RoundCounts
    legend: list[tuple[str, int]]


def _deck_checks_waiting(round_: Round) -> set[int]:
    """The tables picked for a deck check in the round and not yet checked (two queries)."""
    picked: set[int] = set()
    for tables in DeckCheckPick.objects.filter(round=round_).values_list("tables", flat=True):
        picked.update(int(table) for table in tables)
    checked = set(
        DeckCheck.objects.filter(round=round_, table__isnull=False).values_list("table", flat=True)
    )
    return picked - checked


def glance(*, round_: Round, rows: list[TableRow]) -> Glance:
    """The page's tables with their states, and the round's count of tables in each state.

    The counts take the round's counts per result (``round_counts``) and correct them for the
    few tables a call, a deck check waiting or extra time colours otherwise: those are read one
    by one (one query), every other table's state follows from its result alone. So the cost
    is that of the calls, deck checks and extensions of the round, not of its tables: nine
    queries beside the rows (ten when a table is called, picked or given time), whatever the
    size of the event."""
    calling = set(
        JudgeCall.objects.filter(round=round_)
        .exclude(status=CallStatus.RESOLVED)
        .values_list("match_id", flat=True)
    )
    waiting = _deck_checks_waiting(round_)
    extended = set(TimeExtension.objects.filter(round=round_).values_list("match_id", flat=True))
    reports = dict(
        TableReport.objects.filter(match_id__in=[row.match.pk for row in rows]).values_list(
            "match_id", "state"
        )
    )
    tiles = []
    for row in rows:
        match = row.match
        state = table_state(
            ended=match.has_ended,
            report=reports.get(match.pk),
            calling=match.pk in calling,
            deck_check=match.table in waiting,
            extended=bool(row.extra),
        )
        tiles.append(GlanceTile(row=row, state=state))

    counts = round_counts(round_=round_)
    legend = {
        TableState.DISPUTED: counts.disputed,
        TableState.REPORTED: counts.reported,
        TableState.PLAYING: counts.no_result,
        TableState.CONFIRMED: counts.confirmed,
        TableState.FINISHED: counts.done - counts.confirmed,
        TableState.CALL: 0,
        TableState.DECK_CHECK: 0,
        TableState.EXTRA_TIME: 0,
    }
    if calling or waiting or extended:
        coloured = (
            Match.objects.filter(round=round_, player2__isnull=False)
            .filter(Q(pk__in=calling | extended) | Q(table__in=waiting))
            .values_list("pk", "table", "ended_at", "player_report__state")
        )
        for pk, table, ended_at, report in coloured:
            ended = ended_at is not None
            by_result = table_state(
                ended=ended, report=report, calling=False, deck_check=False, extended=False
            )
            state = table_state(
                ended=ended,
                report=report,
                calling=pk in calling,
                deck_check=table in waiting,
                extended=pk in extended,
            )
            legend[by_result] -= 1
            legend[state] += 1
    return Glance(
        tiles=tiles, counts=counts, legend=[(state, legend[state]) for state in GLANCE_ORDER]
    )


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
        # By the extensions' own round (a few rows per round), not through the event's matches.
        TimeExtension.objects.filter(round__tournament=tournament)
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


# The players' own reports of results -------------------------------------------------------


@dataclass(frozen=True)
class Slot:
    """One game of a match as the table's page shows it to its players.

    ``winner``: the seat that won a game already recorded (1 or 2; 0 a draw), or the seat a
    waiting penalty gives it; None for a game still the players' to report. ``by_penalty``: the
    game is (or will be) decided by a penalty, so it is not the players' to report."""

    number: int
    winner: int | None
    by_penalty: bool
    recorded: bool

    @property
    def is_open(self) -> bool:
        return self.winner is None and not self.by_penalty


def _seat_of(match: Match, registration_id: int | None) -> int:
    if registration_id is None:
        return 0
    return 1 if registration_id == match.player1_id else 2


def waiting_game_losses(*, match: Match, games_played: int) -> dict[int, set[int]]:
    """The games a deferred game loss of this match lands on (rules.md §6: issued during game N
    with "next game", it takes game N + 1 once game N has a result), as game number → the seats
    that lose it (both: the game is a draw). Each further loss of one player takes the game
    after."""
    waiting = (
        PenaltyRecord.objects.pending_losses()
        .filter(issued_in_match=match, applies_to=AppliesTo.NEXT_GAME)
        .exclude(moment=Moment.BETWEEN_MATCHES)
        .order_by("id")
        .values_list("registration_id", "issued_in_game")
    )
    lands: dict[int, set[int]] = {}
    taken: dict[int, int] = {}
    for registration_id, issued_in_game in waiting:
        seat = _seat_of(match, registration_id)
        game = max(issued_in_game or 0, games_played, taken.get(seat, 0)) + 1
        taken[seat] = game
        lands.setdefault(game, set()).add(seat)
    return lands


def report_slots(*, match: Match) -> list[Slot]:
    """Every game of the match as the players see it before they report: the games recorded
    (a penalty's marked), the games a waiting penalty decides, and the games to report."""
    best_of = match.round.games_best_of
    recorded = list(match.games.order_by("number").values_list("winner_id", "decided_by_penalty"))
    lands = waiting_game_losses(match=match, games_played=len(recorded))
    slots = [
        Slot(number, _seat_of(match, winner), by_penalty, recorded=True)
        for number, (winner, by_penalty) in enumerate(recorded, start=1)
    ]
    for number in range(len(recorded) + 1, best_of + 1):
        losers = lands.get(number)
        if losers:
            winner = 0 if len(losers) == 2 else 3 - next(iter(losers))
            slots.append(Slot(number, winner, by_penalty=True, recorded=False))
        else:
            slots.append(Slot(number, None, by_penalty=False, recorded=False))
    return slots


def table_report(*, match: Match) -> TableReport | None:
    return TableReport.objects.filter(match=match).first()


def report_entries(*, match: Match) -> list[ReportEntry]:
    return list(ReportEntry.objects.filter(match=match).order_by("at", "id"))


def phone_reported_elsewhere(*, match: Match, phone: str) -> bool:
    """Whether this phone already reported (or confirmed) for another table of the round."""
    if not phone:
        return False
    return (
        ReportEntry.objects.filter(round_id=match.round_id, phone=phone)
        .exclude(match=match)
        .exists()
    )


def report_for_report(*, tournament: Tournament) -> list[ReportEntry]:
    """Every step of the players' reports, for the judge report."""
    return list(
        ReportEntry.objects.filter(round__tournament=tournament)
        .select_related("round", "match__player1__player", "match__player2__player")
        .order_by("round__number", "match__table", "at", "id")
    )


# Check-in ----------------------------------------------------------------------------------


def next_round_number(*, tournament: Tournament) -> int:
    latest = latest_round(tournament=tournament)
    return 1 if latest is None else latest.number + 1


def check_in_open(*, tournament: Tournament, pages: PublicPages | None) -> bool:
    """Players check in before round 1, and before every round where the organiser asks it."""
    if tournament.is_finished:
        return False
    number = next_round_number(tournament=tournament)
    return number == 1 or bool(pages is not None and pages.check_in_every_round)


def checked_in_ids(*, tournament: Tournament, round_number: int) -> set[int]:
    return set(
        CheckIn.objects.filter(
            registration__tournament=tournament, round_number=round_number
        ).values_list("registration_id", flat=True)
    )


def not_checked_in(*, tournament: Tournament, round_number: int) -> QuerySet[Registration]:
    """The players still playing who have not checked in for the round, by name."""
    return (
        Registration.objects.filter(tournament=tournament, status=RegistrationStatus.PLAYING)
        .exclude(
            Exists(CheckIn.objects.filter(registration=OuterRef("pk"), round_number=round_number))
        )
        .select_related("player")
        .order_by("player__name", "pk")
    )


def check_in_counts(*, tournament: Tournament, round_number: int) -> tuple[int, int]:
    """(checked in, still playing) for the round."""
    playing = Registration.objects.filter(tournament=tournament, status=RegistrationStatus.PLAYING)
    checked = playing.filter(
        Exists(CheckIn.objects.filter(registration=OuterRef("pk"), round_number=round_number))
    ).count()
    return checked, playing.count()
