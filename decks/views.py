"""The deck screens: rules and pool, each player's list, the findings, deck checks, and the
players' own submission. Thin views: the services rule and write; the selectors read.

Lists are the staff's only: every view but the player's submission page goes through
``staff_view``, which answers "not found" to anyone not on the tournament's staff.
"""

import uuid

import segno
from django.contrib import messages
from django.core.paginator import Page, Paginator
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.errors import DomainError
from core.http import DeskRequest
from core.inputs import parse_id
from core.throttle import players_page
from decks import selectors, services
from decks.forms import (
    ChecklistForm,
    DeckCheckForm,
    DeckListForm,
    PickForm,
    PoolForm,
    RulesForm,
    SubmitForm,
)
from decks.models import CardPool, DeckCheckPick
from decks.rules import listed_cards
from tournaments.access import JUDGES, Access, staff_view
from tournaments.models import Registration, StaffRole, Tournament

# Rows per page of the long lists (players, findings, checks).
PAGE_SIZE = 50
ORGANISER = StaffRole.ORGANISER
STAFF: tuple[str, ...] = ()  # any role on the tournament's staff


def _registration(access: Access, registration_id: int) -> Registration:
    return get_object_or_404(
        Registration.objects.select_related("player", "tournament"),
        pk=registration_id,
        tournament=access.tournament,
    )


@staff_view(*STAFF)
def overview(request: DeskRequest, access: Access) -> HttpResponse:
    tournament = access.tournament
    rules = selectors.rules_for(tournament=tournament)
    return render(
        request,
        "decks/deck_overview.html",
        {
            "access": access,
            "tournament": tournament,
            "rules": rules,
            "locked": services.lists_locked(tournament=tournament, rules=rules),
            "rows": _page(request, selectors.player_rows(tournament=tournament)),
            "missing": selectors.missing_count(tournament=tournament),
            "recheck": selectors.latest_recheck(tournament=tournament),
            "submit_url": request.build_absolute_uri(
                reverse("decks:submit", args=[tournament.slug])
            ),
        },
    )


def _rules_initial(tournament: Tournament) -> dict[str, object]:
    rules = selectors.rules_for(tournament=tournament)
    if rules is None:
        return {}
    return {
        "deck_format": rules.format.pk,
        "pool": rules.pool_id,
        "self_submission": rules.self_submission,
        "deadline": rules.deadline,
        **{name: getattr(rules, name) for name in selectors.RULE_FIELDS},
    }


def _pools(request: DeskRequest, tournament: Tournament) -> QuerySet[CardPool]:
    rules = selectors.rules_for(tournament=tournament)
    return selectors.pools_for(user=request.user, current=rules.pool_id if rules else None)


def _rules_page(
    request: DeskRequest, access: Access, form: RulesForm, pool_form: PoolForm, **extra: object
) -> HttpResponse:
    context = {
        "access": access,
        "tournament": access.tournament,
        "rules": selectors.rules_for(tournament=access.tournament),
        "form": form,
        "pool_form": pool_form,
        "recheck": selectors.latest_recheck(tournament=access.tournament),
        **extra,
    }
    return render(request, "decks/rules_edit.html", context)


@staff_view(ORGANISER)
def rules_edit(request: DeskRequest, access: Access) -> HttpResponse:
    tournament = access.tournament
    form = RulesForm(
        request.POST or None,
        initial=_rules_initial(tournament),
        event_day=tournament.date,
        pools=_pools(request, tournament),
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.update_rules(
                tournament=tournament,
                deck_format=data["deck_format"],
                pool=data["pool"],
                main_min=data["main_min"],
                main_max=data["main_max"],
                extra_max=data["extra_max"],
                copy_limit=data["copy_limit"],
                lifting_feature=data["lifting_feature"],
                combine_sections=data["combine_sections"],
                check_legality=data["check_legality"],
                hero_rule=data["hero_rule"],
                self_submission=data["self_submission"],
                deadline=data["deadline"],
            )
        except DomainError as error:
            form.add_error(error.field, str(error.message))
        else:
            messages.success(request, _("Deck rules saved; every list is being checked again."))
            return redirect("decks:rules", slug=tournament.slug)
    return _rules_page(request, access, form, PoolForm())


@require_POST
@staff_view(ORGANISER)
def pool_import(request: DeskRequest, access: Access) -> HttpResponse:
    tournament = access.tournament
    pool_form = PoolForm(request.POST, request.FILES)
    report = None
    if pool_form.is_valid():
        report = services.import_card_pool(
            tournament=tournament,
            name=pool_form.cleaned_data["name"],
            content=pool_form.cleaned_data["file"].read(),
            owner=request.user,
        )
        if report.ok:
            messages.success(request, _("%(count)s cards imported.") % {"count": report.imported})
            return redirect("decks:rules", slug=tournament.slug)
    form = RulesForm(initial=_rules_initial(tournament), pools=_pools(request, tournament))
    return _rules_page(request, access, form, pool_form, report=report)


@require_POST
@staff_view(ORGANISER)
def codes_issue(request: DeskRequest, access: Access) -> HttpResponse:
    made = services.issue_submission_codes(tournament=access.tournament)
    messages.success(request, _("%(count)s personal codes made.") % {"count": made})
    return redirect("decks:overview", slug=access.tournament.slug)


def _list_context(
    access: Access, registration: Registration, form: DeckListForm | None, **extra: object
) -> dict[str, object]:
    """The player's list page; without a ``form``, one filled in with the list as saved."""
    decklist = selectors.decklist_of(registration=registration)
    if form is None:
        form = DeckListForm(initial={"text": decklist.text if decklist else ""})
    rules = selectors.rules_for(tournament=access.tournament)
    return {
        "access": access,
        "tournament": access.tournament,
        "registration": registration,
        "decklist": decklist,
        "lines": selectors.saved_lines(decklist=decklist) if decklist else [],
        "rules": rules,
        "locked": services.lists_locked(tournament=access.tournament, rules=rules),
        "findings": selectors.player_findings(registration=registration),
        "checks": selectors.deck_checks(tournament=access.tournament, registration=registration),
        "form": form,
        **extra,
    }


@staff_view(*STAFF)
def player_list(request: DeskRequest, access: Access, registration_id: int) -> HttpResponse:
    registration = _registration(access, registration_id)
    return render(request, "decks/decklist_detail.html", _list_context(access, registration, None))


@require_POST
@staff_view(*STAFF)
def player_list_save(request: DeskRequest, access: Access, registration_id: int) -> HttpResponse:
    registration = _registration(access, registration_id)
    form = DeckListForm(request.POST)
    extra: dict[str, object] = {}
    if form.is_valid():
        try:
            services.save_decklist(
                registration=registration,
                text=form.cleaned_data["text"],
                by=request.user,
                accept_unmatched=form.cleaned_data["accept_unmatched"],
                reason=form.cleaned_data["reason"],
            )
        except services.ListRefused as refused:
            extra = {
                "refusal": refused.message,
                "line_errors": refused.errors,
                "unmatched": refused.unmatched,
            }
        except DomainError as error:
            form.add_error(error.field if error.field in form.fields else None, str(error.message))
        else:
            messages.success(request, _("The list was saved and checked."))
            return redirect(
                "decks:player", slug=access.tournament.slug, registration_id=registration.pk
            )
    context = _list_context(access, registration, form, **extra)
    return render(request, "decks/decklist_detail.html", context)


@staff_view(*STAFF)
def findings(request: DeskRequest, access: Access) -> HttpResponse:
    return render(
        request,
        "decks/finding_list.html",
        {
            "access": access,
            "tournament": access.tournament,
            "findings": _page(request, selectors.finding_rows(tournament=access.tournament)),
        },
    )


def _check_form(
    access: Access, registration: Registration, data: QueryDict | None = None
) -> DeckCheckForm | ChecklistForm | None:
    initial = {"client_key": uuid.uuid4()}
    if not access.tournament.uses_decklists:
        return ChecklistForm(data, initial=initial)
    decklist = selectors.decklist_of(registration=registration)
    if decklist is None:
        return None
    cards = listed_cards(selectors.parsed_lines(decklist=decklist))
    return DeckCheckForm(data, initial=initial, cards=cards)


@staff_view(*JUDGES)
def deck_check(request: DeskRequest, access: Access, registration_id: int) -> HttpResponse:
    registration = _registration(access, registration_id)
    form = _check_form(access, registration, request.POST or None)
    recorded = None
    if request.method == "POST" and form is not None and form.is_valid():
        data = form.cleaned_data
        try:
            recorded = services.record_deck_check(
                registration=registration,
                judge=request.user,
                counted=form.counted() if isinstance(form, DeckCheckForm) else None,
                not_on_list=data.get("not_on_list", ""),
                checklist=data.get("items"),
                note=data["note"],
                client_key=data["client_key"],
            )
        except DomainError as error:
            form.add_error(error.field if error.field in form.fields else None, str(error.message))
        else:
            messages.success(request, _("The deck check was recorded."))
            return redirect(
                reverse("decks:checks", args=[access.tournament.slug]) + f"?check={recorded.pk}"
            )
    return render(
        request,
        "decks/deck_check.html",
        {
            "access": access,
            "tournament": access.tournament,
            "registration": registration,
            "form": form,
            "is_list_check": isinstance(form, DeckCheckForm),
        },
    )


def _page[T](request: DeskRequest, rows: selectors.Window[T]) -> Page[T]:
    """One page of a tournament-long list: the screen stays the same size at 2,000 players, and
    only the page's rows are read (with their count)."""
    return Paginator(rows, PAGE_SIZE).get_page(request.GET.get("page"))


def _checks_context(request: DeskRequest, access: Access, **extra: object) -> dict[str, object]:
    return {
        "access": access,
        "tournament": access.tournament,
        "checks": _page(request, selectors.check_rows(tournament=access.tournament)),
        "picks": DeckCheckPick.objects.filter(tournament=access.tournament).select_related("round")[
            :5
        ],
        "pick_form": PickForm(),
        **extra,
    }


@staff_view(*JUDGES)
def checks(request: DeskRequest, access: Access) -> HttpResponse:
    context = _checks_context(request, access, shown=parse_id(request.GET.get("check")))
    return render(request, "decks/deck_check_list.html", context)


@require_POST
@staff_view(StaffRole.HEAD_JUDGE)
def pick(request: DeskRequest, access: Access) -> HttpResponse:
    form = PickForm(request.POST)
    if form.is_valid():
        try:
            made = services.pick_tables(
                tournament=access.tournament,
                by=request.user,
                count=form.cleaned_data["count"],
                seed=form.cleaned_data["seed"],
            )
        except DomainError as error:
            form.add_error(error.field if error.field in form.fields else None, str(error.message))
        else:
            messages.success(
                request,
                _("Tables to check: %(tables)s (seed %(seed)s).")
                % {"tables": ", ".join(str(t) for t in made.tables), "seed": made.seed},
            )
            return redirect("decks:checks", slug=access.tournament.slug)
    return render(
        request, "decks/deck_check_list.html", _checks_context(request, access, pick_form=form)
    )


@players_page("codes")
def submit(request: HttpRequest, slug: str) -> HttpResponse:
    """A player's own list with their personal code: no account, no other player's list shown."""
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None:
        raise Http404
    rules = selectors.rules_for(tournament=tournament)
    open_ = bool(tournament.uses_decklists and rules is not None and rules.self_submission)
    locked = services.lists_locked(tournament=tournament, rules=rules)
    form = SubmitForm(request.POST or None)
    context: dict[str, object] = {
        "tournament": tournament,
        "rules": rules,
        "open": open_,
        "locked": locked,
        "form": form,
    }
    if request.method == "POST" and form.is_valid():
        try:
            saved = services.submit_own_list(
                tournament=tournament,
                code=form.cleaned_data["code"],
                text=form.cleaned_data["text"],
                client=request.META.get("REMOTE_ADDR", ""),
            )
        except services.ListRefused as refused:
            context.update(
                refusal=refused.message, line_errors=refused.errors, unmatched=refused.unmatched
            )
        except DomainError as error:
            form.add_error(error.field if error.field in form.fields else None, str(error.message))
        else:
            # The player sees the list as the judges will read it, and may send it again
            # corrected (the same code and text filled in) until the deadline.
            context.update(
                saved=saved,
                read=selectors.list_as_read(saved.parse, saved.findings) if saved.parse else None,
                form=SubmitForm(initial=form.cleaned_data),
            )
    return render(request, "decks/submit.html", context)


def _qr_svg(text: str) -> SafeString:
    code = segno.make(text, error="m")
    # segno writes the markup itself from the code's modules: nothing of ``text`` is in it.
    return mark_safe(code.svg_inline(scale=1, omitsize=True, svgclass="qr", lineclass="qr-line"))


@staff_view(ORGANISER)
def code_slips(request: DeskRequest, access: Access) -> HttpResponse:
    """One slip a player: their personal code and a QR of the submission page, to print."""
    tournament = access.tournament
    url = request.build_absolute_uri(reverse("decks:submit", args=[tournament.slug]))
    return render(
        request,
        "decks/code_slips.html",
        {
            "access": access,
            "tournament": tournament,
            "url": url,
            "qr": _qr_svg(url),
            "slips": selectors.code_slips(tournament=tournament),
        },
    )


@staff_view(*STAFF)
def registration_sheet(request: DeskRequest, access: Access, registration_id: int) -> HttpResponse:
    """A saved list printed as a registration sheet, read as the judges read it."""
    registration = _registration(access, registration_id)
    decklist = selectors.decklist_of(registration=registration)
    if decklist is None:
        raise Http404
    return render(
        request,
        "decks/registration_sheet.html",
        {
            "access": access,
            "tournament": access.tournament,
            "registration": registration,
            "decklist": decklist,
            "rules": selectors.rules_for(tournament=access.tournament),
            "read": selectors.saved_list_as_read(decklist=decklist),
        },
    )


@staff_view(*STAFF)
def recheck_progress(request: DeskRequest, access: Access) -> HttpResponse:
    """How far the re-check of every list has got (polled while it runs)."""
    return render(
        request,
        "decks/_recheck_progress.html",
        {
            "tournament": access.tournament,
            "recheck": selectors.latest_recheck(tournament=access.tournament),
        },
    )
