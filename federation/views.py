"""The federation's screens: the event file's download, the federation's desk (event files in,
players' histories, the coordinator's suspensions, the list out), the laptop's import of the
list, the organiser's API keys, and the published schemas."""

import datetime
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from core.errors import DomainError
from core.http import DeskRequest, message_refusal
from federation import selectors, services
from federation.files import SCHEMAS
from federation.forms import ApiKeyForm, FileForm, LiftForm, SearchForm, SuspendForm, TermForm
from federation.models import MembershipSuspension
from federation.permissions import is_coordinator, is_federation_staff
from tournaments.access import Access, staff_view
from tournaments.models import StaffRole
from tournaments.permissions import may_organise

SCHEMA_NAMES = ("event-v1", "suspensions-v1")


def _attachment(content: bytes, name: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@staff_view(StaffRole.ORGANISER, StaffRole.HEAD_JUDGE)
@require_GET
def event_file(request: DeskRequest, access: Access) -> HttpResponse:
    tournament = access.tournament
    try:
        content = services.export_event(tournament=tournament)
    except DomainError as error:
        message_refusal(request, error)
        return redirect("judging:report", tournament.slug)
    return _attachment(content, f"event-{tournament.slug}-{tournament.date:%Y-%m-%d}.json")


@require_GET
def schema_file(request: DeskRequest, name: str) -> FileResponse:
    if name not in SCHEMA_NAMES:
        raise Http404
    return FileResponse(
        (SCHEMAS / f"{name}.json").open("rb"), content_type="application/schema+json"
    )


def federation_view(
    view: Callable[..., HttpResponse],
) -> Callable[..., HttpResponse]:
    @login_required
    @wraps(view)
    def wrapped(request: DeskRequest, *args: object, **kwargs: object) -> HttpResponse:
        if not is_federation_staff(request.user):
            raise PermissionDenied(_("This page is for the federation's staff."))
        return view(request, *args, **kwargs)

    return wrapped


@federation_view
def home(request: DeskRequest) -> HttpResponse:
    search = SearchForm(request.GET)
    query = search.cleaned_data["q"] if search.is_valid() else ""
    return render(
        request,
        "federation/home.html",
        {
            "form": FileForm(),
            "search": search,
            "found": selectors.find_players(query=query) if query else None,
            "events": selectors.imported_events(page=request.GET.get("page", 1)),
            "in_force": selectors.suspensions_in_force(day=timezone.localdate()),
        },
    )


@federation_view
@require_POST
def import_event(request: DeskRequest) -> HttpResponse:
    form = FileForm(request.POST, request.FILES)
    if not form.is_valid():
        for error in form.errors.get("file", []):
            messages.error(request, str(error), extra_tags="file_too_large")
        return redirect("federation:home")
    try:
        outcome = services.import_event_file(content=form.content(), by=request.user)
    except DomainError as error:
        message_refusal(request, error)
        return redirect("federation:home")
    if outcome.created:
        messages.success(
            request,
            _(
                "Imported «%(name)s»: %(players)s players (%(new)s new to the registry), "
                "%(penalties)s penalties, %(suspensions)s suspensions."
            )
            % {
                "name": outcome.event.name,
                "players": outcome.event.players,
                "new": outcome.new_players,
                "penalties": outcome.event.penalties,
                "suspensions": outcome.suspensions,
            },
        )
    else:
        messages.info(
            request,
            _("«%(name)s» was imported already from this very file: nothing changed.")
            % {"name": outcome.event.name},
        )
    return redirect("federation:home")


@federation_view
def player(request: DeskRequest, pk: int) -> HttpResponse:
    found = selectors.player_of(pk=pk)
    if found is None:
        raise Http404
    return render(
        request,
        "federation/player.html",
        {
            "player": found,
            "entries": selectors.player_entries(player=found),
            "suspensions": selectors.player_suspensions(player=found),
            "coordinator": is_coordinator(request.user),
            "suspend_form": SuspendForm(initial={"starts_on": timezone.localdate()}),
            "term_form": TermForm(),
            "lift_form": LiftForm(),
        },
    )


def _refuse_form(request: DeskRequest, form: SuspendForm | TermForm | LiftForm) -> None:
    for field, errors in form.errors.items():
        for error in errors:
            label = form.fields[field].label if field in form.fields else ""
            messages.error(
                request, f"{label}: {error}" if label else str(error), extra_tags="invalid"
            )


def _act_on_form(
    request: DeskRequest,
    form: SuspendForm | TermForm | LiftForm,
    act: Callable[[dict[str, Any]], object],
    done: str,
) -> None:
    """The coordinator's form on a player's page: ``act`` with what it says and ``done`` as the
    message, a refusal as a message, or each of the form's errors as a message."""
    if not form.is_valid():
        _refuse_form(request, form)
        return
    try:
        act(form.cleaned_data)
    except DomainError as error:
        message_refusal(request, error)
    else:
        messages.success(request, done)


def _suspension_or_404(pk: int) -> MembershipSuspension:
    suspension = selectors.suspension_of(pk=pk)
    if suspension is None:
        raise Http404
    return suspension


@federation_view
@require_POST
def suspend(request: DeskRequest, pk: int) -> HttpResponse:
    found = selectors.player_of(pk=pk)
    if found is None:
        raise Http404
    _act_on_form(
        request,
        SuspendForm(request.POST),
        lambda data: services.suspend_player(
            player=found,
            starts_on=data["starts_on"],
            ends_on=data["ends_on"],
            reason=data["reason"],
            by=request.user,
        ),
        _("The membership is suspended."),
    )
    return redirect("federation:player", found.pk)


@federation_view
@require_POST
def set_term(request: DeskRequest, pk: int) -> HttpResponse:
    suspension = _suspension_or_404(pk)
    _act_on_form(
        request,
        TermForm(request.POST),
        lambda data: services.set_term(
            suspension=suspension, ends_on=data["ends_on"], reason=data["reason"], by=request.user
        ),
        _("The suspension's term is set."),
    )
    return redirect("federation:player", suspension.player_id)


@federation_view
@require_POST
def lift(request: DeskRequest, pk: int) -> HttpResponse:
    suspension = _suspension_or_404(pk)
    _act_on_form(
        request,
        LiftForm(request.POST),
        lambda data: services.lift(suspension=suspension, reason=data["reason"], by=request.user),
        _("The suspension is lifted."),
    )
    return redirect("federation:player", suspension.player_id)


@federation_view
@require_GET
def suspension_list(request: DeskRequest) -> HttpResponse:
    day = timezone.localdate()
    return _attachment(services.export_suspension_list(), f"suspensions-{day:%Y-%m-%d}.json")


@login_required
def list_import(request: DeskRequest) -> HttpResponse:
    """The event laptop takes in the federation's list before registration (organisers)."""
    if not may_organise(request.user):
        raise PermissionDenied(_("This page is for the organisers."))
    outcome = None
    error = None
    form = FileForm()
    if request.method == "POST":
        form = FileForm(request.POST, request.FILES)
        if form.is_valid():
            try:
                outcome = services.import_suspension_list(content=form.content(), by=request.user)
            except DomainError as refused:
                error = refused
    return render(
        request,
        "federation/list_import.html",
        {
            "form": form,
            "outcome": outcome,
            "error": error,
            "imports": selectors.list_imports(),
            "today": timezone.localdate(),
        },
    )


@staff_view(StaffRole.ORGANISER)
def api_keys(request: DeskRequest, access: Access) -> HttpResponse:
    tournament = access.tournament
    form = ApiKeyForm()
    made = None
    if request.method == "POST":
        form = ApiKeyForm(request.POST)
        if form.is_valid():
            try:
                _key, made = services.create_api_key(
                    tournament=tournament, name=form.cleaned_data["name"], by=request.user
                )
                form = ApiKeyForm()
            except DomainError as error:
                form.add_error("name", str(error.message))
    base = request.build_absolute_uri(reverse("api:api-root"))
    return render(
        request,
        "federation/api_keys.html",
        {
            "tournament": tournament,
            "access": access,
            "form": form,
            "made": made,
            "keys": selectors.api_keys(tournament=tournament),
            "api_base": base,
            "today": datetime.date.today(),
        },
    )


@staff_view(StaffRole.ORGANISER)
@require_POST
def revoke_api_key(request: DeskRequest, access: Access, key_id: int) -> HttpResponse:
    try:
        key = services.revoke_api_key(tournament=access.tournament, key_id=key_id)
        messages.success(request, _("The key «%(name)s» is revoked.") % {"name": key.name})
    except DomainError as error:
        message_refusal(request, error)
    return redirect("federation:api-keys", access.tournament.slug)
