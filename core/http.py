"""The request the desk's views receive, as the type checker should see it."""

from django.contrib.auth.models import User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class DeskRequest(HttpRequest):
    """A request after the middleware (``htmx``) of a signed-in user: every tournament view is
    behind ``login_required`` (``tournaments.access.staff_view``)."""

    htmx: HtmxDetails
    user: User
