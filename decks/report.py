"""The deck section of the judge report: findings, deck checks, and the penalties of section 1."""

from judging.report.sections import ReportSection
from tournaments.models import Tournament


def deck_section(tournament: Tournament) -> ReportSection | None:
    from decks import selectors

    return ReportSection(
        template="decks/_report_section.html",
        context={
            "uses_decklists": tournament.uses_decklists,
            "findings": selectors.tournament_findings(tournament=tournament),
            "checks": selectors.deck_checks(tournament=tournament),
            "penalties": selectors.deck_penalties(tournament=tournament),
        },
    )
