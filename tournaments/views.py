"""The organiser's and scorekeeper's screens: set-up, staff, players, rounds, results, standings.

Views are thin: they check the role (``access.staff_view``), validate the form, call a service and
render. An HTMX request gets the updated fragment back; a plain POST gets a message and a redirect,
so every screen also works without JavaScript.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.errors import DomainError
from core.http import DeskRequest
from core.inputs import SearchForm, parse_query
from players.models import Player, search_text
from tournaments import selectors, services
from tournaments.access import RESULT_KEEPERS, Access, staff_view
from tournaments.forms import (
    CorrectionForm,
    GameForm,
    ImportForm,
    NewTournamentForm,
    PlayerForm,
    RegistryPlayerForm,
    ResultForm,
    StaffForm,
    StandingsQueryForm,
    SwapForm,
    TournamentForm,
)
from tournaments.models import (
    Match,
    Registration,
    RoundDraft,
    Staff,
    StaffRole,
    Tournament,
)
from tournaments.permissions import may_organise
from tournaments.player_import import import_players

ORGANISER = StaffRole.ORGANISER
CORRECTORS = (StaffRole.ORGANISER, StaffRole.HEAD_JUDGE)


def _require_organiser_permission(request: DeskRequest) -> None:
    """Creating tournaments and using the player registry is for the operator's organisers."""
    if not may_organise(request.user):
        raise PermissionDenied(
            _(
                "Only organisers may do this: ask the operator to add your account to the "
                "organisers."
            )
        )


def _done(
    request: DeskRequest, text: str, url: str, fragment: str, context: dict[str, object]
) -> HttpResponse:
    """After a successful POST: the fragment for HTMX, a message and a redirect otherwise."""
    if request.htmx:
        context["notice"] = text
        return render(request, fragment, context)
    messages.success(request, text)
    return redirect(url)


def _refused(
    request: DeskRequest, error: DomainError, url: str, fragment: str, context: dict[str, object]
) -> HttpResponse:
    if request.htmx:
        context["error"] = error.message
        return render(request, fragment, context)
    messages.error(request, str(error.message))
    return redirect(url)


@login_required
def tournament_create(request: DeskRequest) -> HttpResponse:
    _require_organiser_permission(request)
    form = NewTournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.create_tournament(**form.cleaned_data, organiser=request.user)
        except DomainError as error:
            form.add_error(error.field, str(error.message))
        else:
            messages.success(
                request, _("The tournament is created. Now add the staff and players.")
            )
            return redirect("tournaments:detail", slug=tournament.slug)
    return render(request, "tournaments/tournament_create.html", {"form": form})


@staff_view()
def tournament_detail(request: DeskRequest, access: Access) -> HttpResponse:
    tournament = access.tournament
    latest = selectors.latest_round(tournament=tournament)
    context = {
        "access": access,
        "tournament": tournament,
        "latest_round": latest,
        "players": tournament.registrations.count(),
        "open_matches": selectors.open_match_count(tournament=tournament),
        "suggested_rounds": services.suggested_rounds(tournament.registrations.count()),
    }
    return render(request, "tournaments/tournament_detail.html", context)


@staff_view(ORGANISER)
def tournament_settings(request: DeskRequest, access: Access) -> HttpResponse:
    tournament = access.tournament
    form = TournamentForm(request.POST or None, instance=Tournament.objects.get(pk=tournament.pk))
    context: dict[str, object] = {"access": access, "tournament": tournament, "form": form}
    fragment = "tournaments/tournament_settings.html#settings-form"
    if request.method == "POST":
        if form.is_valid():
            try:
                services.update_tournament(tournament=tournament, **form.cleaned_data)
            except DomainError as error:
                form.add_error(None, str(error.message))
            else:
                url = reverse("tournaments:settings", args=[tournament.slug])
                return _done(request, _("Settings saved."), url, fragment, context)
        if request.htmx:
            return render(request, fragment, context)
    context["suggested_rounds"] = services.suggested_rounds(tournament.registrations.count())
    return render(request, "tournaments/tournament_settings.html", context)


@staff_view(ORGANISER)
def staff_list(request: DeskRequest, access: Access) -> HttpResponse:
    tournament = access.tournament
    form = StaffForm(request.POST or None)
    url = reverse("tournaments:staff", args=[tournament.slug])
    page = "tournaments/staff_list.html"
    fragment = f"{page}#staff-list"

    def context() -> dict[str, object]:
        return {
            "access": access,
            "tournament": tournament,
            "form": form,
            "staff": Staff.objects.filter(tournament=tournament)
            .select_related("user")
            .order_by("role", "user__username"),
        }

    if request.method == "POST" and form.is_valid():
        try:
            services.add_staff_member(tournament=tournament, **form.cleaned_data)
        except DomainError as error:
            if error.field is None:
                return _refused(request, error, url, fragment, context())
            form.add_error(error.field, str(error.message))
            return render(request, fragment if request.htmx else page, context())
        form = StaffForm()
        return _done(request, _("Staff member added."), url, fragment, context())
    if request.method == "POST" and request.htmx:
        return render(request, fragment, context())
    return render(request, page, context())


@require_POST
@staff_view(ORGANISER)
def staff_remove(request: DeskRequest, access: Access, staff_id: int) -> HttpResponse:
    staff = get_object_or_404(Staff, pk=staff_id, tournament=access.tournament)
    try:
        services.remove_staff(staff=staff, by=request.user)
    except DomainError as error:
        messages.error(request, str(error.message))
    else:
        messages.success(request, _("Staff member removed."))
    return redirect("tournaments:staff", slug=access.tournament.slug)


def _registrations_context(access: Access, **extra: object) -> dict[str, object]:
    return {
        "access": access,
        "tournament": access.tournament,
        "registrations": selectors.registrations_with_players(tournament=access.tournament),
        "player_form": PlayerForm(),
        "import_form": ImportForm(),
        **extra,
    }


@staff_view()
def registration_list(request: DeskRequest, access: Access) -> HttpResponse:
    return render(request, "tournaments/registration_list.html", _registrations_context(access))


@staff_view(ORGANISER)
def player_search(request: DeskRequest, access: Access) -> HttpResponse:
    """Registry look-up while typing: by part of a name or a membership id."""
    _require_organiser_permission(request)
    query = parse_query(request, SearchForm).cleaned_data["q"]
    found: list[Player] = []
    if len(query) >= 2:
        found = list(
            Player.objects.filter(search_text__contains=search_text(query))
            .exclude(registrations__tournament=access.tournament)
            .order_by("name")[:20]
        )
    return render(
        request,
        "tournaments/registration_list.html#player-search-results",
        {"access": access, "tournament": access.tournament, "found": found, "query": query},
    )


@require_POST
@staff_view(ORGANISER)
def registration_add(request: DeskRequest, access: Access) -> HttpResponse:
    """Register a player from the registry, or a new player entered on the spot."""
    _require_organiser_permission(request)
    tournament = access.tournament
    url = reverse("tournaments:registrations", args=[tournament.slug])
    fragment = "tournaments/registration_list.html#registration-panel"
    chosen = RegistryPlayerForm(request.POST)
    form = PlayerForm(request.POST)
    try:
        if not chosen.is_valid():
            raise DomainError("unknown_player", _("Choose a player from the registry."))
        if chosen.cleaned_data["player"] is not None:
            player = get_object_or_404(Player, pk=chosen.cleaned_data["player"])
            services.register_player(tournament=tournament, player=player)
        elif form.is_valid():
            player = services.register_new_player(tournament=tournament, **form.cleaned_data).player
        else:
            context = _registrations_context(access, player_form=form)
            page = "tournaments/registration_list.html"
            return render(request, fragment if request.htmx else page, context)
    except DomainError as error:
        return _refused(request, error, url, fragment, _registrations_context(access))
    text = _("%(player)s is registered.") % {"player": player.name}
    return _done(request, text, url, fragment, _registrations_context(access))


@require_POST
@staff_view(ORGANISER)
def registration_import(request: DeskRequest, access: Access) -> HttpResponse:
    _require_organiser_permission(request)
    tournament = access.tournament
    form = ImportForm(request.POST, request.FILES)
    context = _registrations_context(access, import_form=form)
    if form.is_valid():
        report = import_players(tournament=tournament, content=form.cleaned_data["file"].read())
        context = _registrations_context(access, import_report=report)
        if report.ok:
            messages.success(request, _("%(count)s players imported.") % {"count": report.imported})
            return redirect("tournaments:registrations", slug=tournament.slug)
    return render(request, "tournaments/registration_list.html", context)


@require_POST
@staff_view(ORGANISER)
def registration_drop(request: DeskRequest, access: Access, registration_id: int) -> HttpResponse:
    registration = get_object_or_404(Registration, pk=registration_id, tournament=access.tournament)
    url = reverse("tournaments:registrations", args=[access.tournament.slug])
    fragment = "tournaments/registration_list.html#registration-panel"
    try:
        services.drop_player(registration=registration)
    except DomainError as error:
        return _refused(request, error, url, fragment, _registrations_context(access))
    text = _("%(player)s has dropped.") % {"player": registration.player.name}
    return _done(request, text, url, fragment, _registrations_context(access))


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
        return _refused(request, error, url, fragment, _rounds_context(access))
    return _done(
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
    try:
        if not form.is_valid():
            raise DomainError("not_in_draft", _("Choose two different players of the draft."))
        services.swap_in_draft(
            tournament=access.tournament,
            first=form.cleaned_data["first"],
            second=form.cleaned_data["second"],
        )
    except DomainError as error:
        return _refused(request, error, url, fragment, _rounds_context(access))
    return _done(request, _("Players swapped."), url, fragment, _rounds_context(access))


@require_POST
@staff_view(ORGANISER)
def round_publish(request: DeskRequest, access: Access) -> HttpResponse:
    try:
        new_round = services.publish_draft(tournament=access.tournament)
    except DomainError as error:
        messages.error(request, str(error.message))
        return redirect("tournaments:rounds", slug=access.tournament.slug)
    messages.success(request, _("Round %(number)s is published.") % {"number": new_round.number})
    return redirect("tournaments:round", slug=access.tournament.slug, number=new_round.number)


@staff_view()
def round_detail(request: DeskRequest, access: Access, number: int) -> HttpResponse:
    round_ = get_object_or_404(access.tournament.rounds, number=number)
    by_name = request.GET.get("order") == "name"
    context = {
        "access": access,
        "tournament": access.tournament,
        "round": round_,
        "by_name": by_name,
        "matches": selectors.round_matches(round_=round_),
        "name_rows": selectors.pairings_by_name(round_=round_) if by_name else [],
    }
    return render(request, "tournaments/round_detail.html", context)


@require_POST
@staff_view(*RESULT_KEEPERS)
def match_result(request: DeskRequest, access: Access, match_id: int) -> HttpResponse:
    match = get_object_or_404(
        Match.objects.select_related("round"), pk=match_id, round__tournament=access.tournament
    )
    url = reverse("tournaments:round", args=[access.tournament.slug, match.round.number])
    form = ResultForm(request.POST)
    try:
        if not form.is_valid():
            raise DomainError("bad_result", _("Enter the games won by each player."))
        services.enter_result(
            match=match,
            player1_wins=form.cleaned_data["player1_wins"],
            player2_wins=form.cleaned_data["player2_wins"],
            draws=form.cleaned_data["draws"] or 0,
        )
    except DomainError as error:
        if error.code == "enter_games_one_by_one" and not request.htmx:
            messages.error(request, str(error.message))
            return redirect("tournaments:match", slug=access.tournament.slug, match_id=match.pk)
        return _match_row(request, access, match, url, error=error)
    return _match_row(request, access, match, url, notice=_("Result saved."))


def _match_row(
    request: DeskRequest,
    access: Access,
    match: Match,
    url: str,
    *,
    error: DomainError | None = None,
    notice: str = "",
) -> HttpResponse:
    if not request.htmx:
        if error:
            messages.error(request, str(error.message))
        else:
            messages.success(request, notice)
        return redirect(url)
    row = selectors.round_matches(round_=match.round, only=match.pk)[0]
    return render(
        request,
        "tournaments/round_detail.html#match-row",
        {
            "access": access,
            "tournament": access.tournament,
            "row": row,
            "error": error.message if error else "",
            "games_one_by_one": bool(error and error.code == "enter_games_one_by_one"),
            "notice": notice,
        },
    )


def _get_match(access: Access, match_id: int) -> Match:
    return get_object_or_404(
        Match.objects.select_related("round", "player1__player", "player2__player"),
        pk=match_id,
        round__tournament=access.tournament,
        player2__isnull=False,
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
        "next_game": len(games) + 1,
        "may_correct": bool(access.roles & set(CORRECTORS)),
        **extra,
    }


@staff_view()
def match_detail(request: DeskRequest, access: Access, match_id: int) -> HttpResponse:
    """The table's result screen: its games one by one, and a finished result's correction."""
    match = _get_match(access, match_id)
    form = CorrectionForm(
        initial={
            "player1_wins": match.player1_wins,
            "player2_wins": match.player2_wins,
            "draws": match.draws,
        }
    )
    return render(
        request, "tournaments/match_detail.html", _match_context(access, match, form=form)
    )


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
        if error:
            messages.error(request, str(error.message))
        else:
            messages.success(request, notice)
        return redirect("tournaments:match", slug=access.tournament.slug, match_id=match.pk)
    match.refresh_from_db()
    form = form or CorrectionForm(
        initial={
            "player1_wins": match.player1_wins,
            "player2_wins": match.player2_wins,
            "draws": match.draws,
        }
    )
    context = _match_context(
        access, match, form=form, error=error.message if error else "", notice=notice
    )
    return render(request, "tournaments/match_detail.html#match-result", context)


@require_POST
@staff_view(*RESULT_KEEPERS)
def match_game(request: DeskRequest, access: Access, match_id: int) -> HttpResponse:
    match = _get_match(access, match_id)
    form = GameForm(request.POST)
    try:
        if not form.is_valid():
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
            lift_penalty_loss=data["lift_penalty_loss"],
        )
    except DomainError as error:
        return _match_done(request, access, match, error=error, form=form)
    return _match_done(request, access, match, notice=_("Result corrected."))


@staff_view()
def standings(request: DeskRequest, access: Access) -> HttpResponse:
    rounds = list(access.tournament.rounds.values_list("number", flat=True))
    through_round = parse_query(request, StandingsQueryForm).cleaned_data["round"]
    rows = selectors.standings(tournament=access.tournament, through_round=through_round)
    return render(
        request,
        "tournaments/standings.html",
        {
            "access": access,
            "tournament": access.tournament,
            "rows": rows,
            "rounds": rounds,
            "through_round": through_round,
        },
    )


@require_POST
@staff_view(ORGANISER)
def tournament_finish(request: DeskRequest, access: Access) -> HttpResponse:
    try:
        services.finish_tournament(tournament=access.tournament)
    except DomainError as error:
        messages.error(request, str(error.message))
    else:
        messages.success(request, _("The tournament is finished."))
    return redirect("tournaments:detail", slug=access.tournament.slug)
