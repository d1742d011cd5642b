"""Per-client limits for the pages anyone may open (players' pages, public tokens, personal
codes), kept in Django's cache.

Guessing a token or a code is out of reach whatever the rate; the limits keep one client from
costing the judges' server its time and the log its room. They are generous: a whole hall of
phones behind the venue's one Wi-Fi address shares each limit. The client is the address the
server resolved (``core.clients``), never a header the client writes.
"""

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponseBase
from django.shortcuts import render

from core.clients import client_address


@dataclass(frozen=True)
class Limit:
    requests: int
    seconds: int


def over_limit(*, scope: str, client: str, limit: Limit) -> bool:
    """Count one request of ``client`` in ``scope``'s current window; True past the limit."""
    window = int(time.time()) // limit.seconds
    key = f"desk-throttle:{scope}:{client}:{window}"
    if cache.add(key, 1, timeout=limit.seconds + 1):
        return limit.requests < 1
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.add(key, 1, timeout=limit.seconds + 1)
        count = 1
    return count > limit.requests


View = Callable[..., HttpResponseBase]


def players_page(scope: str) -> Callable[[View], View]:
    """For a view players open without an account: the scope's limit per client (429 with a
    page in players' words), and an unknown link answered in players' words, not the staff's."""

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            requests, seconds = settings.DESK_THROTTLES[scope]
            client = client_address(request) or "unknown"
            if over_limit(scope=scope, client=client, limit=Limit(requests, seconds)):
                response = render(request, "players_busy.html", status=429)
                response["Retry-After"] = str(seconds)
                return response
            try:
                return view(request, *args, **kwargs)
            except Http404:
                return render(request, "players_404.html", status=404)

        return wrapped

    return decorate
