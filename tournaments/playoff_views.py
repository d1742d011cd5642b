"""The playoff's screens (issue 32): its setting, the cut's preview and its one-tap publication,
the bracket with its results (a block of it at a time, live), the next round, a winner for level
games, and the final standings (a page at a time; printed whole on A4).

Thin views: they check the role, read the form, call one service and answer with a message and
a redirect; the bracket's fragment is fetched again by HTMX when something changes."""

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.decorators.vary import vary_on_headers

from core.errors import DomainError
from core.http import DeskRequest, message_refusal
from tournaments import playoff_selectors, services
from tournaments.access import RESULT_KEEPERS, Access, staff_view
from tournaments.forms import LevelWinnerForm, PlayoffForm, PlayoffResultForm
from tournaments.models import Match, StaffRole
from tournaments.services import playoff as playoff_services

ORGANISER = StaffRole.ORGANISER
CUT_PAGE_SIZE = 64
STANDINGS_PAGE_SIZE = 100
# First-round matches a printed page of the bracket holds (with every match they lead to): a
# top 32 prints whole on one A4 page, a larger bracket one part per request and page, so that
# printing a top 512 costs the same as a top 32.
PRINT_BLOCK = 16


def _block(request: DeskRequest) -> int:
    value = request.GET.get("block", "")
    return int(value) - 1 if value.isdecimal() and 0 < len(value) < 5 and int(value) > 0 else 0


def _context(request: DeskRequest, access: Access) -> dict[str, object]:
    tournament = access.tournament
    everything = request.GET.get("all") == "1"
    per_block = PRINT_BLOCK if everything else playoff_selectors.BRACKET_BLOCK
    bracket = playoff_selectors.playoff_bracket(
        tournament=tournament, block=_block(request), per_block=per_block
    )
    if bracket.blocks and bracket.block >= bracket.blocks:
        bracket = playoff_selectors.playoff_bracket(
            tournament=tournament, block=0, per_block=per_block
        )
    context: dict[str, object] = {
        "access": access,
        "tournament": tournament,
        "bracket": bracket,
        "everything": everything,
        "staff": access.keeps_results,
    }
    if not bracket.published:
        context["form"] = PlayoffForm(
            initial={
                "playoff": tournament.playoff,
                "playoff_best_of": tournament.playoff_best_of,
                "playoff_final_best_of": tournament.playoff_final_best_of,
                "playoff_first_player": tournament.playoff_first_player,
            }
        )
        try:
            size = playoff_services.ensure_cut_possible(tournament)
        except DomainError as error:
            context["not_yet"] = error.message
        else:
            preview = playoff_selectors.cut_preview(tournament=tournament, size=size)
            page = Paginator(preview, CUT_PAGE_SIZE).get_page(request.GET.get("page"))
            context.update({"size": size, "preview": list(page), "page": page})
    return context


@vary_on_headers("HX-Request")
@staff_view()
def playoff_page(request: DeskRequest, access: Access) -> HttpResponse:
    context = _context(request, access)
    if request.htmx and request.GET.get("fragment") == "playoff-bracket":
        return render(request, "tournaments/playoff.html#playoff-bracket", context)
    template = (
        "tournaments/playoff_print.html" if context["everything"] else "tournaments/playoff.html"
    )
    return render(request, template, context)


def _back(access: Access) -> HttpResponse:
    return redirect("tournaments:playoff", slug=access.tournament.slug)


@require_POST
@staff_view(ORGANISER)
def playoff_settings(request: DeskRequest, access: Access) -> HttpResponse:
    form = PlayoffForm(request.POST)
    try:
        if not form.is_valid():
            raise DomainError("bad_playoff", _("Choose the playoff from the list."))
        data = form.cleaned_data
        services.set_playoff(
            tournament=access.tournament,
            size=data["playoff"],
            best_of=data["playoff_best_of"],
            final_best_of=data["playoff_final_best_of"],
            first_player=data["playoff_first_player"] or "",
        )
    except DomainError as error:
        message_refusal(request, error)
    else:
        messages.success(request, _("The playoff is set."))
    return _back(access)


@require_POST
@staff_view(ORGANISER)
def playoff_publish(request: DeskRequest, access: Access) -> HttpResponse:
    try:
        services.publish_cut(tournament=access.tournament)
    except DomainError as error:
        message_refusal(request, error)
    else:
        messages.success(request, _("The cut is published: the playoff has started."))
    return _back(access)


@require_POST
@staff_view(ORGANISER)
def playoff_next(request: DeskRequest, access: Access) -> HttpResponse:
    try:
        services.publish_next_round(tournament=access.tournament)
    except DomainError as error:
        message_refusal(request, error)
    else:
        messages.success(request, _("The next playoff round is published."))
    return _back(access)


@require_POST
@staff_view(*RESULT_KEEPERS)
def playoff_result(request: DeskRequest, access: Access, stage: int, slot: int) -> HttpResponse:
    form = PlayoffResultForm(request.POST)
    try:
        if not form.is_valid():
            raise DomainError("bad_result", _("Enter the games won by each player."))
        data = form.cleaned_data
        services.enter_slot_result(
            tournament=access.tournament,
            stage=stage,
            slot=slot,
            player1_wins=data["player1_wins"],
            player2_wins=data["player2_wins"],
            draws=data["draws"] or 0,
            winner_id=data["winner"],
            decided_how=data["decided_how"],
        )
    except DomainError as error:
        message_refusal(request, error)
    else:
        messages.success(request, _("Result saved."))
    return _back(access)


@require_POST
@staff_view(*RESULT_KEEPERS)
def playoff_winner(request: DeskRequest, access: Access, match_id: int) -> HttpResponse:
    match = get_object_or_404(
        Match.objects.select_related("player1__player", "player2__player"),
        pk=match_id,
        round__tournament=access.tournament,
    )
    form = LevelWinnerForm(request.POST)
    try:
        if not form.is_valid():
            raise DomainError("bad_winner", _("Choose the winner from the list."))
        winner = {match.player1_id: match.player1, match.player2_id: match.player2}.get(
            form.cleaned_data["winner"]
        )
        if winner is None:
            raise DomainError(
                "playoff_draw",
                _(
                    "A playoff match cannot end in a draw: choose the winner and say how it was "
                    "decided."
                ),
            )
        services.decide_level_match(
            match=match, winner=winner, how=form.cleaned_data["decided_how"]
        )
    except DomainError as error:
        message_refusal(request, error)
    else:
        messages.success(request, _("The winner is recorded."))
    return _back(access)


@staff_view()
def playoff_standings(request: DeskRequest, access: Access) -> HttpResponse:
    rows = playoff_selectors.final_standings(tournament=access.tournament)
    everything = request.GET.get("all") == "1"
    page = Paginator(rows, max(len(rows), 1) if everything else STANDINGS_PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    return render(
        request,
        "tournaments/playoff_standings.html",
        {
            "access": access,
            "tournament": access.tournament,
            "rows": list(page),
            "page": page,
            "keep": "",
        },
    )
