"""The organiser's set-up screens: the tournament, its staff, its players, its end.

Rounds, results and standings are in ``play_views``. Views are thin: they check the role
(``access.staff_view``), validate the form, call a service and render. An HTMX request gets the
updated fragment back; a plain POST gets a message and a redirect (``core.http``), so every screen
also works without JavaScript.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.decorators.vary import vary_on_headers

from core.errors import DomainError
from core.http import DeskRequest, answer_done, answer_refused, message_refusal
from core.inputs import SearchForm, parse_id, parse_query
from core.rows import csrf_field
from players.models import Player
from tournaments import jobs, name_order, next_steps, selectors, services
from tournaments.access import Access, staff_view
from tournaments.forms import (
    ImportForm,
    NewTournamentForm,
    PlayerForm,
    RegistryPlayerForm,
    StaffForm,
    TournamentForm,
)
from tournaments.models import (
    Job,
    Registration,
    Staff,
    StaffRole,
    Tournament,
)
from tournaments.permissions import may_organise
from tournaments.player_import import check_import

ORGANISER = StaffRole.ORGANISER


def _require_organiser_permission(request: DeskRequest) -> None:
    """Creating tournaments and using the player registry is for the operator's organisers."""
    if not may_organise(request.user):
        raise PermissionDenied(
            _(
                "Only organisers may do this: ask the operator to add your account to the "
                "organisers."
            )
        )


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
    steps = next_steps.next_steps(tournament=tournament) if access.is_organiser else []
    players = tournament.registrations.count()
    context = {
        "access": access,
        "tournament": tournament,
        "latest_round": latest,
        "players": players,
        "open_matches": selectors.open_match_count(tournament=tournament),
        "suggested_rounds": services.suggested_rounds(players),
        "next_steps": steps,
        "first_todo": next((step for step in steps if not step.done), None),
    }
    return render(request, "tournaments/tournament_detail.html", context)


@vary_on_headers("HX-Request")
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
                return answer_done(request, _("Settings saved."), url, fragment, context)
        if request.htmx:
            return render(request, fragment, context)
    context["suggested_rounds"] = services.suggested_rounds(tournament.registrations.count())
    return render(request, "tournaments/tournament_settings.html", context)


@vary_on_headers("HX-Request")
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
            "staff": selectors.staff_of(tournament=tournament),
        }

    if request.method == "POST" and form.is_valid():
        try:
            services.add_staff_member(tournament=tournament, **form.cleaned_data)
        except DomainError as error:
            if error.field is None:
                return answer_refused(request, error, url, fragment, context())
            form.add_error(error.field, str(error.message))
            return render(request, fragment if request.htmx else page, context())
        form = StaffForm()
        return answer_done(request, _("Staff member added."), url, fragment, context())
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
        message_refusal(request, error)
    else:
        messages.success(request, _("Staff member removed."))
    return redirect("tournaments:staff", slug=access.tournament.slug)


REGISTRATIONS_PER_PAGE = 100


def _registrations_context(
    access: Access, request: DeskRequest, **extra: object
) -> dict[str, object]:
    """The players page: one page of the registrations by name (searched by name or membership
    id), read from where the last page ended, so that it costs the same at 32 players and at
    10,000 (``tournaments.name_order``)."""
    search = SearchForm(request.GET)
    query = search.cleaned_data["q"] if search.is_valid() else ""
    tournament = access.tournament
    registrations = name_order.mapped(
        name_order.page_in_name_order(
            selectors.registrations_with_players(tournament=tournament, query=query),
            tournament=tournament,
            cursor=name_order.NameCursor.from_query(request.GET),
            size=REGISTRATIONS_PER_PAGE,
        ),
        lambda rows: selectors.registration_rows(rows, tournament=tournament),
    )
    return {
        "access": access,
        "tournament": tournament,
        "registrations": registrations,
        "registration_count": selectors.registration_count(tournament=tournament, query=query),
        "registration_query": query,
        "page": registrations,
        # Each row's «Drop» form holds it: made once, not by a tag in each of 100 rows.
        "csrf_field": csrf_field(request),
        "player_form": PlayerForm(),
        "import_form": ImportForm(),
        **extra,
    }


@staff_view()
def registration_list(request: DeskRequest, access: Access) -> HttpResponse:
    context = _registrations_context(access, request)
    # A value that is no row id (typed by hand, «²», too long for the column) is no job.
    job_id = parse_id(request.GET.get("job"))
    if job_id is not None and access.is_organiser:
        context["job"] = Job.objects.filter(pk=job_id, tournament=access.tournament).first()
    return render(request, "tournaments/registration_list.html", context)


@staff_view(ORGANISER)
def player_search(request: DeskRequest, access: Access) -> HttpResponse:
    """Registry look-up while typing: by part of a name or a membership id."""
    _require_organiser_permission(request)
    query = parse_query(request, SearchForm).cleaned_data["q"]
    found = selectors.registry_search(tournament=access.tournament, query=query)
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
            context = _registrations_context(access, request, player_form=form)
            page = "tournaments/registration_list.html"
            return render(request, fragment if request.htmx else page, context)
    except DomainError as error:
        return answer_refused(
            request, error, url, fragment, _registrations_context(access, request)
        )
    text = _("%(player)s is registered.") % {"player": player.name}
    return answer_done(request, text, url, fragment, _registrations_context(access, request))


@require_POST
@staff_view(ORGANISER)
def registration_import(request: DeskRequest, access: Access) -> HttpResponse:
    """Check the file at once (bad rows are shown before anything is written), then let the task
    worker register it, and show its progress."""
    _require_organiser_permission(request)
    tournament = access.tournament
    form = ImportForm(request.POST, request.FILES)
    context = _registrations_context(access, request, import_form=form)
    if form.is_valid():
        rows, report = check_import(tournament=tournament, content=form.cleaned_data["file"].read())
        if report.ok:
            job = jobs.start_player_import(tournament=tournament, rows=rows, by=request.user)
            url = reverse("tournaments:registrations", args=[tournament.slug])
            return redirect(f"{url}?job={job.pk}")
        context = _registrations_context(access, request, import_report=report)
    return render(request, "tournaments/registration_list.html", context)


@staff_view(ORGANISER)
def job_progress(request: DeskRequest, access: Access, job_id: int) -> HttpResponse:
    """How far a long job of the tournament has got (the players page polls it)."""
    job = get_object_or_404(Job, pk=job_id, tournament=access.tournament)
    return render(
        request,
        "tournaments/registration_list.html#job-progress",
        {"access": access, "tournament": access.tournament, "job": job},
    )


@require_POST
@staff_view(ORGANISER)
def registration_drop(request: DeskRequest, access: Access, registration_id: int) -> HttpResponse:
    registration = get_object_or_404(Registration, pk=registration_id, tournament=access.tournament)
    url = reverse("tournaments:registrations", args=[access.tournament.slug])
    fragment = "tournaments/registration_list.html#registration-panel"
    try:
        services.drop_player(registration=registration)
    except DomainError as error:
        return answer_refused(
            request, error, url, fragment, _registrations_context(access, request)
        )
    text = _("%(player)s has dropped.") % {"player": registration.player.name}
    return answer_done(request, text, url, fragment, _registrations_context(access, request))


@require_POST
@staff_view(ORGANISER)
def tournament_finish(request: DeskRequest, access: Access) -> HttpResponse:
    try:
        services.finish_tournament(tournament=access.tournament)
    except DomainError as error:
        message_refusal(request, error)
    else:
        messages.success(request, _("The tournament is finished."))
    return redirect("tournaments:detail", slug=access.tournament.slug)
