"""The floor judge's screens: find a player, log an infraction with a live preview, the card.

Views stay thin: the services rule and write; the selectors read.
"""

import uuid

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.inputs import SearchForm, parse_id, parse_query
from judging import live, selectors, services
from judging.explanations import player_message
from judging.forms import InfractionForm, ReasonForm
from judging.models import PenaltyRecord, RecordStatus
from judging.penalties import Moment
from tournaments.access import JUDGES, Access, staff_view
from tournaments.errors import DomainError
from tournaments.models import Registration


@staff_view(*JUDGES)
def judge_home(request: HttpRequest, access: Access) -> HttpResponse:
    query = parse_query(request, SearchForm).cleaned_data["q"]
    context = {
        "access": access,
        "tournament": access.tournament,
        "query": query,
        "rows": selectors.players_at_glance(tournament=access.tournament, query=query),
    }
    if request.htmx:
        return render(request, "judging/judge_home.html#player-results", context)
    return render(request, "judging/judge_home.html", context)


def _log_context(
    access: Access, registration: Registration, form: InfractionForm
) -> dict[str, object]:
    infractions = selectors.available_infractions(tournament=access.tournament)
    (glance,) = selectors.players_at_glance(
        tournament=access.tournament, registration_ids=[registration.pk]
    )
    return {
        "access": access,
        "tournament": access.tournament,
        "glance": glance,
        "form": form,
        "sections": selectors.infraction_sections(infractions=infractions),
        "moments": Moment.choices,
    }


def _registration(access: Access, value: object) -> Registration:
    pk = parse_id(value)
    if pk is None:
        raise Http404
    return get_object_or_404(Registration, pk=pk, tournament=access.tournament)


@staff_view(*JUDGES)
def log_infraction(request: HttpRequest, access: Access) -> HttpResponse:
    registration = _registration(access, request.GET.get("player"))
    match = selectors.players_at_glance(
        tournament=access.tournament, registration_ids=[registration.pk]
    )[0].match
    in_match = match is not None and not match.has_ended and not match.is_bye
    form = InfractionForm(
        initial={
            "player": registration.pk,
            # One key per form shown: a double tap or a resend records once.
            "client_key": uuid.uuid4(),
            "moment": Moment.IN_GAME if in_match else Moment.BETWEEN_MATCHES,
        }
    )
    return render(request, "judging/infraction_log.html", _log_context(access, registration, form))


@require_POST
@staff_view(*JUDGES)
def preview(request: HttpRequest, access: Access) -> HttpResponse:
    form = InfractionForm(request.POST)
    context: dict[str, object] = {"access": access, "tournament": access.tournament}
    if not form.is_valid():
        context["hint"] = _("Choose the infraction to see what it becomes.")
        return render(request, "judging/infraction_log.html#penalty-preview", context)
    registration = _registration(access, form.cleaned_data["player"])
    try:
        context["ruling"] = services.preview_penalty(
            registration=registration,
            infraction_code=form.cleaned_data["infraction"],
            moment=form.cleaned_data["moment"],
            deferred=form.cleaned_data["deferred"],
            sub_item=form.cleaned_data["sub_item_letter"],
            issued_by=request.user,
        )
    except DomainError as error:
        context["error"] = error.message
    return render(request, "judging/infraction_log.html#penalty-preview", context)


@require_POST
@staff_view(*JUDGES)
def issue(request: HttpRequest, access: Access) -> HttpResponse:
    form = InfractionForm(request.POST)
    registration = _registration(access, request.POST.get("player"))
    if not form.is_valid():
        context = _log_context(access, registration, form)
        return render(request, "judging/infraction_log.html", context)
    try:
        outcome = services.issue_penalty(
            registration=registration,
            infraction_code=form.cleaned_data["infraction"],
            moment=form.cleaned_data["moment"],
            deferred=form.cleaned_data["deferred"],
            sub_item=form.cleaned_data["sub_item_letter"],
            note=form.cleaned_data["note"],
            issued_by=request.user,
            client_key=form.cleaned_data["client_key"],
        )
    except DomainError as error:
        form.add_error(None, str(error.message))
        context = _log_context(access, registration, form)
        return render(request, "judging/infraction_log.html", context)
    if not outcome.created:
        messages.info(request, _("This infraction was already recorded; here it is."))
    response = redirect("judging:record", slug=access.tournament.slug, record_id=outcome.record.pk)
    if request.htmx:
        # A plain redirect would be followed inside the fragment; send the browser instead.
        response = HttpResponse(status=204, headers={"HX-Redirect": response.url})
    return response


@staff_view(*JUDGES)
def record_card(request: HttpRequest, access: Access, record_id: int) -> HttpResponse:
    record = selectors.record_for_card(tournament=access.tournament, record_id=record_id)
    if record is None:
        raise Http404
    template = (
        "judging/record_card.html#record-card" if request.htmx else "judging/record_card.html"
    )
    return render(
        request,
        template,
        {
            "live": live.streams_available(request),
            "access": access,
            "tournament": access.tournament,
            "record": record,
            "form": ReasonForm(),
            "tell": player_message(
                rank=record.rank,
                applies_to=record.applies_to,
                awaiting_head_judge=record.status == RecordStatus.AWAITING_HEAD_JUDGE,
            ),
        },
    )


@require_POST
@staff_view(*JUDGES)
def record_undo(request: HttpRequest, access: Access, record_id: int) -> HttpResponse:
    record = get_object_or_404(PenaltyRecord, pk=record_id, tournament=access.tournament)
    form = ReasonForm(request.POST)
    try:
        if not form.is_valid():
            raise DomainError("reason_required", _("Write the reason for this decision."))
        services.request_revocation(
            record=record, judge=request.user, reason=form.cleaned_data["reason"]
        )
    except DomainError as error:
        messages.error(request, str(error.message))
    else:
        messages.success(request, _("The head judge is asked to revoke this record."))
    return redirect("judging:record", slug=access.tournament.slug, record_id=record.pk)


@staff_view(*JUDGES)
def my_records(request: HttpRequest, access: Access) -> HttpResponse:
    records = selectors.records_issued_by(tournament=access.tournament, user=request.user)
    return render(
        request,
        "judging/record_mine.html",
        {"access": access, "tournament": access.tournament, "records": records},
    )
