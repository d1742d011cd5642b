"""The floor's part of the demo: the players' link, and the standings published to players."""

from django.urls import reverse

from floor import services
from tournaments.models import Tournament


def load_floor_demo(*, tournament: Tournament, base_url: str) -> str:
    """Make the demo's players' pages (once) and say where they are. The clock is left for the
    head judge or the organiser to start, as at an event."""
    pages = services.ensure_public_pages(tournament=tournament)
    if pages.standings_through is None:
        services.publish_standings(tournament=tournament)
    path = reverse("floor:public", args=[pages.token])
    return f"Players' pages (no sign-in): {base_url.rstrip('/')}{path}"
