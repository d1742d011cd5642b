"""The read-only JSON API for streaming overlays and club sites, one tournament at a time.

django-ninja builds the OpenAPI schema from these functions' types (served at
``/api/v1/openapi.json``, read at ``/api/v1/docs``); nothing here is written by hand. Every
answer is what the players' pages already show, by name only: no membership id, city, penalty
or contact. A request names its tournament by slug and opens it with a key: the players' link
token of that tournament, or an API key its organiser made and has not revoked, in the
``X-API-Key`` header or the ``key`` query parameter (a browser overlay cannot set headers).
Each answer costs the same few queries at 16 players as at 2,000; the standings come a page at
a time. A refusal is ``{"code", "detail"}``: a stable code and a message in the request's
language (Russian by default).
"""

import datetime

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from ninja import NinjaAPI, Schema
from ninja.errors import AuthenticationError, ValidationError
from ninja.security import APIKeyHeader, APIKeyQuery

from core.errors import DomainError
from federation import selectors
from federation.stages import stage_of
from tournaments import playoff_selectors
from tournaments.models import MatchEnd, Round, Tournament


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
    page: int
    pages: int
    page_size: int
    total: int
    rows: list[StandingOut]


class BracketMatchOut(Schema):
    slot: int
    table: int | None
    seed1: int | None
    player1: str | None
    seed2: int | None
    player2: str | None
    player1_wins: int
    player2_wins: int
    draws: int
    finished: bool
    winner: str | None
    walkover: bool
    decided_how: str


class BracketRoundOut(Schema):
    index: int
    key: str
    name: str
    number: int | None
    best_of: int | None
    matches: list[BracketMatchOut]


class BracketOut(Schema):
    tournament: str
    present: bool
    size: int
    champion: str | None
    block: int | None
    blocks: int
    rounds: list[BracketRoundOut]


class ClockOut(Schema):
    tournament: str
    round: int | None
    status: str
    seconds_left: int | None
    ends_at: datetime.datetime | None
    now: datetime.datetime


class ErrorOut(Schema):
    """A refusal: ``code`` stays the same in every language, ``detail`` is for people (in the
    request's language, Russian by default)."""

    code: str
    detail: str


# A refusal's status by its code; any other ``DomainError`` of a request is a 400.
STATUS_OF = {"no_such_round": 404, "no_such_block": 404, "no_such_page": 404}


@api.exception_handler(DomainError)
def refused(request: HttpRequest, error: DomainError) -> HttpResponse:
    return api.create_response(
        request,
        {"code": error.code, "detail": str(error.message)},
        status=STATUS_OF.get(error.code, 400),
    )


@api.exception_handler(AuthenticationError)
def unauthorised(request: HttpRequest, error: AuthenticationError) -> HttpResponse:
    return api.create_response(
        request,
        {
            "code": "api_key_required",
            "detail": _(
                "Open this tournament's API with its players' link token or an API key its "
                "organiser made (header X-API-Key or parameter key)."
            ),
        },
        status=401,
    )


@api.exception_handler(ValidationError)
def invalid(request: HttpRequest, error: ValidationError) -> HttpResponse:
    names = sorted({str(item["loc"][-1]) for item in error.errors if item.get("loc")})
    return api.create_response(
        request,
        {
            "code": "bad_parameter",
            "detail": _("A parameter of the request is not a whole number: %(names)s.")
            % {"names": ", ".join(names) or "—"},
        },
        status=422,
    )


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
    response={200: RoundsOut, 401: ErrorOut, 404: ErrorOut, 422: ErrorOut},
    summary="The pairings of a round",
    description="The latest round's tables, or round `round`; each table's score so far.",
)
def pairings(request: HttpRequest, slug: str, round: int | None = None) -> RoundsOut:
    tournament = _of(request)
    found = selectors.round_of(tournament=tournament, number=round)
    if round is not None and found is None:
        raise DomainError("no_such_round", _("There is no round %(number)s.") % {"number": round})
    return RoundsOut(
        tournament=tournament.name, round=_round_out(found) if found is not None else None
    )


@api.get(
    "/tournaments/{slug}/results",
    response={200: RoundsOut, 401: ErrorOut, 404: ErrorOut, 422: ErrorOut},
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
    response={200: StandingsOut, 401: ErrorOut, 404: ErrorOut, 422: ErrorOut},
    summary="The published standings, a page at a time",
    description="The standings the organiser published to the players, after that round; "
    "none until then. `page` (from 1) holds up to `page_size` rows; `pages` says how many "
    "there are.",
)
def standings(request: HttpRequest, slug: str, page: int = 1) -> StandingsOut:
    tournament = _of(request)
    through = selectors.standings_published(tournament=tournament)
    lines = (
        selectors.standings_lines(tournament=tournament, through_round=through)
        if through is not None
        else []
    )
    size = selectors.STANDINGS_PAGE
    pages = max(1, -(-len(lines) // size))
    if page < 1 or page > pages:
        raise DomainError(
            "no_such_page",
            _("There is no page %(number)s: the standings have %(pages)s.")
            % {"number": page, "pages": pages},
        )
    start = (page - 1) * size
    return StandingsOut(
        tournament=tournament.name,
        published=through is not None,
        through_round=through,
        page=page,
        pages=pages,
        page_size=size,
        total=len(lines),
        rows=[
            StandingOut(place=place, name=name, points=points)
            for place, (name, points) in enumerate(lines[start : start + size], start=start + 1)
        ],
    )


@api.get(
    "/tournaments/{slug}/bracket",
    response={200: BracketOut, 401: ErrorOut, 404: ErrorOut, 422: ErrorOut},
    summary="The playoff bracket",
    description="The playoff's rounds in order (the first round's slots, then the slots they "
    "lead to), each slot with its match once its players are known: the seeds, the names, the "
    "score, the winner and how a level match was decided. `present` is false for a tournament "
    "whose playoff has not started. `block` (from 1) gives one part of a large bracket: eight "
    "first-round matches and every match they lead to; without it, the whole bracket.",
)
def bracket(request: HttpRequest, slug: str, block: int | None = None) -> BracketOut:
    tournament = _of(request)
    if block is not None and block < 1:
        raise DomainError("no_such_block", _("There is no such part of the bracket."))
    found = playoff_selectors.playoff_bracket(
        tournament=tournament, block=block - 1 if block is not None else None
    )
    if block is not None and found.published and block > found.blocks:
        raise DomainError("no_such_block", _("There is no such part of the bracket."))
    if not found.published:
        return BracketOut(
            tournament=tournament.name,
            present=False,
            size=0,
            champion=None,
            block=None,
            blocks=0,
            rounds=[],
        )
    champion = None
    rounds = []
    for stage in found.rounds:
        matches = []
        for slot in stage.slots:
            match = slot.match
            if match is None:
                matches.append(_pending(slot.index))
                continue
            second = match.player2.player.name if match.player2 is not None else None
            names = {match.player1_id: match.player1.player.name, match.player2_id: second}
            winner = names.get(match.won_by) if match.won_by is not None else None
            if stage.is_final and winner is not None:
                champion = winner
            matches.append(
                BracketMatchOut(
                    slot=slot.index,
                    table=match.table,
                    seed1=slot.seed1,
                    player1=match.player1.player.name,
                    seed2=slot.seed2,
                    player2=second,
                    player1_wins=match.player1_wins,
                    player2_wins=match.player2_wins,
                    draws=match.draws,
                    finished=match.has_ended,
                    winner=winner,
                    walkover=match.end_reason == MatchEnd.WALKOVER,
                    decided_how=match.decided_how,
                )
            )
        rounds.append(
            BracketRoundOut(
                index=stage.index,
                key=stage.key,
                name=stage.label,
                number=stage.round.number if stage.round is not None else None,
                best_of=(stage.round.best_of or tournament.best_of)
                if stage.round is not None
                else None,
                matches=matches,
            )
        )
    return BracketOut(
        tournament=tournament.name,
        present=True,
        size=found.size,
        champion=champion,
        block=block,
        blocks=found.blocks if block is not None else 1,
        rounds=rounds,
    )


def _pending(index: int) -> BracketMatchOut:
    """A slot whose players are not known yet (they wait for the matches before it)."""
    return BracketMatchOut(
        slot=index,
        table=None,
        seed1=None,
        player1=None,
        seed2=None,
        player2=None,
        player1_wins=0,
        player2_wins=0,
        draws=0,
        finished=False,
        winner=None,
        walkover=False,
        decided_how="",
    )


@api.get(
    "/tournaments/{slug}/clock",
    response={200: ClockOut, 401: ErrorOut},
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
