"""Bulk registration from a CSV file: name, membership id, city.

The whole file is checked first and every bad row is reported with its line number; only a file
without a single bad row is imported, in one transaction, so a half-imported list never happens.
"""

import csv
import datetime
import io
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import DomainError
from core.uploads import UnreadableUpload, decode_upload
from players import services as player_services
from players.models import Player
from tournaments import services
from tournaments.models import Registration, Tournament, TournamentStatus

HEADER_WORDS = {"name", "имя", "игрок", "фио", "membership", "членский", "номер", "id"}


@dataclass
class ImportReport:
    imported: int = 0
    errors: list[tuple[int, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


def read_upload(content: bytes) -> tuple[list[tuple[int, list[str]]], str | None]:
    """The rows of an uploaded CSV file (players, a card pool), or why it cannot be read (its
    size, encoding and characters are checked by ``core.uploads.decode_upload``)."""
    try:
        return parse_rows(decode_upload(content)), None
    except UnreadableUpload as refused:
        return [], refused.message
    except csv.Error as error:
        return [], _("The file cannot be read as CSV: %(error)s") % {"error": error}


def parse_rows(text: str) -> list[tuple[int, list[str]]]:
    """Rows with their line numbers; the delimiter is sniffed, a header row is skipped."""
    sample = text[:4096]
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(sample, delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    rows = []
    first = True
    for number, row in enumerate(csv.reader(io.StringIO(text), dialect), start=1):
        cells = [cell.strip() for cell in row]
        if not any(cells):
            continue
        if first and _looks_like_header(cells):
            first = False
            continue
        first = False
        rows.append((number, cells))
    return rows


def _looks_like_header(cells: list[str]) -> bool:
    """A first row of column titles: known words, and no digits where the membership id goes."""
    words = {word for cell in cells for word in cell.lower().replace("_", " ").split()}
    id_cell = cells[1] if len(cells) > 1 else ""
    return bool(words & HEADER_WORDS) and not any(char.isdigit() for char in id_cell)


@dataclass(frozen=True)
class ImportRow:
    """A checked row of the file: its line, and the player it registers."""

    line: int
    name: str
    membership_id: str
    city: str


def import_players(*, tournament: Tournament, content: bytes) -> ImportReport:
    """Check the whole file, then register every row in one transaction (the command line's and
    the benchmark's way; the players page runs ``register_rows`` in short steps as a task)."""
    rows, report = check_import(tournament=tournament, content=content)
    if not report.ok:
        return report
    try:
        register_rows(tournament=tournament, rows=rows)
    except RowRefused as refused:
        report.errors.append((refused.line, str(refused.error.message)))
        return report
    report.imported = len(rows)
    return report


def check_import(*, tournament: Tournament, content: bytes) -> tuple[list[ImportRow], ImportReport]:
    """Read the file and check every row against the registry and the tournament, writing
    nothing: the rows to register, or a report of every bad row with its line number."""
    report = ImportReport()
    if tournament.status == TournamentStatus.FINISHED:
        report.errors.append((0, _("The tournament has finished.")))
        return [], report
    parsed, unreadable = read_upload(content)
    if unreadable:
        report.errors.append((0, unreadable))
        return [], report
    if not parsed:
        report.errors.append((0, _("The file has no players.")))
        return [], report
    seen: dict[str, int] = {}
    known = {
        player.membership_id: player
        for player in Player.objects.filter(
            membership_id__in=[c[1] for _n, c in parsed if len(c) > 1]
        )
    }
    registered = set(
        Registration.objects.filter(tournament=tournament).values_list(
            "player__membership_id", flat=True
        )
    )
    today = timezone.localdate()
    rows: list[ImportRow] = []
    for number, cells in parsed:
        problem = _row_problem(cells, seen, known, registered, today, number)
        if problem:
            report.errors.append((number, problem))
            continue
        city = cells[2] if len(cells) > 2 else ""
        seen[cells[1]] = number
        rows.append(ImportRow(line=number, name=cells[0], membership_id=cells[1], city=city))
    return ([] if report.errors else rows), report


def _row_problem(
    cells: list[str],
    seen: dict[str, int],
    known: dict[str, Player],
    registered: set[str],
    today: datetime.date,
    number: int,
) -> str:
    if len(cells) < 2 or not cells[0] or not cells[1]:
        return _("a row needs a name and a membership id")
    if len(cells) > 3:
        return _("too many columns: expected name, membership id, city")
    name, membership_id = cells[0], cells[1]
    city = cells[2] if len(cells) > 2 else ""
    if len(name) > 200 or len(membership_id) > 40 or len(city) > 120:
        return _("the name, the membership id or the city is too long")
    if any(ord(char) < 32 or ord(char) == 127 for cell in cells for char in cell):
        return _("the row holds control characters; save the file as plain text")
    if membership_id in seen:
        return _("membership id %(id)s is already on line %(line)s") % {
            "id": membership_id,
            "line": seen[membership_id],
        }
    player = known.get(membership_id)
    if player is not None and player.name.casefold() != name.casefold():
        return _("membership id %(id)s belongs to %(player)s") % {
            "id": membership_id,
            "player": player.name,
        }
    if membership_id in registered:
        return _("%(player)s is already registered") % {"player": name}
    if player is not None:
        try:
            player_services.ensure_not_suspended(player=player, day=today)
        except DomainError as error:
            return str(error.message)
    return ""


class RowRefused(Exception):
    """A row the services refused while registering: its line and the refusal."""

    def __init__(self, line: int, error: DomainError) -> None:
        super().__init__(str(error))
        self.line = line
        self.error = error


@transaction.atomic
def register_rows(*, tournament: Tournament, rows: list[ImportRow]) -> list[Registration]:
    """Register checked rows through the same services as one player entered by hand, all or
    none, in a constant number of queries: a refusal now (a player registered or suspended since
    the check) rolls the rows back and names the first line it concerns."""
    known = {
        player.membership_id: player
        for player in Player.objects.filter(membership_id__in=[row.membership_id for row in rows])
    }
    new_rows = [row for row in rows if row.membership_id not in known]
    try:
        created = player_services.create_players(
            entries=[(row.name, row.membership_id, row.city) for row in new_rows]
        )
        players = {**known, **{player.membership_id: player for player in created}}
        return services.register_players(
            tournament=tournament, players=[players[row.membership_id] for row in rows]
        )
    except DomainError as error:
        raise RowRefused(_line_named(error, rows), error) from error


def _line_named(error: DomainError, rows: list[ImportRow]) -> int:
    """The first line whose membership id, or else name, the refusal's message names (0: none)."""
    message = str(error.message)
    return next(
        (row.line for row in rows if row.membership_id in message),
        next((row.line for row in rows if row.name in message), 0),
    )
