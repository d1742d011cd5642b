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
