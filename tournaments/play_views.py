"""The screens of play: rounds and their pairings, a match's result and games, the standings.

Views are thin: they check the role (``access.staff_view``), validate the form, call a service and
render. An HTMX POST gets the updated fragment back, an invalid form in it with its field errors at
status 200; a plain POST gets a message and a redirect (``core.http``), so every screen also works
without JavaScript.
"""

from collections.abc import Sequence

from django.contrib import messages
from django.core.paginator import Page, Paginator
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.errors import DomainError
from core.http import DeskRequest, answer_done, answer_refused, message_refusal
from core.inputs import parse_query
from core.rows import csrf_field
from tournaments import match_history, selectors, services
from tournaments.access import CORRECTORS, RESULT_KEEPERS, Access, staff_view
from tournaments.forms import CorrectionForm, GameForm, ResultForm, StandingsQueryForm, SwapForm
from tournaments.models import Match, RoundDraft, StaffRole
from tournaments.name_order import NameCursor, NamePage

ORGANISER = StaffRole.ORGANISER


def _rounds_context(access: Access, **extra: object) -> dict[str, object]:
    tournament = access.tournament
    draft = RoundDraft.objects.filter(tournament=tournament).first()
    return {
        "access": access,
        "tournament": tournament,
        "rounds": selectors.round_summaries(tournament=tournament),
        "draft": draft,
        "draft_rows": selectors.draft_rows(draft=draft) if draft else [],
        "open_matches": selectors.open_match_count(tournament=tournament),
        **extra,
    }


@staff_view()
def round_list(request: DeskRequest, access: Access) -> HttpResponse:
    return render(request, "tournaments/round_list.html", _rounds_context(access))


@require_POST
@staff_view(ORGANISER)
def round_draft(request: DeskRequest, access: Access) -> HttpResponse:
    url = reverse("tournaments:rounds", args=[access.tournament.slug])
    fragment = "tournaments/round_list.html#round-draft"
    try:
        services.draft_next_round(tournament=access.tournament)
    except DomainError as error:
        return answer_refused(request, error, url, fragment, _rounds_context(access))
    return answer_done(
        request,
        _("Pairings drafted. Check them, swap if needed, then publish."),
        url,
        fragment,
        _rounds_context(access),
    )


@require_POST
@staff_view(ORGANISER)
def round_swap(request: DeskRequest, access: Access) -> HttpResponse:
    url = reverse("tournaments:rounds", args=[access.tournament.slug])
    fragment = "tournaments/round_list.html#round-draft"
    form = SwapForm(request.POST)
    if not form.is_valid():
        if request.htmx:
            # The draft again with the swap form showing what was wrong beside its fields.
            return render(request, fragment, _rounds_context(access, swap_form=form))
        message_refusal(
            request,
            DomainError("not_in_draft", _("Choose two different players of the draft.")),
        )
        return redirect(url)
    try:
        services.swap_in_draft(
            tournament=access.tournament,
            first=form.cleaned_data["first"],
            second=form.cleaned_data["second"],
        )
    except DomainError as error:
        return answer_refused(request, error, url, fragment, _rounds_context(access))
    return answer_done(request, _("Players swapped."), url, fragment, _rounds_context(access))


@require_POST
@staff_view(ORGANISER)
def round_publish(request: DeskRequest, access: Access) -> HttpResponse:
    try:
        new_round = services.publish_draft(tournament=access.tournament)
    except DomainError as error:
        message_refusal(request, error)
        return redirect("tournaments:rounds", slug=access.tournament.slug)
    messages.success(request, _("Round %(number)s is published.") % {"number": new_round.number})
    return redirect("tournaments:round", slug=access.tournament.slug, number=new_round.number)


@staff_view()
def round_detail(request: DeskRequest, access: Access, number: int) -> HttpResponse:
    round_ = get_object_or_404(access.tournament.rounds, number=number)
    by_name = request.GET.get("order") == "name"
    # A page at a time, whatever the round's size; printing asks for every row ("all").
    everything = request.GET.get("all") == "1"
    page: NamePage[selectors.NameRow] | Page[selectors.MatchRow]
    name_rows: list[selectors.NameRow] = []
    matches: list[selectors.MatchRow] = []
    if by_name and everything:
        name_rows = selectors.pairings_by_name_all(round_=round_)
        page = NamePage(
            name_rows, has_previous=False, has_next=False, first_key=None, last_key=None
        )
    elif by_name:
        # By name, from where the last page ended (``tournaments.name_order``): no page numbers.
        cursor = NameCursor.from_query(request.GET)
        page = selectors.pairings_by_name_page(round_=round_, cursor=cursor, size=PAGE_SIZE)
        name_rows = page.rows
    else:
        rows = selectors.round_match_rows(round_=round_)
        page = _page(request, rows, everything, size=MATCHES_PAGE_SIZE)
        matches = list(page)
    context = {
        "access": access,
        "tournament": access.tournament,
        "round": round_,
        "by_name": by_name,
        "page": page,
        "keep": "order=name&" if by_name else "",
        "matches": matches,
        "name_rows": name_rows,
        # What a row answering a result shows (``_match_row``), none of it on the page: named
        # all the same, since a name the template does not find costs Django an exception, and
        # the page looks each one up in each of its 50 rows.
        "result_form": None,
        "error": "",
        "games_one_by_one": False,
        "notice": "",
        **_row_context(request, access),
    }
    return render(request, "tournaments/round_detail.html", context)


def _row_context(request: DeskRequest, access: Access) -> dict[str, object]:
    """What every match row repeats, made once for the page (or the row answering a result):
    its form's CSRF field, its inputs' bounds and its words. A tag or a property per row cost
    5–8 µs each, 2 ms of a 50-row page (issue 29)."""
    tournament = access.tournament
    return {
        "csrf_field": csrf_field(request),
        "wins_needed": tournament.wins_needed,
        "best_of": tournament.best_of,
        "words": {
            "bye": _("bye"),
            "save": _("Save"),
            "draws": _("draws"),
            "game_by_game": _("Game by game"),
            "in_progress": _("in progress"),
            # An ended match links to its games, and to their correction for those who correct.
            "games": (
                _("Games, correction")
                if access.is_organiser or access.is_head_judge
                else _("Games")
            ),
        },
    }


PAGE_SIZE = 100
# A table's row carries its result form: 50 tables (100 players) make a page of the same weight.
MATCHES_PAGE_SIZE = 50


def _page[T](
    request: DeskRequest, rows: Sequence[T], everything: bool, size: int = PAGE_SIZE
) -> Page[T]:
    """One page of ``rows`` (the page asked for, the last one past the end), or every row on
    one page for printing."""
    return Paginator(rows, max(len(rows), 1) if everything else size).get_page(
        request.GET.get("page")
    )


@require_POST
@staff_view(*RESULT_KEEPERS)
def match_result(request: DeskRequest, access: Access, match_id: int) -> HttpResponse:
    match = get_object_or_404(
        # The tournament with the round: the row answering the result links to its match by the
        # tournament's slug.
        Match.objects.select_related("round__tournament"),
        pk=match_id,
        round__tournament=access.tournament,
    )
    url = reverse("tournaments:round", args=[access.tournament.slug, match.round.number])
    form = ResultForm(request.POST)
    if not form.is_valid():
        if request.htmx:
            # The row again with what was typed and the errors beside the fields.
            return _match_row(request, access, match, url, form=form)
        error = DomainError("bad_result", _("Enter the games won by each player."))
        return _match_row(request, access, match, url, error=error)
    try:
        services.enter_result(
            match=match,
            player1_wins=form.cleaned_data["player1_wins"],
            player2_wins=form.cleaned_data["player2_wins"],
            draws=form.cleaned_data["draws"] or 0,
        )
    except DomainError as error:
        if error.code == "enter_games_one_by_one" and not request.htmx:
            message_refusal(request, error)
            return redirect("tournaments:match", slug=access.tournament.slug, match_id=match.pk)
        return _match_row(request, access, match, url, error=error, form=form)
    return _match_row(request, access, match, url, notice=_("Result saved."))


def _tell_and_redirect(
    request: DeskRequest, url: str, *, error: DomainError | None, notice: str
) -> HttpResponse:
    """Without HTMX, a result screen tells the refusal or the notice as a message for the next
    page and sends the browser back to the screen."""
    if error:
        message_refusal(request, error)
    else:
        messages.success(request, notice)
    return redirect(url)


def _match_row(
    request: DeskRequest,
    access: Access,
    match: Match,
    url: str,
    *,
    error: DomainError | None = None,
    notice: str = "",
    form: ResultForm | None = None,
) -> HttpResponse:
    if not request.htmx:
        return _tell_and_redirect(request, url, error=error, notice=notice)
    row = selectors.round_matches(round_=match.round, only=match.pk)[0]
    return render(
        request,
        "tournaments/round_detail.html#match-row",
        {
            "access": access,
            "tournament": access.tournament,
            "row": row,
            "result_form": form,
            "error": error.message if error else "",
            "games_one_by_one": bool(error and error.code == "enter_games_one_by_one"),
            "notice": notice,
            **_row_context(request, access),
        },
    )


def _get_match(access: Access, match_id: int) -> Match:
    return get_object_or_404(
        Match.objects.select_related("round", "player1__player", "player2__player"),
        pk=match_id,
        round__tournament=access.tournament,
        player2__isnull=False,
    )


def _correction_form(match: Match) -> CorrectionForm:
    """The correction form, filled with the result as it stands."""
    return CorrectionForm(
        initial={
            "player1_wins": match.player1_wins,
            "player2_wins": match.player2_wins,
            "draws": match.draws,
        }
    )


def _match_context(access: Access, match: Match, **extra: object) -> dict[str, object]:
    match = selectors.match_detail(match_id=match.pk)
    games = list(match.games.all())
    return {
        "access": access,
        "tournament": access.tournament,
        "match": match,
        "games": games,
        "corrections": list(match.corrections.all()),
        "history": match_history.lines(match),
        "next_game": len(games) + 1,
        **extra,
    }


@staff_view()
def match_detail(request: DeskRequest, access: Access, match_id: int) -> HttpResponse:
    """The table's result screen: its games one by one, and a finished result's correction."""
    match = _get_match(access, match_id)
    context = _match_context(access, match, form=_correction_form(match))
    return render(request, "tournaments/match_detail.html", context)


def _match_done(
    request: DeskRequest,
    access: Access,
    match: Match,
    *,
    error: DomainError | None = None,
    notice: str = "",
    form: CorrectionForm | None = None,
) -> HttpResponse:
    if not request.htmx:
        url = reverse("tournaments:match", args=[access.tournament.slug, match.pk])
        return _tell_and_redirect(request, url, error=error, notice=notice)
    match.refresh_from_db()
    context = _match_context(
        access,
        match,
        form=form or _correction_form(match),
        error=error.message if error else "",
        notice=notice,
    )
    return render(request, "tournaments/match_detail.html#match-result", context)


@require_POST
@staff_view(*RESULT_KEEPERS)
def match_game(request: DeskRequest, access: Access, match_id: int) -> HttpResponse:
    match = _get_match(access, match_id)
    form = GameForm(request.POST)
    try:
        if not form.is_valid():
            # The winner comes from one of the screen's buttons, not a field a person fills in:
            # a value none of them sends is told as a refusal.
            raise DomainError("bad_game", _("Choose who won the game, or a draw."))
        choice = form.cleaned_data["winner"]
        winner = {"player1": match.player1, "player2": match.player2}.get(choice)
        game = services.record_game(match=match, winner=winner)
    except DomainError as error:
        return _match_done(request, access, match, error=error)
    return _match_done(
        request, access, match, notice=_("Game %(number)s recorded.") % {"number": game.number}
    )


@require_POST
@staff_view(*RESULT_KEEPERS)
def match_time(request: DeskRequest, access: Access, match_id: int) -> HttpResponse:
    match = _get_match(access, match_id)
    try:
        services.finish_match(match=match)
    except DomainError as error:
        return _match_done(request, access, match, error=error)
    return _match_done(request, access, match, notice=_("Time called: the match has ended."))


@require_POST
@staff_view(*CORRECTORS)
def match_correct(request: DeskRequest, access: Access, match_id: int) -> HttpResponse:
    match = _get_match(access, match_id)
    form = CorrectionForm(request.POST)
    if not form.is_valid():
        if request.htmx:
            return render(
                request,
                "tournaments/match_detail.html#match-result",
                _match_context(access, match, form=form),
            )
        error = DomainError("bad_correction", _("Enter the corrected games and the reason."))
        return _match_done(request, access, match, error=error)
    data = form.cleaned_data
    try:
        services.correct_result(
            match=match,
            player1_wins=data["player1_wins"],
            player2_wins=data["player2_wins"],
            draws=data["draws"],
            reason=data["reason"],
            corrected_by=request.user,
        )
    except DomainError as error:
        return _match_done(request, access, match, error=error, form=form)
    return _match_done(request, access, match, notice=_("Result corrected."))


@staff_view()
def standings(request: DeskRequest, access: Access) -> HttpResponse:
    rounds = list(access.tournament.rounds.values_list("number", flat=True))
    through_round = parse_query(request, StandingsQueryForm).cleaned_data["round"]
    # The latest standings are computed once per ended match and marked a page at a time;
    # those after an earlier round are computed for the request.
    rows = selectors.standing_lines(tournament=access.tournament, through_round=through_round)
    page = _page(request, rows, request.GET.get("all") == "1")
    return render(
        request,
        "tournaments/standings.html",
        {
            "access": access,
            "tournament": access.tournament,
            "rows": list(page),
            "page": page,
            "keep": f"round={through_round}&" if through_round else "",
            "rounds": rounds,
            "through_round": through_round,
        },
    )
