"""A read that met a dead database connection is answered once more on a new one.

The pool checks a connection before it hands it out (CONN_HEALTH_CHECKS, config/settings.py), so a
restart of PostgreSQL between requests costs nothing. A restart during a request still ends its
connection under it: a GET or HEAD has written nothing, so it is run again, once, after the dead
connection is given back (the pool drops it). A POST is not: it may have written, and the
tablet's queue sends it again with its client key, which records it once.
"""

from collections.abc import Callable
from inspect import iscoroutinefunction

from django.db import InterfaceError, OperationalError, connection
from django.http import HttpRequest, HttpResponse

SAFE_METHODS = ("GET", "HEAD")


class RetryReadOnDeadConnection:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if (
            request.method not in SAFE_METHODS
            or not isinstance(exception, (OperationalError, InterfaceError))
            or getattr(request, "desk_retried", False)
            or connection.in_atomic_block
            or request.resolver_match is None
            or iscoroutinefunction(request.resolver_match.func)
        ):
            return None
        request.desk_retried = True  # type: ignore[attr-defined]
        connection.close()
        match = request.resolver_match
        response: HttpResponse = match.func(request, *match.args, **match.kwargs)
        return response
