"""The playoff in the browser (issue 32), in one walk: 24 players' four Swiss rounds (set up
through the services), the organiser's top 8 set, previewed and published in one tap, a game
loss deferred from round 4 served in a quarter-final, a disqualification in a semi-final
advancing the opponent, the final to a champion, and the final standings and the report."""

import uuid

import pytest
from playwright.sync_api import expect

from judging import services as judging_services
from tests.browser.helpers import sign_in
from tests.factories import Desk
from tests.tournaments.test_playoff_services import by_seed, play_swiss
from tournaments import selectors

pytestmark = pytest.mark.django_db(transaction=True)


def enter(page, slot: str, first: int, second: int) -> None:
    card = page.locator(f'article[data-slot="{slot}"]')
    card.locator("input[name=player1_wins]").fill(str(first))
    card.locator("input[name=player2_wins]").fill(str(second))
    card.get_by_role("button", name="Сохранить результат").click()
    expect(page.locator(".messages")).to_contain_text("Результат сохранён")


def test_24_players_swiss_then_a_top_8_to_a_champion(live_server, page, screenshot):
    desk = Desk.create(players=24, level="professional")
    play_swiss(desk, 4)
    leader = selectors.standings(tournament=desk.tournament)[0].registration
    # Found after round 4 ended: the game loss waits for the leader's next match.
    desk.issue(desk.players.index(leader), "1.1", "between_matches")
    slug = desk.tournament.slug
    sign_in(page, live_server.url, desk.organiser.username)

    page.goto(f"{live_server.url}/t/{slug}/playoff/")
    page.get_by_label("Плей-офф:", exact=True).select_option(
        label="Половина участников с округлением вниз до степени двойки"
    )
    page.get_by_role("button", name="Сохранить плей-офф").click()
    expect(page.get_by_role("heading", name="Состав плей-офф: топ-8")).to_be_visible()
    expect(page.locator("#cut-preview tbody tr")).to_have_count(8)
    page.get_by_role("button", name="Опубликовать состав и первый тур плей-офф").click()
    expect(page.get_by_role("heading", name="Четвертьфиналы")).to_be_visible()
    seeds = by_seed(desk)
    assert seeds[1].pk == leader.pk
    # The quarter-final of seed 1 (against seed 8) starts 0–1: the deferred game loss served.
    first = page.locator('article[data-slot="0-0"]')
    expect(first.locator("li").first).to_contain_text(leader.player.name)
    expect(first.locator(".score").first).to_have_text("0")
    expect(first.locator(".score").nth(1)).to_have_text("1")
    screenshot(page, "playoff-quarter-finals")
    enter(page, "0-0", 2, 1)
    # A live refresh of the bracket (another table's result) waits while a score is being typed.
    typing = page.locator('article[data-slot="0-1"] input[name=player1_wins]')
    typing.fill("2")
    page.evaluate(
        "htmx.ajax('GET', document.querySelector('#playoff-bracket').getAttribute('hx-get'),"
        " {target: '#playoff-bracket', swap: 'outerHTML'})"
    )
    expect(page.locator("#playoff-bracket.held")).to_be_visible()
    expect(typing).to_have_value("2")
    for slot in ("0-1", "0-2", "0-3"):
        enter(page, slot, 2, 0)
    page.get_by_role("button", name="Опубликовать следующий тур плей-офф").click()
    expect(page.get_by_role("heading", name="Полуфиналы")).to_be_visible()

    # Seed 2 is disqualified in the semi-final: seed 3 goes to the final.
    judging_services.issue_penalty(
        registration=seeds[2],
        infraction_code="6.1",
        moment="in_game",
        issued_by=desk.head,
        client_key=uuid.uuid4(),
    )
    page.reload()
    semi = page.locator('article[data-slot="1-1"]')
    expect(semi).to_contain_text("Решено пенальти")
    expect(semi.locator("li.won")).to_contain_text(seeds[3].player.name)
    enter(page, "1-0", 2, 0)
    page.get_by_role("button", name="Опубликовать следующий тур плей-офф").click()
    final = page.locator('article[data-slot="2-0"]')
    expect(final).to_contain_text(seeds[3].player.name)
    enter(page, "2-0", 0, 2)
    expect(page.locator(".bracket-champion")).to_contain_text(seeds[3].player.name)
    screenshot(page, "playoff-champion")

    page.get_by_role("link", name="Итоговая турнирная таблица").click()
    rows = page.locator("#final-standings tbody tr")
    expect(rows.nth(0)).to_contain_text(seeds[3].player.name)
    expect(rows.nth(0)).to_contain_text("Чемпион")
    expect(rows.nth(1)).to_contain_text(seeds[1].player.name)
    expect(rows.nth(1)).to_contain_text("Финалист")
    expect(rows.nth(2)).to_contain_text(seeds[2].player.name)
    expect(rows.nth(2)).to_contain_text("без призов")

    page.context.clear_cookies()
    sign_in(page, live_server.url, desk.head.username)
    page.goto(f"{live_server.url}/t/{slug}/report/")
    standings = page.locator("#report-final-standings")
    expect(standings.locator("tr").nth(1)).to_contain_text("Чемпион")
    expect(page.locator("#playoff-matches-table")).to_contain_text("Поражение в матче по пенальти")
