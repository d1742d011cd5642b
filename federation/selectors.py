"""Reads of the federation: imported events, a player's history, suspensions, API keys, and
what the read-only API answers (``federation/api.py``)."""

import datetime
from dataclasses import dataclass

from django.core.cache import caches
from django.core.paginator import Page, Paginator
from django.db.models import Prefetch, QuerySet

from federation.models import ApiKey, ImportedEntry, ImportedEvent, ListImport
from federation.services import key_digest
from floor.models import PublicPages
from floor.selectors import RoundTime, round_time
from players.models import MembershipSuspension, MembershipSuspensionChange, Player, search_text
from tournaments.models import Match, PublicChange, Round, Tournament
from tournaments.selectors import StandingRow, latest_round
from tournaments.selectors import standings as standings_of

EVENTS_PAGE = 50


def imported_events(*, page: str | int = 1) -> Page[ImportedEvent]:
    events = ImportedEvent.objects.defer("content").order_by("-imported_at", "-pk")
    return Paginator(events, EVENTS_PAGE).get_page(page)


def find_players(*, query: str, limit: int = 20) -> list[Player]:
    folded = search_text(query.strip())
    if not folded:
        return []
    return list(Player.objects.filter(search_text__contains=folded).order_by("name")[:limit])


def player_entries(*, player: Player) -> QuerySet[ImportedEntry]:
    """The player's part in every imported event, newest first (one query)."""
    return (
        ImportedEntry.objects.filter(player=player)
        .select_related("event")
        .defer("event__content")
        .order_by("-event__date", "-event_id")
    )


def player_suspensions(*, player: Player) -> list[MembershipSuspension]:
    """The player's suspensions, each with its history (two queries)."""
    return list(
        MembershipSuspension.objects.filter(player=player)
        .prefetch_related(
            Prefetch(
                "changes",
                queryset=MembershipSuspensionChange.objects.select_related("author").order_by(
                    "at", "pk"
                ),
            )
        )
        .order_by("-starts_on", "-pk")
    )


def suspension_of(*, pk: int) -> MembershipSuspension | None:
    return MembershipSuspension.objects.select_related("player").filter(pk=pk).first()


def player_of(*, pk: int) -> Player | None:
    return Player.objects.filter(pk=pk).first()


def suspensions_in_force(*, day: datetime.date, limit: int = 200) -> list[MembershipSuspension]:
    return list(
        MembershipSuspension.objects.in_force_on(day)
        .select_related("player")
        .order_by("player__name", "pk")[:limit]
    )


def list_imports(*, limit: int = 10) -> list[ListImport]:
    return list(ListImport.objects.order_by("-imported_at", "-pk")[:limit])


def api_keys(*, tournament: Tournament) -> list[ApiKey]:
    return list(ApiKey.objects.filter(tournament=tournament).select_related("created_by"))


# The API ------------------------------------------------------------------------------------


def tournament_for_key(*, slug: str, key: str) -> Tournament | None:
    """The tournament of ``slug`` if ``key`` opens it: its players' link token, or an API key of
    it not revoked. One query either way."""
    if not key or len(key) > 80:
        return None
    if key.startswith("bk_"):
        found = (
            ApiKey.objects.filter(
                digest=key_digest(key), revoked_at__isnull=True, tournament__slug=slug
            )
            .select_related("tournament")
            .first()
        )
        return found.tournament if found is not None else None
    pages = (
        PublicPages.objects.filter(token=key, tournament__slug=slug)
        .select_related("tournament")
        .first()
    )
    return pages.tournament if pages is not None else None


def published_standings(*, tournament: Tournament, through_round: int) -> list[StandingRow]:
    """The standings as the players' pages show them (two queries)."""
    return standings_of(tournament=tournament, through_round=through_round)


# Rows a page of the API's standings holds.
STANDINGS_PAGE = 100
# The computed lines are kept at most this long; a change makes a new key long before.
STANDINGS_KEEP_SECONDS = 3600


def standings_lines(*, tournament: Tournament, through_round: int) -> list[tuple[str, int]]:
    """The published standings as (name, points) in order, computed once per change of what
    the players' pages show (``PublicChange``: a result, a correction, a registration) and kept
    in the ``public`` cache; a request then costs one small query and a cache read, whatever the
    event's size."""
    change = (
        PublicChange.objects.filter(tournament_id=tournament.pk)
        .order_by("-id")
        .values_list("id", flat=True)
        .first()
    )
    key = f"api-standings:{tournament.pk}:{change or 0}:{through_round}"
    cache = caches["public"]
    lines: list[tuple[str, int]] | None = cache.get(key)
    if lines is None:
        lines = [
            (row.registration.player.name, row.standing.points)
            for row in published_standings(tournament=tournament, through_round=through_round)
        ]
        cache.set(key, lines, STANDINGS_KEEP_SECONDS)
    return lines


def standings_published(*, tournament: Tournament) -> int | None:
    return (
        PublicPages.objects.filter(tournament=tournament)
        .values_list("standings_through", flat=True)
        .first()
    )


@dataclass(frozen=True)
class ResultLine:
    table: int | None
    player1: str
    player2: str | None
    player1_wins: int
    player2_wins: int
    draws: int
    finished: bool


def round_of(*, tournament: Tournament, number: int | None) -> Round | None:
    if number is None:
        return latest_round(tournament=tournament)
    return Round.objects.filter(tournament=tournament, number=number).first()


def pairing_lines(*, round_: Round) -> list[ResultLine]:
    """The round's tables in order with both players' names and the score so far (one query)."""
    rows = (
        Match.objects.filter(round=round_)
        .order_by("table", "pk")
        .values_list(
            "table",
            "player1__player__name",
            "player2__player__name",
            "player1_wins",
            "player2_wins",
            "draws",
            "ended_at",
        )
    )
    return [
        ResultLine(table, first, second, wins1, wins2, draws, ended is not None)
        for table, first, second, wins1, wins2, draws, ended in rows
    ]


def clock_of(*, tournament: Tournament) -> RoundTime | None:
    return round_time(tournament=tournament)
