"""The exports as tables (columns and an iterator of rows), so that CSV and XLSX are written by
the same two functions whatever is exported."""

import datetime
from collections.abc import Callable, Iterable
from dataclasses import dataclass

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
