"""The floor's parts of the judge report: time extensions, and judge calls with their response
times. Registered with judging's report from ``FloorConfig.ready()`` (judging never imports us);
each is shown in the report and exported as CSV and XLSX."""

import datetime
import statistics
from dataclasses import dataclass
from operator import attrgetter

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.people import display_name
from floor import selectors
from floor.models import JudgeCall, ReportEntry, TimeExtension
from judging.report import Column, ReportSection, Table
from judging.report.tables import table_of
from tournaments.match_history import HistoryLine
from tournaments.models import Match, Tournament

# The report on screen shows a page of each long list; the printed report shows it whole.
SCREEN_ROWS = 50


def _seconds(later: datetime.datetime | None, earlier: datetime.datetime) -> int | None:
    return int((later - earlier).total_seconds()) if later is not None else None


def _local(moment: datetime.datetime | None) -> datetime.datetime | None:
    return timezone.localtime(moment).replace(tzinfo=None) if moment is not None else None


@dataclass(frozen=True)
class Extensions:
    rows: list[TimeExtension]
    count: int
    minutes: int


def read_extensions(*, tournament: Tournament, whole: bool) -> Extensions:
    rows = selectors.report_extensions(tournament=tournament)
    return Extensions(
        rows=rows if whole else rows[:SCREEN_ROWS],
        count=len(rows),
        minutes=sum(extension.minutes for extension in rows),
    )


def extensions_table(*, tournament: Tournament) -> Table:
    columns = [
        Column(_("Round"), 7, attrgetter("match.round.number")),
        Column(_("Table"), 7, attrgetter("match.table")),
        Column(_("Player"), 28, attrgetter("match.player1.player.name")),
        Column(
            _("Opponent"),
            28,
            lambda extension: (
                extension.match.player2.player.name if extension.match.player2 else ""
            ),
        ),
        Column(_("Minutes"), 8, attrgetter("minutes")),
        Column(_("Reason"), 18, lambda extension: str(extension.get_reason_display())),
        Column(_("Judge"), 20, lambda extension: display_name(extension.given_by)),
        Column(_("Time"), 17, lambda extension: _local(extension.given_at)),
    ]
    extensions = selectors.report_extensions(tournament=tournament)
    return table_of(_("Time extensions"), columns, extensions)


@dataclass(frozen=True)
class Calls:
    rows: list[JudgeCall]
    count: int
    median_response: int | None
    longest_response: int | None


def read_calls(*, tournament: Tournament, whole: bool) -> Calls:
    rows = selectors.report_calls(tournament=tournament)
    responses = [
        seconds
        for call in rows
        if (seconds := _seconds(call.claimed_at, call.created_at)) is not None
    ]
    return Calls(
        rows=rows if whole else rows[:SCREEN_ROWS],
        count=len(rows),
        median_response=int(statistics.median(responses)) if responses else None,
        longest_response=max(responses) if responses else None,
    )


def calls_table(*, tournament: Tournament) -> Table:
    columns = [
        Column(_("Round"), 7, attrgetter("round.number")),
        Column(_("Table"), 7, attrgetter("table")),
        Column(_("Called at"), 17, lambda call: _local(call.created_at)),
        Column(
            _("Taken after, seconds"), 12, lambda call: _seconds(call.claimed_at, call.created_at)
        ),
        Column(
            _("Resolved after, seconds"),
            12,
            lambda call: _seconds(call.resolved_at, call.created_at),
        ),
        Column(
            _("Judge"), 20, lambda call: display_name(call.claimed_by) if call.claimed_by else ""
        ),
        Column(
            _("Sent to the head judge"),
            12,
            lambda call: _("yes") if call.escalated_at else _("no"),
        ),
        Column(_("Status"), 18, lambda call: str(call.get_status_display())),
    ]
    calls = selectors.report_calls(tournament=tournament)
    return table_of(_("Judge calls"), columns, calls)


# The players' own reports of results (issue 35) ------------------------------------------


def games_in_words(entry: ReportEntry) -> str:
    """The reported games as a score and one by one: «2–1 (Анна, Борис, Анна)»."""
    match = entry.match
    names = {
        0: _("draw"),
        1: match.player1.player.name,
        2: match.player2.player.name if match.player2 else "",
    }
    first = sum(game == 1 for game in entry.games)
    second = sum(game == 2 for game in entry.games)
    played = ", ".join(str(names.get(game, "")) for game in entry.games)
    return f"{first}–{second} ({played})"


def player_of(entry: ReportEntry) -> str:
    match = entry.match
    player = match.player1 if entry.seat == 1 else match.player2
    return player.player.name if player is not None else ""


@dataclass(frozen=True)
class Reports:
    rows: list[ReportEntry]
    count: int


def read_reports(*, tournament: Tournament, whole: bool) -> Reports:
    rows = selectors.report_for_report(tournament=tournament)
    return Reports(rows=rows if whole else rows[:SCREEN_ROWS], count=len(rows))


def reports_table(*, tournament: Tournament) -> Table:
    columns = [
        Column(_("Round"), 7, attrgetter("round.number")),
        Column(_("Table"), 7, attrgetter("match.table")),
        Column(_("Player"), 28, player_of),
        Column(_("Step"), 22, lambda entry: str(entry.get_action_display())),
        Column(_("Games"), 30, games_in_words),
        Column(_("Time"), 17, lambda entry: _local(entry.at)),
    ]
    entries = selectors.report_for_report(tournament=tournament)
    return table_of(_("Results reported by players"), columns, entries)


def history_lines(match: Match) -> list[HistoryLine]:
    """The players' steps in reporting this match's result, for its result screen."""
    return [
        HistoryLine(
            at=entry.at,
            title=_("%(player)s %(step)s")
            % {"player": player_of(entry), "step": entry.get_action_display()},
            detail=games_in_words(entry),
        )
        for entry in ReportEntry.objects.filter(match=match)
        .select_related("match__player1__player", "match__player2__player")
        .order_by("at", "id")
    ]


SECTIONS = [
    ReportSection(
        key="extensions",
        title=gettext_lazy("Time extensions"),
        template="floor/report_extensions.html",
        read=read_extensions,
        table=extensions_table,
        order=200,
    ),
    ReportSection(
        key="calls",
        title=gettext_lazy("Judge calls"),
        template="floor/report_calls.html",
        read=read_calls,
        table=calls_table,
        order=210,
    ),
    ReportSection(
        key="reports",
        title=gettext_lazy("Results reported by players"),
        template="floor/report_reports.html",
        read=read_reports,
        table=reports_table,
        order=220,
    ),
]
