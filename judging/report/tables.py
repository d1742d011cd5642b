"""The exports as tables (columns and an iterator of rows), so that CSV and XLSX are written by
the same two functions whatever is exported."""

import datetime
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from judging.report.reads import penalties_in_force, penalty_rows
from tournaments import selectors as tournament_selectors
from tournaments.models import (
    Tournament,
)
from tournaments.selectors import StandingRow

# --- Tables for CSV and XLSX ------------------------------------------------------------------


class Percent(float):
    """A fraction of one that a spreadsheet shows as a percentage (0.667 → 66.7%)."""


type CellValue = str | int | float | datetime.datetime | None


@dataclass(frozen=True)
class Column:
    """A column: its header, its width in a spreadsheet, and how a row's cell is read."""

    header: str
    width: int = 14
    cell: Callable[[Any], CellValue] | None = None


@dataclass
class Table:
    """An export: its sheet title, columns, and rows produced as they are written."""

    title: str
    columns: list[Column]
    rows: Iterable[list[CellValue]]


def _table[Row](title: str, columns: list[Column], items: Iterable[Row]) -> Table:
    """The table whose rows are the columns' cells of each item, read as they are written."""
    cells = [column.cell or (lambda item: None) for column in columns]
    return Table(
        title=title, columns=columns, rows=([cell(item) for cell in cells] for item in items)
    )


def _local(moment: datetime.datetime) -> datetime.datetime:
    """The wall-clock time at the venue without a zone: spreadsheets know no time zones."""
    return timezone.localtime(moment).replace(tzinfo=None)


def penalties_table(*, tournament: Tournament) -> Table:
    columns = [
        Column("#", 8, attrgetter("record_id")),
        Column(_("Round"), 7, attrgetter("round")),
        Column(_("Table"), 7, attrgetter("table")),
        Column(_("Player"), 28, attrgetter("player")),
        Column(_("Membership id"), 14, attrgetter("membership_id")),
        Column(_("Infraction code"), 10, attrgetter("code")),
        Column(_("Infraction"), 36, attrgetter("infraction")),
        Column(_("Sub-item"), 8, attrgetter("sub_item")),
        Column(_("Base penalty"), 18, attrgetter("base")),
        Column(_("Penalty as issued"), 18, attrgetter("issued_as")),
        Column(_("Penalty in force"), 36, attrgetter("penalty")),
        Column(_("Why"), 40, attrgetter("explanation")),
        Column(_("Loss"), 28, attrgetter("loss")),
        Column(_("Judge"), 20, attrgetter("judge")),
        Column(_("Issued at"), 17, lambda row: _local(row.issued_at)),
        Column(_("Note"), 40, attrgetter("note")),
    ]
    records = penalties_in_force(tournament=tournament)
    return _table(_("Penalties"), columns, penalty_rows(records=records))


def standings_table(*, tournament: Tournament) -> Table:
    yes, no = _("yes"), _("no")

    def status(row: StandingRow) -> str:
        if row.disqualified:
            return _("disqualified")
        if row.dropped:
            return _("dropped")
        return ""

    columns = [
        Column("#", 6, attrgetter("standing.position")),
        Column(_("Player"), 28, attrgetter("registration.player.name")),
        Column(_("Membership id"), 14, attrgetter("registration.player.membership_id")),
        Column(_("Points"), 8, attrgetter("standing.points")),
        Column(_("Wins"), 7, attrgetter("standing.wins")),
        Column(_("Draws"), 7, attrgetter("standing.draws")),
        Column(_("Losses"), 7, attrgetter("standing.losses")),
        Column(_("Matches played"), 9, attrgetter("standing.matches_played")),
        Column("OMW%", 9, lambda row: Percent(row.standing.opponents_match_win)),
        Column("GW%", 9, lambda row: Percent(row.standing.game_win)),
        Column("OGW%", 9, lambda row: Percent(row.standing.opponents_game_win)),
        Column(_("Status"), 16, status),
        Column(_("May receive a prize"), 12, lambda row: yes if row.prize_eligible else no),
    ]
    return _table(_("Standings"), columns, tournament_selectors.standings(tournament=tournament))


TABLES: dict[str, Callable[..., Table]] = {
    "penalties": penalties_table,
    "standings": standings_table,
}
