"""The floor's part of the demo: the players' link, the standings published to players, and a
round in which half the tables reported their results themselves (issue 35)."""

import uuid

from django.urls import reverse

from core.errors import DomainError
from floor import selectors, services
from floor.models import TableReport
from tournaments.models import Match, Tournament
from tournaments.selectors import latest_round


def load_floor_demo(*, tournament: Tournament, base_url: str) -> str:
    """Make the demo's players' pages (once) and say where they are. The clock is left for the
    head judge or the organiser to start, as at an event."""
    pages = services.ensure_public_pages(tournament=tournament)
    if pages.standings_through is None:
        services.publish_standings(tournament=tournament)
    _players_report_half_the_tables(tournament)
    path = reverse("floor:public", args=[pages.token])
    return f"Players' pages (no sign-in): {base_url.rstrip('/')}{path}"


def _players_report_half_the_tables(tournament: Tournament) -> None:
    """In the round under way, every other table still playing reports its result from the
    players' phones: most are confirmed by the opponent, one waits for its confirmation and one
    is disputed (a judge is called). Done once: a second run finds the reports."""
    round_ = latest_round(tournament=tournament)
    if round_ is None or TableReport.objects.filter(round=round_).exists():
        return
    playing = [
        match
        for match in Match.objects.filter(
            round=round_, ended_at__isnull=True, player2__isnull=False
        )
        .select_related("round__tournament", "player1__player", "player2__player")
        .order_by("table")
    ]
    chosen = playing[::2]
    for index, match in enumerate(chosen):
        slots = selectors.report_slots(match=match)
        open_games = [slot.number for slot in slots if slot.is_open]
        if not open_games:
            continue
        games = [1 + (index % 2), 1 + (index % 2)][: len(open_games)]

        def send(seat: int, reported: list[int], phone: str, *, match: Match = match) -> None:
            services.report_result(
                match=match,
                seat=seat,
                code=services.seat_code(match_id=match.pk, seat=seat),
                games=reported,
                phone=services.phone_key(phone),
                client_key=uuid.uuid4(),
            )

        try:
            send(1, games, f"demo-{match.pk}-1")
            if index == len(chosen) - 1:
                continue  # reported, waiting for the opponent's confirmation
            if index == len(chosen) - 2:
                send(2, [3 - game for game in games], f"demo-{match.pk}-2")  # disputed
                continue
            send(2, games, f"demo-{match.pk}-2")
        except DomainError:
            continue  # a table a penalty already decided otherwise: the staff enter it
