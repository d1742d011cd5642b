"""A live stream ends when its session ends (sign-out) or its owner leaves the staff."""

import socket
import threading
from urllib.parse import urlparse

from django.test import Client

from tests.factories import Desk
from tests.judging.test_live import wait_for
from tournaments.models import Staff


class RawStream:
    """One event stream read in a thread; notes when the server ends the response."""

    def __init__(self, base_url, path, session):
        address = urlparse(base_url)
        self.socket = socket.create_connection((address.hostname, address.port), timeout=10)
        request = (
            f"GET {path} HTTP/1.1\r\nHost: {address.netloc}\r\nCookie: sessionid={session}\r\n"
            "Accept: text/event-stream\r\n\r\n"
        )
        self.socket.sendall(request.encode())
        self.text = ""
        self.ended = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        try:
            while chunk := self.socket.recv(4096):
                self.text += chunk.decode(errors="replace")
                if self.text.endswith("0\r\n\r\n"):  # the last chunk of the response
                    break
        except OSError:
            pass
        self.ended.set()

    @property
    def open(self):
        return "retry: 1000" in self.text and not self.ended.is_set()


def signed_in(user):
    client = Client()
    client.force_login(user)
    return client


def test_signing_out_ends_the_open_stream(asgi_server):
    desk = Desk.create()
    # Both sessions before any stream: SQLite's shared in-memory test database refuses a read
    # while a table is written.
    client = signed_in(desk.head)
    other = signed_in(desk.head)
    stream = RawStream(
        asgi_server, f"/t/{desk.tournament.slug}/events/", client.cookies["sessionid"].value
    )
    other_stream = RawStream(
        asgi_server, f"/t/{desk.tournament.slug}/events/", other.cookies["sessionid"].value
    )
    assert wait_for(lambda: stream.open and other_stream.open)

    assert client.post("/logout/").status_code == 302

    assert stream.ended.wait(3)
    assert other_stream.open  # the same person's other tablet keeps its stream
    other_stream.socket.close()


def test_removal_from_the_staff_ends_the_stream(asgi_server):
    desk = Desk.create()
    floor = signed_in(desk.floor)
    head = signed_in(desk.head)
    floor_stream = RawStream(
        asgi_server, f"/t/{desk.tournament.slug}/events/", floor.cookies["sessionid"].value
    )
    head_stream = RawStream(
        asgi_server, f"/t/{desk.tournament.slug}/events/", head.cookies["sessionid"].value
    )
    assert wait_for(lambda: floor_stream.open and head_stream.open)

    Staff.objects.get(tournament=desk.tournament, user=desk.floor).delete()

    assert floor_stream.ended.wait(3)
    assert head_stream.open
    reopened = RawStream(
        asgi_server, f"/t/{desk.tournament.slug}/events/", floor.cookies["sessionid"].value
    )
    assert wait_for(lambda: "\r\n" in reopened.text)
    assert reopened.text.startswith("HTTP/1.1 404 ")
    reopened.socket.close()
    head_stream.socket.close()
