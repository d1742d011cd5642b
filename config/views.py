"""Pages that belong to no single app."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from operations.setup_views import is_from_this_machine, needs_set_up
from tournaments.models import Tournament


def home(request: HttpRequest) -> HttpResponse:
    """The start page: the tournaments the signed-in user works at; on the laptop's first run,
    the set-up page that creates the first organiser."""
    if not request.user.is_authenticated and is_from_this_machine(request) and needs_set_up():
        return redirect("first_run")
    tournaments = []
    if request.user.is_authenticated:
        tournaments = list(
            Tournament.objects.filter(staff__user=request.user).distinct().order_by("-date")
        )
    return render(request, "config/home.html", {"tournaments": tournaments})
