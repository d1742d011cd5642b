"""Throttles of the pages anyone may open, per client; an unknown players' link in players'
words; a sign-in that lasts an event day."""

import pytest
from django.test import Client
from django.urls import reverse

from floor import services
from tests.factories import Desk
from tests.processes import run_python


@pytest.fixture
def token(db):
    desk = Desk.create(players=4)
    desk.pair((0, 1), (2, 3))
    return services.ensure_public_pages(tournament=desk.tournament).token


def test_players_pages_are_limited_per_client_and_each_client_has_its_own(settings, token):
    settings.DESK_THROTTLES = {**settings.DESK_THROTTLES, "players": (5, 60)}
    page = reverse("floor:public", args=[token])
    hall, other = Client(REMOTE_ADDR="10.0.0.5"), Client(REMOTE_ADDR="10.0.0.6")

    statuses = [hall.get(page).status_code for _ in range(6)]
    busy = hall.get(page)

    assert statuses == [200] * 5 + [429]
    assert busy["Retry-After"] == "60"
    assert "Слишком много запросов" in busy.content.decode()
    assert other.get(page).status_code == 200


def test_a_forged_forwarded_header_does_not_make_a_new_client(settings, token):
    settings.DESK_THROTTLES = {**settings.DESK_THROTTLES, "players": (3, 60)}
    page = reverse("floor:public", args=[token])
    client = Client(REMOTE_ADDR="10.0.0.5")

    statuses = [
        client.get(page, HTTP_X_FORWARDED_FOR=f"198.51.100.{n}").status_code for n in range(4)
    ]

    assert statuses == [200, 200, 200, 429]


def test_the_default_limit_lets_a_hall_behind_one_address_through(token):
    page = reverse("floor:public", args=[token])
    hall = Client(REMOTE_ADDR="10.0.0.5")

    # 200 phones opening the page once each, behind the venue's one Wi-Fi address.
    assert {hall.get(page).status_code for _ in range(200)} == {200}


def test_personal_code_attempts_are_limited_per_client(settings, db):
    settings.DESK_THROTTLES = {**settings.DESK_THROTTLES, "codes": (2, 60)}
    desk = Desk.create(players=2)
    submit = reverse("decks:submit", args=[desk.tournament.slug])
    client = Client(REMOTE_ADDR="10.0.0.9")

    statuses = [
        client.post(submit, {"code": "GUESS", "text": "1 Вампир"}).status_code for _ in range(3)
    ]

    assert statuses == [200, 200, 429]


def test_a_wrong_players_link_answers_in_players_words(db):
    response = Client().get(reverse("floor:public", args=["no-such-link"]))

    body = response.content.decode()
    assert response.status_code == 404
    assert 'id="players-not-found"' in body
    assert "Сверьте её со ссылкой на столе судей" in body
    assert "в команду которого вы не входите" not in body


def test_a_sign_in_lasts_an_event_day_by_default_and_is_configurable(tmp_path):
    ask = "from django.conf import settings; print(settings.SESSION_COOKIE_AGE)"

    assert run_python(ask, data_dir=tmp_path).stdout.strip() == str(16 * 3600)
    assert run_python(ask, data_dir=tmp_path, DJANGO_SESSION_HOURS="10").stdout.strip() == "36000"
    refused = run_python(ask, data_dir=tmp_path, DJANGO_SESSION_HOURS="0")
    assert "DJANGO_SESSION_HOURS must be a whole number of hours from 1 to 336" in refused.stderr


def test_a_tablet_s_sign_in_expires_after_the_event_day(client, db):
    from tests.factories import UserFactory

    UserFactory(username="tablet")

    signed_in = client.post(reverse("login"), {"username": "tablet", "password": "desk-pass-123"})

    assert signed_in.status_code == 302
    assert client.session.get_expiry_age() == 16 * 3600
    assert client.cookies["sessionid"]["max-age"] == 16 * 3600
