"""A restarted database leaves every kept connection dead: the next submit must still record, and
the 500 page must be drawn without the database."""

import urllib.error
import urllib.parse
import urllib.request
import uuid

import psycopg
import pytest
from django.db import connection, connections
from django.test import Client, RequestFactory
from django.urls import reverse

from judging.models import PenaltyRecord
from operations.views import server_error
from tests.factories import Desk


def _terminate_every_other_backend() -> int:
    """What a restart does to the server's connections: PostgreSQL ends each of them."""
    database = connection.settings_dict
    with psycopg.connect(
        dbname=database["NAME"],
        user=database["USER"],
        password=database["PASSWORD"],
        host=database["HOST"],
        port=database["PORT"],
        autocommit=True,
    ) as killer:
        ended = killer.execute(
            "SELECT count(*) FROM ("
            " SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()) AS ended"
        ).fetchone()
    assert ended is not None
    return int(ended[0])


@pytest.fixture
def served_pool(transactional_db, settings):
    """The pool exactly as the server configures it (the suite runs without it otherwise)."""
    options = connection.settings_dict["OPTIONS"]
    connections.close_all()
    options["pool"] = dict(settings.DESK_DATABASE_POOL)
    try:
        yield
    finally:
        connections.close_all()
        connection.close_pool()
        del options["pool"]


def _send(url: str, session: str, data: dict[str, str] | None = None) -> int:
    """A request as a tablet sends it, to the server in its thread (whose requests open and close
    their connections as under ``serve``); the CSRF token is one the client chose, as a browser
    keeps the cookie it was given."""
    token = "t" * 32
    request = urllib.request.Request(
        url,
        data=urllib.parse.urlencode(data).encode() if data is not None else None,
        headers={"Cookie": f"sessionid={session}; csrftoken={token}", "X-CSRFToken": token},
    )
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(request, timeout=60) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


@pytest.mark.skipif(connection.vendor != "postgresql", reason="pg_terminate_backend")
@pytest.mark.usefixtures("served_pool")
def test_a_submit_after_the_database_ended_every_connection_records_once(asgi_server):
    desk = Desk.create(players=2)
    client = Client()
    client.force_login(desk.floor)
    session = client.cookies["sessionid"].value
    slug = desk.tournament.slug
    home = asgi_server + reverse("judging:judge-home", args=[slug])
    assert _send(home, session) == 200  # the server's pool now holds connections

    assert _terminate_every_other_backend() >= 1

    key = uuid.uuid4()
    status = _send(
        asgi_server + reverse("judging:issue", args=[slug]),
        session,
        {
            "player": str(desk.players[0].pk),
            "client_key": str(key),
            "infraction": "1.4",
            "moment": "between_matches",
        },
    )

    assert status == 302
    # The test's own connection was ended too; handing it back lets the pool replace it.
    connections.close_all()
    assert list(PenaltyRecord.objects.values_list("client_key", flat=True)) == [key]
    assert _send(home, session) == 200


class _Untouchable:
    """A session or user that fails the test if the error page reads it."""

    def __getattr__(self, name: str) -> object:
        raise AssertionError(f"the 500 page read {name!r}")


def test_the_500_page_reads_neither_the_database_nor_the_session(db, django_assert_num_queries):
    request = RequestFactory().get("/t/x/")
    request.session = _Untouchable()  # type: ignore[assignment]
    request.user = _Untouchable()  # type: ignore[assignment]
    request.request_id = "abc123"  # type: ignore[attr-defined]

    with django_assert_num_queries(0):
        response = server_error(request)

    assert response.status_code == 500
    body = response.content.decode()
    assert "Что-то пошло не так" in body
    assert 'id="request-id">abc123<' in body


@pytest.mark.skipif(connection.vendor != "postgresql", reason="pg_terminate_backend")
def test_a_page_read_on_a_connection_that_died_is_read_again_once(transactional_db):
    """The test client keeps its connection between requests (Django's test client does not
    close it), so ending it between two requests is a restart during the second."""
    desk = Desk.create(players=2)
    client = Client()
    client.force_login(desk.floor)
    home = reverse("judging:judge-home", args=[desk.tournament.slug])
    assert client.get(home).status_code == 200

    assert _terminate_every_other_backend() >= 1
    response = client.get(home)

    assert response.status_code == 200
    assert desk.tournament.name in response.content.decode()
