"""The staff's screens of the round on the floor: the clock and its controls, the tables with
their time extensions, the judge calls, the match slips, the players' link and standings."""

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlencode

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST
from django.views.decorators.vary import vary_on_headers

from core.errors import DomainError
from core.http import DeskRequest, answer_done, answer_refused, message_refusal
from core.inputs import form_message, parse_id, parse_query
from floor import qr, selectors, services
from floor.clock import Clock
from floor.forms import ExtensionForm, FloorQuery, ProjectorQuery
from floor.models import ExtensionReason, JudgeCall
from judging import live
from tournaments import playoff_selectors
from tournaments.access import JUDGES, Access, staff_view
from tournaments.models import Match, Registration, StaffRole
from tournaments.selectors import latest_round, standings

ALL_STAFF = (StaffRole.HEAD_JUDGE, StaffRole.FLOOR_JUDGE, StaffRole.ORGANISER)
CLOCK_KEEPERS = (StaffRole.ORGANISER, StaffRole.HEAD_JUDGE)
# The two-tap extension buttons: minutes offered for each reason.
QUICK_MINUTES = {
    ExtensionReason.DECK_CHECK: (3, 5, 10, 15),
    ExtensionReason.RULING: (1, 2, 3, 5),
    ExtensionReason.OTHER: (1, 2, 3, 5),
}
# The floor page's filters, each with the count of the round's tables it keeps.
SHOW_LABELS = {
    selectors.Show.PLAYING: gettext_lazy("Still playing"),
    selectors.Show.DISPUTED: gettext_lazy("Reports differ"),
    selectors.Show.REPORTED: gettext_lazy("Reported, not confirmed"),
    selectors.Show.NO_RESULT: gettext_lazy("No result yet"),
    selectors.Show.DONE: gettext_lazy("Done"),
    selectors.Show.ALL: gettext_lazy("All tables"),
}


@dataclass(frozen=True)
class PageQuery:
    """Which page of tables the floor page shows: a filter and a cursor (a table number). It
    travels in every link and form of the page, so a live re-read, an extension or a closed
    row keeps the judge on the page they were looking at."""

    show: str = selectors.Show.PLAYING
    after: int | None = None
    before: int | None = None

    @classmethod
    def of(cls, data: QueryDict) -> "PageQuery":
        """Read from a query string or a form. A cursor that is not a table number (tampered
        with, or a number below 1) is ignored: the first page then, never an error."""
        show = data.get("show", "")
        return cls(
            show=show if show in selectors.SHOW_ORDER else selectors.Show.PLAYING,
            after=parse_id(data.get("after")),
            before=None if data.get("after") else parse_id(data.get("before")),
        )

    @property
    def has_cursor(self) -> bool:
        return self.after is not None or self.before is not None

    @property
    def fields(self) -> list[tuple[str, str]]:
        """The query's non-default fields, for links and hidden inputs."""
        fields = [] if self.show == selectors.Show.PLAYING else [("show", self.show)]
        if self.after is not None:
            fields.append(("after", str(self.after)))
        elif self.before is not None:
            fields.append(("before", str(self.before)))
        return fields

    @property
    def prefix(self) -> str:
        """The fields as the start of a query string (``show=done&after=50&``), or nothing."""
        return "".join(f"{urlencode([field])}&" for field in self.fields)

    def url(self, floor_url: str) -> str:
        return f"{floor_url}?{urlencode(self.fields)}" if self.fields else floor_url


def _base_context(request: DeskRequest, access: Access, page: PageQuery) -> dict[str, object]:
    tournament = access.tournament
    return {
        "access": access,
        "tournament": tournament,
        "floor_url": reverse("floor:home", args=[tournament.slug]),
        "page_query": page,
        # Worked out once for the page rather than in each of its rows (a name missing from
        # the context costs each row a failed look-up).
        "page_prefix": page.prefix,
        "is_judge": access.is_judge,
        "notice": None,
        "error": None,
        "quick": [(reason, label, QUICK_MINUTES[reason]) for reason, label in _reasons()],
        "reasons": ExtensionReason.choices,
        "live": live.streams_available(request),
    }


def _shows(counts: selectors.RoundCounts) -> list[tuple[str, str, int]]:
    return [(show, str(SHOW_LABELS[show]), counts.of(show)) for show in selectors.SHOW_ORDER]


def _floor_context(
    request: DeskRequest,
    access: Access,
    page: PageQuery,
    *,
    extend: int | None = None,
    parts: tuple[str, ...] = ("calls", "tables", "glance"),
) -> dict[str, object]:
    """The floor page's context, or the parts of it one fragment shows: the judge calls, the
    page of tables, the round at a glance (the page's tiles and the round's counts)."""
    tournament = access.tournament
    time = selectors.round_time(tournament=tournament)
    context = {
        **_base_context(request, access, page),
        "extend": extend,
        "time": time,
        "may_keep_clock": bool(access.roles & set(CLOCK_KEEPERS)),
    }
    if "calls" in parts:
        context["calls"] = selectors.open_calls(tournament=tournament) if access.is_judge else []
    if time is not None and ("tables" in parts or "glance" in parts):
        tables = selectors.table_page(
            round_=time.round,
            clock=time.clock,
            show=page.show,
            after=page.after,
            before=page.before,
        )
        context["page"] = tables
        context["tables"] = tables.rows
        context["previous_url"] = (
            PageQuery(page.show, before=tables.previous_before).url(str(context["floor_url"]))
            if tables.previous_before is not None
            else None
        )
        context["next_url"] = (
            PageQuery(page.show, after=tables.next_after).url(str(context["floor_url"]))
            if tables.next_after is not None
            else None
        )
        context["first_url"] = PageQuery(page.show).url(str(context["floor_url"]))
        if "glance" in parts:
            glance = selectors.glance(round_=time.round, rows=tables.rows)
            context["tiles"] = glance.tiles
            context["legend"] = glance.legend
            context["shows"] = _shows(glance.counts)
    return context


def _row_context(
    request: DeskRequest, access: Access, page: PageQuery, match_id: int, *, extend: bool
) -> dict[str, object] | None:
    """What one table's row is drawn from (its extension buttons open or not), or None when
    the match is not a table of the latest round."""
    time = selectors.round_time(tournament=access.tournament)
    row = (
        selectors.table_row(round_=time.round, clock=time.clock, match_id=match_id)
        if time is not None
        else None
    )
    if row is None:
        return None
    return {
        **_base_context(request, access, page),
        "time": time,
        "row": row,
        "extend": row.match.pk if extend else None,
    }


def _reasons() -> list[tuple[ExtensionReason, str]]:
    return [(ExtensionReason(value), str(label)) for value, label in ExtensionReason.choices]


def _new_key() -> str:
    return str(uuid.uuid4())


@vary_on_headers("HX-Request")
@staff_view(*ALL_STAFF)
def floor_home(request: DeskRequest, access: Access) -> HttpResponse:
    """The round on the floor: the clock, the judge calls (oldest first) and a page of tables,
    by default those still playing, with the round's counts per state.

    ``?extend=<match>`` opens that table's extension buttons (tap 1; tap 2 is a minute button).
    ``?table=<number>`` finds a table: the page of all tables from it, scrolled to its row.
    """
    query = parse_query(request, FloorQuery).cleaned_data
    page = PageQuery.of(request.GET)
    extend = query["extend"]
    fragment = query["fragment"]
    if request.htmx and fragment == "table-row":
        wanted = extend or query["row"]
        row_context = (
            _row_context(request, access, page, wanted, extend=bool(extend)) if wanted else None
        )
        if row_context is None:
            raise Http404
        return render(request, "floor/floor.html#table-row", row_context)
    if "table" in request.GET:
        found = _find_table(request, access)
        if found is not None:
            return found
    if request.htmx and fragment == "judge-calls":
        context = _floor_context(request, access, page, parts=("calls",))
        return render(request, "floor/floor.html#judge-calls", context)
    if request.htmx and fragment in ("floor-tables", "floor-glance"):
        parts = ("tables",) if fragment == "floor-tables" else ("glance",)
        context = _floor_context(request, access, page, parts=parts)
        return render(request, f"floor/floor.html#{fragment}", context)
    return render(request, "floor/floor.html", _floor_context(request, access, page, extend=extend))


def _find_table(request: DeskRequest, access: Access) -> HttpResponse | None:
    """``?table=N``: the page of all tables from table N, at its row (its buttons at hand); a
    number that is no table of the round is said so on the page (None: the page follows)."""
    typed = request.GET.get("table", "").strip()
    number = parse_id(typed)
    match = (
        selectors.match_at_table(tournament=access.tournament, table=number)
        if number is not None
        else None
    )
    if number is None or match is None:
        messages.error(
            request,
            _("There is no table %(table)s in this round.") % {"table": typed[:12] or "—"},
        )
        return None
    floor_url = reverse("floor:home", args=[access.tournament.slug])
    target = PageQuery(selectors.Show.ALL, after=number - 1 if number > 1 else None)
    return redirect(f"{target.url(floor_url)}#table-row-{match.pk}")


# The clock ---------------------------------------------------------------------------------


def _act(request: DeskRequest, access: Access, act: Callable[..., object], done: str) -> None:
    """Run a one-button service on the tournament; say that it was done, or why it was not."""
    try:
        act(tournament=access.tournament)
    except DomainError as error:
        message_refusal(request, error)
    else:
        messages.success(request, done)


def _clock_action(
    request: DeskRequest, access: Access, act: Callable[..., Clock], done: str
) -> HttpResponse:
    _act(request, access, act, done)
    return redirect("floor:home", access.tournament.slug)


@require_POST
@staff_view(*CLOCK_KEEPERS)
def clock_start(request: DeskRequest, access: Access) -> HttpResponse:
    return _clock_action(request, access, services.start_clock, _("The round's clock is running."))


@require_POST
@staff_view(*CLOCK_KEEPERS)
def clock_pause(request: DeskRequest, access: Access) -> HttpResponse:
    return _clock_action(request, access, services.pause_clock, _("The clock is paused."))


@require_POST
@staff_view(*CLOCK_KEEPERS)
def clock_resume(request: DeskRequest, access: Access) -> HttpResponse:
    return _clock_action(request, access, services.resume_clock, _("The clock runs again."))


@require_POST
@staff_view(*CLOCK_KEEPERS)
def clock_end(request: DeskRequest, access: Access) -> HttpResponse:
    return _clock_action(
        request, access, services.end_clock, _("Time is called: the round has ended.")
    )


@staff_view(*ALL_STAFF)
def clock_badge(request: DeskRequest, access: Access) -> HttpResponse:
    """The time left, for the navigation bar of every staff page (fetched once, then on every
    ``clock-changed`` event)."""
    context = {
        "tournament": access.tournament,
        "time": selectors.round_time(tournament=access.tournament),
    }
    return render(request, "floor/_clock_badge.html", context)


@staff_view(*ALL_STAFF)
def calls_badge(request: DeskRequest, access: Access) -> HttpResponse:
    """How many judge calls are open, for the navigation bar of every staff page (fetched once,
    then on every ``calls-changed`` event, or every few seconds where no stream can be held)."""
    context = {
        "tournament": access.tournament,
        "count": selectors.open_call_count(tournament=access.tournament),
    }
    return render(request, "floor/_calls_badge.html", context)


# Players' names and standing rows on one projected page: readable from the back of a hall.
PROJECTOR_LINES = 16
PROJECTOR_SECONDS = 12


def _pages_of[T](rows: list[T]) -> list[list[T]]:
    return [rows[start : start + PROJECTOR_LINES] for start in range(0, len(rows), PROJECTOR_LINES)]


@vary_on_headers("HX-Request")
@staff_view(*ALL_STAFF)
def projector(request: DeskRequest, access: Access) -> HttpResponse:
    """The hall's screen: the clock, the tables with extra time, and the pairings by name and the
    published standings a page at a time. It is opened from a signed-in laptop but shows nothing
    of the staff: no name, no sign-out, no button (the clock is run from the floor page)."""
    query = parse_query(request, ProjectorQuery).cleaned_data
    tournament = access.tournament
    time = selectors.round_time(tournament=tournament)
    pages = selectors.public_pages(tournament=tournament)
    through = pages.standings_through if pages is not None else None
    pairings = selectors.public_pairings(round_=time.round) if time else []
    table = standings(tournament=tournament, through_round=through) if through else []
    context = {
        "access": access,
        "tournament": tournament,
        "time": time,
        "tables": selectors.table_rows(round_=time.round, clock=time.clock, extended_only=True)
        if time
        else [],
        "pairing_pages": _pages_of(pairings),
        "standing_pages": _pages_of(table),
        "standings_through": through,
        # The playoff's bracket (its first block on a big one) joins the rotation once it starts.
        "bracket": playoff_selectors.playoff_bracket(tournament=tournament, block=0),
        "lines": PROJECTOR_LINES,
        "seconds": query["seconds"] or PROJECTOR_SECONDS,
        "live": live.streams_available(request),
    }
    fragment = query["fragment"]
    if request.htmx and fragment:
        return render(request, f"floor/projector.html#{fragment}", context)
    return render(request, "floor/projector.html", context)


# Time extensions ---------------------------------------------------------------------------


def _match(access: Access, match_id: int) -> Match:
    match = (
        Match.objects.filter(pk=match_id, round__tournament=access.tournament)
        .select_related("round", "player1__player", "player2__player")
        .first()
    )
    if match is None:
        raise Http404
    return match


@require_POST
@staff_view(*JUDGES)
def extend(request: DeskRequest, access: Access, match_id: int) -> HttpResponse:
    """A floor judge gives a table extra minutes with a reason."""
    match = _match(access, match_id)
    form = ExtensionForm(request.POST)
    refusal: DomainError | None = None
    notice: str | None = None
    if not form.is_valid():
        refusal = DomainError("bad_extension", form_message(form))
    else:
        try:
            extension = services.extend_time(
                match=match,
                minutes=form.cleaned_data["minutes"],
                reason=form.cleaned_data["reason"],
                given_by=request.user,
                client_key=form.cleaned_data["client_key"],
            )
        except DomainError as refused:
            refusal = refused
        else:
            notice = _("Table %(table)s: +%(minutes)s min (%(reason)s).") % {
                "table": match.table,
                "minutes": extension.minutes,
                "reason": extension.get_reason_display(),
            }
    error = str(refusal.message) if refusal is not None else None
    page = PageQuery.of(request.POST)
    if request.htmx:
        # After a refusal the buttons stay open for another try; after a success they close.
        context = _row_context(request, access, page, match.pk, extend=error is not None)
        if context is None:  # a match of an earlier round: the page itself says what happened
            if refusal is not None:
                message_refusal(request, refusal)
            response = HttpResponse(status=204)
            response["HX-Redirect"] = reverse("floor:home", args=[access.tournament.slug])
            return response
        return render(
            request, "floor/floor.html#table-row", {**context, "error": error, "notice": notice}
        )
    if refusal is not None:
        message_refusal(request, refusal)
    else:
        messages.success(request, notice or "")
    # Back to the page the judge was on, at the table's row.
    floor_url = reverse("floor:home", args=[access.tournament.slug])
    return redirect(f"{page.url(floor_url)}#table-row-{match.pk}")


# Judge calls -------------------------------------------------------------------------------


def _call(access: Access, call_id: int) -> JudgeCall:
    call = selectors.call_of(tournament=access.tournament, call_id=call_id)
    if call is None:
        raise Http404
    return call


def _call_action(
    request: DeskRequest,
    access: Access,
    call_id: int,
    act: Callable[..., JudgeCall],
    done: str,
) -> HttpResponse:
    call = _call(access, call_id)
    refusal: DomainError | None = None
    try:
        act(call=call, judge=request.user)
    except DomainError as refused:
        refusal = refused
    error = str(refusal.message) if refusal is not None else None
    from_console = request.POST.get("next") == "console"
    if request.htmx:
        context = {
            **_floor_context(request, access, PageQuery(), parts=("calls",)),
            "error": error,
            "notice": None if error else done % {"table": call.table},
        }
        if from_console:
            context["calls"] = selectors.open_calls(
                tournament=access.tournament, escalated_only=True
            )
            return render(request, "floor/_console_calls.html", context)
        return render(request, "floor/floor.html#judge-calls", context)
    if refusal is not None:
        message_refusal(request, refusal)
    else:
        messages.success(request, done % {"table": call.table})
    if from_console:
        return redirect("judging:console", access.tournament.slug)
    return redirect("floor:home", access.tournament.slug)


@require_POST
@staff_view(*JUDGES)
def call_claim(request: DeskRequest, access: Access, call_id: int) -> HttpResponse:
    return _call_action(
        request, access, call_id, services.claim_call, _("Table %(table)s: the call is yours.")
    )


@require_POST
@staff_view(*JUDGES)
def call_escalate(request: DeskRequest, access: Access, call_id: int) -> HttpResponse:
    return _call_action(
        request,
        access,
        call_id,
        services.escalate_call,
        _("Table %(table)s: the call is sent to the head judge."),
    )


@require_POST
@staff_view(*JUDGES)
def call_resolve(request: DeskRequest, access: Access, call_id: int) -> HttpResponse:
    return _call_action(
        request, access, call_id, services.resolve_call, _("Table %(table)s: the call is resolved.")
    )


@staff_view(StaffRole.HEAD_JUDGE)
def console_calls(request: DeskRequest, access: Access) -> HttpResponse:
    """The calls sent to the head judge, for the console (loaded into it, refreshed live)."""
    context = {
        "access": access,
        "tournament": access.tournament,
        "calls": selectors.open_calls(tournament=access.tournament, escalated_only=True),
        "time": selectors.round_time(tournament=access.tournament),
    }
    return render(request, "floor/_console_calls.html", context)


# Match slips and the players' link ---------------------------------------------------------


@staff_view(*ALL_STAFF)
def slips(request: DeskRequest, access: Access) -> HttpResponse:
    """The current round's match slips, several to an A4 page with cut lines."""
    tournament = access.tournament
    round_ = latest_round(tournament=tournament)
    pages = services.ensure_public_pages(tournament=tournament)
    rows = selectors.table_rows(round_=round_, clock=None) if round_ else []
    slips_ = [
        {
            "row": row,
            "qr": qr.svg(
                request.build_absolute_uri(
                    reverse("floor:table", args=[pages.token, row.match.table])
                )
            ),
            # Each player's own code for reporting the result on the table's page.
            "seats": [
                (row.match.player1, services.seat_code(match_id=row.match.pk, seat=1)),
                (row.match.player2, services.seat_code(match_id=row.match.pk, seat=2)),
            ],
        }
        for row in rows
        if row.match.table is not None
    ]
    context = {
        "access": access,
        "tournament": tournament,
        "round": round_,
        "slips": slips_,
        # A playoff round has its own best of (the final's may differ).
        "games": range(1, (round_.games_best_of if round_ else tournament.best_of) + 1),
    }
    return render(request, "floor/slips.html", context)


@staff_view(*ALL_STAFF)
def players_link(request: DeskRequest, access: Access) -> HttpResponse:
    """The link (and its QR code) to the players' pages; the organiser publishes standings."""
    tournament = access.tournament
    pages = services.ensure_public_pages(tournament=tournament)
    url = request.build_absolute_uri(reverse("floor:public", args=[pages.token]))
    context = {
        "access": access,
        "tournament": tournament,
        "pages": pages,
        "url": url,
        "qr": qr.svg(url),
        "finished_round": selectors.last_finished_round(tournament=tournament),
    }
    return render(request, "floor/players_link.html", context)


def _organiser_action(
    request: DeskRequest, access: Access, act: Callable[..., object], done: str
) -> HttpResponse:
    _act(request, access, act, done)
    return redirect("floor:players-link", access.tournament.slug)


@require_POST
@staff_view(StaffRole.ORGANISER)
def standings_publish(request: DeskRequest, access: Access) -> HttpResponse:
    return _organiser_action(
        request, access, services.publish_standings, _("Players now see the standings.")
    )


@require_POST
@staff_view(StaffRole.ORGANISER)
def standings_hide(request: DeskRequest, access: Access) -> HttpResponse:
    return _organiser_action(
        request, access, services.hide_standings, _("Players no longer see the standings.")
    )


@require_POST
@staff_view(StaffRole.ORGANISER)
def link_renew(request: DeskRequest, access: Access) -> HttpResponse:
    return _organiser_action(
        request,
        access,
        services.renew_public_link,
        _("The players' link is new: print the slips again, the old QR codes no longer work."),
    )


# Check-in (issue 35) -----------------------------------------------------------------------

CHECK_IN_PAGE = 50


def _check_in_context(request: DeskRequest, access: Access) -> dict[str, object]:
    tournament = access.tournament
    pages = services.ensure_public_pages(tournament=tournament)
    number = selectors.next_round_number(tournament=tournament)
    query = request.GET.get("q", "").strip()[:100]
    missing = selectors.not_checked_in(tournament=tournament, round_number=number)
    if query:
        missing = missing.filter(player__name__icontains=query)
    page = Paginator(missing, CHECK_IN_PAGE).get_page(request.GET.get("page"))
    checked, playing = selectors.check_in_counts(tournament=tournament, round_number=number)
    return {
        "access": access,
        "tournament": tournament,
        "pages": pages,
        "round_number": number,
        "open": selectors.check_in_open(tournament=tournament, pages=pages),
        "page": page,
        "rows": [
            (registration, services.check_in_code(registration_id=registration.pk))
            for registration in page
        ],
        "query": query,
        "checked": checked,
        "playing": playing,
        "missing": playing - checked,
        "players_url": request.build_absolute_uri(reverse("floor:check-in", args=[pages.token])),
    }


@vary_on_headers("HX-Request")
@staff_view(*ALL_STAFF)
def check_in_desk(request: DeskRequest, access: Access) -> HttpResponse:
    """Who has not checked in for the next round (with the codes the desk hands out), a
    check-in at the desk, and the organiser's one step that drops the no-shows."""
    context = _check_in_context(request, access)
    if request.htmx and request.GET.get("fragment") == "check-in-list":
        return render(request, "floor/check_in_desk.html#check-in-list", context)
    return render(request, "floor/check_in_desk.html", context)


@require_POST
@staff_view(*ALL_STAFF)
def check_in_player(request: DeskRequest, access: Access) -> HttpResponse:
    wanted = str(request.POST.get("player", ""))
    registration = (
        Registration.objects.filter(tournament=access.tournament, pk=int(wanted))
        .select_related("player")
        .first()
        if wanted.isascii() and wanted.isdecimal() and len(wanted) < 12
        else None
    )
    url = reverse("floor:check-in-desk", args=[access.tournament.slug])
    try:
        if registration is None:
            raise DomainError("no_such_player", _("Choose a player of this tournament."))
        services.check_in(registration=registration, by=request.user)
    except DomainError as error:
        return answer_refused(
            request,
            error,
            url,
            "floor/check_in_desk.html#check-in-list",
            _check_in_context(request, access),
        )
    return answer_done(
        request,
        _("%(player)s is checked in.") % {"player": registration.player.name},
        url,
        "floor/check_in_desk.html#check-in-list",
        _check_in_context(request, access),
    )


@require_POST
@staff_view(StaffRole.ORGANISER)
def drop_no_shows(request: DeskRequest, access: Access) -> HttpResponse:
    try:
        dropped = services.drop_no_shows(tournament=access.tournament)
    except DomainError as error:
        message_refusal(request, error)
    else:
        messages.success(
            request,
            ngettext(
                "%(count)s player who did not check in has been dropped.",
                "%(count)s players who did not check in have been dropped.",
                len(dropped),
            )
            % {"count": len(dropped)},
        )
    return redirect("floor:check-in-desk", access.tournament.slug)


@require_POST
@staff_view(StaffRole.ORGANISER)
def check_in_every_round(request: DeskRequest, access: Access) -> HttpResponse:
    every = request.POST.get("every_round") == "on"
    services.set_check_in_every_round(tournament=access.tournament, every_round=every)
    messages.success(
        request,
        _("Players check in before every round.")
        if every
        else _("Players check in before round 1 only."),
    )
    return redirect("floor:check-in-desk", access.tournament.slug)
