"""Deck lists on a tablet: the organiser imports the pool, a judge pastes a list, sees its 1.1
findings and issues one in a tap; a deck check at the table finds a 1.2 problem."""

import pytest
from playwright.sync_api import expect

from decks import services
from decks.demo import correct_list, pool_csv
from decks.models import DeckCheck, DeckFormat
from judging.models import PenaltyRecord
from tests.browser.helpers import sign_in
from tests.factories import Desk

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def desk():
    desk = Desk.create(players=4, level="professional", uses_decklists=True)
    report = services.import_card_pool(tournament=desk.tournament, name="Пул", content=pool_csv())
    standard = DeckFormat.objects.get(slug="standard")
    services.update_rules(
        tournament=desk.tournament,
        deck_format=standard,
        pool=report.pool,
        main_min=40,
        main_max=None,
        extra_max=10,
        copy_limit=3,
        lifting_feature="Орда",
        combine_sections=True,
        check_legality=True,
        self_submission=False,
        deadline=None,
    )
    return desk


def test_the_organiser_imports_a_card_pool(live_server, page, desk, screenshot):
    sign_in(page, live_server.url, desk.organiser.username)
    page.goto(f"{live_server.url}/t/{desk.tournament.slug}/decks/rules/")
    page.get_by_label("Название пула").fill("Мой пул")
    page.get_by_label("Файл CSV").set_input_files(
        {
            "name": "pool.csv",
            "mimeType": "text/csv",
            "buffer": "name;set\nВампир;A\nВампир;B\n".encode(),
        }
    )
    page.get_by_role("button", name="Импортировать").click()
    expect(page.locator("#pool-report")).to_contain_text("строка 3: Вампир уже есть в строке 2.")
    page.get_by_label("Файл CSV").set_input_files(
        {"name": "pool.csv", "mimeType": "text/csv", "buffer": pool_csv()}
    )
    page.get_by_role("button", name="Импортировать").click()
    expect(page.locator(".messages")).to_contain_text("Импортировано карт: 21.")
    screenshot(page, "decks-rules")


def test_a_judge_pastes_a_list_sees_its_findings_and_issues_one(
    live_server, page, desk, screenshot
):
    desk.pair((0, 1), (2, 3))
    sign_in(page, live_server.url, desk.floor.username)
    player = desk.players[0]
    page.goto(f"{live_server.url}/t/{desk.tournament.slug}/decks/players/{player.pk}/")
    page.locator("#id_text").fill(
        correct_list().replace("3 Вампир", "4 Вампир").replace("1 Вайл\n", "")
    )
    page.get_by_label("Причина исправления").fill("сдан на бумаге")
    page.get_by_role("button", name="Сохранить и проверить").click()
    findings = page.locator("#list-findings")
    expect(findings).to_contain_text("1.1 д)")
    expect(findings).to_contain_text("Вампир: 4 копии в основной колоде; допускается не больше 3.")
    screenshot(page, "decks-list-findings")

    findings.get_by_role("link", name="Выдать пенальти").click()
    expect(page.locator("input[name=infraction][value='1.1']")).to_be_checked()
    expect(page.locator("input[name=sub_item][value='1.1:д']")).to_be_checked()
    page.get_by_role("button", name="Записать пенальти").click()
    expect(page.locator("#record-card")).to_contain_text("Поражение в партии")
    record = PenaltyRecord.objects.get()
    assert (record.infraction.code, record.sub_item) == ("1.1", "д")
    assert record.note == "Вампир: 4 копии в основной колоде; допускается не больше 3."


def test_a_deck_check_finds_a_12_problem(live_server, page, desk, screenshot):
    services.save_decklist(registration=desk.players[2], text=correct_list(), by=desk.floor)
    desk.pair((0, 1), (2, 3))
    sign_in(page, live_server.url, desk.floor.username)
    page.goto(
        f"{live_server.url}/t/{desk.tournament.slug}/decks/players/{desk.players[2].pk}/check/"
    )
    page.get_by_label("Гном: Основная колода").fill("4")
    screenshot(page, "decks-check")
    page.get_by_role("button", name="Записать проверку").click()
    rows = page.locator("#check-rows")
    expect(rows).to_contain_text("1.2 в)")
    expect(rows).to_contain_text("Гном: 4 в основной колоде, в дек-листе 3.")
    check = DeckCheck.objects.get()
    assert (check.round.number, check.table, check.outcome) == (1, 2, "problems")
