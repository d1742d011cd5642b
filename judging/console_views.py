"""The head judge's console: the live penalty log, the requests queue, amendments, the player page,
and the event stream that keeps every open page current."""

import datetime
import logging
from collections.abc import Iterable, Mapping
from typing import NamedTuple

from asgiref.sync import sync_to_async
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db import connections
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.decorators.vary import vary_on_headers

from core.errors import DomainError
from core.http import DeskRequest, message_refusal
from core.inputs import form_message
from judging import live, panels, selectors, services
from judging.forms import AmendForm, ConsoleReasonForm, LogFilterForm, ReasonForm
from judging.models import PenaltyRecord
from judging.penalties import Rank
from players.selectors import suspension_in_force
from tournaments.access import Access, staff_view, tournament_access
from tournaments.models import Registration, StaffRole
from tournaments.permissions import may_read_history_elsewhere

audit_logger = logging.getLogger("desk.audit")

HEAD = StaffRole.HEAD_JUDGE
# A screen of the log: the newest records, with the live updates arriving at the top. Older ones
# are a click away, each page read by its key, so the page costs the same on any day of the event.
LOG_PAGE_SIZE = 25
# More digits than any record id the desk will hand out (and within a 64-bit id): a longer "key"
# is not one, and shows the first page.
KEY_DIGITS = 18


def _record_key(raw: str | None) -> int | None:
    """A page key from the query string, or None (the first page) for anything that is not a
    positive record id: an old link or a hand-edited one shows the log, never an error."""
    if raw is None or not (raw.isascii() and raw.isdecimal()) or len(raw) > KEY_DIGITS:
        return None
    return int(raw) or None


class PathAroundId(NamedTuple):
    """The path of one record's (or one player's) page around its id: each row of the log puts
    its own id between the two, where reversing the path for each row was a third of the log's
    rendering."""

    before: str
    after: str


def _path_around_id(name: str, slug: str) -> PathAroundId:
    # Two ids differ only where the id goes: what they share on either side is the rest.
    one, two = reverse(name, args=[slug, 1]), reverse(name, args=[slug, 2])
    start = next(index for index, (a, b) in enumerate(zip(one, two, strict=True)) if a != b)
    return PathAroundId(before=one[:start], after=one[start + 1 :])


def _log_context(request: DeskRequest, access: Access) -> dict[str, object]:
    tournament = access.tournament
    form = LogFilterForm(request.GET or None, tournament=tournament)
    filters = form.filters() if form.is_valid() else selectors.LogFilters()
    page = selectors.penalty_log_page(
        tournament=tournament,
        filters=filters,
        size=LOG_PAGE_SIZE,
        before=_record_key(request.GET.get("before")),
        after=_record_key(request.GET.get("after")),
    )
    return {
        "access": access,
        "tournament": tournament,
        "filter_form": form,
        "page": page,
        "record_path": _path_around_id("judging:console-record", tournament.slug),
        "player_path": _path_around_id("judging:player", tournament.slug),
        "queue": selectors.head_judge_queue(tournament=tournament),
        # Beside confirm and decline, a request may be put in force at another rank (§4): every
        # request's form offers the ranks the amendment form offers.
        "amend_form": AmendForm(tournament=tournament),
        "live": live.streams_available(request),
    }


@vary_on_headers("HX-Request")
@staff_view(HEAD)
def console(request: DeskRequest, access: Access) -> HttpResponse:
    context = _log_context(request, access)
    fragment = request.GET.get("fragment")
    if request.htmx and fragment == "penalty-log":
        # One re-fetch per live event: the log, with the queue swapped in beside it out of band.
        log = render_to_string("judging/console.html#penalty-log", context, request)
        queue = render_to_string(
            "judging/console.html#request-queue", {**context, "oob": True}, request
        )
        return HttpResponse(log + queue)
    if request.htmx and fragment == "request-queue":
        return render(request, f"judging/console.html#{fragment}", context)
    return render(request, "judging/console.html", context)


def _record(access: Access, record_id: int) -> PenaltyRecord:
    record = selectors.record_for_card(tournament=access.tournament, record_id=record_id)
    if record is None:
        raise Http404
    return record


@staff_view(HEAD)
def console_record(request: DeskRequest, access: Access, record_id: int) -> HttpResponse:
    record = _record(access, record_id)
    return render(request, "judging/console_record.html", _record_context(request, access, record))


def _record_context(
    request: DeskRequest,
    access: Access,
    record: PenaltyRecord,
    *,
    action: str = "",
    reason_form: ReasonForm | None = None,
    amend_form: AmendForm | None = None,
) -> dict[str, object]:
    """The record page; after a refused decision, that decision's forms with their errors."""
    # One form per card, each with its own ids, so that no two fields share an id.
    reason_forms = {
        name: ReasonForm(auto_id=f"id_{name}_%s") for name in ("decline", "amend", "revoke", "keep")
    }
    if reason_form is not None:
        reason_forms[action] = reason_form
    return {
        "access": access,
        "tournament": access.tournament,
        "record": record,
        "history": selectors.record_history(record=record),
        "statements": selectors.statements_of(record=record) if record.is_investigated else [],
        "decision": selectors.decision_of(record=record) if record.is_investigated else None,
        "dependents": services.dependents_of(record),
        "amend_form": amend_form
        or AmendForm(initial={"to_rank": record.rank}, tournament=access.tournament),
        "reason_forms": reason_forms,
        "live": live.streams_available(request),
    }


def _form_refused(
    request: DeskRequest,
    access: Access,
    record: PenaltyRecord,
    action: str,
    errors: Mapping[str, Iterable[object]],
) -> HttpResponse:
    """The record page again at status 200, the decision's form showing what was wrong."""
    reason_form = ReasonForm(request.POST)
    amend_form = (
        AmendForm(request.POST, tournament=access.tournament) if action == "amend" else None
    )
    for form in (reason_form, amend_form):
        if form is not None:
            form.is_valid()
            form.errors.clear()
            for field, messages_ in errors.items():
                if field in form.fields:
                    for message in messages_:
                        form.add_error(field, str(message))
    record = _record(access, record.pk)
    context = _record_context(
        request, access, record, action=action, reason_form=reason_form, amend_form=amend_form
    )
    return render(request, "judging/console_record.html", context)


ACTIONS = {"confirm", "decline", "amend", "revoke", "keep"}


@require_POST
@staff_view(HEAD)
def console_act(request: DeskRequest, access: Access, record_id: int, action: str) -> HttpResponse:
    """Confirm or decline a request, amend or revoke a penalty, keep one a judge asked to revoke."""
    if action not in ACTIONS:
        raise Http404
    record = get_object_or_404(PenaltyRecord, pk=record_id, tournament=access.tournament)
    from_console = request.POST.get("next") == "console"
    reason_form = ConsoleReasonForm(request.POST)
    amend_form = AmendForm(request.POST, tournament=access.tournament)
    invalid: dict[str, Iterable[object]] = {
        **(reason_form.errors if not reason_form.is_valid() else {}),
        **(amend_form.errors if action == "amend" and not amend_form.is_valid() else {}),
    }
    if invalid and not from_console and action != "confirm":
        return _form_refused(request, access, record, action, invalid)
    text = reason_form.cleaned_data["reason"] if reason_form.is_valid() else ""
    try:
        if not reason_form.is_valid():
            raise DomainError("bad_reason", form_message(reason_form))
        if action == "confirm":
            if record.state.confirms_in_two_steps and request.POST.get("effects_seen") != "1":
                # A disqualification or above is confirmed in a second, deliberate step that
                # says what it does.
                return _confirm_step(request, access, record, text)
            services.confirm_request(record=record, head_judge=request.user, reason=text)
            done = _("Confirmed: the penalty is in force.")
        elif action == "decline":
            services.decline_request(record=record, head_judge=request.user, reason=text)
            done = _("Declined: the request will not take effect.")
        elif action == "revoke":
            outcome = services.revoke_penalty(record=record, author=request.user, reason=text)
            done = _("Revoked.")
        elif action == "keep":
            services.decline_revocation(record=record, head_judge=request.user, reason=text)
            done = _("The penalty stays in force.")
        else:
            if not amend_form.is_valid():
                raise DomainError("bad_penalty", _("Choose the penalty."))
            outcome = services.amend_penalty(
                record=record,
                to_rank=Rank(amend_form.cleaned_data["to_rank"]),
                author=request.user,
                reason=text,
            )
            done = _("Amended.")
            if outcome.dependents:
                done += " " + _(
                    "Later records were based on this one; check them: %(records)s."
                ) % {"records": ", ".join(f"#{later.pk}" for later in outcome.dependents)}
        if action in ("revoke", "amend"):
            to_correct = selectors.served_loss_to_correct(record=outcome.record)
            if to_correct is not None and access.corrects_results:
                # The loss it served stays in the results: the head judge goes on to that
                # match's correction in the same flow (rules.md §4).
                messages.success(
                    request,
                    done
                    + " "
                    + _(
                        "The loss it served stays in the results: correct this match's result "
                        "below if the ruling calls for it."
                    ),
                )
                url = reverse("tournaments:match", args=[access.tournament.slug, to_correct])
                return redirect(f"{url}#correction")
    except DomainError as error:
        if action == "confirm" and error.code == "reason_required":
            # The disqualification's reasoning is missing: the deliberate step again, asking for it.
            return _confirm_step(request, access, record, text, error=str(error.message))
        if error.field is not None and not from_console and action != "confirm":
            return _form_refused(request, access, record, action, {error.field: [error.message]})
        message_refusal(request, error)
    else:
        messages.success(request, done)
    if from_console:
        return redirect("judging:console", slug=access.tournament.slug)
    return redirect("judging:console-record", slug=access.tournament.slug, record_id=record.pk)


def _confirm_step(
    request: HttpRequest, access: Access, record: PenaltyRecord, reason: str, error: str = ""
) -> HttpResponse:
    effects = record.state.confirmation_effects(player=record.registration.player.name)
    return render(
        request,
        "judging/console_confirm.html",
        {
            "access": access,
            "tournament": access.tournament,
            "record": record,
            "effects": effects,
            "reason": reason,
            "error": error,
            "statements": selectors.statements_of(record=record),
            "next": request.POST.get("next", ""),
        },
    )


@staff_view()
def player_page(request: DeskRequest, access: Access, registration_id: int) -> HttpResponse:
    registration = get_object_or_404(
        Registration.objects.select_related("player"),
        pk=registration_id,
        tournament=access.tournament,
    )
    elsewhere: list[PenaltyRecord] = []
    reads_elsewhere = may_read_history_elsewhere(
        user=request.user, tournament=access.tournament, is_head_judge=access.is_head_judge
    )
    if reads_elsewhere:
        elsewhere = selectors.player_records_elsewhere(registration=registration)
        # Each reading of another event's penalties is on the audit trail.
        audit_logger.info(
            "Penalties from other events of player %s read by %s at tournament %s (%s records)",
            registration.player_id,
            request.user.get_username(),
            access.tournament.slug,
            len(elsewhere),
        )
    return render(
        request,
        "judging/player_detail.html",
        {
            "access": access,
            "tournament": access.tournament,
            "registration": registration,
            "records": list(selectors.records_of(registration=registration).order_by("-id")),
            "elsewhere": elsewhere,
            "reads_elsewhere": reads_elsewhere,
            "suspension": suspension_in_force(player=registration.player, day=timezone.localdate()),
            "panels": panels.panels_for(registration=registration),
        },
    )


def _stream_access(request: HttpRequest, slug: str) -> tuple[Access, datetime.datetime]:
    """Check the user once, then give the database connection back: a stream stays open for
    hours, and a hundred tablets must not hold a hundred idle connections. Also when the
    session expires, at which the stream ends."""
    try:
        if not request.user.is_authenticated:
            raise PermissionDenied
        return tournament_access(request, slug, ()), request.session.get_expiry_date()
    finally:
        if live.streams_available(request):
            # Only a held stream gives it back (to the pool, or closed); a polled answer (WSGI)
            # keeps the request's own, and none is closed inside a transaction (a test's own).
            for conn in connections.all(initialized_only=True):
                if not conn.in_atomic_block:
                    conn.close()


async def events(request: HttpRequest, slug: str) -> HttpResponseBase:
    """The server-sent-event stream of one tournament, for every member of its staff."""
    access, expires_at = await sync_to_async(_stream_access)(request, slug)
    if not live.streams_available(request):
        return HttpResponse(status=204)  # Without an ASGI server the pages poll instead.
    response = StreamingHttpResponse(
        live.event_stream(
            access.tournament.pk,
            request.headers.get("Last-Event-ID"),
            user_id=request.user.pk,
            session_key=request.session.session_key,
            expires_at=expires_at,
        ),
        content_type="text/event-stream",
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # Tell nginx not to buffer the stream.
    return response
