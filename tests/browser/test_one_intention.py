"""One intention, one record, and nothing a judge entered is lost (issue 26 items 2 and 3), on a
tablet: Back and submit again, a lost answer, two tablets on one player, a session changed in
another tab, a reload mid-form."""

import re

import pytest
from playwright.sync_api import expect

from judging.models import PenaltyRecord
from tests.browser.conftest import axe_violations
from tests.browser.helpers import (
    sign_in,
    sign_out_and_in_in_another_tab,
    sign_out_in_another_tab,
    signed_in,
)
from tests.factories import Desk

pytestmark = pytest.mark.django_db(transaction=True)

SUBMIT = "Записать пенальти"
RESTORED = "Восстановлено то, что вы ввели."


def open_player(page, base_url, desk, index=0):
    page.goto(f"{base_url}/t/{desk.tournament.slug}/judge/")
    name = desk.players[index].player.name
    page.locator(f".player-target:has(strong:text-is('{name}'))").click()
    expect(page.get_by_role("heading", name=name)).to_be_visible()


def choose(page, code):
    page.locator(f"label[for^=infraction-]:has(.code:text-is('{code}'))").click()


def infraction_input(page, code):
    return page.locator(f"input[name=infraction][value='{code}']")


def csp_errors(page):
    """The Content-Security-Policy refusals the page reports from now on (no inline JS or CSS)."""
    errors = []
    page.on(
        "console",
        lambda message: (
            errors.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    return errors


def test_back_then_submit_again_returns_the_first_record(live_server, page, screenshot):
    desk = Desk.create()
    desk.pair((0, 1), (2, 3))
    sign_in(page, live_server.url, desk.floor.username)
    open_player(page, live_server.url, desk)
    choose(page, "1.4")
    page.get_by_label("Заметка (необязательно)").fill("дек-лист не сдан")
    expect(page.locator("#penalty-preview")).to_contain_text("Замечание")
    page.get_by_role("button", name=SUBMIT).click()
    expect(page.locator("#record-card")).to_contain_text("Замечание")

    page.go_back()
    expect(infraction_input(page, "1.4")).to_be_checked()
    page.get_by_role("button", name=SUBMIT).click()

    expect(page.locator(".messages")).to_contain_text("Это нарушение уже записано — вот оно.")
    expect(page.locator("#record-card")).to_contain_text("Замечание")
    screenshot(page, "judge-back-and-submit-again")
    assert list(PenaltyRecord.objects.values_list("rank", "note")) == [(1, "дек-лист не сдан")]


def test_back_on_a_tablet_that_forgot_the_form_asks_explicitly_naming_the_first(
    live_server, page, screenshot
):
    desk = Desk.create()
    desk.pair((0, 1), (2, 3))
    refused = csp_errors(page)
    sign_in(page, live_server.url, desk.floor.username)
    open_player(page, live_server.url, desk)
    choose(page, "1.4")
    page.get_by_role("button", name=SUBMIT).click()
    expect(page.locator("#record-card")).to_contain_text("Замечание")
    first = PenaltyRecord.objects.get()
    # The tab's memory is gone (another tab, a cleared browser): the server's window still holds.
    page.evaluate("sessionStorage.clear()")

    page.go_back()
    choose(page, "1.4")
    page.get_by_role("button", name=SUBMIT).click()

    refusal = page.locator("#second-penalty")
    expect(refusal).to_have_attribute("data-code", "second_penalty_unconfirmed")
    name = desk.players[0].player.name
    expect(refusal).to_contain_text(f"Вы уже записали 1.4 игроку {name}")
    expect(refusal.get_by_role("link", name="Открыть первую запись")).to_have_attribute(
        "href", f"/t/{desk.tournament.slug}/records/{first.pk}/"
    )
    expect(page.get_by_role("button", name=SUBMIT)).to_have_count(0)
    screenshot(page, "judge-second-penalty-confirmation")
    assert PenaltyRecord.objects.count() == 1

    refusal.get_by_role("button", name="Да, это второе нарушение").click()

    expect(page.locator("#record-card")).to_contain_text("Предупреждение")
    assert [r.rank for r in PenaltyRecord.objects.order_by("id")] == [1, 2]
    assert refused == []


def test_a_double_tap_records_once(live_server, page):
    desk = Desk.create()
    desk.pair((0, 1), (2, 3))
    sign_in(page, live_server.url, desk.floor.username)
    open_player(page, live_server.url, desk)
    choose(page, "1.4")
    expect(page.locator("#penalty-preview")).to_contain_text("Замечание")

    page.get_by_role("button", name=SUBMIT).dblclick()

    expect(page.locator("#record-card")).to_contain_text("Замечание")
    assert PenaltyRecord.objects.count() == 1


def test_a_lost_answer_then_the_form_again_records_once(live_server, browser):
    # Without the service worker: Playwright's routes do not see the requests a worker makes, so
    # the answer could not be lost here. With it, a lost answer keeps the form on the tablet and
    # its replay gets the record made (tests/browser/test_offline.py).
    desk = Desk.create()
    desk.pair((0, 1), (2, 3))
    page = signed_in(browser, live_server.url, desk.floor.username, service_workers="block")
    open_player(page, live_server.url, desk)
    choose(page, "1.4")
    page.get_by_label("Заметка (необязательно)").fill("колода не перетасована")
    expect(page.locator("#penalty-preview")).to_contain_text("Замечание")
    reached = []

    def lose_the_answer(route):
        # The server gets the submit and records; its answer never reaches the tablet.
        reached.append(route.fetch(max_redirects=0).status)
        route.abort("connectionreset")

    page.route(re.compile(r".*/judge/issue/.*"), lose_the_answer)
    page.get_by_role("button", name=SUBMIT).click()
    page.wait_for_timeout(300)
    assert reached == [302]
    assert PenaltyRecord.objects.count() == 1
    page.unroute(re.compile(r".*/judge/issue/.*"))

    open_player(page, live_server.url, desk)
    expect(page.locator("#form-restored")).to_have_text(RESTORED)
    expect(infraction_input(page, "1.4")).to_be_checked()
    expect(page.get_by_label("Заметка (необязательно)")).to_have_value("колода не перетасована")
    page.get_by_role("button", name=SUBMIT).click()

    expect(page.locator(".messages")).to_contain_text("Это нарушение уже записано — вот оно.")
    assert PenaltyRecord.objects.count() == 1
    page.context.close()


@pytest.mark.parametrize("server", ["asgi_server", "live_server"])
def test_two_tablets_the_second_preview_follows_the_first_record(
    request, server, transactional_db, browser, screenshot
):
    # Served by uvicorn the page hears the event stream; served without ASGI it polls. The
    # server is asked for by name, so transactional_db is named for tests/conftest.py, which
    # loads the guideline edition for the tests that name it.
    base_url = request.getfixturevalue(server)
    base_url = base_url if isinstance(base_url, str) else base_url.url
    desk = Desk.create()
    desk.pair((0, 1), (2, 3))
    first = signed_in(browser, base_url, desk.floor.username)
    second = signed_in(browser, base_url, desk.head.username)
    for page in (first, second):
        open_player(page, base_url, desk)
        choose(page, "1.4")
        expect(page.locator("#penalty-preview")).to_contain_text("Замечание")

    first.get_by_role("button", name=SUBMIT).click()
    expect(first.locator("#record-card")).to_contain_text("Замечание")

    preview = second.locator("#penalty-preview")
    expect(preview).to_contain_text("Предупреждение", timeout=5000)
    expect(preview).to_contain_text("повтор 1.4")
    expect(second.locator("#player-penalties")).to_have_text("Замечание · 1.4")
    screenshot(second, f"judge-second-tablet-preview-{server}")
    second.get_by_role("button", name=SUBMIT).click()
    expect(second.locator("#record-card")).to_contain_text("Предупреждение")
    assert [r.rank for r in PenaltyRecord.objects.order_by("id")] == [1, 2]
    first.context.close()
    second.context.close()


def test_signing_out_and_in_in_another_tab_loses_nothing(live_server, page, screenshot):
    desk = Desk.create()
    desk.pair((0, 1), (2, 3))
    refused = csp_errors(page)
    sign_in(page, live_server.url, desk.floor.username)
    open_player(page, live_server.url, desk)
    choose(page, "1.4")
    page.get_by_label("Заметка (необязательно)").fill("нашёл в рукаве")
    expect(page.locator("#penalty-preview")).to_contain_text("Замечание")

    sign_out_and_in_in_another_tab(page, live_server.url, desk.floor.username)
    # The preview's next poll is refused as out of date: the judge is told before sending.
    expect(page.locator("#form-stale")).to_contain_text("Страница устарела", timeout=5000)
    page.get_by_role("button", name=SUBMIT).click()

    expect(page.get_by_role("heading", name="Страница устарела")).to_be_visible()
    expect(page.locator("#main")).to_contain_text("Ничего не записано.")
    expect(page.locator("#main")).not_to_contain_text("DEBUG")
    screenshot(page, "csrf-failure")
    assert PenaltyRecord.objects.count() == 0
    page.get_by_role("link", name="Вернуться на страницу").click()

    expect(page.locator("#form-restored")).to_have_text(RESTORED)
    expect(infraction_input(page, "1.4")).to_be_checked()
    expect(page.get_by_label("Заметка (необязательно)")).to_have_value("нашёл в рукаве")
    expect(page.locator("#penalty-preview")).to_contain_text("Замечание")
    page.get_by_role("button", name=SUBMIT).click()

    expect(page.locator("#record-card")).to_contain_text("Замечание")
    assert list(PenaltyRecord.objects.values_list("rank", "note")) == [(1, "нашёл в рукаве")]
    assert refused == []


def test_a_reload_mid_form_keeps_the_infraction_and_the_note(live_server, page):
    desk = Desk.create()
    desk.pair((0, 1), (2, 3))
    sign_in(page, live_server.url, desk.floor.username)
    open_player(page, live_server.url, desk)
    choose(page, "1.4")
    page.locator(".infraction:has(input[value='1.4']) label[for^=sub-]:has-text('б)')").click()
    page.get_by_label("Заметка (необязательно)").fill("неразборчиво")
    page.locator("label[for=moment-between_matches]").click()

    page.reload()

    expect(page.locator("#form-restored")).to_have_text(RESTORED)
    expect(infraction_input(page, "1.4")).to_be_checked()
    expect(page.locator("input[name=sub_item][value='1.4:б']")).to_be_checked()
    expect(page.locator("#moment-between_matches")).to_be_checked()
    expect(page.get_by_label("Заметка (необязательно)")).to_have_value("неразборчиво")
    expect(page.locator("#penalty-preview")).to_contain_text("Замечание")
    page.get_by_role("button", name=SUBMIT).click()

    expect(page.locator("#record-card")).to_contain_text("Замечание")
    record = PenaltyRecord.objects.get()
    assert (record.sub_item, record.note, record.moment) == ("б", "неразборчиво", "between_matches")


def test_a_session_ended_elsewhere_leads_through_the_sign_in_back_to_the_form(live_server, page):
    desk = Desk.create()
    desk.pair((0, 1), (2, 3))
    sign_in(page, live_server.url, desk.floor.username)
    open_player(page, live_server.url, desk)
    choose(page, "1.4")
    page.get_by_label("Заметка (необязательно)").fill("подсмотрел карты")
    preview = page.locator("#penalty-preview")
    expect(preview).to_contain_text("Замечание")

    sign_out_in_another_tab(page, live_server.url)
    # The preview polls here (no ASGI server): the sign-in page it is redirected to is not drawn.
    page.wait_for_timeout(3500)
    expect(preview).to_contain_text("Замечание")
    expect(preview.get_by_label("Логин")).to_have_count(0)
    page.get_by_role("button", name=SUBMIT).click()

    page.get_by_label("Логин").fill(desk.floor.username)
    page.get_by_label("Пароль").fill("desk-pass-123")
    page.get_by_role("button", name="Войти").click()

    expect(page.get_by_role("heading", name=desk.players[0].player.name)).to_be_visible()
    expect(page.locator("#form-restored")).to_have_text(RESTORED)
    expect(infraction_input(page, "1.4")).to_be_checked()
    expect(page.get_by_label("Заметка (необязательно)")).to_have_value("подсмотрел карты")
    page.get_by_role("button", name=SUBMIT).click()

    expect(page.locator("#record-card")).to_contain_text("Замечание")
    assert list(PenaltyRecord.objects.values_list("note", flat=True)) == ["подсмотрел карты"]


def test_the_confirmation_the_restored_form_and_the_csrf_page_pass_axe(live_server, browser):
    desk = Desk.create()
    desk.pair((0, 1), (2, 3))
    desk.issue(0, "1.4", by="floor")
    # axe is added as a script tag, which the app's CSP would refuse; its own checks run above.
    page = signed_in(browser, live_server.url, desk.floor.username, for_axe=True)
    open_player(page, live_server.url, desk)
    choose(page, "1.4")
    page.get_by_label("Заметка (необязательно)").fill("снова")
    page.get_by_role("button", name=SUBMIT).click()
    expect(page.locator("#second-penalty")).to_be_visible()
    found = [f"confirmation: {line}" for line in axe_violations(page)]

    open_player(page, live_server.url, desk)
    expect(page.locator("#form-restored")).to_be_visible()
    found += [f"restored: {line}" for line in axe_violations(page)]

    sign_out_and_in_in_another_tab(page, live_server.url, desk.floor.username)
    page.get_by_role("button", name=SUBMIT).click()
    expect(page.get_by_role("heading", name="Страница устарела")).to_be_visible()
    found += [f"csrf page: {line}" for line in axe_violations(page)]

    assert found == []
    page.context.close()


def test_a_link_that_fills_the_form_wins_over_an_unsent_form(live_server, page):
    desk = Desk.create()
    desk.pair((0, 1), (2, 3))
    sign_in(page, live_server.url, desk.floor.username)
    open_player(page, live_server.url, desk)
    choose(page, "1.4")
    page.get_by_label("Заметка (необязательно)").fill("начатое")

    player = desk.players[0].pk
    page.goto(
        f"{live_server.url}/t/{desk.tournament.slug}/judge/log/"
        f"?player={player}&infraction=1.1&note=из+проверки+колоды"
    )

    expect(infraction_input(page, "1.1")).to_be_checked()
    expect(page.get_by_label("Заметка (необязательно)")).to_have_value("из проверки колоды")
    expect(page.locator("#form-restored")).to_be_hidden()
