"""Sign-in throttling (django-axes) and Django's password validators."""

import logging

import pytest
from django.contrib.auth import authenticate
from django.test import RequestFactory
from django.urls import reverse

from tests.factories import UserFactory
from tournaments.models import Staff


@pytest.fixture
def judge(db):
    return UserFactory(username="anna")


def sign_in(client, password, address="10.0.0.7", username="anna"):
    return client.post(
        reverse("login"),
        {"username": username, "password": password},
        REMOTE_ADDR=address,
    )


def test_five_wrong_passwords_lock_the_account_from_that_address(client, judge, caplog):
    caplog.set_level(logging.INFO)
    for _ in range(4):
        assert sign_in(client, "wrong-password").status_code == 200

    locked = sign_in(client, "wrong-password")
    right_but_locked = sign_in(client, "desk-pass-123")

    assert locked.status_code == 429
    assert right_but_locked.status_code == 429
    text = right_but_locked.content.decode()
    assert "Вход заблокирован" in text
    assert "введён неверно 5 раз" in text
    assert "_auth_user_id" not in client.session
    assert "AXES: Repeated login failure" in caplog.text
    assert "AXES: Locking out" in caplog.text
    assert "anna" in caplog.text


def test_the_lockout_is_per_account_and_address(client, judge, db):
    UserFactory(username="boris")
    for _ in range(5):
        sign_in(client, "wrong-password")

    other_tablet = sign_in(client, "desk-pass-123", address="10.0.0.8")
    client.logout()
    other_account = sign_in(client, "desk-pass-123", username="boris")

    assert other_tablet.status_code == 302
    assert other_account.status_code == 302


def test_a_right_password_before_the_limit_resets_the_count(client, judge):
    for _ in range(4):
        sign_in(client, "wrong-password")
    assert sign_in(client, "desk-pass-123").status_code == 302
    client.logout()
    for _ in range(4):
        sign_in(client, "wrong-password")

    assert sign_in(client, "desk-pass-123").status_code == 302


def test_code_that_signs_in_passes_the_request(judge):
    request = RequestFactory().post("/login/")

    assert authenticate(request, username="anna", password="desk-pass-123") == judge


@pytest.mark.parametrize(
    ("password", "message"),
    [
        ("12345678", "Введённый пароль слишком широко распространён."),
        ("73914628", "Введённый пароль состоит только из цифр."),
        ("newjudge1", "Введённый пароль слишком похож на"),
    ],
)
def test_a_weak_staff_password_is_refused(client, desk, password, message):
    client.force_login(desk.organiser)

    response = client.post(
        reverse("tournaments:staff", args=[desk.tournament.slug]),
        {"username": "newjudge", "role": "floor_judge", "full_name": "", "password": password},
    )

    assert message in response.content.decode()
    assert not Staff.objects.filter(user__username="newjudge").exists()
