"""The request id: made first, before any other middleware can fail, and sent back as a header."""

from collections.abc import Awaitable, Callable
from inspect import iscoroutinefunction

from asgiref.sync import markcoroutinefunction
from django.http import HttpRequest, HttpResponseBase

from operations.logs import bind_request_id, new_request_id, unbind_request_id

HEADER = "X-Request-ID"


class RequestIdMiddleware:
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
