"""Reads about guideline editions and penalty records."""

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from judging.models import (
    Availability,
    GuidelineEdition,
    Infraction,
    PenaltyRecord,
    TournamentGuideline,
)
from tournaments.errors import DomainError
from tournaments.models import Level, Registration, Tournament

SHIPPED_EDITION_SLUG = "berserk-heroes-penalty-guideline"


def edition_for(*, tournament: Tournament) -> GuidelineEdition:
    assigned = TournamentGuideline.objects.filter(tournament=tournament).select_related("edition")
    for row in assigned:
        return row.edition
    return GuidelineEdition.objects.get(slug=SHIPPED_EDITION_SLUG)


def unavailability(*, infraction: Infraction, tournament: Tournament) -> str | None:
    """Why the infraction cannot be issued in this tournament, or None when it can (rules.md §3)."""
    if infraction.availability == Availability.DECKLISTS and not tournament.uses_decklists:
        return _("Infraction %(code)s applies only to tournaments that use deck lists.") % {
            "code": infraction.code
        }
    if infraction.availability == Availability.NO_DECKLISTS and tournament.uses_decklists:
        return _("Infraction %(code)s applies only to tournaments without deck lists.") % {
            "code": infraction.code
        }
    if infraction.base_penalty(tournament.level) is None:
        return _("Infraction %(code)s has no penalty at the %(level)s level.") % {
            "code": infraction.code,
            "level": Level(tournament.level).label,
        }
    return None


def available_infractions(*, tournament: Tournament) -> list[Infraction]:
    """The infractions a judge may issue in this tournament, in guideline order."""
    edition = edition_for(tournament=tournament)
    infractions = [
        infraction
        for infraction in Infraction.objects.filter(edition=edition)
        if unavailability(infraction=infraction, tournament=tournament) is None
    ]
    return sorted(infractions, key=lambda infraction: infraction.sort_key)


def issuable_infraction(*, tournament: Tournament, code: str) -> Infraction:
    """The infraction with that code, if a judge may issue it here; otherwise a clear refusal."""
    edition = edition_for(tournament=tournament)
    infraction = Infraction.objects.filter(edition=edition, code=code.strip()).first()
    if infraction is None:
        raise DomainError(
            "unknown_infraction",
            _("There is no infraction %(code)s in the guideline of this tournament.")
            % {"code": code},
        )
    refusal = unavailability(infraction=infraction, tournament=tournament)
    if refusal is not None:
        raise DomainError("infraction_unavailable", refusal)
    return infraction


def records_of(*, registration: Registration) -> QuerySet[PenaltyRecord]:
    return (
        PenaltyRecord.objects.filter(registration=registration)
        .select_related("infraction", "round", "issued_by")
        .order_by("id")
    )


def penalties_in_force(*, registration: Registration) -> QuerySet[PenaltyRecord]:
    return records_of(registration=registration).in_force()


def pending_losses(*, registration: Registration) -> QuerySet[PenaltyRecord]:
    return records_of(registration=registration).pending_losses()
