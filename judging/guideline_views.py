"""The tournament's guideline: the infractions it judges by, and adding the ones the shipped
edition does not know (sections 2–5 and the rest of 6, rules.md §3)."""

from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from judging import editions, selectors
from judging.forms import InfractionDataForm
from judging.models import Infraction, TournamentGuideline
from tournaments.access import Access, staff_view
from tournaments.errors import DomainError


@staff_view()
def guideline(request: HttpRequest, access: Access) -> HttpResponse:
    tournament = access.tournament
    may_edit = access.reads_report  # the organiser and the head judge
    form = InfractionDataForm(request.POST or None)
    if request.method == "POST":
        if not may_edit:
            messages.error(request, _("Only the organiser or the head judge may add infractions."))
            return redirect("judging:guideline", slug=tournament.slug)
        if form.is_valid():
            try:
                infraction = _add_infraction(access, form.cleaned_data)
            except DomainError as error:
                form.add_error(None, str(error.message))
            else:
                messages.success(
                    request,
                    _("Infraction %(code)s is added to this tournament's guideline.")
                    % {"code": infraction.code},
                )
                return redirect("judging:guideline", slug=tournament.slug)
    edition = selectors.edition_for(tournament=tournament)
    infractions = sorted(
        Infraction.objects.filter(edition=edition), key=lambda infraction: infraction.sort_key
    )
    return render(
        request,
        "judging/guideline.html",
        {
            "access": access,
            "tournament": tournament,
            "edition": edition,
            "rows": [
                (infraction, selectors.unavailability(infraction=infraction, tournament=tournament))
                for infraction in infractions
            ],
            "form": form,
            "may_edit": may_edit,
        },
    )


def _add_infraction(access: Access, data: dict[str, object]) -> Infraction:
    """Add to the tournament's own edition, made from the shared one the first time, so that a
    change here never reaches another tournament."""
    tournament = access.tournament
    with transaction.atomic():
        if not TournamentGuideline.objects.filter(tournament=tournament).exists():
            shared = selectors.edition_for(tournament=tournament)
            own = editions.derive_edition(
                base=shared,
                slug=f"{shared.slug}-{tournament.slug}"[:120],
                name=f"{shared.name} · {tournament.name}"[:200],
            )
            editions.assign_edition(tournament=tournament, edition=own)
        edition = selectors.edition_for(tournament=tournament)
        code = str(data["code"])
        if Infraction.objects.filter(edition=edition, code=code).exists():
            # Changing an infraction during an event would change what later records mean.
            raise DomainError(
                "infraction_exists",
                _("Infraction %(code)s is already in this guideline; choose a new code.")
                % {"code": code},
            )
        section_name = str(data.get("section_name") or "")
        editions.ensure_section_named(edition=edition, code=code, section_name=section_name)
        return editions.put_infraction(
            edition=edition,
            code=code,
            name=str(data["name"]),
            section_name=section_name,
            availability=str(data["availability"]),
            penalties={
                "amateur": data["amateur"] or None,
                "professional": data["professional"] or None,
                "highest": data["highest"] or None,
            },
        )
