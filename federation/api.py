"""The read-only JSON API for streaming overlays and club sites, one tournament at a time.

django-ninja builds the OpenAPI schema from these functions' types (served at
``/api/v1/openapi.json``, read at ``/api/v1/docs``); nothing here is written by hand. Every
answer is what the players' pages already show, by name only: no membership id, city, penalty
or contact. A request names its tournament by slug and opens it with a key: the players' link
token of that tournament, or an API key its organiser made and has not revoked, in the
``X-API-Key`` header or the ``key`` query parameter (a browser overlay cannot set headers).
Each answer costs the same few queries at 16 players as at 2,000.
"""

import datetime

from django.http import HttpRequest
from ninja import NinjaAPI, Schema
from ninja.errors import HttpError
from ninja.security import APIKeyHeader, APIKeyQuery

from federation import selectors
from federation.stages import PLAYOFF, stage_of
from tournaments.models import Round, Tournament


def _tournament(request: HttpRequest, key: str | None) -> Tournament | None:
    match = request.resolver_match
    slug = match.kwargs.get("slug", "") if match is not None else ""
    return selectors.tournament_for_key(slug=str(slug), key=key or "")


class HeaderKey(APIKeyHeader):
    param_name = "X-API-Key"

    def authenticate(self, request: HttpRequest, key: str | None) -> Tournament | None:
        return _tournament(request, key)


class QueryKey(APIKeyQuery):
    param_name = "key"

    def authenticate(self, request: HttpRequest, key: str | None) -> Tournament | None:
        return _tournament(request, key)


api = NinjaAPI(
    title="Berserk. Heroes judging desk: tournament API",
    version="1",
    description=(
        "Read-only: pairings, results, published standings, the playoff bracket and the round "
        "clock of one tournament. Open it with the players' link token or an API key the "
        "organiser made (header X-API-Key or query parameter key)."
    ),
    urls_namespace="api",
    auth=[HeaderKey(), QueryKey()],
)


class TableOut(Schema):
    table: int | None
    player1: str
    player2: str | None = None
    player1_wins: int
    player2_wins: int
    draws: int
    finished: bool


class RoundOut(Schema):
    number: int
    stage: str
    tables: list[TableOut]


class RoundsOut(Schema):
    tournament: str
    round: RoundOut | None


class StandingOut(Schema):
    place: int
    name: str
    points: int


class StandingsOut(Schema):
    tournament: str
    published: bool
    through_round: int | None
    rows: list[StandingOut]


class BracketOut(Schema):
    tournament: str
    present: bool
    rounds: list[RoundOut]


class ClockOut(Schema):
    tournament: str
    round: int | None
    status: str
    seconds_left: int | None
    ends_at: datetime.datetime | None
    now: datetime.datetime


class ErrorOut(Schema):
    detail: str


def _round_out(round_: Round) -> RoundOut:
    return RoundOut(
        number=round_.number,
        stage=stage_of(round_),
        tables=[TableOut(**line.__dict__) for line in selectors.pairing_lines(round_=round_)],
    )


def _of(request: HttpRequest) -> Tournament:
    tournament = request.auth  # type: ignore[attr-defined]
    assert isinstance(tournament, Tournament)
    return tournament


@api.get(
    "/tournaments/{slug}/pairings",
    response={200: RoundsOut, 404: ErrorOut},
    summary="The pairings of a round",
    description="The latest round's tables, or round `round`; each table's score so far.",
)
def pairings(request: HttpRequest, slug: str, round: int | None = None) -> RoundsOut:
    tournament = _of(request)
    found = selectors.round_of(tournament=tournament, number=round)
    if round is not None and found is None:
        raise HttpError(404, "No such round.")
    return RoundsOut(
        tournament=tournament.name, round=_round_out(found) if found is not None else None
    )


@api.get(
    "/tournaments/{slug}/results",
    response={200: RoundsOut, 404: ErrorOut},
    summary="The results of a round",
    description="The finished tables of the latest round, or of round `round`.",
)
def results(request: HttpRequest, slug: str, round: int | None = None) -> RoundsOut:
    answer = pairings(request, slug, round)
    if answer.round is not None:
        answer.round.tables = [table for table in answer.round.tables if table.finished]
    return answer


@api.get(
    "/tournaments/{slug}/standings",
    response=StandingsOut,
    summary="The published standings",
    description="The standings the organiser published to the players, after that round; "
    "none until then.",
)
def standings(request: HttpRequest, slug: str) -> StandingsOut:
    tournament = _of(request)
    through = selectors.standings_published(tournament=tournament)
    rows = []
    if through is not None:
        table = selectors.published_standings(tournament=tournament, through_round=through)
        rows = [
            StandingOut(place=place, name=row.registration.player.name, points=row.standing.points)
            for place, row in enumerate(table, start=1)
        ]
    return StandingsOut(
        tournament=tournament.name, published=through is not None, through_round=through, rows=rows
    )


@api.get(
    "/tournaments/{slug}/bracket",
    response=BracketOut,
    summary="The playoff bracket",
    description="The playoff's rounds with their tables; `present` is false for a tournament "
    "without a playoff.",
)
def bracket(request: HttpRequest, slug: str) -> BracketOut:
    tournament = _of(request)
    rounds = [
        _round_out(round_)
        for round_ in selectors.rounds_of(tournament=tournament)
        if stage_of(round_) == PLAYOFF
    ]
    return BracketOut(tournament=tournament.name, present=bool(rounds), rounds=rounds)


@api.get(
    "/tournaments/{slug}/clock",
    response=ClockOut,
    summary="The round clock",
    description="The latest round's clock: its status, the seconds left and when time will be "
    "called (while it runs), with the server's time.",
)
def clock(request: HttpRequest, slug: str) -> ClockOut:
    tournament = _of(request)
    time = selectors.clock_of(tournament=tournament)
    if time is None:
        return ClockOut(
            tournament=tournament.name,
            round=None,
            status="no_round",
            seconds_left=None,
            ends_at=None,
            now=datetime.datetime.now(datetime.UTC),
        )
    return ClockOut(
        tournament=tournament.name,
        round=time.round.number,
        status=str(time.clock.status),
        seconds_left=time.clock.seconds_left,
        ends_at=time.clock.ends_at,
        now=time.now,
    )
