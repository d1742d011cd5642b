"""Two tablets at once: what a floor judge records appears on the head judge's open console
without a reload, and the head judge's decision reaches the floor judge's card the same way."""

from playwright.sync_api import expect

from judging.models import PenaltyRecord, RecordStatus
from tests.browser.helpers import open_judges_page, signed_in
from tests.factories import Desk


def test_the_console_shows_a_floor_judges_record_and_the_decision_comes_back(
    asgi_server, browser, screenshot
):
    desk = Desk.create(level="professional")
    desk.pair((0, 1), (2, 3))
    name = desk.players[0].player.name
    head = signed_in(browser, asgi_server, desk.head.username)
    floor = signed_in(browser, asgi_server, desk.floor.username)
    head.goto(f"{asgi_server}/t/{desk.tournament.slug}/console/")
    expect(head.locator("#penalty-log")).to_contain_text("Пенальти пока нет")

    # The floor judge's tablet in one known state: the desk's worker controls the judge's page
    # and has fetched the players' log forms ahead. Left to the machine's load, the click below met
    # one of three (the worker in control or not, fetching ahead or not); where no copy of the log
    # form was kept yet, a failed answer leaves the tablet on the browser's error page.
    open_judges_page(floor, asgi_server, desk)
    floor.locator(f".player-target:has(strong:text-is('{name}'))").click()
    # The player's log form has come, not an error page, before anything is chosen on it.
    log_form = f"{asgi_server}/t/{desk.tournament.slug}/judge/log/?player={desk.players[0].pk}"
    expect(floor).to_have_url(log_form)
    expect(floor.get_by_role("heading", level=1)).to_have_text(name)
    floor.locator("label[for^=infraction-]:has(.code:text-is('6.1'))").click()
    expect(floor.locator("#penalty-preview")).to_contain_text("Дисквалификация без призов")
    floor.get_by_role("button", name="Записать пенальти").click()
    expect(floor.locator("#record-card")).to_contain_text("Ждёт решения главного судьи")

    # No reload on the head judge's side: the log and the queue update by themselves.
    expect(head.locator("#penalty-log")).to_contain_text(name, timeout=5000)
    queue = head.locator("#request-queue")
    expect(queue).to_contain_text(name, timeout=5000)
    screenshot(head, "head-console-request")

    queue.get_by_role("button", name="Подтвердить…").click()
    # The second, deliberate step says what a disqualification does before it is in force.
    expect(head.get_by_role("heading", level=1)).to_contain_text("Дисквалификация без призов")
    expect(head.locator(".confirm-effects")).to_contain_text("покидает турнир сразу")
    expect(head.locator(".confirm-effects")).to_contain_text("не получает призов")
    assert PenaltyRecord.objects.get().status == RecordStatus.AWAITING_HEAD_JUDGE
    screenshot(head, "head-confirm-disqualification")
    head.get_by_label("Обоснование").fill("Видел сам: карта из рукава.")
    head.get_by_role("button", name="Да, подтвердить: Дисквалификация без призов").click()
    expect(head.locator(".messages")).to_contain_text("Подтверждено")

    card = floor.locator("#record-card")
    expect(card).to_contain_text("Действует", timeout=5000)
    screenshot(floor, "judge-card-confirmed")
    record = PenaltyRecord.objects.get()
    assert record.status == RecordStatus.IN_FORCE
