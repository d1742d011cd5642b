"""A floor judge on a tablet: find the player, log the infraction, see the ruling first."""

import pytest
from playwright.sync_api import expect

from judging.models import PenaltyRecord, RecordStatus
from tests.browser.helpers import sign_in
from tests.factories import Desk

pytestmark = pytest.mark.django_db(transaction=True)


def open_player(page, live_server, desk, index):
    """Tap 1: the player on the judge's home screen."""
    page.goto(f"{live_server.url}/t/{desk.tournament.slug}/judge/")
    name = desk.players[index].player.name
    page.locator(f".player-target:has(strong:text-is('{name}'))").click()
    expect(page.get_by_role("heading", name=desk.players[index].player.name)).to_be_visible()


def choose(page, code):
    """Tap 2: the infraction; the preview answers at once."""
    page.locator(f"label[for^=infraction-]:has(.code:text-is('{code}'))").click()


def test_a_first_offence_in_three_taps(live_server, page, screenshot):
    desk = Desk.create()
    desk.pair((0, 1), (2, 3))
    sign_in(page, live_server.url, desk.floor.username)

    open_player(page, live_server, desk, 0)
    choose(page, "1.4")
    preview = page.locator("#penalty-preview")
    expect(preview).to_contain_text("Замечание")
    expect(preview).to_contain_text("базовое пенальти")
    screenshot(page, "judge-log-first-offence")
    page.get_by_role("button", name="Записать пенальти").click()  # tap 3

    card = page.locator("#record-card")
    expect(card).to_contain_text("Замечание")
    expect(card).to_contain_text("Дек-лист приводится игроком в надлежащий вид")
    screenshot(page, "judge-card")
    assert PenaltyRecord.objects.get().rank == 1


def test_a_repeat_shows_its_escalation_and_reason_before_submitting(live_server, page, screenshot):
    desk = Desk.create()
    desk.pair((0, 1), (2, 3))
    desk.issue(0, "1.4")
    sign_in(page, live_server.url, desk.floor.username)

    open_player(page, live_server, desk, 0)
    expect(page.locator(".player-head")).to_contain_text("Замечание · 1.4")
    choose(page, "1.4")

    preview = page.locator("#penalty-preview")
    expect(preview).to_contain_text("Предупреждение")
    expect(preview).to_contain_text("повтор 1.4 (уже было: Замечание, тур 1)")
    screenshot(page, "judge-log-repeat")
    page.get_by_role("button", name="Записать пенальти").click()
    expect(page.locator("#record-card")).to_contain_text("Предупреждение")
    assert [r.rank for r in PenaltyRecord.objects.order_by("id")] == [1, 2]


def test_a_game_loss_in_a_game_updates_the_match_score(live_server, page, screenshot):
    desk = Desk.create(level="professional")
    desk.pair((0, 1), (2, 3))
    sign_in(page, live_server.url, desk.floor.username)

    open_player(page, live_server, desk, 0)
    choose(page, "1.2")
    expect(page.locator("#penalty-preview")).to_contain_text("Поражение в партии")
    expect(page.locator("#penalty-preview")).to_contain_text("Эта партия проиграна")
    page.get_by_role("button", name="Записать пенальти").click()
    expect(page.locator("#record-card")).to_contain_text("Скажите игроку")
    screenshot(page, "judge-card-game-loss")

    page.get_by_role("link", name="К столам").click()
    row = page.locator(f".player-target:has(strong:text-is('{desk.players[0].player.name}'))")
    expect(row).to_contain_text("0–1")
    opponent = page.locator(f".player-target:has(strong:text-is('{desk.players[1].player.name}'))")
    expect(opponent).to_contain_text("1–0")


def test_an_infraction_not_available_here_is_not_offered(live_server, page):
    desk = Desk.create(level="amateur", uses_decklists=False)
    desk.pair((0, 1), (2, 3))
    sign_in(page, live_server.url, desk.floor.username)

    open_player(page, live_server, desk, 0)

    infractions = page.locator("fieldset.infractions")
    expect(infractions).to_contain_text("1.3")
    for code in ("1.1", "1.2", "1.4"):
        expect(infractions.locator(f".code:text-is('{code}')")).to_have_count(0)


def test_a_floor_judges_disqualification_becomes_a_request(live_server, page, screenshot):
    desk = Desk.create()
    desk.pair((0, 1), (2, 3))
    sign_in(page, live_server.url, desk.floor.username)

    open_player(page, live_server, desk, 0)
    choose(page, "6.1")
    expect(page.locator("#penalty-preview")).to_contain_text("Уйдёт главному судье как запрос")
    page.get_by_role("button", name="Записать пенальти").click()

    card = page.locator("#record-card")
    expect(card).to_contain_text("Дисквалификация")
    expect(card).to_contain_text("Ждёт решения главного судьи")
    screenshot(page, "judge-card-request")
    record = PenaltyRecord.objects.get()
    desk.players[0].refresh_from_db()
    assert (record.status, desk.players[0].status) == (RecordStatus.AWAITING_HEAD_JUDGE, "playing")


def test_the_log_page_fits_portrait_and_landscape_tablets(live_server, page, screenshot):
    desk = Desk.create()
    desk.pair((0, 1), (2, 3))
    sign_in(page, live_server.url, desk.floor.username)

    for name, size in (
        ("portrait", {"width": 800, "height": 1280}),
        ("landscape", {"width": 1280, "height": 800}),
    ):
        page.set_viewport_size(size)
        open_player(page, live_server, desk, 0)
        fits = page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert fits, f"the page scrolls sideways in {name}"
        target = page.locator("label[for^=infraction-]").first.bounding_box()
        assert target["height"] >= 48  # a finger-sized target
        screenshot(page, f"judge-log-{name}")


def in_view(page, locator):
    box = locator.bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def test_three_taps_from_the_start_page_with_the_button_in_view_on_every_screen(
    live_server, page, screenshot
):
    desk = Desk.create(level="professional")
    desk.pair((0, 1), (2, 3))
    sign_in(page, live_server.url, desk.floor.username)
    taps = 0

    def tap(locator):
        nonlocal taps
        taps += 1
        locator.click()

    for index, (name, size) in enumerate(
        [
            ("portrait", {"width": 800, "height": 1280}),
            ("landscape", {"width": 1280, "height": 800}),
            ("phone", {"width": 390, "height": 844}),
        ]
    ):
        taps = 0
        page.set_viewport_size(size)
        page.goto(f"{live_server.url}/t/{desk.tournament.slug}/judge/")
        player = desk.players[index]
        page.get_by_role("searchbox").fill(str(desk.match_of(index).table))  # typing, not a tap
        tap(page.locator(f".player-target:has(strong:text-is('{player.player.name}'))"))
        # 1.1 has sub-items: choosing it opens them, which used to push the button off screen.
        tap(page.locator("label[for^=infraction-]:has(.code:text-is('1.1'))"))
        expect(page.locator("#penalty-preview")).to_contain_text("Поражение в партии")
        expect(page.locator(".sub-items").first).to_be_visible()
        button = page.get_by_role("button", name="Записать пенальти")
        assert in_view(page, page.locator("#penalty-preview")), f"preview out of view: {name}"
        assert in_view(page, button), f"the button is below the fold: {name}"
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), name
        screenshot(page, f"judge-log-sub-items-{name}")
        tap(button)
        expect(page.locator("#record-card")).to_contain_text("Поражение в партии")
        assert taps == 3
    assert PenaltyRecord.objects.count() == 3
