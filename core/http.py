"""The request the desk's views receive, as the type checker should see it, and how a view tells
it a refusal."""

from django.contrib import messages
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django_htmx.middleware import HtmxDetails

from core.errors import DomainError


class DeskRequest(HttpRequest):
    """A request after the middleware (``htmx``) of a signed-in user: every tournament view is
    behind ``login_required`` (``tournaments.access.staff_view``)."""

    htmx: HtmxDetails
    user: User


def message_refusal(request: HttpRequest, error: DomainError) -> None:
    """Tell a refusal as a message for the next page; its code goes with it (the message's
    ``data-code``), so a program or a test reads which refusal it was, whatever the language."""
    messages.error(request, str(error.message), extra_tags=error.code)


def answer_done(
    request: DeskRequest, text: str, url: str, fragment: str, context: dict[str, object]
) -> HttpResponse:
    """After a successful POST: the updated fragment for HTMX; a message and a redirect without
    it, so the screen also works without JavaScript."""
    if request.htmx:
        context["notice"] = text
        return render(request, fragment, context)
    messages.success(request, text)
    return redirect(url)


def answer_refused(
    request: DeskRequest, error: DomainError, url: str, fragment: str, context: dict[str, object]
) -> HttpResponse:
    """After a refused POST: the fragment with the refusal for HTMX; a message and a redirect
    without it."""
    if request.htmx:
        context["error"] = error.message
        return render(request, fragment, context)
    message_refusal(request, error)
    return redirect(url)
