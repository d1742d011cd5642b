"""Issue 33 on a tablet: penalties entered while the server cannot be reached are kept on the
tablet (through a closed tab), sent by themselves with their one-time keys when it answers again,
recorded once each, and a refusal stays in the tablet's list until the judge deals with it. Once
with the tablet offline (Playwright's offline mode), once with the server stopped and restarted
on the same port and database."""

import asyncio
import re
import threading
import time
from contextlib import ExitStack

import pytest
from playwright.sync_api import expect

from config.servers import asgi_server_thread
from judging.models import PenaltyRecord
from tests.browser.helpers import TABLET, open_judges_page, signed_in, until
from tests.factories import Desk

pytestmark = pytest.mark.django_db(transaction=True)

SUBMIT = "Записать пенальти"


def tablet(browser, base_url, username):
    context = browser.new_context(viewport=TABLET, locale="ru-RU", service_workers="allow")
    page = context.new_page()
    page.set_default_timeout(10000)
    page.goto(f"{base_url}/login/")
    page.get_by_label("Логин").fill(username)
    page.get_by_label("Пароль").fill("desk-pass-123")
    page.get_by_role("button", name="Войти").click()
    page.wait_for_url(f"{base_url}/")
    return context, page


def log_while_cut_off(page, base_url, desk, index):
    page.goto(f"{base_url}/t/{desk.tournament.slug}/judge/")
    name = desk.players[index].player.name
    page.locator(f".player-target:has(strong:text-is('{name}'))").click()
    expect(page.get_by_role("heading", name=name)).to_be_visible()
    page.locator("label[for^=infraction-]:has(.code:text-is('1.4'))").click()
    expect(page.locator("#penalty-preview")).to_contain_text(
        "Нет связи: наказание будет рассчитано при отправке."
    )
    page.get_by_role("button", name=SUBMIT).click()
    expect(page.locator("#offline-kept")).to_be_visible()


def walk(browser, base_url, desk, cut, restore):
    context, page = tablet(browser, base_url, desk.floor.username)
    # Online: the worker controls the judge's page and has fetched every player's log form ahead.
    open_judges_page(page, base_url, desk)

    cut(context)
    for index in (0, 1, 2, 5):
        log_while_cut_off(page, base_url, desk, index)
    badge = page.locator("#offline-count")
    expect(badge).to_have_text("не отправлено: 4")
    expect(page.locator("#connection-status")).to_have_text(re.compile(r"^нет связи с \d\d:\d\d$"))
    # Meanwhile the head judge disqualifies the fourth player.
    desk.issue(5, "6.1", "between_matches")

    # The tab is closed; the tablet opens the desk again, still cut off.
    page.close()
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(f"{base_url}/t/{desk.tournament.slug}/judge/")
    expect(page.locator("#offline-count")).to_have_text("не отправлено: 4")
    assert PenaltyRecord.objects.filter(issued_by=desk.floor).count() == 0

    restore(context)
    refusal = page.locator("#offline-list li.refused")
    expect(refusal).to_contain_text("дисквалифицирован")
    expect(page.locator("#offline-count")).to_have_text("не отправлено: 1")
    expect(page.locator("#connection-status")).to_be_hidden()
    records = PenaltyRecord.objects.filter(issued_by=desk.floor).order_by("id")
    assert [(r.registration_id, r.reason) for r in records] == [
        (desk.players[i].pk, "1.4") for i in (0, 1, 2)
    ]
    assert all(r.entered_at is not None and r.entered_at <= r.issued_at for r in records)
    cards = page.get_by_role("link", name="Записано — открыть карточку")
    expect(cards).to_have_count(3)
    urls = [cards.nth(i).get_attribute("href") for i in range(3)]
    assert urls == [f"/t/{desk.tournament.slug}/records/{r.pk}/" for r in records]

    # Sending again changes nothing: one intention, one record.
    refusal.get_by_role("button", name="Отправить снова").click()
    expect(refusal).to_contain_text("дисквалифицирован")
    assert PenaltyRecord.objects.filter(issued_by=desk.floor).count() == 3
    cards.first.click()
    expect(page.locator("#record-card")).to_contain_text("Замечание")
    # The refusal is still listed on every page until the judge discards it, with a confirmation.
    expect(page.locator("#offline-count")).to_have_text("не отправлено: 1")
    refusal.get_by_role("button", name="Удалить").click()
    refusal.get_by_role("button", name="Да, удалить").click()
    expect(page.locator("#offline-list li.refused")).to_have_count(0)
    expect(page.locator("#offline-count")).not_to_have_text(re.compile("не отправлено"))
    context.close()


def offline_desk():
    desk = Desk.create(players=6)
    desk.pair((0, 1), (2, 3), (4, 5))
    return desk


def test_penalties_entered_offline_are_recorded_once_when_the_tablet_is_back(asgi_server, browser):
    desk = offline_desk()

    def cut(context):
        context.set_offline(True)

    def restore(context):
        context.set_offline(False)

    walk(browser, asgi_server, desk, cut, restore)


def test_penalties_entered_while_the_server_is_down_are_recorded_when_it_is_back(
    transactional_db, browser
):
    desk = offline_desk()
    with ExitStack() as stack:
        url, port = stack.enter_context(asgi_server_thread())
        holder = {"stack": stack}

        def cut(context):
            holder["stack"].close()

        def restore(context):
            holder["stack"] = ExitStack()
            holder["stack"].enter_context(asgi_server_thread(port))

        try:
            walk(browser, url, desk, cut, restore)
        finally:
            holder["stack"].close()


class Held:
    """An answer the test's server holds back until the test lets it go."""

    def __init__(self):
        self.gate = threading.Event()

    async def until_let_go(self):
        deadline = time.monotonic() + 20
        while not self.gate.is_set():
            assert time.monotonic() < deadline, "a held answer was never let go"
            await asyncio.sleep(0.02)


def test_a_judges_page_opened_while_the_worker_installs_fetches_ahead_too(
    transactional_db, browser, monkeypatch
):
    """The first page after signing in registers the worker, which takes a moment to install.
    A judge's page asked for meanwhile never has the worker in control: it activates while the
    page is on its way, and clients.claim() takes the pages already open, not one still loading.
    That page too fetches the players' log forms ahead, so they open offline from its first visit.

    The test holds the worker's script until the judge's page is asked for, and the judge's page
    until the worker has taken over the page before it: the order a quick judge on a slow network
    can meet, and the head judge's browser test met in about a third of its runs."""
    import config.asgi

    desk = offline_desk()
    judges_page = f"/t/{desk.tournament.slug}/judge/"
    asked, taken_over = Held(), Held()
    application = config.asgi.application

    async def holding(scope, receive, send):
        if scope["type"] == "http" and scope["method"] == "GET":
            headers = dict(scope["headers"])
            if scope["path"] == "/sw.js" and headers.get(b"service-worker") == b"script":
                await asked.until_let_go()
            elif scope["path"] == judges_page and headers.get(b"sec-fetch-mode") == b"navigate":
                asked.gate.set()
                await taken_over.until_let_go()
        await application(scope, receive, send)

    monkeypatch.setattr(config.asgi, "application", holding)
    with asgi_server_thread() as (base_url, _port):
        page = signed_in(browser, base_url, desk.floor.username)
        # The start page has asked for the worker; its script waits. Off to the judge's page.
        page.evaluate("(url) => { window.location.href = url; }", f"{base_url}{judges_page}")
        # While the judge's page waits, the worker installs and activates, which ends with its
        # taking over the pages open (static/js/desk_sw.js); another tab sees when that is done.
        other = page.context.new_page()
        other.goto(f"{base_url}/")
        until(
            other,
            "async () => (await navigator.serviceWorker.getRegistration())?.active?.state"
            " === 'activated'",
        )
        other.close()
        taken_over.gate.set()
        expect(page).to_have_url(f"{base_url}{judges_page}")
        assert page.evaluate("() => navigator.serviceWorker.controller === null")

        until(
            page,
            "async (players) => { const cache = await caches.open('desk-pages');"
            " const kept = (await cache.keys()).map((r) => r.url);"
            " return players.every((p) =>"
            " kept.some((url) => url.endsWith(`/judge/log/?player=${p}`))); }",
            [player.pk for player in desk.players],
        )
        page.context.close()
