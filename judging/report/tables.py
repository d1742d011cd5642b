"""The exports as tables (columns and an iterator of rows), so that CSV and XLSX are written by
the same two functions whatever is exported."""

import datetime
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from core.people import display_name
from judging.report.reads import build_report, penalties_in_force, penalty_rows
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


def table_of[Row](title: str, columns: list[Column], items: Iterable[Row]) -> Table:
    """The table whose rows are the columns' cells of each item, read as they are written: the
    one way every export (the report's own and the sections other apps add) builds its rows."""
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
        Column(_("Player's answer"), 26, attrgetter("acknowledgement")),
        Column(
            _("Answered at"),
            17,
            lambda row: _local(row.acknowledged_at) if row.acknowledged_at else None,
        ),
    ]
    records = penalties_in_force(tournament=tournament)
    return table_of(_("Penalties"), columns, penalty_rows(records=records))


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
    return table_of(_("Standings"), columns, tournament_selectors.standings(tournament=tournament))


def report_workbook(*, tournament: Tournament, now: datetime.datetime | None = None) -> list[Table]:
    """The whole judge report as sheets of one workbook: the same content as the printed page."""
    built = build_report(tournament=tournament, now=now)
    event = built.event
    yes, no = _("yes"), _("no")
    fact = [Column(_("Item"), 30), Column(_("Value"), 60)]
    event_rows: list[list[CellValue]] = [
        [_("Tournament"), event.name],
        [_("Date"), event.date.strftime("%d.%m.%Y")],
        [_("Venue"), event.venue],
        [_("Rules-enforcement level"), event.level],
        [_("Format"), event.format],
        [_("Best of"), event.best_of],
        [_("Deck lists used"), yes if event.uses_decklists else no],
        [_("Players"), event.players],
        [_("Rounds played"), event.rounds_played],
        [_("Rounds planned"), event.rounds_planned],
        [_("Guideline"), event.edition],
        [_("Head judge"), ", ".join(event.head_judges)],
        [
            _("The head judge is an official representative of ООО «Мир Хобби»"),
            yes if event.head_judge_is_official else no,
        ],
        [_("Organiser"), ", ".join(event.organisers)],
        [_("Status"), event.status],
        [_("Penalties in force"), built.total_in_force],
        [_("Confirmed by the player"), built.acknowledgements.acknowledged],
        [_("The player declined to confirm"), built.acknowledgements.declined],
        [_("Player's answer not recorded"), built.acknowledgements.not_recorded],
        [_("Generated at"), _local(built.generated_at or timezone.now())],
        [_("Head judge's signature"), ""],
        [_("Organiser's signature"), ""],
    ]
    if event.replaced_infractions:
        # After the guideline's row, where the printed report shows them (rules.md §3).
        event_rows.insert(
            event_rows.index([_("Guideline"), event.edition]) + 1,
            [_("Infractions replaced for this tournament"), "; ".join(event.replaced_infractions)],
        )
    staff = Table(
        title=_("Staff"),
        columns=[Column(_("Role"), 18), Column(_("Name"), 30), Column(_("Penalties issued"), 12)],
        rows=[[row.role, row.name, row.penalties_issued] for row in built.staff],
    )
    changes = Table(
        title=_("Changes"),
        columns=[
            Column("#", 8),
            Column(_("Date and time"), 17),
            Column(_("Change"), 20),
            Column(_("Player"), 28),
            Column(_("Membership id"), 14),
            Column(_("Infraction code"), 10),
            Column(_("From"), 24),
            Column(_("To"), 24),
            Column(_("Reason"), 50),
            Column(_("By"), 20),
        ],
        rows=[
            [
                row.record_id,
                _local(row.at),
                row.kind,
                row.player,
                row.membership_id,
                row.code,
                row.from_penalty,
                row.to_penalty,
                row.reason,
                row.author,
            ]
            for row in built.changes
        ],
    )
    corrections = Table(
        title=_("Result corrections"),
        columns=[
            Column(_("Round"), 7),
            Column(_("Table"), 7),
            Column(_("Players"), 40),
            Column(_("Before"), 10),
            Column(_("After"), 10),
            Column(_("Reason"), 50),
            Column(_("By"), 20),
        ],
        rows=[
            [
                correction.match.round.number,
                correction.match.table,
                " — ".join(
                    registration.player.name
                    for registration in (correction.match.player1, correction.match.player2)
                    if registration is not None
                ),
                correction.before_score,
                correction.score,
                correction.reason,
                display_name(correction.corrected_by),
            ]
            for correction in built.result_corrections
        ],
    )
    investigation_rows: list[list[CellValue]] = []
    for row, investigation in built.write_ups:
        for statement in investigation.statements:
            investigation_rows.append(
                [
                    row.record_id,
                    row.player,
                    row.penalty,
                    statement.role,
                    statement.author,
                    _local(statement.at),
                    statement.taken_by,
                    statement.text,
                ]
            )
        investigation_rows.append(
            [
                row.record_id,
                row.player,
                row.penalty,
                _("The head judge's decision: %(decision)s")
                % {"decision": investigation.decision or _("issued directly")},
                investigation.decided_by or row.judge,
                _local(investigation.decided_at or row.issued_at),
                "",
                investigation.reasoning or row.note,
            ]
        )
    investigations = Table(
        title=_("Disqualifications"),
        columns=[
            Column("#", 8),
            Column(_("Player"), 28),
            Column(_("Penalty"), 30),
            Column(_("Who is speaking"), 18),
            Column(_("Name"), 24),
            Column(_("Date and time"), 17),
            Column(_("Taken by"), 20),
            Column(_("Statement or reasoning"), 80),
        ],
        rows=investigation_rows,
    )
    pending = Table(
        title=_("Losses not served"),
        columns=[
            Column("#", 8),
            Column(_("Round"), 7),
            Column(_("Player"), 28),
            Column(_("Penalty"), 30),
            Column(_("Waits for"), 24),
            Column(_("Date and time"), 17),
        ],
        rows=[
            [row.record_id, row.round, row.player, row.penalty, row.takes, _local(row.issued_at)]
            for row in built.pending_losses
        ],
    )
    return [
        Table(title=_("Event"), columns=fact, rows=event_rows),
        staff,
        standings_table(tournament=tournament),
        penalties_table(tournament=tournament),
        changes,
        corrections,
        investigations,
        pending,
    ]


TABLES: dict[str, Callable[..., Table]] = {
    "penalties": penalties_table,
    "standings": standings_table,
}
