"""The desk's session table: Django's sessions, with the signed-in user's key beside the data."""

import datetime

import pytest
from django.contrib.auth import SESSION_KEY
from django.urls import reverse
from django.utils import timezone

from core.models import Session
from core.sessions import SessionStore, user_key

pytestmark = pytest.mark.django_db


def test_the_row_names_the_user_the_session_signs_in(client, desk):
    client.force_login(desk.floor)
    key = client.session.session_key

    assert Session.objects.get(session_key=key).user_id == desk.floor.pk

    client.post(reverse("logout"))
    assert not Session.objects.filter(session_key=key).exists()


def test_a_session_of_no_one_names_no_user(db):
    store = SessionStore()
    store["language"] = "ru"
    store.save()

    assert Session.objects.get(session_key=store.session_key).user_id is None


def test_a_primed_session_reads_and_saves_as_a_loaded_one(desk):
    store = SessionStore()
    store[SESSION_KEY] = str(desk.floor.pk)
    store.save()
    row = Session.objects.get(session_key=store.session_key)

    primed = SessionStore(store.session_key)
    assert not primed.is_loaded
    primed.prime(row.session_data)
    assert primed.is_loaded
    assert primed[SESSION_KEY] == str(desk.floor.pk)
    primed[SESSION_KEY] = str(desk.head.pk)
    primed.save()

    assert SessionStore(store.session_key).load()[SESSION_KEY] == str(desk.head.pk)
    assert Session.objects.get(session_key=store.session_key).user_id == desk.head.pk


@pytest.mark.parametrize(
    ("value", "key"),
    [("42", 42), (42, 42), (None, None), ("", None), ("4x", None), ("٤٢", None), ("9" * 40, None)],
)
def test_only_a_plain_number_is_taken_for_a_users_key(value, key):
    assert user_key(value) == key


def test_an_expired_session_signs_in_no_one(client, desk):
    client.force_login(desk.floor)
    Session.objects.update(expire_date=timezone.now() - datetime.timedelta(seconds=1))

    response = client.get(reverse("judging:judge-home", args=[desk.tournament.slug]))

    assert response.status_code == 302 and reverse("login") in response["Location"]
