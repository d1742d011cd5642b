"""Pages that belong to no single app."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments.models import Tournament


def home(request: HttpRequest) -> HttpResponse:
    """The start page: the tournaments the signed-in user works at."""
    tournaments = []
    if request.user.is_authenticated:
        tournaments = list(
            Tournament.objects.filter(staff__user=request.user).distinct().order_by("-date")
        )
    return render(request, "config/home.html", {"tournaments": tournaments})
