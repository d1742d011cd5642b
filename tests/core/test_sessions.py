"""The desk's session table: Django's sessions, with the signed-in user's key beside the data."""

import datetime

import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth import SESSION_KEY
from django.urls import reverse
from django.utils import timezone

from core.models import Session
from core.sessions import SessionStore, signed_in_user_pk

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
    key, data = saved_session(desk.floor)

    primed = SessionStore(key)
    assert not primed.is_loaded
    primed.prime(data)
    assert primed.is_loaded
    assert primed[SESSION_KEY] == str(desk.floor.pk)
    primed[SESSION_KEY] = str(desk.head.pk)
    primed.save()

    assert SessionStore(key).load()[SESSION_KEY] == str(desk.head.pk)
    assert Session.objects.get(session_key=key).user_id == desk.head.pk


@pytest.mark.parametrize(
    ("value", "key"),
    [
        ("42", 42),
        (42, 42),
        (None, None),
        ("", None),
        ("0", None),
        ("4x", None),
        ("٤٢", None),
        ("9" * 40, None),
        (True, None),
        (-3, None),
    ],
)
def test_only_a_plain_number_is_taken_for_a_users_key(value, key):
    assert signed_in_user_pk(value) == key


def test_an_expired_session_signs_in_no_one(client, desk):
    client.force_login(desk.floor)
    Session.objects.update(expire_date=timezone.now() - datetime.timedelta(seconds=1))

    response = client.get(reverse("judging:judge-home", args=[desk.tournament.slug]))

    assert response.status_code == 302 and reverse("login") in response["Location"]


def saved_session(user):
    """A session that signs the user in, saved: its key and its data as the row holds it."""
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store.save()
    return store.session_key, Session.objects.get(session_key=store.session_key).session_data


def test_a_session_is_primed_once_and_then_saves_as_any_other(desk):
    key, data = saved_session(desk.floor)

    primed = SessionStore(key)
    primed.prime(data)
    assert primed.accessed
    with pytest.raises(RuntimeError):
        primed.prime(data)
    primed.cycle_key()
    assert Session.objects.get(session_key=primed.session_key).user_id == desk.floor.pk
    primed.flush()
    assert not Session.objects.exists()


def test_tampered_data_primes_an_empty_session(desk):
    key, data = saved_session(desk.floor)

    primed = SessionStore(key)
    primed.prime(data[:-2] + ("A" if data[-2] != "A" else "B") + data[-1])

    assert SESSION_KEY not in primed


def test_a_session_saved_from_async_code_names_its_user_too(desk):
    store = SessionStore()
    store[SESSION_KEY] = str(desk.floor.pk)
    async_to_sync(store.asave)()

    assert Session.objects.get(session_key=store.session_key).user_id == desk.floor.pk


@pytest.mark.django_db(transaction=True)
def test_the_upgrade_moves_every_live_session_with_its_user(desk):
    from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
    from django.contrib.sessions.models import Session as DjangoSession
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before = [("core", "0001_session_with_user")]
    after = [("core", "0002_move_sessions_into_the_desks_table")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    # Sessions as the desk kept them before: in Django's table, under Django's store's salt.
    signed_in = DatabaseSessionStore()
    signed_in[SESSION_KEY] = str(desk.floor.pk)
    signed_in.create()
    anonymous = DatabaseSessionStore()
    anonymous["language"] = "ru"
    anonymous.create()
    DjangoSession.objects.create(
        session_key="expired" + "x" * 30,
        session_data=signed_in.encode({SESSION_KEY: "1"}),
        expire_date=timezone.now() - datetime.timedelta(days=1),
    )

    executor = MigrationExecutor(connection)
    executor.migrate(after)

    moved = {row.session_key: row.user_id for row in Session.objects.all()}
    assert moved == {signed_in.session_key: desk.floor.pk, anonymous.session_key: None}
    assert not DjangoSession.objects.exists()
    assert SessionStore(signed_in.session_key).load()[SESSION_KEY] == str(desk.floor.pk)
