"""The floor judge's screens: find a player, log an infraction with a live preview, the card.

Views stay thin: the services rule and write; the selectors read.
"""

import uuid
from typing import cast

from django.contrib import messages
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from core.errors import DomainError
from core.http import DeskRequest, message_refusal
from core.inputs import SearchForm, form_message, parse_id, parse_query
from judging import live, selectors, services
from judging.forms import (
    AcknowledgementForm,
    InfractionForm,
    LogPrefillForm,
    ReasonForm,
    StatementForm,
)
from judging.models import Infraction, PenaltyRecord
from judging.penalties import Moment
from tournaments import selectors as tournament_selectors
from tournaments.access import JUDGES, Access, staff_view
from tournaments.models import Match, Registration

MINE_PAGE_SIZE = 50


@vary_on_headers("HX-Request")
@staff_view(*JUDGES)
def judge_home(request: DeskRequest, access: Access) -> HttpResponse:
    query = parse_query(request, SearchForm).cleaned_data["q"]
    found = selectors.players_at_glance(
        tournament=access.tournament,
        query=query,
        after=parse_id(request.GET.get("after")),
        before=parse_id(request.GET.get("before")),
    )
    context = {
        "access": access,
        "tournament": access.tournament,
        "query": query,
        "found": found,
        "rows": found.rows,
    }
    if request.htmx:
        return render(request, "judging/judge_home.html#player-results", context)
    return render(request, "judging/judge_home.html", context)


def _log_context(
    request: DeskRequest,
    access: Access,
    registration: Registration,
    form: InfractionForm,
    glance: selectors.PlayerAtGlance | None = None,
) -> dict[str, object]:
    infractions = selectors.available_infractions(tournament=access.tournament)
    if glance is None:
        glance = selectors.player_at_glance(tournament=access.tournament, registration=registration)
    return {
        "live": live.streams_available(request),
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
    # The tournament as the access check of this request read it.
    registration = tournament_selectors.registration_in(tournament=access.tournament, pk=pk)
    if registration is None:
        raise Http404
    return registration


@staff_view(*JUDGES)
def log_infraction(request: DeskRequest, access: Access) -> HttpResponse:
    registration = _registration(access, request.GET.get("player"))
    prefill = parse_query(request, LogPrefillForm).cleaned_data
    glance = selectors.player_at_glance(tournament=access.tournament, registration=registration)
    match = glance.match
    in_match = match is not None and not match.has_ended and not match.is_bye
    moment = Moment.IN_GAME if in_match else Moment.BETWEEN_MATCHES
    initial: dict[str, object] = {
        "player": registration.pk,
        # One key per form shown: a double tap or a resend records once. The tablet keeps the key
        # with what the judge entered (static/js/log_form.js) and puts it back after Back, a
        # reload or signing in again, so a page fetched anew does not renew the intention.
        "client_key": uuid.uuid4(),
        "moment": moment,
        "note": prefill["note"],
        # The round as this page shows it: a penalty kept offline and sent in the next round is
        # refused rather than recorded in a match it was not about.
        "round_seen": _round_now(access, match if in_match else None),
    }
    context = _log_context(request, access, registration, InfractionForm(initial=initial), glance)
    # A link that fills the form (a finding, a judge call) says what the judge means now: the
    # tablet does not put an unsent form of this player over it.
    context["prefilled"] = bool(prefill["infraction"] or prefill["note"])
    chosen = _prefilled_infraction(context, prefill["infraction"], prefill["sub_item"])
    if chosen is not None:
        infraction, letter = chosen
        initial["infraction"] = infraction.code
        initial["sub_item"] = f"{infraction.code}:{letter}" if letter else ""
        context["form"] = InfractionForm(initial=initial)
        try:
            # The preview shows at once what the pre-filled infraction becomes.
            context["ruling"] = services.preview_penalty(
                registration=registration,
                infraction_code=infraction.code,
                moment=moment,
                deferred=False,
                sub_item=letter,
                issued_by=request.user,
                issuer_roles=access.roles,
            )
        except DomainError as error:
            context["error"] = error.message
    elif prefill["infraction"]:
        messages.warning(
            request,
            _("Infraction %(code)s cannot be issued in this tournament: choose one below.")
            % {"code": prefill["infraction"]},
        )
    return render(request, "judging/infraction_log.html", context)


def _round_now(access: Access, match: Match | None) -> int:
    """The round a penalty issued now falls in (as ``issue_penalty`` reads it), 0 before any."""
    if match is not None:
        return match.round_id
    latest = tournament_selectors.latest_round(tournament=access.tournament)
    return latest.pk if latest else 0


def _prefilled_infraction(
    context: dict[str, object], code: str, letter: str
) -> tuple[Infraction, str] | None:
    """The pre-filled infraction if the tournament offers it, with its sub-item if it has one.

    A code the tournament does not offer is not chosen (the judge picks one, told why); a letter
    the infraction does not have is dropped, since the judge then picks the sub-item by sight.
    """
    sections = cast(list[tuple[str, list[Infraction]]], context["sections"])
    for _title, infractions in sections:
        for infraction in infractions:
            if infraction.code == code.strip():
                return infraction, letter if letter in infraction.sub_item_letters() else ""
    return None


@require_POST
@staff_view(*JUDGES)
def preview(request: DeskRequest, access: Access) -> HttpResponse:
    form = InfractionForm(request.POST)
    context: dict[str, object] = {
        "access": access,
        "tournament": access.tournament,
        "live": live.streams_available(request),
    }
    if not form.is_valid():
        context["hint"] = _("Choose the infraction to see what it becomes.")
        return render(request, "judging/infraction_log.html#penalty-preview", context)
    # The player, whether they play now and what they hold, in one read: the preview runs on
    # every change of the form.
    player = selectors.player_for_ruling(
        tournament=access.tournament, pk=form.cleaned_data["player"]
    )
    if player is None:
        raise Http404
    # The player's penalties in the page's header follow the preview (a second tablet's record).
    context["held"] = player.held
    try:
        context["ruling"] = services.preview_penalty(
            registration=player.registration,
            infraction_code=form.cleaned_data["infraction"],
            moment=form.cleaned_data["moment"],
            deferred=form.cleaned_data["deferred"],
            sub_item=form.cleaned_data["sub_item_letter"],
            issued_by=request.user,
            in_match=player.in_match,
            held=player.held,
            issuer_roles=access.roles,
        )
    except DomainError as error:
        context["error"] = error.message
    return render(request, "judging/infraction_log.html#penalty-preview", context)


@require_http_methods(["GET", "POST"])
@staff_view(*JUDGES)
def issue(request: DeskRequest, access: Access) -> HttpResponse:
    if request.method != "POST":
        # A submit sent after the session ended came here through the sign-in page: back to the
        # player's form, where the tablet puts back what the judge entered.
        pk = parse_id(request.GET.get("player"))
        known = pk is not None and tournament_selectors.registration_in(
            tournament=access.tournament, pk=pk
        )
        if not known:
            return redirect("judging:judge-home", slug=access.tournament.slug)
        return redirect(f"{reverse('judging:log', args=[access.tournament.slug])}?player={pk}")
    form = InfractionForm(request.POST)
    if not form.is_valid():
        registration = _registration(access, request.POST.get("player"))
        context = _log_context(request, access, registration, form)
        return render(request, "judging/infraction_log.html", context)
    try:
        outcome = _issue_from_form(request, access, form)
    except services.SecondPenaltyUnconfirmed as second:
        # Not a line in the preview: the form again, stopped, naming the first record, with a
        # separate button that sends the explicit confirmation (and the same key).
        registration = _registration(access, form.cleaned_data["player"])
        context = _log_context(request, access, registration, form)
        context["second"] = second
        return render(request, "judging/infraction_log.html", context)
    except DomainError as error:
        if error.code == "unknown_player":
            raise Http404 from error
        form.add_error(None, str(error.message))
        registration = _registration(access, form.cleaned_data["player"])
        context = _log_context(request, access, registration, form)
        return render(request, "judging/infraction_log.html", context)
    if not outcome.created:
        messages.info(request, _("This infraction was already recorded; here it is."))
    return redirect("judging:record", slug=access.tournament.slug, record_id=outcome.record.pk)


def _issue_from_form(
    request: DeskRequest, access: Access, form: InfractionForm
) -> services.PenaltyOutcome:
    """The penalty a valid infraction form asks for, issued by the judge who sent it (from the
    page or from the tablet's queue alike)."""
    data = form.cleaned_data
    return services.issue_penalty(
        # The service reads the player under its lock and refuses one of another tournament,
        # so the submit does not read them first: the key and the tournament are enough.
        registration=Registration(pk=data["player"], tournament=access.tournament),
        infraction_code=data["infraction"],
        moment=data["moment"],
        deferred=data["deferred"],
        sub_item=data["sub_item_letter"],
        note=data["note"],
        issued_by=request.user,
        client_key=data["client_key"],
        confirm_second=data["confirm_second"],
        issuer_roles=access.roles,
        # What the tablet's script adds to the form: its clock when the penalty was entered and
        # sent, and the round its page showed.
        entered_at=data["entered_at"],
        sent_at=data["sent_at"],
        round_seen=data["round_seen"],
    )


@require_POST
@staff_view(*JUDGES)
def issue_queued(request: DeskRequest, access: Access) -> HttpResponse:
    """A penalty the tablet kept while the server could not be reached, sent by its service
    worker (static/js/desk_sw.js) with the form's one-time key: JSON, so the worker can tell a
    record (made now or by an earlier try) from a refusal that the judge must see."""
    form = InfractionForm(request.POST)
    if not form.is_valid():
        return _refused("bad_form", form_message(form), status=400)
    try:
        outcome = _issue_from_form(request, access, form)
    except DomainError as error:
        return _refused(error.code, str(error.message), status=409)
    record = outcome.record
    return JsonResponse(
        {
            "status": "recorded",
            "created": outcome.created,
            "record": record.pk,
            "url": reverse("judging:record", args=[access.tournament.slug, record.pk]),
            "clock_off": record.tablet_clock_was_off,
        }
    )


def _refused(code: str, message: str, *, status: int) -> JsonResponse:
    return JsonResponse({"status": "refused", "code": code, "message": message}, status=status)


@vary_on_headers("HX-Request")
@staff_view(*JUDGES)
def record_card(request: DeskRequest, access: Access, record_id: int) -> HttpResponse:
    record = selectors.record_for_card(tournament=access.tournament, record_id=record_id)
    if record is None:
        raise Http404
    template = (
        "judging/record_card.html#record-card" if request.htmx else "judging/record_card.html"
    )
    return render(request, template, _card_context(request, access, record, ReasonForm()))


def _card_context(
    request: DeskRequest,
    access: Access,
    record: PenaltyRecord,
    form: ReasonForm,
    statement_form: StatementForm | None = None,
) -> dict[str, object]:
    return {
        "live": live.streams_available(request),
        "access": access,
        "tournament": access.tournament,
        "record": record,
        "form": form,
        "statements": selectors.statements_of(record=record) if record.is_investigated else [],
        "decision": selectors.decision_of(record=record) if record.is_investigated else None,
        "statement_form": statement_form
        or StatementForm(
            initial={"client_key": uuid.uuid4(), "role": "player"}, auto_id="id_statement_%s"
        ),
    }


@require_POST
@staff_view(*JUDGES)
def record_undo(request: DeskRequest, access: Access, record_id: int) -> HttpResponse:
    record = get_object_or_404(PenaltyRecord, pk=record_id, tournament=access.tournament)
    form = ReasonForm(request.POST)
    try:
        services.request_revocation(
            record=record, judge=request.user, reason=request.POST.get("reason", "").strip()
        )
    except DomainError as error:
        if error.field is not None:
            # The reason itself is wrong: the card again, the error beside the field.
            form.is_valid()
            form.errors.clear()
            form.add_error(error.field, str(error.message))
            card = selectors.record_for_card(tournament=access.tournament, record_id=record.pk)
            context = _card_context(request, access, card or record, form)
            return render(request, "judging/record_card.html", context)
        message_refusal(request, error)
    else:
        messages.success(request, _("The head judge is asked to revoke this record."))
    return redirect("judging:record", slug=access.tournament.slug, record_id=record.pk)


@staff_view(*JUDGES)
def my_records(request: DeskRequest, access: Access) -> HttpResponse:
    page = selectors.records_issued_page(
        tournament=access.tournament,
        user=request.user,
        older_than=parse_id(request.GET.get("older")),
        newer_than=parse_id(request.GET.get("newer")),
        page_size=MINE_PAGE_SIZE,
    )
    return render(
        request,
        "judging/record_mine.html",
        {"access": access, "tournament": access.tournament, "page": page},
    )


@require_POST
@staff_view(*JUDGES)
def record_acknowledge(request: DeskRequest, access: Access, record_id: int) -> HttpResponse:
    """The player taps their name on the card (or the judge marks that they declined)."""
    record = get_object_or_404(PenaltyRecord, pk=record_id, tournament=access.tournament)
    form = AcknowledgementForm(request.POST)
    try:
        if not form.is_valid():
            raise DomainError("bad_answer", form_message(form))
        services.acknowledge_penalty(
            record=record,
            judge=request.user,
            declined=form.cleaned_data["answer"] == "declined",
        )
    except DomainError as error:
        message_refusal(request, error)
    else:
        messages.success(request, _("The player's answer is recorded."))
    return redirect("judging:record", slug=access.tournament.slug, record_id=record.pk)


@require_POST
@staff_view(*JUDGES)
def record_statement(request: DeskRequest, access: Access, record_id: int) -> HttpResponse:
    """A statement for a disqualification's investigation; a refused one is shown again with the
    message beside the field, the text kept."""
    record = get_object_or_404(PenaltyRecord, pk=record_id, tournament=access.tournament)
    form = StatementForm(request.POST, auto_id="id_statement_%s")
    if form.is_valid():
        try:
            services.add_statement(
                record=record,
                judge=request.user,
                role=form.cleaned_data["role"],
                author_name=form.cleaned_data["author_name"],
                text=form.cleaned_data["text"],
                client_key=form.cleaned_data["client_key"],
            )
        except DomainError as error:
            if error.field is None:
                message_refusal(request, error)
                return redirect("judging:record", slug=access.tournament.slug, record_id=record.pk)
            form.add_error(error.field if error.field in form.fields else None, str(error.message))
        else:
            messages.success(request, _("The statement is recorded."))
            return redirect("judging:record", slug=access.tournament.slug, record_id=record.pk)
    card = selectors.record_for_card(tournament=access.tournament, record_id=record.pk)
    context = _card_context(request, access, card or record, ReasonForm(), form)
    return render(request, "judging/record_card.html", context)
