"""The judge report (судейский отчёт) and its exports: reads and assembly, no writes.

The report has a small part that grows with the number of players (the event, the staff, the
standings, the counts, the disqualifications, the changes, the pending losses) and one part that
grows with the number of penalties: the list of every penalty in force. The small part is read
into memory as a ``Report``; the list is never held whole. It is read with ``.values()`` over
``.iterator(chunk_size=...)`` and turned into ``PenaltyRow`` objects one by one, so the CSV, the
XLSX and the HTML page of an event with tens of thousands of records use the same memory as those
of a club evening.

Exports are described as a ``Table`` (columns and an iterator of rows) so that CSV and XLSX are
written by the same two functions whatever is exported.
"""

import csv
import datetime
import io
import re
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.template.loader import get_template
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.cell import Cell, WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet._write_only import WriteOnlyWorksheet

from core.people import display_name
from judging.explanations import explain, penalty_label
from judging.models import ChangeKind, PenaltyChange, PenaltyRecord, RecordStatus
from judging.penalties import AppliesTo, Rank
from judging.selectors import edition_for
from tournaments import selectors as tournament_selectors
from tournaments.models import (
    Format,
    Level,
    Registration,
    ResultCorrection,
    Round,
    Staff,
    StaffRole,
    Tournament,
    TournamentStatus,
)
from tournaments.selectors import StandingRow

# Rows read from the database per round trip: large enough that 20,000 records take ten fetches,
# small enough that a chunk of decoded rows stays well under a megabyte.
CHUNK_SIZE = 2000
# Rows written to the CSV buffer before it is handed to the response as one piece.
CSV_ROWS_PER_PIECE = 500
# Rows rendered by one pass of the HTML row template.
HTML_ROWS_PER_PIECE = 500

# The columns every penalty query reads; ``.values()`` keeps model instances out of the loop.
PENALTY_FIELDS = (
    "id",
    "round__number",
    "issued_in_match__table",
    "registration__player__name",
    "registration__player__membership_id",
    "infraction__code",
    "infraction__name",
    "sub_item",
    "base_rank",
    "issued_rank",
    "rank",
    "explanation",
    "issued_by__username",
    "issued_by__first_name",
    "issued_by__last_name",
    "issued_at",
    "note",
    "applies_to",
    "served_game_id",
    "served_match_id",
    "loss_cancelled",
    "membership_suspension__ends_on",
)


@dataclass(frozen=True, slots=True)
class PenaltyRow:
    """One penalty record as the report shows it, with every word already in the reader's
    language."""

    record_id: int
    round: int | None
    table: int | None
    player: str
    membership_id: str
    code: str
    infraction: str
    sub_item: str
    base: str
    issued_as: str
    penalty: str
    rank: int
    rank_key: str
    amended: bool
    explanation: str
    judge: str
    issued_at: datetime.datetime
    note: str
    takes: str
    loss: str
    suspension_ends: datetime.date | None

    @property
    def loses_prize(self) -> bool:
        return Rank(self.rank).takes_prize

    @property
    def is_suspension(self) -> bool:
        return self.rank == Rank.SUSPENSION


@dataclass(frozen=True)
class EventDetails:
    name: str
    date: datetime.date
    venue: str
    level: str
    format: str
    best_of: int
    uses_decklists: bool
    players: int
    rounds_played: int
    rounds_planned: int | None
    status: str
    finished: bool
    head_judge_is_official: bool
    edition: str


@dataclass(frozen=True)
class StaffRow:
    role: str
    name: str
    penalties_issued: int


@dataclass(frozen=True)
class ChangeRow:
    """An amendment, a revocation or a declined request, with the head judge's reason."""

    record_id: int
    kind: str
    at: datetime.datetime
    author: str
    player: str
    membership_id: str
    code: str
    from_penalty: str
    to_penalty: str
    reason: str


@dataclass(frozen=True)
class CountRow:
    label: str
    count: int


@dataclass(frozen=True)
class Report:
    """Everything on the report page except the list of penalties, which is streamed."""

    tournament: Tournament
    event: EventDetails
    staff: list[StaffRow]
    standings: list[StandingRow]
    disqualifications: list[PenaltyRow]
    changes: list[ChangeRow]
    pending_losses: list[PenaltyRow]
    by_infraction: list[CountRow]
    by_rank: list[CountRow]
    total_in_force: int
    result_corrections: list[ResultCorrection] = field(default_factory=list)


def person_name(*, username: str | None, first_name: str = "", last_name: str = "") -> str:
    """The name a judge is known by: the full name when set, else the login; "" for nobody."""
    if username is None:
        return ""
    return f"{first_name} {last_name}".strip() or username


def build_report(*, tournament: Tournament) -> Report:
    """Read the report's bounded parts; a fixed number of queries whatever the event's size."""
    return Report(
        tournament=tournament,
        event=event_details(tournament=tournament),
        staff=staff_rows(tournament=tournament),
        standings=tournament_selectors.standings(tournament=tournament),
        disqualifications=list(
            penalty_rows(
                records=_in_force(tournament).filter(rank__gte=Rank.DISQUALIFICATION),
            )
        ),
        changes=change_rows(tournament=tournament),
        pending_losses=list(
            penalty_rows(
                records=PenaltyRecord.objects.filter(tournament=tournament).pending_losses()
            )
        ),
        by_infraction=counts_by_infraction(tournament=tournament),
        by_rank=counts_by_rank(tournament=tournament),
        total_in_force=_in_force(tournament).count(),
        result_corrections=tournament_selectors.result_corrections(tournament=tournament),
    )


def event_details(*, tournament: Tournament) -> EventDetails:
    return EventDetails(
        name=tournament.name,
        date=tournament.date,
        venue=tournament.venue,
        level=str(Level(tournament.level).label),
        format=str(Format(tournament.format).label),
        best_of=tournament.best_of,
        uses_decklists=tournament.uses_decklists,
        players=Registration.objects.filter(tournament=tournament).count(),
        rounds_played=Round.objects.filter(tournament=tournament).count(),
        rounds_planned=tournament.rounds_planned,
        status=str(TournamentStatus(tournament.status).label),
        finished=tournament.status == TournamentStatus.FINISHED,
        head_judge_is_official=tournament.head_judge_is_official,
        edition=edition_for(tournament=tournament).name,
    )


# The order the staff is listed in: the head judge first, as the report is theirs.
ROLE_ORDER = {StaffRole.HEAD_JUDGE: 0, StaffRole.FLOOR_JUDGE: 1, StaffRole.ORGANISER: 2}


def staff_rows(*, tournament: Tournament) -> list[StaffRow]:
    """Who judged and organised, with how many records each of them issued (in any status)."""
    issued = dict(
        PenaltyRecord.objects.filter(tournament=tournament, issued_by__isnull=False)
        .values_list("issued_by_id")
        .annotate(count=Count("id"))
        .order_by()
    )
    members = Staff.objects.filter(tournament=tournament).select_related("user")
    rows = sorted(
        members,
        key=lambda member: (
            ROLE_ORDER.get(StaffRole(member.role), 9),
            display_name(member.user),
        ),
    )
    return [
        StaffRow(
            role=str(StaffRole(member.role).label),
            name=display_name(member.user),
            penalties_issued=issued.get(member.user_id, 0),
        )
        for member in rows
    ]


def _in_force(tournament: Tournament) -> QuerySet[PenaltyRecord]:
    return PenaltyRecord.objects.filter(tournament=tournament, status=RecordStatus.IN_FORCE)


def penalties_in_force(*, tournament: Tournament) -> QuerySet[PenaltyRecord]:
    """The records the report lists: in force, in the order they were issued."""
    return _in_force(tournament).order_by("issued_at", "id")


def penalty_rows(
    *, records: QuerySet[PenaltyRecord], chunk_size: int = CHUNK_SIZE
) -> Iterator[PenaltyRow]:
    """The records as report rows, read in chunks: memory stays flat however many there are."""
    labels = {rank: penalty_label(rank) for rank in Rank}
    names = {rank: str(rank.label) for rank in Rank}
    takes = {value: str(label) for value, label in AppliesTo.choices}
    automatic = _("automatic")
    stacking = _("Three penalties of the same strength")
    loss_states = {
        "cancelled": _("%(takes)s: cancelled"),
        "served": _("%(takes)s: served"),
        "pending": _("%(takes)s: not served"),
    }
    values = records.order_by("issued_at", "id").values(*PENALTY_FIELDS)
    for value in values.iterator(chunk_size=chunk_size):
        rank = Rank(value["rank"])
        applies_to = value["applies_to"]
        served = value["served_game_id"] is not None or value["served_match_id"] is not None
        loss = ""
        if applies_to:
            state = "cancelled" if value["loss_cancelled"] else "served" if served else "pending"
            loss = loss_states[state] % {"takes": takes[applies_to]}
        code = value["infraction__code"] or ""
        yield PenaltyRow(
            record_id=value["id"],
            round=value["round__number"],
            table=value["issued_in_match__table"],
            player=value["registration__player__name"],
            membership_id=value["registration__player__membership_id"],
            code=code,
            infraction=value["infraction__name"] or stacking,
            sub_item=value["sub_item"],
            base=names[Rank(value["base_rank"])] if value["base_rank"] else "",
            issued_as=names[Rank(value["issued_rank"])],
            penalty=labels[rank],
            rank=int(rank),
            rank_key=f"rank-{rank.key}",
            amended=value["issued_rank"] != value["rank"],
            explanation=explain(value["explanation"] or None),
            judge=person_name(
                username=value["issued_by__username"],
                first_name=value["issued_by__first_name"] or "",
                last_name=value["issued_by__last_name"] or "",
            )
            or automatic,
            issued_at=value["issued_at"],
            note=value["note"],
            takes=takes.get(applies_to, ""),
            loss=loss,
            suspension_ends=value["membership_suspension__ends_on"],
        )


# Changes the report lists with their reasons; confirmations and the floor judges' requests to
# revoke are steps towards these and would only repeat them.
REPORTED_CHANGES = (ChangeKind.AMENDED, ChangeKind.REVOKED, ChangeKind.DECLINED)


def change_rows(*, tournament: Tournament) -> list[ChangeRow]:
    changes = (
        PenaltyChange.objects.filter(record__tournament=tournament, kind__in=REPORTED_CHANGES)
        .select_related("record__registration__player", "record__infraction", "author")
        .order_by("at", "id")
    )
    rows = []
    for change in changes:
        record = change.record
        rows.append(
            ChangeRow(
                record_id=record.pk,
                kind=str(ChangeKind(change.kind).label),
                at=change.at,
                author=(
                    person_name(
                        username=change.author.get_username(),
                        first_name=change.author.first_name,
                        last_name=change.author.last_name,
                    )
                    if change.author
                    else _("automatic")
                ),
                player=record.registration.player.name,
                membership_id=record.registration.player.membership_id,
                code=record.infraction.code if record.infraction else "",
                from_penalty=str(Rank(change.from_rank).label) if change.from_rank else "",
                to_penalty=str(Rank(change.to_rank).label),
                reason=change.reason,
            )
        )
    return rows


def counts_by_infraction(*, tournament: Tournament) -> list[CountRow]:
    """Penalties in force per infraction in guideline order; stacking's own records last."""
    rows = (
        _in_force(tournament)
        .values_list("infraction__code", "infraction__name")
        .annotate(count=Count("id"))
        .order_by()
    )

    def order(row: tuple[str | None, str | None, int]) -> tuple[int, tuple[int | str, ...]]:
        code = row[0]
        if code is None:
            return (1, ())
        return (0, tuple(int(part) if part.isdecimal() else part for part in code.split(".")))

    counted = []
    for code, name, count in sorted(rows, key=order):
        label = f"{code} {name}" if code else _("Three penalties of the same strength")
        counted.append(CountRow(label=label, count=count))
    return counted


def counts_by_rank(*, tournament: Tournament) -> list[CountRow]:
    """Penalties in force per rank, every rank of the ladder listed, the weakest first."""
    counts = dict(_in_force(tournament).values_list("rank").annotate(count=Count("id")).order_by())
    return [CountRow(label=str(rank.label), count=counts.get(rank, 0)) for rank in Rank]


# --- Tables for CSV and XLSX ------------------------------------------------------------------


class Percent(float):
    """A fraction of one that a spreadsheet shows as a percentage (0.667 → 66.7%)."""


type CellValue = str | int | float | datetime.datetime | None


@dataclass(frozen=True)
class Column:
    header: str
    width: int = 14


@dataclass
class Table:
    """An export: its sheet title, columns, and rows produced as they are written."""

    title: str
    columns: list[Column]
    rows: Iterable[list[CellValue]]


def _local(moment: datetime.datetime) -> datetime.datetime:
    """The wall-clock time at the venue without a zone: spreadsheets know no time zones."""
    return timezone.localtime(moment).replace(tzinfo=None)


def penalties_table(*, tournament: Tournament) -> Table:
    columns = [
        Column("#", 8),
        Column(_("Round"), 7),
        Column(_("Table"), 7),
        Column(_("Player"), 28),
        Column(_("Membership id"), 14),
        Column(_("Infraction code"), 10),
        Column(_("Infraction"), 36),
        Column(_("Sub-item"), 8),
        Column(_("Base penalty"), 18),
        Column(_("Penalty as issued"), 18),
        Column(_("Penalty in force"), 36),
        Column(_("Why"), 40),
        Column(_("Loss"), 28),
        Column(_("Judge"), 20),
        Column(_("Issued at"), 17),
        Column(_("Note"), 40),
    ]
    rows: Iterable[list[CellValue]] = (
        [
            row.record_id,
            row.round,
            row.table,
            row.player,
            row.membership_id,
            row.code,
            row.infraction,
            row.sub_item,
            row.base,
            row.issued_as,
            row.penalty,
            row.explanation,
            row.loss,
            row.judge,
            _local(row.issued_at),
            row.note,
        ]
        for row in penalty_rows(records=penalties_in_force(tournament=tournament))
    )
    return Table(title=_("Penalties"), columns=columns, rows=rows)


def standings_table(*, tournament: Tournament) -> Table:
    columns = [
        Column("#", 6),
        Column(_("Player"), 28),
        Column(_("Membership id"), 14),
        Column(_("Points"), 8),
        Column(_("Wins"), 7),
        Column(_("Draws"), 7),
        Column(_("Losses"), 7),
        Column(_("Matches played"), 9),
        Column("OMW%", 9),
        Column("GW%", 9),
        Column("OGW%", 9),
        Column(_("Status"), 16),
        Column(_("May receive a prize"), 12),
    ]
    yes, no = _("yes"), _("no")

    def status(row: StandingRow) -> str:
        if row.disqualified:
            return _("disqualified")
        if row.dropped:
            return _("dropped")
        return ""

    rows: Iterable[list[CellValue]] = (
        [
            row.standing.position,
            row.registration.player.name,
            row.registration.player.membership_id,
            row.standing.points,
            row.standing.wins,
            row.standing.draws,
            row.standing.losses,
            row.standing.matches_played,
            Percent(row.standing.opponents_match_win),
            Percent(row.standing.game_win),
            Percent(row.standing.opponents_game_win),
            status(row),
            yes if row.prize_eligible else no,
        ]
        for row in tournament_selectors.standings(tournament=tournament)
    )
    return Table(title=_("Standings"), columns=columns, rows=rows)


TABLES: dict[str, Callable[..., Table]] = {
    "penalties": penalties_table,
    "standings": standings_table,
}

# A cell a spreadsheet would read as a formula (CSV injection): a player's name or a judge's
# note must never run as one. A spreadsheet may split the file on commas or on semicolons (the
# Russian default), and so see a cell start after either inside a text, or after a line break:
# every such start (past quotes) that is a formula character, or spaces or a tab before one, gets
# an apostrophe, which makes the cell text.
FORMULA_AT_A_CELL_START = re.compile(r"(^|[,;\n\r])([\"']*)(?=[ \t\r]*[=+\-@\t\r])")


def neutralise_formulas(text: str) -> str:
    """The text with an apostrophe before every formula character a spreadsheet could read as
    the start of a cell, whichever separator it splits on."""
    return FORMULA_AT_A_CELL_START.sub(r"\1\2'", text)


def _csv_value(value: CellValue) -> str | int | float:
    if value is None:
        return ""
    if isinstance(value, Percent):
        return f"{value * 100:.1f}"
    if isinstance(value, datetime.datetime):
        return value.strftime("%Y-%m-%d %H:%M")
    if isinstance(value, str):
        return neutralise_formulas(value)
    return value


def csv_pieces(table: Table, *, rows_per_piece: int = CSV_ROWS_PER_PIECE) -> Iterator[bytes]:
    """The table as UTF-8 CSV with a byte-order mark, in pieces of a few hundred rows.

    The mark makes spreadsheet programs read the file as UTF-8 rather than the system's code
    page, which would garble every Russian name.
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    buffer.write("\ufeff")
    writer.writerow([column.header for column in table.columns])
    for written, row in enumerate(table.rows, start=1):
        writer.writerow([_csv_value(value) for value in row])
        if written % rows_per_piece == 0:
            yield buffer.getvalue().encode("utf-8")
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue().encode("utf-8")


def _xlsx_cell(sheet: WriteOnlyWorksheet, value: CellValue) -> Cell | None:
    if isinstance(value, str):
        if not value:
            # An empty cell is left out of the sheet altogether: most notes and sub-items are
            # empty, and every cell written costs time on a large event.
            return None
        cell = WriteOnlyCell(sheet, ILLEGAL_CHARACTERS_RE.sub("", value))
        # openpyxl stores a text that starts with "=" as a formula; a report holds none.
        cell.data_type = "s"
        return cell
    if value is None:
        return None
    cell = WriteOnlyCell(sheet, value)
    if isinstance(value, Percent):
        cell.number_format = "0.0%"
    elif isinstance(value, datetime.datetime):
        cell.number_format = "yyyy-mm-dd hh:mm"
    return cell


def write_xlsx(table: Table, target: IO[bytes]) -> None:
    """Write the table as an XLSX workbook with openpyxl's write-only mode.

    Write-only sheets spool rows to a temporary file as they are appended, so memory does not
    grow with the table; the workbook is zipped into ``target`` at the end.
    """
    workbook = Workbook(write_only=True)
    # Sheet titles are limited to 31 characters and a few forbidden ones; ours are short words.
    sheet = workbook.create_sheet(title=table.title[:31])
    for number, column in enumerate(table.columns, start=1):
        sheet.column_dimensions[get_column_letter(number)].width = column.width
    sheet.freeze_panes = "A2"
    bold = Font(bold=True)
    header = []
    for column in table.columns:
        cell = WriteOnlyCell(sheet, column.header)
        cell.font = bold
        header.append(cell)
    sheet.append(header)
    for row in table.rows:
        sheet.append([_xlsx_cell(sheet, value) for value in row])
    workbook.save(target)


def export_filename(*, tournament: Tournament, what: str, extension: str) -> str:
    return f"{tournament.slug}-{what}.{extension}"


# --- The HTML report --------------------------------------------------------------------------


def html_pieces(
    *,
    report: Report,
    context: dict[str, Any],
    request: HttpRequest | None = None,
    rows_per_piece: int = HTML_ROWS_PER_PIECE,
) -> tuple[str, Iterator[str]]:
    """The report page as its first piece, rendered now, and an iterator of the rest.

    The page is rendered once with a marker where the penalty rows go; the part before the
    marker is returned at once (so that a web request settles its messages and CSRF cookie while
    the middleware can still see them), and the rows follow in pieces of a few hundred, each a
    pass of the page's ``penalty-rows`` partial, then the part after the marker. The rows need
    nothing of the request, so they are rendered without its context processors.
    """
    marker = f"@@penalty-rows-{uuid.uuid4().hex}@@"
    page = get_template("judging/report.html").render(
        {**context, "report": report, "penalty_rows_marker": marker}, request
    )
    head, tail = page.split(marker, 1)
    rows_template = get_template("judging/report.html#penalty-rows")
    records = penalty_rows(records=penalties_in_force(tournament=report.tournament))

    def rest() -> Iterator[str]:
        piece: list[PenaltyRow] = []
        shown = False
        for row in records:
            piece.append(row)
            if len(piece) == rows_per_piece:
                yield rows_template.render({"rows": piece})
                shown = True
                piece = []
        if piece or not shown:
            # An empty list still renders once: the partial says there are no penalties.
            yield rows_template.render({"rows": piece})
        yield tail

    return head, rest()


def in_language[T](language: str, pieces: Iterator[T]) -> Iterator[T]:
    """Produce each piece with ``language`` active.

    A streamed response is produced after the view has returned, possibly on another thread
    under ASGI, where the language the middleware activated may no longer be current.
    """
    while True:
        with translation.override(language):
            try:
                piece = next(pieces)
            except StopIteration:
                return
        yield piece
