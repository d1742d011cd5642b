"""Request ids for the logs: every request gets a short id, in each line it logs and on its error
page, so a judge can quote the id and the operator can find the traceback.

This module is imported by the logging configuration before the apps load: no models here.
"""

import logging
import secrets
from contextvars import ContextVar, Token
from datetime import datetime

NO_REQUEST = "-"

# The one ContextVar the desk keeps (the project's rule allows no other): a log record made deep in
# Django, a library or a service carries no request, and the logging filter below has no other way
# to learn which request it belongs to. It only labels log lines; no code reads it to decide
# anything, and it carries nothing of the request's data but this id.
_request_id: ContextVar[str] = ContextVar("request_id", default=NO_REQUEST)


def new_request_id() -> str:
    """Eight hex digits: short enough to read out loud, unique enough within one event's log."""
    return secrets.token_hex(4)


def current_request_id() -> str:
    return _request_id.get()


def bind_request_id(request_id: str) -> Token[str]:
    return _request_id.set(request_id)


def unbind_request_id(token: Token[str]) -> None:
    _request_id.reset(token)


class RequestIdFilter(logging.Filter):
    """Give every record the id of the request it was logged in ("-" outside a request)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            # Django logs a 4xx response after the middleware has finished, with the request.
            request = getattr(record, "request", None)
            record.request_id = getattr(request, "request_id", None) or current_request_id()
        return True


class WithoutTraceback(logging.Filter):
    """Keep the message, drop the traceback: for refusals that are expected, not failures."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.exc_info = None
        record.exc_text = None
        return True


class IsoTimeFormatter(logging.Formatter):
    """Stamp each line with an ISO 8601 time and its UTC offset (2026-12-04T17:05:09.123+03:00).

    A log read after the event, on another machine or beside the database's UTC times, must say
    which moment it means; a bare local time does not. Django sets the process's time zone to the
    event's (``TIME_ZONE``), so the local time with its offset is the event's clock.
    """

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        moment = datetime.fromtimestamp(record.created).astimezone()
        return moment.isoformat(timespec="milliseconds")
