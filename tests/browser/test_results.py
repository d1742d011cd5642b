"""The table's result screen in the browser: a deferred game loss entered game by game so the next
round can be paired, and a finished result corrected with a reason so the standings follow."""

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import sign_in
from tests.factories import Desk, UserFactory
from tournaments import services
from tournaments.models import Match, ResultCorrection, Tournament
from tournaments.permissions import make_organiser

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_deferred_loss_is_entered_game_by_game_and_the_next_round_paired(
    live_server, page, screenshot
):
    desk = Desk.create(level="professional")
    desk.pair((0, 1), (2, 3))
    desk.issue(0, "1.2", deferred=True)  # «Близко к концу»: the next game is lost
    first, second = (p.player.name for p in desk.players[:2])
    sign_in(page, live_server.url, desk.organiser.username)

    page.goto(f"{live_server.url}/t/{desk.tournament.slug}/rounds/1/")
    row = page.locator("tr", has_text=first)
    row.locator("input[name=player1_wins]").fill("2")
    row.locator("input[name=player2_wins]").fill("0")
    row.get_by_role("button", name="Сохранить").click()
    expect(row.get_by_role("alert")).to_contain_text("записывайте этот матч по партиям")
    row.get_by_role("link", name="Записать партии по одной").click()

    expect(page.get_by_role("heading", name="Стол 1, тур 1")).to_be_visible()
    page.get_by_role("button", name=first).click()  # game 1 to the first player
    games = page.locator("ol.games")
    expect(games).to_contain_text(f"Партия 2: выиграл(а) {second} по пенальти")
    expect(page.get_by_role("heading", name="Партия 3: кто выиграл?")).to_be_visible()
    screenshot(page, "organiser-games-one-by-one")
    page.get_by_role("button", name=second).click()
    expect(page.locator("#match-result .score")).to_contain_text("1–2")
    expect(page.get_by_role("button", name=first)).to_have_count(0)

    page.get_by_role("link", name="Все столы тура 1").click()
    row = page.locator("tr", has_text=desk.players[2].player.name)
    row.locator("input[name=player1_wins]").fill("2")
    row.locator("input[name=player2_wins]").fill("1")
    row.get_by_role("button", name="Сохранить").click()
    expect(page.locator("form.result-form")).to_have_count(0)

    page.get_by_role("navigation", name="Турнир").get_by_role("link", name="Туры").click()
    page.get_by_role("button", name="Составить пары следующего тура").click()
    page.get_by_role("button", name="Опубликовать тур 2").click()
    expect(page.get_by_role("heading", name="Тур 2")).to_be_visible()
    assert Match.objects.filter(round__number=2, ended_at__isnull=True).count() == 2


def test_a_correction_changes_the_standings(live_server, page, screenshot):
    desk = Desk.create()
    desk.pair((0, 1), (2, 3))
    services.enter_result(match=desk.match_of(0), player1_wins=2, player2_wins=0)
    services.enter_result(match=desk.match_of(2), player1_wins=2, player2_wins=1)
    sign_in(page, live_server.url, desk.head.username)
    loser = desk.players[1].player.name

    page.goto(f"{live_server.url}/t/{desk.tournament.slug}/standings/")
    expect(
        page.locator("#standings-table tbody tr", has_text=loser).locator("td").nth(2)
    ).to_have_text("0")
    page.goto(f"{live_server.url}/t/{desk.tournament.slug}/rounds/1/")
    page.get_by_role("link", name="Стол 1: партии и исправления").click()
    form = page.locator("form.correction-form")
    form.get_by_label(f"Партии, выигранные игроком {desk.players[0].player.name}").fill("0")
    form.get_by_label(f"Партии, выигранные игроком {loser}").fill("2")
    form.get_by_label("Причина").fill("Бланк заполнен наоборот")
    form.get_by_role("button", name="Исправить результат").click()
    expect(page.get_by_role("status")).to_have_text("Результат исправлен.")
    expect(page.locator("ol.history")).to_contain_text("2–0 → 0–2")
    expect(page.locator("ol.history")).to_contain_text("Бланк заполнен наоборот")
    screenshot(page, "head-result-correction")

    page.get_by_role("navigation", name="Турнир").get_by_role(
        "link", name="Турнирная таблица"
    ).click()
    expect(
        page.locator("#standings-table tbody tr", has_text=loser).locator("td").nth(2)
    ).to_have_text("3")
    assert ResultCorrection.objects.get().reason == "Бланк заполнен наоборот"


def test_the_new_tournament_form_follows_the_level_for_deck_lists(live_server, page):
    user = UserFactory(username="org")
    make_organiser(user)
    sign_in(page, live_server.url, "org")
    page.goto(f"{live_server.url}/t/new/")
    level = page.get_by_label("Уровень строгости правил")
    box = page.get_by_label("Используются дек-листы")

    expect(level).to_have_value("professional")
    expect(box).to_be_checked()
    level.select_option("amateur")
    expect(box).not_to_be_checked()
    expect(box).to_be_enabled()
    box.check()  # the organiser may switch them on at the amateur level
    level.select_option("highest")
    expect(box).to_be_checked()
    expect(box).to_be_disabled()
    level.select_option("professional")
    expect(box).to_be_checked()
    expect(box).to_be_enabled()

    level.select_option("highest")
    page.get_by_label("Короткий адрес").fill("cup-highest")
    page.get_by_label("Название", exact=False).first.fill("Высший кубок")
    page.get_by_label("Дата").fill("2026-12-12")
    page.get_by_role("button", name="Создать турнир").click()
    expect(page.get_by_role("heading", name="Высший кубок")).to_be_visible()
    assert Tournament.objects.get(slug="cup-highest").uses_decklists is True
