"""The deck section of the judge report (findings, deck checks, the penalties of section 1), and
the deck panel of the judge's player page."""

from judging.report.sections import ReportSection
from tournaments.models import Registration, Tournament


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


def player_panel(registration: Registration) -> ReportSection | None:
    """The deck panel of the judge's player page: the list's findings and deck checks."""
    from decks import selectors

    tournament = registration.tournament
    return ReportSection(
        template="decks/_player_panel.html",
        context={
            "registration": registration,
            "uses_decklists": tournament.uses_decklists,
            "findings": selectors.player_findings(registration=registration),
            "checks": selectors.deck_checks(tournament=tournament, registration=registration),
        },
    )
