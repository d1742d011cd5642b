"""The players' pages: no login, phone-first, reached by the tournament's token in the link.

They show names, tables, the clock and (once published) the standings: never a penalty, a note,
a membership id or anything of the staff. An unknown token, or one the organiser has replaced,
is a plain 404. The one thing a player sends to the staff is a judge call.
"""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from core.clients import client_address
from core.errors import DomainError
from core.http import message_refusal
from core.throttle import players_page
from floor import selectors, services
from floor.forms import PlayerSearchForm
from floor.models import PublicPages
from tournaments.selectors import latest_round, standings

# Players' phones re-read the clock this often (the countdown itself runs in the browser).
CLOCK_POLL_SECONDS = 20


def _htmx(request: HttpRequest) -> bool:
    return bool(getattr(request, "htmx", False))


def _pages(token: str) -> PublicPages:
    pages = selectors.pages_by_token(token)
    if pages is None:
        raise Http404
    return pages


@players_page("players")
def public_home(request: HttpRequest, token: str) -> HttpResponse:
    """The current round's pairings, searchable by name; the standings once published."""
    pages = _pages(token)
    tournament = pages.tournament
    form = PlayerSearchForm(request.GET)
    query = form.cleaned_data["q"].strip() if form.is_valid() else ""
    round_ = latest_round(tournament=tournament)
    rows = selectors.public_pairings(round_=round_, query=query) if round_ is not None else []
    table = (
        standings(tournament=tournament, through_round=pages.standings_through)
        if pages.standings_through is not None
        else None
    )
    context = {
        "pages": pages,
        "tournament": tournament,
        "round": round_,
        "rows": rows,
        "form": form,
        "query": query,
        "standings": table,
        "time": selectors.round_time(tournament=tournament),
        "poll": CLOCK_POLL_SECONDS,
        # The tables' pages (p/<token>/tables/<n>/), built once rather than reversed per row.
        "tables_url": f"{reverse('floor:public', args=[pages.token])}tables/",
    }
    return render(request, "floor/public_home.html", context)


@players_page("players")
def public_clock(request: HttpRequest, token: str) -> HttpResponse:
    pages = _pages(token)
    context = {
        "pages": pages,
        "time": selectors.round_time(tournament=pages.tournament),
        "poll": CLOCK_POLL_SECONDS,
    }
    return render(request, "floor/_public_clock.html", context)


def _table_context(pages: PublicPages, table: int) -> dict[str, object]:
    match = selectors.match_at_table(tournament=pages.tournament, table=table)
    if match is None:
        raise Http404
    time = selectors.round_time(tournament=pages.tournament)
    extra = selectors.extra_minutes(match=match)
    return {
        "pages": pages,
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
    if _htmx(request) and request.GET.get("fragment") == "call-status":
        return render(request, "floor/table.html#call-status", context)
    return render(request, "floor/table.html", context)


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
