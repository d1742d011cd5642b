"""The players' pages' front door: a page already prepared is answered before Django, with the
headers Django's middleware gives it; anything else goes to Django."""

import asyncio
import gzip

import pytest
from asgiref.sync import async_to_sync
from django.core.cache import caches
from django.core.signals import request_finished, request_started
from django.db import close_old_connections

from config.asgi import application
from floor import services

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache():
    caches["public"].clear()


@pytest.fixture
def token(desk):
    desk.pair((0, 1), (2, 3))
    return services.ensure_public_pages(tournament=desk.tournament).token


def get(path: str, host: str = "testserver", **headers: str) -> tuple[int, dict[str, str], bytes]:
    """One GET through the whole ASGI application, as uvicorn would send it."""
    path, _, query = path.partition("?")
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": query.encode(),
        "headers": [(b"host", host.encode())]
        + [(name.lower().encode(), value.encode()) for name, value in headers.items()],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }
    messages = []
    asked = []

    async def receive():
        if not asked:
            asked.append(True)
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()  # the client stays until the answer is sent

    async def send(message):
        messages.append(message)

    # Run in this thread's context, so that Django's database work sees the test's data, and
    # keep the test's connection open at the request's end, as Django's test client does.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        async_to_sync(application)(scope, receive, send)
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
    start = messages[0]
    found = {name.decode().lower(): value.decode() for name, value in start["headers"]}
    body = b"".join(message.get("body", b"") for message in messages[1:])
    return start["status"], found, body


def test_a_prepared_page_is_answered_at_the_door_with_djangos_headers(desk, token):
    status, first, first_body = get(f"/p/{token}/", **{"Accept-Encoding": "gzip"})
    assert status == 200 and "x-request-id" in first  # Django built it

    status, second, second_body = get(f"/p/{token}/", **{"Accept-Encoding": "gzip"})

    assert status == 200
    assert "x-request-id" not in second  # the door answered
    assert second_body == first_body
    assert desk.players[0].player.name in gzip.decompress(second_body).decode()
    for header in (
        "content-security-policy",
        "x-content-type-options",
        "referrer-policy",
        "etag",
        "content-encoding",
        "vary",
    ):
        assert second[header] == first[header], header
    assert second["content-length"] == str(len(second_body))


def test_the_door_answers_304_for_the_bytes_a_phone_holds(token):
    _status, first, _body = get(f"/p/{token}/clock/")
    get(f"/p/{token}/clock/")
    status, headers, body = get(f"/p/{token}/clock/", **{"If-None-Match": first["etag"]})
    assert (status, body) == (304, b"")
    assert headers["etag"] == first["etag"] and "x-request-id" not in headers


def test_after_a_change_the_door_lets_django_build_the_page_again(desk, token):
    get(f"/p/{token}/clock/")
    services.start_clock(tournament=desk.tournament)

    status, headers, body = get(f"/p/{token}/clock/")

    assert status == 200 and "x-request-id" in headers
    assert b'data-status="running"' in body


def test_an_unknown_host_a_long_search_and_a_table_page_go_to_django(token):
    get(f"/p/{token}/")
    status, _headers, _body = get(f"/p/{token}/", host="evil.example")
    assert status == 400
    status, headers, body = get(f"/p/{token}/?q={'x' * 101}")
    assert status == 200 and "x-request-id" in headers and b'role="alert"' in body
    status, headers, _body = get(f"/p/{token}/tables/1/")
    assert status == 200 and "x-request-id" in headers
    status, _headers, _body = get("/p/nope/")
    assert status == 404


def test_a_page_in_another_language_is_its_own_entry(token):
    get(f"/p/{token}/", **{"Accept-Language": "ru"})
    status, headers, body = get(f"/p/{token}/", **{"Accept-Language": "en"})
    assert status == 200 and "x-request-id" in headers  # not the Russian bytes
    assert b"Pairings of round 1" in body
    _status, again, _body = get(f"/p/{token}/", **{"Accept-Language": "en"})
    assert "x-request-id" not in again and again["content-language"] == "en"
