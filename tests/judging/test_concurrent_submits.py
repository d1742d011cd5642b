"""Sixteen judges submit at the same moment, through the whole request path (session, CSRF-exempt
test client, view, service), on whichever database the suite runs: a file-backed SQLite database
(see ``tests/conftest.py``) or PostgreSQL. Every submission must succeed and record once."""

import threading
import uuid

import pytest
from django.db import connection, connections
from django.test import Client
from django.urls import reverse

from judging.models import PenaltyRecord
from tests.factories import Desk, UserFactory
from tournaments import services as tournament_services
from tournaments.models import StaffRole

pytestmark = pytest.mark.usefixtures("transactional_db")

JUDGES = 16


def submit_at_once(posts):
    """POST each ``(client, url, data)`` from its own thread, released together."""
    barrier = threading.Barrier(len(posts))
    outcomes = [None] * len(posts)

    def run(index):
        client, url, data = posts[index]
        try:
            barrier.wait()
            outcomes[index] = client.post(url, data).status_code
        except Exception as error:
            outcomes[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(posts))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return outcomes


@pytest.fixture(params=["one connection per request", "pooled connections"])
def connection_handling(request):
    """The suite runs without the pools (tests/conftest.py says why); the second run switches on
    the one the server uses, which this test can, since it commits for real."""
    if request.param == "one connection per request":
        yield
        return
    options = connection.settings_dict["OPTIONS"]
    connections.close_all()
    options["pool"] = (
        {"max_idle": 8}
        if connection.vendor == "sqlite"
        else {"min_size": 2, "max_size": 20, "timeout": 20}
    )
    try:
        yield
        if connection.vendor == "sqlite":
            from core.pooled_sqlite3.base import DatabaseWrapper

            # The judges' threads handed their connections back rather than closing them.
            idle = DatabaseWrapper._idle[str(connection.settings_dict["NAME"])]
            assert idle.qsize() >= 1
    finally:
        connections.close_all()
        if connection.vendor == "sqlite":
            from core.pooled_sqlite3.base import DatabaseWrapper

            DatabaseWrapper.close_idle_connections()
        else:
            connection.close_pool()
        del options["pool"]


@pytest.mark.usefixtures("connection_handling")
def test_sixteen_judges_submitting_at_once_all_record():
    if connection.vendor == "sqlite":
        assert connection.settings_dict["NAME"] != ":memory:"
        assert "memory" not in str(connection.settings_dict["NAME"])
    desk = Desk.create(players=JUDGES // 2)
    url = reverse("judging:issue", args=[desk.tournament.slug])
    posts = []
    for index in range(JUDGES):
        judge = UserFactory(username=f"concurrent-judge-{index}")
        tournament_services.add_staff(
            tournament=desk.tournament, user=judge, role=StaffRole.FLOOR_JUDGE
        )
        client = Client()
        client.force_login(judge)
        # Two judges penalise each player at once: besides the database's write lock, those two
        # contend for the player's row, and stacking must still see one before the other.
        data = {
            "player": desk.players[index // 2].pk,
            "client_key": str(uuid.uuid4()),
            "infraction": "1.4",
            "moment": "between_matches",
        }
        posts.append((client, url, data))

    outcomes = submit_at_once(posts)

    assert outcomes == [302] * JUDGES
    assert sorted(PenaltyRecord.objects.values_list("client_key", flat=True)) == sorted(
        uuid.UUID(data["client_key"]) for _client, _url, data in posts
    )
    for registration in desk.players:
        ranks = PenaltyRecord.objects.filter(registration=registration).values_list(
            "rank", flat=True
        )
        # A caution, then its repeat as a warning, in whichever order the two arrived.
        assert sorted(ranks) == [1, 2]
