"""A form refused by the CSRF check gets the desk's own page (issue 26 item 3): in the user's
language, with a way back to the page it came from, and no word about settings."""

import uuid

import pytest
from django.test import Client
from django.urls import reverse

from judging.models import PenaltyRecord
from tests.factories import Desk

pytestmark = pytest.mark.django_db


def main_of(page):
    return page[page.index("<main") : page.index("</main>")]


def stale_submit(desk, *, language="ru", referer=None):
    """A judge's submit with a token of a session that is no more (signed in again elsewhere)."""
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(desk.floor)
    browser.cookies["django_language"] = language
    log = reverse("judging:log", args=[desk.tournament.slug])
    headers = {"Referer": referer if referer is not None else f"http://testserver{log}?player=1"}
    return browser.post(
        reverse("judging:issue", args=[desk.tournament.slug]),
        {
            "csrfmiddlewaretoken": "x" * 64,
            "player": desk.players[0].pk,
            "client_key": str(uuid.uuid4()),
            "infraction": "1.4",
            "moment": "between_matches",
        },
        headers=headers,
    )


def test_the_refusal_is_the_desks_own_page_in_russian_with_the_way_back():
    desk = Desk.create()

    response = stale_submit(desk)

    page = response.content.decode()
    assert response.status_code == 403
    assert response["X-Desk-Refusal"] == "csrf"  # told apart from a refused role by a script
    assert "<h1>Страница устарела</h1>" in page
    assert "Ничего не записано." in page
    assert "сохранено на этом планшете" in page
    log = reverse("judging:log", args=[desk.tournament.slug])
    assert f'href="http://testserver{log}?player=1">Вернуться на страницу</a>' in page
    main = main_of(page)
    for word in ("DEBUG", "settings", "CSRF", "Referer"):
        assert word not in main
    assert PenaltyRecord.objects.count() == 0


def test_the_refusal_speaks_english_to_an_english_reader():
    response = stale_submit(Desk.create(), language="en")

    page = response.content.decode()
    assert "<h1>The page was out of date</h1>" in page
    assert "Nothing was recorded." in page
    assert "Back to the page</a>" in page
    assert "DEBUG" not in main_of(page) and "settings" not in main_of(page)


def test_the_way_back_never_leads_to_another_site():
    response = stale_submit(Desk.create(), referer="https://evil.example.org/t/x/judge/log/")

    page = response.content.decode()
    assert 'href="/">Вернуться на страницу</a>' in page
    assert "evil.example.org" not in page
