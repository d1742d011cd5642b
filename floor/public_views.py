"""The players' pages: no login, phone-first, reached by the tournament's token in the link.

They show names, tables, the clock and (once published) the standings: never a penalty, a note,
a membership id or anything of the staff. An unknown token, or one the organiser has replaced,
is a plain 404. The one thing a player sends to the staff is a judge call.
"""

import re
import uuid
from collections.abc import Callable

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connections
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
    StreamingHttpResponse,
)
from django.shortcuts import redirect, render
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import http_date
from django.views.decorators.http import require_GET, require_POST

from core.clients import client_address
from core.errors import DomainError
from core.http import message_refusal
from core.throttle import Limit, over_limit, players_page
from floor import public_pages, selectors, services
from floor.forms import CheckInForm, PlayerSearchForm, ReportForm, reported_games
from floor.models import PublicPages, TableReport
from floor.public_pages import CLOCK_POLL_SECONDS, Prepared, Stamp
from judging import live
from tournaments.models import Match
from tournaments.services.pages import BRACKET_CHANGED

# "gzip" among the encodings the client accepts, unless it gave it a quality of zero.
_GZIP = re.compile(r"(?:^|,)\s*gzip\s*(?:;\s*q\s*=\s*(?!0(?:\.0*)?\s*(?:,|$))[0-9.]+)?\s*(?:,|$)")


def _htmx(request: HttpRequest) -> bool:
    return bool(getattr(request, "htmx", False))


def _pages(token: str) -> PublicPages:
    pages = selectors.pages_by_token(token)
    if pages is None:
        raise Http404
    return pages


def accepts_gzip(request: HttpRequest) -> bool:
    return bool(_GZIP.search(request.headers.get("Accept-Encoding", "").lower()))


def answer(request: HttpRequest, page: Prepared) -> HttpResponse:
    """The prepared bytes, compressed if the client takes gzip; a 304 if it has them already.

    Each encoding has its own entity tag, as two different byte strings must."""
    gzipped = accepts_gzip(request)
    etag = f'"{page.digest}{"-gz" if gzipped else ""}"'
    last_modified = page.built_at.timestamp()
    response = get_conditional_response(request, etag=etag, last_modified=int(last_modified))
    if response is None:
        response = HttpResponse(
            page.compressed if gzipped else page.plain, content_type="text/html; charset=utf-8"
        )
        if gzipped:
            response["Content-Encoding"] = "gzip"
    # A 304 names the validators it confirms, as the full answer does.
    response["ETag"] = etag
    response["Last-Modified"] = http_date(last_modified)
    # Ask again every time (a change may come any moment); the answer is a 304 while unchanged.
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ("Accept-Encoding", "Accept-Language", "Cookie"))
    return response


def _stamp(token: str) -> Stamp:
    stamp = public_pages.stamp_of(token)
    if stamp is None:
        raise Http404
    return stamp


def _page(key: str, build: Callable[[], Prepared]) -> Prepared:
    page = public_pages.cached_page(key)
    if page is None:
        page = build()
        public_pages.keep(key, page)
    return page


def _page_number(request: HttpRequest) -> int:
    return public_pages.page_number(request.GET.get("page", ""))


def _key(stamp: Stamp, kind: str, request: HttpRequest, query: str = "") -> str:
    return public_pages.page_key(stamp, kind, query, request.GET.get("page", ""))


@require_GET
@players_page("players")
def public_home(request: HttpRequest, token: str) -> HttpResponseBase:
    """A page of the current round's pairings by name, or a player's own line found by name;
    a link to the standings once published."""
    stamp = _stamp(token)
    form = PlayerSearchForm(request.GET)
    if not form.is_valid():
        # Bad input is rare and never cached: the page again with the message.
        return _refused_search(request, stamp, form)
    query = form.cleaned_data["q"].strip()
    key = _key(stamp, "home", request, query)
    if query:
        page = _page(key, lambda: public_pages.search_page(stamp, query))
    else:
        number = _page_number(request)
        page = _page(key, lambda: public_pages.home_page(stamp, number))
    return answer(request, page)


def _refused_search(request: HttpRequest, stamp: Stamp, form: PlayerSearchForm) -> HttpResponse:
    html = public_pages.refused_search(stamp, form)
    return HttpResponse(html)


@require_GET
@players_page("players")
def public_clock(request: HttpRequest, token: str) -> HttpResponseBase:
    stamp = _stamp(token)
    page = _page(_key(stamp, "clock", request), lambda: public_pages.clock_fragment(stamp))
    return answer(request, page)


@require_GET
@players_page("players")
def public_standings(request: HttpRequest, token: str) -> HttpResponseBase:
    """The published standings, a page at a time; a 404 while none are published."""
    stamp = _stamp(token)
    if stamp.standings_through is None:
        raise Http404
    number = _page_number(request)
    page = _page(
        _key(stamp, "standings", request), lambda: public_pages.standings_page(stamp, number)
    )
    return answer(request, page)


# The phone's own cookie (a random value, signed) and the seat it has proven at a table.
PHONE_COOKIE = "desk_phone"
SEAT_COOKIE = "desk_seat"
COOKIE_SALT = "floor.table"
COOKIE_SECONDS = 2 * 24 * 3600


def _phone(request: HttpRequest) -> str:
    value = request.get_signed_cookie(PHONE_COOKIE, default="", salt=COOKIE_SALT)
    return str(value or "")


def _remembered_seat(request: HttpRequest, match_id: int) -> int | None:
    """The seat this phone proved with its code at this match, if any."""
    value = str(request.get_signed_cookie(SEAT_COOKIE, default="", salt=COOKIE_SALT) or "")
    match_part, _sep, seat = value.partition(":")
    if match_part == str(match_id) and seat in ("1", "2"):
        return int(seat)
    return None


def _keep_cookie(response: HttpResponse, name: str, value: str) -> None:
    response.set_signed_cookie(
        name, value, salt=COOKIE_SALT, max_age=COOKIE_SECONDS, httponly=True, samesite="Lax"
    )


def _report_context(request: HttpRequest, match: Match) -> dict[str, object]:
    """What the table's players see of the result: the games (a penalty's marked), the report
    waiting for confirmation, and which seat this phone has proven."""
    slots = selectors.report_slots(match=match)
    report: TableReport | None = selectors.table_report(match=match)
    seat = _remembered_seat(request, match.pk)
    names = {1: match.player1.player.name, 2: match.player2.player.name if match.player2 else ""}
    confirming = None
    if report is not None and report.is_reported:
        confirming = 3 - report.seat
    return {
        "slots": slots,
        "open_slots": [slot for slot in slots if slot.is_open],
        "waiting_penalty": [slot for slot in slots if slot.by_penalty and not slot.recorded],
        "report": report,
        "reported_names": [names.get(game) for game in report.games] if report else [],
        "reported_score": _score(report.games) if report else None,
        "seat": seat,
        "names": names,
        "reporter_name": names.get(report.seat) if report else "",
        "confirming": confirming,
        "confirming_name": names.get(confirming) if confirming else "",
        "confirming_remembered": confirming is not None and seat == confirming,
        "client_key": str(uuid.uuid4()),
    }


def _score(games: list[int]) -> str:
    return f"{sum(game == 1 for game in games)}–{sum(game == 2 for game in games)}" + (
        f" ({sum(game == 0 for game in games)})" if 0 in games else ""
    )


def _table_context(pages: PublicPages, table: int) -> dict[str, object]:
    match = selectors.match_at_table(tournament=pages.tournament, table=table)
    if match is None:
        raise Http404
    time = selectors.round_time(tournament=pages.tournament)
    extra = selectors.extra_minutes(match=match)
    return {
        "pages": pages,
        "token": pages.token,
        "tournament": pages.tournament,
        "table": table,
        "match": match,
        "call": selectors.open_call_at(tournament=pages.tournament, table=table),
        "time": time,
        "extra": extra,
        "table_ends_at": time.clock.table_end(extra) if time is not None and extra else None,
        "poll": CLOCK_POLL_SECONDS,
    }


@players_page("players")
def table_page(request: HttpRequest, token: str, table: int) -> HttpResponse:
    """A table's page, reached by the QR code on its match slip: the players, the clock, and
    the "Call a judge" button."""
    pages = _pages(token)
    context = _table_context(pages, table)
    match = context["match"]
    assert isinstance(match, Match)
    if _htmx(request) and request.GET.get("fragment") == "call-status":
        return render(request, "floor/table.html#call-status", context)
    context.update(_report_context(request, match))
    if _htmx(request) and request.GET.get("fragment") == "table-report":
        return render(request, "floor/table.html#table-report", context)
    response = render(request, "floor/table.html", context)
    if not _phone(request):
        _keep_cookie(response, PHONE_COOKIE, uuid.uuid4().hex)
    return response


@require_POST
@players_page("players")
def report(request: HttpRequest, token: str, table: int) -> HttpResponse:
    """A player reports their table's games, or confirms the opponent's report (issue 35)."""
    pages = _pages(token)
    context = _table_context(pages, table)
    match = context["match"]
    assert isinstance(match, Match)
    phone = _phone(request) or uuid.uuid4().hex
    form = ReportForm(request.POST)
    proven: int | None = None
    try:
        if not form.is_valid():
            first = str(next(iter(form.errors.values()))[0])
            raise DomainError("bad_report_form", first)
        seat = form.cleaned_data["seat"]
        code = form.cleaned_data["code"]
        if not code.strip() and _remembered_seat(request, match.pk) == seat:
            # This phone proved the seat with its code before: the signed cookie stands for it.
            code = services.seat_code(match_id=match.pk, seat=seat)
        common = {
            "match": match,
            "seat": seat,
            "code": code,
            "phone": services.phone_key(phone),
            "client_key": form.cleaned_data["client_key"],
        }
        if form.cleaned_data["action"] == "confirm":
            services.confirm_result(**common)
        else:
            numbers = [slot.number for slot in selectors.report_slots(match=match) if slot.is_open]
            games = reported_games(request.POST, numbers)
            if isinstance(games, str):
                raise services.report_refusal(games)
            services.report_result(games=games, **common)
        proven = seat
    except DomainError as error:
        if not _htmx(request):
            message_refusal(request, error)
            response: HttpResponse = redirect("floor:table", token, table)
        else:
            context = {**_table_context(pages, table), "error": error.message}
            context.update(_report_context(request, match))
            context["error_code"] = error.code
            response = render(request, "floor/table.html#table-report", context)
    else:
        if _htmx(request):
            context = _table_context(pages, table)
            context.update(_report_context(request, match))
            if proven is not None:
                context["seat"] = proven
            response = render(request, "floor/table.html#table-report", context)
        else:
            response = redirect("floor:table", token, table)
    _keep_cookie(response, PHONE_COOKIE, phone)
    if proven is not None:
        _keep_cookie(response, SEAT_COOKIE, f"{match.pk}:{proven}")
    return response


@players_page("players")
def check_in(request: HttpRequest, token: str) -> HttpResponse:
    """A player checks in for the next round with their name and the code the desk gave them."""
    pages = _pages(token)
    tournament = pages.tournament
    context: dict[str, object] = {
        "pages": pages,
        "tournament": tournament,
        "open": selectors.check_in_open(tournament=tournament, pages=pages),
        "round_number": selectors.next_round_number(tournament=tournament),
    }
    if request.method == "POST":
        form = CheckInForm(request.POST)
        if form.is_valid():
            try:
                done = services.check_in_by_name(
                    tournament=tournament,
                    name=form.cleaned_data["name"],
                    code=form.cleaned_data["code"],
                )
            except DomainError as error:
                context["error"] = error.message
                context["error_code"] = error.code
            else:
                context["checked_in"] = done
                form = CheckInForm()
    else:
        form = CheckInForm()
    context["form"] = form
    return render(request, "floor/check_in.html", context)


@require_POST
@players_page("players")
def call_judge(request: HttpRequest, token: str, table: int) -> HttpResponse:
    pages = _pages(token)
    _table_context(pages, table)  # an unknown table is a 404 like an unknown token
    try:
        services.call_judge(
            tournament=pages.tournament,
            table=table,
            caller=services.caller_key(client_address(request) or ""),
        )
    except DomainError as error:
        if _htmx(request):
            context = {**_table_context(pages, table), "error": error.message}
            return render(request, "floor/table.html#call-status", context)
        message_refusal(request, error)
    else:
        if _htmx(request):
            # The call's status below the clock says it: a judge is called.
            return render(request, "floor/table.html#call-status", _table_context(pages, table))
    return redirect("floor:table", token, table)


@require_GET
@players_page("players")
def public_playoff(request: HttpRequest, token: str) -> HttpResponseBase:
    """The playoff's bracket, a block at a time; a 404 before the playoff starts."""
    stamp = _stamp(token)
    block = _page_number(request)
    key = stamp.key("playoff", block)
    page = _page(key, lambda: public_pages.playoff_page(stamp, block - 1))
    if b"playoff-bracket-public" not in page.plain:
        raise Http404
    return answer(request, page)


# The players' stream carries only what their pages show: the bracket and the clock.
PUBLIC_EVENTS = frozenset({BRACKET_CHANGED, services.CLOCK_CHANGED})


def _public_stream_of(request: HttpRequest, token: str) -> int | None:
    """The link's tournament, or None (an unknown link, or a client over the players' limit).
    The database connection is given back at once: a phone holds its stream for hours."""
    try:
        requests, seconds = settings.DESK_THROTTLES["players"]
        client = client_address(request) or "unknown"
        if over_limit(scope="players", client=client, limit=Limit(requests, seconds)):
            return None
        stamp = public_pages.stamp_of(token)
        return stamp.tournament_id if stamp is not None else None
    finally:
        if live.streams_available(request):
            for conn in connections.all(initialized_only=True):
                if not conn.in_atomic_block:
                    conn.close()


async def public_events(request: HttpRequest, token: str) -> HttpResponseBase:
    """The players' live stream (no account): ``bracket-changed`` and ``clock-changed`` only, so
    that the bracket on a phone follows each playoff result at once. Without an ASGI server the
    page polls instead (a 204 tells the browser not to reconnect)."""
    tournament_id = await sync_to_async(_public_stream_of)(request, token)
    if tournament_id is None:
        return HttpResponse(status=404)
    if not live.streams_available(request):
        return HttpResponse(status=204)
    response = StreamingHttpResponse(
        live.event_stream(tournament_id, None, only=PUBLIC_EVENTS),
        content_type="text/event-stream",
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response
