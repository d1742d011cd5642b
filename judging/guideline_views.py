"""The tournament's guideline: the infractions it judges by, and adding the ones the shipped
edition does not know (sections 2–5 and the rest of 6, rules.md §3)."""

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from core.errors import DomainError
from core.http import DeskRequest
from judging import editions, selectors
from judging.forms import InfractionDataForm
from judging.models import Infraction
from tournaments.access import Access, staff_view

LEVELS = ("amateur", "professional", "highest")


@staff_view()
def guideline(request: DeskRequest, access: Access) -> HttpResponse:
    tournament = access.tournament
    may_edit = access.reads_report  # the organiser and the head judge
    form = InfractionDataForm(request.POST or None)
    if request.method == "POST":
        if not may_edit:
            messages.error(request, _("Only the organiser or the head judge may add infractions."))
            return redirect("judging:guideline", slug=tournament.slug)
        if form.is_valid():
            try:
                data = form.cleaned_data
                infraction = editions.add_tournament_infraction(
                    tournament=tournament,
                    code=data["code"],
                    name=data["name"],
                    availability=data["availability"],
                    penalties={level: data[level] or None for level in LEVELS},
                    section_name=data.get("section_name") or "",
                    replacement_reason=data.get("replacement_reason") or "",
                )
            except DomainError as error:
                form.add_error(error.field, str(error.message))
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
