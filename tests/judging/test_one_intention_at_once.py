"""Two tablets send one intention at the same moment, through the whole request path, on
whichever database the suite runs (PostgreSQL's row locks, or SQLite's write lock): one record."""

import uuid

import pytest
from django.test import Client
from django.urls import reverse

from judging.models import PenaltyRecord
from tests.factories import Desk
from tests.judging.test_concurrent_submits import submit_at_once

pytestmark = pytest.mark.usefixtures("transactional_db")


def tablets(desk, count=2):
    clients = []
    for _ in range(count):
        client = Client()
        client.force_login(desk.floor)
        clients.append(client)
    return clients


def data(desk, key):
    return {
        "player": desk.players[0].pk,
        "client_key": str(key),
        "infraction": "1.4",
        "moment": "between_matches",
    }


def test_one_form_sent_from_two_tablets_at_once_records_once():
    desk = Desk.create()
    url = reverse("judging:issue", args=[desk.tournament.slug])
    key = uuid.uuid4()

    outcomes = submit_at_once([(client, url, data(desk, key)) for client in tablets(desk)])

    assert outcomes == [302, 302]
    record = PenaltyRecord.objects.get()
    assert (record.client_key, record.rank) == (key, 1)


def test_one_judges_same_infraction_from_two_tablets_at_once_records_once_and_asks():
    desk = Desk.create()
    url = reverse("judging:issue", args=[desk.tournament.slug])

    outcomes = submit_at_once([(client, url, data(desk, uuid.uuid4())) for client in tablets(desk)])

    # Whichever came second under the player's lock was stopped for the explicit confirmation
    # (the form again, status 200), not escalated into a warning.
    assert sorted(outcomes) == [200, 302]
    assert list(PenaltyRecord.objects.values_list("rank", flat=True)) == [1]
