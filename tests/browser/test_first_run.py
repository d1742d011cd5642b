"""The venue laptop's first run, in the browser only: from the empty desk to a signed-in organiser
who knows how the tablets connect and creates the tournament."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import axe_violations
from tests.browser.helpers import new_page

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_empty_desk_leads_the_laptop_to_a_signed_in_organiser(live_server, browser, screenshot):
    # axe is injected as a script, which the app's Content-Security-Policy refuses by design.
    page = new_page(browser, for_axe=True)
    page.goto(f"{live_server.url}/")

    expect(page).to_have_url(f"{live_server.url}/setup/")
    expect(page.get_by_role("heading", name="Первая настройка судейского стола")).to_be_visible()
    assert axe_violations(page) == []
    page.get_by_label("Логин").fill("olga")
    page.get_by_label("Ваше имя").fill("Ольга Организатор")
    page.get_by_label("Пароль:", exact=True).fill("venue-pass-2026")
    page.get_by_label("Пароль ещё раз").fill("venue-pass-2027")
    page.get_by_role("button", name="Создать организатора и войти").click()
    expect(page.get_by_text("Пароли не совпадают.")).to_be_visible()

    page.get_by_label("Пароль:", exact=True).fill("venue-pass-2026")
    page.get_by_label("Пароль ещё раз").fill("venue-pass-2026")
    page.get_by_role("button", name="Создать организатора и войти").click()

    expect(page.get_by_role("heading", name="Подключение планшетов")).to_be_visible()
    expect(page.get_by_text("Организатор создан, вход выполнен.")).to_be_visible()
    expect(page.get_by_role("banner")).to_contain_text("Ольга Организатор")
    assert axe_violations(page) == []
    screenshot(page, "first-run-connect-tablets")
    page.get_by_role("link", name="Новый турнир").click()
    expect(page.get_by_role("button", name="Создать турнир")).to_be_visible()
    # The set-up page is done for good: it sends the signed-in organiser on to the start page.
    page.goto(f"{live_server.url}/setup/")
    expect(page).to_have_url(f"{live_server.url}/")
    expect(page.get_by_role("link", name="Подключить планшеты")).to_be_visible()
