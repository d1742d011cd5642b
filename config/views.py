"""Pages that belong to no single app."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache

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


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """``CSRF_FAILURE_VIEW``: a form sent from a page older than the session (the judge signed
    out and in again, maybe in another tab, or the session ended) is refused, in the desk's own
    words and language, with a way back to that page; Django's own page speaks of settings.

    ``reason`` is Django's technical wording and is not shown. What the judge entered on the log
    form is still on the tablet (static/js/log_form.js), so the way back restores it.
    """
    back = request.META.get("HTTP_REFERER", "")
    if not back or not url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        back = reverse("home")
    response = render(request, "config/csrf_failure.html", {"back": back}, status=403)
    # A script tells this refusal from a refused role (also 403) by it (static/js/log_form.js).
    response["X-Desk-Refusal"] = "csrf"
    return response


# What a tablet keeps on install, so that a page it kept opens styled and working offline.
OFFLINE_ASSETS = (
    "favicon.svg",
    "css/app.css",
    "css/floor.css",
    "js/app.js",
    "js/floor.js",
    "js/log_form.js",
    "js/offline.js",
    "django_htmx/htmx-2.min.js",
    "django_htmx/ext/hx-sse-2.min.js",
)


@never_cache
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker (static/js/desk_sw.js with the Workbox runtime), at the root of the
    site so that its scope is every page; never cached, so a tablet learns a new one at once."""
    return render(
        request,
        "config/service_worker.js",
        {"assets": [static(asset) for asset in OFFLINE_ASSETS]},
        content_type="text/javascript; charset=utf-8",
    )
