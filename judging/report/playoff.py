"""The playoff in the judge report (issue 32): the final standings (the champion, the finalist,
then by the round each player went out in; a disqualification without prize marked), the
bracket's matches with how a level match was decided, and the losses a player out of the playoff
will never serve. Registered as report sections from ``JudgingConfig.ready()``; each is shown in
the report and exported as CSV and XLSX."""

from dataclasses import dataclass
from operator import attrgetter

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from judging.models import PenaltyRecord
from judging.report.sections import ReportSection
from judging.report.tables import Column, Table, table_of
from tournaments import playoff_selectors
from tournaments.models import Match, MatchEnd, Tournament

# The report on screen shows a page of each long list; the printed report shows it whole.
SCREEN_ROWS = 50


@dataclass(frozen=True)
class PlayoffPart:
    rows: list[playoff_selectors.FinalRow]
    count: int
    matches: list[Match]
    unserved: list[PenaltyRecord]
    labels: dict[int, str]


def _labels(tournament: Tournament) -> dict[int, str]:
    """Each playoff round's number → its name (quarter-finals, semi-finals, final)."""
    bracket = playoff_selectors.playoff_bracket(tournament=tournament, block=0)
    return {stage.round.number: stage.label for stage in bracket.rounds if stage.round is not None}


def read_playoff(*, tournament: Tournament, whole: bool) -> PlayoffPart | None:
    if not playoff_selectors.playoff_size(tournament=tournament):
        return None
    rows = [row for row in playoff_selectors.final_standings(tournament=tournament) if row.in_cut]
    matches = list(
        Match.objects.filter(round__tournament=tournament, round__playoff=True)
        .select_related("round", "player1__player", "player2__player", "decided_winner__player")
        .order_by("round__number", "table")
    )
    out = playoff_selectors.unserved_losses_owner_ids(tournament=tournament)
    unserved = list(
        PenaltyRecord.objects.filter(tournament=tournament, registration_id__in=out)
        .pending_losses()
        .select_related("registration__player")
        .order_by("id")
    )
    return PlayoffPart(
        rows=rows if whole else rows[:SCREEN_ROWS],
        count=len(rows),
        matches=matches if whole else matches[:SCREEN_ROWS],
        unserved=unserved,
        labels=_labels(tournament),
    )


def _went_out(row: playoff_selectors.FinalRow) -> str:
    if row.champion:
        return _("Champion")
    if row.finalist:
        return _("Finalist")
    return row.went_out


def playoff_table(*, tournament: Tournament) -> Table:
    yes, no = _("yes"), _("no")
    columns = [
        Column("#", 6, attrgetter("place")),
        Column(_("Player"), 28, attrgetter("registration.player.name")),
        Column(_("Membership id"), 14, attrgetter("registration.player.membership_id")),
        Column(_("Seed"), 7, attrgetter("seed")),
        Column(
            _("Went out in"), 18, lambda row: _went_out(row) if row.in_cut else _("Swiss rounds")
        ),
        Column(_("Place after the Swiss rounds"), 10, attrgetter("swiss_position")),
        Column(_("Status"), 16, lambda row: _("disqualified") if row.disqualified else ""),
        Column(_("May receive a prize"), 12, lambda row: no if row.without_prize else yes),
    ]
    rows = playoff_selectors.final_standings(tournament=tournament)
    return table_of(_("Final standings"), columns, rows)


def _score(match: Match) -> str:
    return f"{match.player1_wins}–{match.player2_wins}" + (
        f" ({match.draws})" if match.draws else ""
    )


def _winner(match: Match) -> str:
    pk = match.won_by
    player = match.player1 if pk == match.player1_id else match.player2
    return str(player.player.name) if pk is not None and player is not None else ""


def playoff_matches_table(*, tournament: Tournament) -> Table:
    labels = _labels(tournament)
    columns = [
        Column(_("Round"), 16, lambda match: labels.get(match.round.number, match.round.number)),
        Column(_("Table"), 7, attrgetter("table")),
        Column(_("Player"), 28, attrgetter("player1.player.name")),
        Column(
            _("Opponent"),
            28,
            lambda match: match.player2.player.name if match.player2 is not None else "",
        ),
        Column(_("Score"), 9, _score),
        Column(_("Winner"), 28, _winner),
        Column(
            _("How it ended"),
            28,
            lambda match: str(MatchEnd(match.end_reason).label) if match.end_reason else "",
        ),
        Column(_("How it was decided"), 40, attrgetter("decided_how")),
    ]
    matches = (
        Match.objects.filter(round__tournament=tournament, round__playoff=True)
        .select_related("round", "player1__player", "player2__player")
        .order_by("round__number", "table")
    )
    return table_of(_("Playoff matches"), columns, matches)


SECTIONS = [
    ReportSection(
        key="playoff",
        title=gettext_lazy("Playoff"),
        template="judging/report_playoff.html",
        read=read_playoff,
        table=playoff_table,
        order=10,
    ),
    ReportSection(
        key="playoff-matches",
        title=gettext_lazy("Playoff matches"),
        template="judging/report_playoff_matches.html",
        read=read_playoff,
        table=playoff_matches_table,
        order=11,
    ),
]
