"""Live updates through a real ASGI server: one LISTEN connection fans out to every stream."""

import socket
import threading
import time
import uuid
from urllib.parse import urlparse

import pytest
from django.db import connection
from django.test import Client

from judging import services
from judging.live import hub
from tests.factories import Desk

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="LISTEN/NOTIFY needs PostgreSQL"
)


class Stream:
    """A raw HTTP client for one event stream, reading in a thread of its own."""

    def __init__(self, base_url, path, cookie, last_event_id=None):
        address = urlparse(base_url)
        self.socket = socket.create_connection((address.hostname, address.port), timeout=10)
        headers = [
            f"GET {path} HTTP/1.1",
            f"Host: {address.netloc}",
            f"Cookie: {cookie}",
            "Accept: text/event-stream",
        ]
        if last_event_id is not None:
            headers.append(f"Last-Event-ID: {last_event_id}")
        self.socket.sendall(("\r\n".join(headers) + "\r\n\r\n").encode())
        self.events = []
        self.status = None
        self.received = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        buffer = b""
        try:
            while True:
                chunk = self.socket.recv(4096)
                if not chunk:
                    return
                buffer += chunk
                text = buffer.decode(errors="replace")
                if self.status is None and "\r\n" in text:
                    self.status = int(text.split(" ", 2)[1])
                for line in text.splitlines():
                    if line.startswith("event: ") and (line, text.count(line)) not in self.events:
                        self.events.append((line, text.count(line)))
                        self.received.set()
        except OSError:
            return

    def close(self):
        self.socket.close()


def session_cookie(user):
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


def wait_for(condition, seconds=5.0):
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def test_a_change_reaches_every_open_stream_within_a_second(asgi_server):
    desk = Desk.create()
    path = f"/t/{desk.tournament.slug}/events/"
    # Sessions first: the in-memory test database of SQLite locks a table while it is written.
    cookies = [
        session_cookie(user)
        for user in (desk.head, desk.floor, desk.organiser, desk.head, desk.floor)
    ]
    streams = [Stream(asgi_server, path, cookie) for cookie in cookies]
    assert wait_for(lambda: hub.stream_count == 5 and hub.listening)

    started = time.monotonic()
    services.issue_penalty(
        registration=desk.players[0],
        infraction_code="1.4",
        moment="between_matches",
        issued_by=desk.floor,
        client_key=uuid.uuid4(),
    )

    assert all(stream.received.wait(timeout=2) for stream in streams)
    assert time.monotonic() - started < 1.0
    assert all(stream.events[0][0] == "event: penalty-changed" for stream in streams)
    for stream in streams:
        stream.close()


def test_a_stream_of_another_tournament_hears_nothing(asgi_server):
    desk, other = Desk.create(), Desk.create()
    listening = Stream(
        asgi_server, f"/t/{other.tournament.slug}/events/", session_cookie(other.head)
    )
    assert wait_for(lambda: hub.stream_count == 1 and hub.listening)

    services.issue_penalty(
        registration=desk.players[0],
        infraction_code="1.4",
        moment="between_matches",
        issued_by=desk.head,
        client_key=uuid.uuid4(),
    )

    assert not listening.received.wait(timeout=0.7)
    listening.close()


def test_a_reconnecting_page_is_told_to_catch_up(asgi_server):
    desk = Desk.create()
    path = f"/t/{desk.tournament.slug}/events/"

    stream = Stream(asgi_server, path, session_cookie(desk.head), last_event_id="7")

    assert stream.received.wait(timeout=2)
    stream.close()


@postgres_only
def test_several_streams_share_one_listening_connection(asgi_server):
    desk = Desk.create()
    cookie = session_cookie(desk.head)
    streams = [Stream(asgi_server, f"/t/{desk.tournament.slug}/events/", cookie) for _ in range(4)]
    assert wait_for(lambda: hub.stream_count == 4)

    def listening():
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE datname = current_database() AND query ILIKE 'LISTEN %%'"
            )
            return cursor.fetchone()[0]

    assert wait_for(lambda: listening() == 1)
    for stream in streams:
        stream.close()


def test_a_page_served_without_an_asgi_server_is_told_to_poll(client, desk):
    client.force_login(desk.head)

    response = client.get(f"/t/{desk.tournament.slug}/events/")

    assert response.status_code == 204


def test_a_named_event_of_another_app_reaches_the_streams_without_an_id(asgi_server):
    from django.db import transaction

    from judging import live

    desk = Desk.create()
    stream = Stream(asgi_server, f"/t/{desk.tournament.slug}/events/", session_cookie(desk.head))
    assert wait_for(lambda: hub.stream_count == 1 and hub.listening)

    with transaction.atomic():
        live.publish_event(tournament_id=desk.tournament.pk, event="clock-changed")

    assert stream.received.wait(timeout=2)
    assert stream.events[0][0] == "event: clock-changed"
    assert hub.latest(desk.tournament.pk) is None  # the penalty version is untouched
    stream.close()


def test_a_named_event_must_be_a_plain_word():
    from judging import live

    for bad in ("penalty-changed", "Clock", "a:b", "x\ny", ""):
        with pytest.raises(ValueError):
            live.publish_event(tournament_id=1, event=bad)
