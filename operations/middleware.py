"""The request id (made first, before any other middleware can fail, and sent back as a header)
and the LAN redirect to HTTPS; both serve under WSGI and ASGI alike."""

from collections.abc import Awaitable, Callable
from inspect import iscoroutinefunction

from asgiref.sync import markcoroutinefunction
from django.conf import settings
from django.http import HttpRequest, HttpResponseBase, HttpResponseRedirect
from django.http.request import split_domain_port

from operations import network
from operations.logs import bind_request_id, new_request_id, unbind_request_id

HEADER = "X-Request-ID"


class SyncOrAsyncMiddleware:
    """A middleware that serves under WSGI and ASGI alike: it is asynchronous exactly when the
    rest of the chain (``get_response``) is."""

    sync_capable = True
    async_capable = True

    def __init__(
        self,
        get_response: Callable[[HttpRequest], HttpResponseBase]
        | Callable[[HttpRequest], Awaitable[HttpResponseBase]],
    ) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> HttpResponseBase | Awaitable[HttpResponseBase]:
        raise NotImplementedError


class RequestIdMiddleware(SyncOrAsyncMiddleware):
    """Each request gets an id, bound to its log lines and sent back in ``X-Request-ID``."""

    def __call__(self, request: HttpRequest) -> HttpResponseBase | Awaitable[HttpResponseBase]:
        if self.is_async:
            return self._acall(request)
        request.request_id = new_request_id()  # type: ignore[attr-defined]
        token = bind_request_id(request.request_id)  # type: ignore[attr-defined]
        try:
            response = self.get_response(request)
        finally:
            unbind_request_id(token)
        response[HEADER] = request.request_id  # type: ignore[attr-defined,index]
        return response

    async def _acall(self, request: HttpRequest) -> HttpResponseBase:
        request.request_id = new_request_id()  # type: ignore[attr-defined]
        token = bind_request_id(request.request_id)  # type: ignore[attr-defined]
        try:
            response = await self.get_response(request)  # type: ignore[misc]
        finally:
            unbind_request_id(token)
        response[HEADER] = request.request_id  # type: ignore[attr-defined]
        return response


class LanHttpsRedirectMiddleware(SyncOrAsyncMiddleware):
    """With ``serve --https-redirect``, a tablet's page asked for over plain HTTP is sent to the
    same address over the laptop's own HTTPS (``DESK_LAN_HTTPS_PORT``).

    Not redirected: the laptop itself (``localhost`` is already a secure context, and its browser
    need not trust the desk's certificate), the certificate's download (a tablet fetches it over
    plain HTTP before it trusts HTTPS), the health check, and anything but GET and HEAD (a form
    sent over HTTP is taken; the next page moves the tablet on). A 302, not a 301: a browser
    remembers a permanent redirect after the organiser turns it off.
    """

    EXEMPT = ("/healthz", "/connect/desk-ca.crt")

    def __call__(self, request: HttpRequest) -> HttpResponseBase | Awaitable[HttpResponseBase]:
        redirect = self.redirect(request)
        if self.is_async:
            return self._acall(request, redirect)
        if redirect is not None:
            return redirect
        return self.get_response(request)

    async def _acall(
        self, request: HttpRequest, redirect: HttpResponseBase | None
    ) -> HttpResponseBase:
        if redirect is not None:
            return redirect
        return await self.get_response(request)  # type: ignore[misc]

    def redirect(self, request: HttpRequest) -> HttpResponseBase | None:
        port = settings.DESK_LAN_HTTPS_PORT
        if (
            not settings.DESK_LAN_HTTPS_REDIRECT
            or not port
            or request.method not in ("GET", "HEAD")
            or request.is_secure()
            or request.path in self.EXEMPT
        ):
            return None
        host = split_domain_port(request.get_host())[0]
        if not host or network.is_loopback(host):
            return None
        # An IPv6 host keeps its brackets here.
        return HttpResponseRedirect(f"https://{host}:{port}{request.get_full_path()}")
