"""Issue 17 in the browser: a floor judge's disqualification request gathers two statements on
the tablet, the head judge confirms it with reasoning, and the printed report shows the write-up;
a player's acknowledgement of an ordinary penalty reaches the report too."""

from playwright.sync_api import expect

from judging.models import AcknowledgementKind, PenaltyRecord, RecordStatus
from tests.browser.helpers import signed_in
from tests.factories import Desk


def record_penalty(page, base_url, desk, name, code):
    page.goto(f"{base_url}/t/{desk.tournament.slug}/judge/")
    page.locator(f".player-target:has(strong:text-is('{name}'))").click()
    # The player's log form has come (not an error page) before anything is chosen on it, as in
    # test_head_judge.py: a failure then names the step that did not happen.
    expect(page.get_by_role("heading", level=1)).to_have_text(name)
    page.locator(f"label[for^=infraction-]:has(.code:text-is('{code}'))").click()
    expect(page.locator("#penalty-preview")).not_to_be_empty()
    page.get_by_role("button", name="Записать пенальти").click()
    expect(page.locator("#record-card")).to_be_visible()


def give_statement(page, role, name, text):
    form = page.locator("#statement-form")
    form.get_by_label("Кто даёт объяснение").select_option(label=role)
    form.get_by_label("Имя").fill(name)
    form.get_by_role("textbox", name="Объяснение").fill(text)
    form.get_by_role("button", name="Сохранить объяснение").click()
    expect(page.locator(".messages")).to_contain_text("Объяснение записано")


def test_a_disqualification_from_request_to_printed_write_up(live_server, browser, screenshot):
    desk = Desk.create(level="professional")
    desk.pair((0, 1), (2, 3))
    cheat, opponent = (desk.players[i].player.name for i in (0, 1))
    told = desk.players[2].player.name
    base = live_server.url
    floor = signed_in(browser, base, desk.floor.username)

    # An ordinary penalty: the player taps their own name on the judge's tablet.
    record_penalty(floor, base, desk, told, "1.4")
    floor.get_by_role("button", name=f"Я, {told}, ознакомлен(а) с этим пенальти").click()
    expect(floor.locator("#acknowledgement")).to_contain_text(
        "Игрок подтвердил, что ему объявлено пенальти"
    )
    expect(floor.locator("#acknowledge-form")).to_have_count(0)
    ordinary = PenaltyRecord.objects.get(registration=desk.players[2])
    assert ordinary.acknowledgement.kind == AcknowledgementKind.ACKNOWLEDGED

    # The floor judge's disqualification request, and two statements typed on the tablet.
    record_penalty(floor, base, desk, cheat, "6.1")
    expect(floor.locator("#record-card")).to_contain_text("Ждёт решения главного судьи")
    give_statement(floor, "Соперник", opponent, "Он переложил карту с кладбища в руку.")
    # The player has no account: they type on the judge's tablet.
    empty = floor.locator("#statement-form")
    empty.get_by_label("Кто даёт объяснение").select_option(label="Игрок")
    empty.get_by_label("Имя").fill(cheat)
    empty.get_by_role("textbox", name="Объяснение").fill("   ")
    empty.get_by_role("button", name="Сохранить объяснение").click()
    expect(floor.locator("#statement-form")).to_contain_text("Напишите объяснение.")
    give_statement(floor, "Игрок", cheat, "Я только поправлял карты на столе.")
    investigation = floor.locator("#investigation")
    expect(investigation).to_contain_text(f"Соперник: {opponent}")
    expect(investigation).to_contain_text(f"Игрок: {cheat}")
    screenshot(floor, "judge-investigation-statements")
    request = PenaltyRecord.objects.get(registration=desk.players[0])
    assert request.status == RecordStatus.AWAITING_HEAD_JUDGE
    assert request.statements.count() == 2

    # The head judge reads the statements and confirms with reasoning.
    head = signed_in(browser, base, desk.head.username)
    head.goto(f"{base}/t/{desk.tournament.slug}/console/records/{request.pk}/")
    expect(head.locator("#investigation")).to_contain_text("Он переложил карту с кладбища в руку.")
    head.get_by_label("Обоснование (обязательно для дисквалификации)").fill(
        "Соперник видел перемещение карты; игрок не объяснил лишнюю карту в руке."
    )
    head.get_by_role("button", name="Подтвердить…").click()
    expect(head.locator(".confirm-effects")).to_contain_text("Он переложил карту с кладбища")
    expect(head.get_by_label("Обоснование")).to_have_value(
        "Соперник видел перемещение карты; игрок не объяснил лишнюю карту в руке."
    )
    head.get_by_role("button", name="Да, подтвердить: Дисквалификация без призов").click()
    expect(head.locator(".messages")).to_contain_text("Подтверждено")
    request.refresh_from_db()
    assert request.status == RecordStatus.IN_FORCE

    # The printed report names it, with the write-up, and the player's acknowledgement.
    head.goto(f"{base}/t/{desk.tournament.slug}/report/?all=1")
    head.emulate_media(media="print")
    write_up = head.locator(f"#write-up-{request.pk}")
    expect(write_up).to_be_visible()
    expect(write_up).to_contain_text(f"Соперник: {opponent}")
    expect(write_up).to_contain_text("Я только поправлял карты на столе.")
    expect(write_up).to_contain_text("игрок не объяснил лишнюю карту в руке")
    expect(head.locator("#report-penalties")).to_contain_text("игрок подтвердил")
    expect(head.locator("#report-event")).to_contain_text("Главный судья")
    expect(head.locator("#report-signatures")).to_be_visible()
    expect(head.locator("#report-generated")).to_contain_text("Сформирован")
    # Nothing of the screen's controls is printed.
    expect(head.locator("[data-print]")).to_be_hidden()
    screenshot(head, "report-disqualification-write-up")
    pdf = head.pdf(format="A4", prefer_css_page_size=True)
    assert pdf.startswith(b"%PDF")
