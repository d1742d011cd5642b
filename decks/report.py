"""The deck section of the judge report (findings, deck checks, the penalties of section 1), and
the deck panel of the judge's player page. Registered from ``decks.apps``."""

from collections.abc import Iterable
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.people import display_name
from judging.panels import Panel
from judging.report.sections import ReportSection
from judging.report.tables import CellValue, Column, Table
from tournaments.models import Registration, Tournament

PAGE_ROWS = 50


def read_section(*, tournament: Tournament, whole: bool) -> dict[str, Any]:
    from decks import selectors

    # Read a page at a time, as the deck screens are: the report's page reads its 50 rows only.
    findings = selectors.finding_rows(tournament=tournament)
    checks = selectors.check_rows(tournament=tournament)
    penalties = selectors.deck_penalties(tournament=tournament)
    return {
        "uses_decklists": tournament.uses_decklists,
        "findings": list(findings) if whole else findings[:PAGE_ROWS],
        "findings_total": len(findings),
        "checks": list(checks) if whole else checks[:PAGE_ROWS],
        "checks_total": len(checks),
        "penalties": list(penalties) if whole else penalties[:PAGE_ROWS],
        "penalties_total": len(penalties),
    }


def deck_table(*, tournament: Tournament) -> Table:
    """The findings and the deck checks, one row each, for CSV and XLSX."""
    from decks import selectors

    columns = [
        Column(_("What"), 14),
        Column(_("Player"), 28),
        Column(_("Membership id"), 14),
        Column(_("Round"), 7),
        Column(_("Table"), 7),
        Column(_("Infraction code"), 10),
        Column(_("Sub-item"), 8),
        Column(_("Finding"), 60),
        Column(_("Judge"), 20),
        Column(_("Time"), 17),
    ]

    def rows() -> Iterable[list[CellValue]]:
        for finding in selectors.tournament_findings(tournament=tournament):
            player = finding.registration.player
            yield [
                _("Deck list"),
                player.name,
                player.membership_id,
                None,
                None,
                finding.code,
                finding.sub_item,
                finding.text,
                "",
                _local(finding.found_at),
            ]
        for row in selectors.deck_checks(tournament=tournament):
            check = row.check
            player = check.registration.player
            words = "; ".join(f"{f.code} {f.sub_item}) {f.text}" for f in row.findings)
            yield [
                _("Deck check"),
                player.name,
                player.membership_id,
                check.round.number if check.round else None,
                check.table,
                ", ".join(sorted({f.code for f in row.findings})),
                ", ".join(f.sub_item for f in row.findings),
                words or str(check.get_outcome_display()),
                display_name(check.judge),
                _local(check.checked_at),
            ]

    return Table(title=_("Deck lists"), columns=columns, rows=rows())


def _local(moment: Any) -> Any:
    return timezone.localtime(moment).replace(tzinfo=None) if moment else None


DECK_SECTION = ReportSection(
    key="decks",
    title=gettext_lazy("Deck lists and deck checks"),
    template="decks/_report_section.html",
    read=read_section,
    table=deck_table,
    order=10,
)


def player_panel(registration: Registration) -> Panel | None:
    """The deck panel of the judge's player page: the list's findings and deck checks."""
    from decks import selectors

    tournament = registration.tournament
    return Panel(
        template="decks/_player_panel.html",
        context={
            "registration": registration,
            "uses_decklists": tournament.uses_decklists,
            "findings": selectors.player_findings(registration=registration),
            "checks": selectors.deck_checks(tournament=tournament, registration=registration),
        },
    )
