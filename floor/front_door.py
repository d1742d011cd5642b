"""The players' pages' front door: a phone's request for a page already prepared is answered on
the server's event loop, before Django's request handling, so it never takes a thread from a
judge's submit (docs/decisions.md, "The judges are served first").

It answers only what Django has answered before in this process: the link's latest change read
less than a second ago (``public_pages.cached_stamp``), the page's bytes built since that change,
and the response headers Django's middleware put on such a page (security policy, framing, the
referrer policy). Anything else (an unknown link, a page not built yet, a POST, a table's page)
goes to Django unchanged, which builds and keeps what the next phone gets from here.
"""

import io
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.core.handlers.asgi import ASGIRequest
from django.http.request import split_domain_port, validate_host
from django.utils.translation import get_language_from_request

from floor import public_pages

type Scope = MutableMapping[str, Any]
type Message = MutableMapping[str, Any]
type Receive = Callable[[], Awaitable[Message]]
type Send = Callable[[Message], Awaitable[None]]
type App = Callable[..., Awaitable[None]]

_PATH = re.compile(r"^/p/(?P<token>[A-Za-z0-9_-]{1,40})/(?P<kind>clock/|standings/)?$")
_KINDS = {None: "home", "clock/": "clock", "standings/": "standings"}
# Headers of Django's answer that belong to that one answer; the rest (the security policy and
# its company) are the same for every answer of a players' page and are kept for the door.
_PER_ANSWER = {
    b"content-length",
    b"content-encoding",
    b"content-type",
    b"etag",
    b"last-modified",
    b"cache-control",
    b"vary",
    b"date",
    b"server",
    b"set-cookie",
    b"x-request-id",
    b"content-language",
}
_HEADERS_KEY = "players-pages-headers"


class PlayersPagesFrontDoor:
    def __init__(self, app: App) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        match = (
            _PATH.match(scope["path"])
            if scope["type"] == "http" and scope["method"] == "GET"
            else None
        )
        if match is None:
            await self.app(scope, receive, send)
            return
        answered = self._answer(scope, match["token"], _KINDS[match["kind"]])
        if answered is None:
            await self.app(scope, receive, self._keeping_headers(send))
            return
        status, headers, body = answered
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    def _answer(
        self, scope: Scope, token: str, kind: str
    ) -> tuple[int, list[tuple[bytes, bytes]], bytes] | None:
        """The answer from the cache alone, or None when Django must answer."""
        shared: list[tuple[bytes, bytes]] | None = caches["public"].get(_HEADERS_KEY)
        stamp = public_pages.cached_stamp(token)
        if shared is None or stamp is None:
            return None
        request = ASGIRequest(scope, io.BytesIO())
        domain, _port = split_domain_port(request.META.get("HTTP_HOST", ""))
        if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
            return None  # Django answers it, with its refusal
        query = request.GET.get("q", "").strip()
        if len(query) > 100 or (kind == "standings" and stamp.standings_through is None):
            return None
        language = get_language_from_request(request)
        key = public_pages.page_key(
            stamp, kind, query, request.GET.get("page", ""), language=language
        )
        page = public_pages.cached_page(key)
        if page is None:
            return None
        # The same answer as the view's: the conditional response, gzip or not, validators.
        from floor.public_views import answer

        response = answer(request, page)
        response["Content-Language"] = language
        headers = [*shared, *((k.encode(), v.encode()) for k, v in response.items())]
        body = b"" if response.status_code == 304 else response.content
        if response.status_code != 304:
            headers.append((b"content-length", str(len(body)).encode()))
        return response.status_code, headers, body

    def _keeping_headers(self, send: Send) -> Send:
        """``send`` that keeps the headers Django's middleware put on a players' page."""

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] in (200, 304):
                kept = [
                    (name, value)
                    for name, value in message.get("headers", [])
                    if name.lower() not in _PER_ANSWER
                ]
                caches["public"].set(_HEADERS_KEY, kept, None)
            await send(message)

        return sending
