"""Issue 28's browser test: a player pastes a list with «Сайд» and a hero line on a phone, sees
one 1.1 д finding and fixes it before the deadline; the organiser bans a card after the lists
are in and the findings appear without anyone saving a list again."""

import pytest
from playwright.sync_api import expect

from decks import services
from decks.demo import DEMO_CARDS, correct_list, pool_csv
from decks.models import DeckFormat, Finding
from tests.browser.helpers import PHONE, sign_in
from tests.factories import Desk

pytestmark = pytest.mark.django_db(transaction=True)
HERO_LIST = "Герой: Хакодар\n" + correct_list().replace("Дополнительная колода:\n", "")


@pytest.fixture
def desk():
    desk = Desk.create(players=2, level="professional", uses_decklists=True)
    report = services.import_card_pool(tournament=desk.tournament, name="Пул", content=pool_csv())
    services.update_rules(
        tournament=desk.tournament,
        deck_format=DeckFormat.objects.get(slug="standard"),
        pool=report.pool,
        main_min=40,
        main_max=None,
        extra_max=10,
        copy_limit=3,
        lifting_feature="Орда",
        combine_sections=True,
        check_legality=True,
        self_submission=True,
        deadline=None,
    )
    services.issue_submission_codes(tournament=desk.tournament)
    return desk


def test_a_player_fixes_a_1_1_d_on_a_phone(live_server, browser, desk, screenshot):
    page = browser.new_context(viewport=PHONE, locale="ru-RU", is_mobile=True).new_page()
    page.goto(f"{live_server.url}/decklist/{desk.tournament.slug}/")
    code = desk.players[0].submission_code.code
    page.get_by_label("Ваш личный код").fill(code)
    page.get_by_label("Ваш дек-лист").fill(HERO_LIST + "Сайд:\n1 Лесная фея\n")
    page.get_by_role("button", name="Отправить").click()
    findings = page.locator("#as-read-findings li")
    expect(findings).to_have_count(1)
    expect(findings).to_contain_text("1.1 д")
    expect(findings).to_contain_text("Лесная фея")
    screenshot(page, "decks-submit-phone")
    # The form comes back filled in: the player removes the card and sends it again.
    page.get_by_role("textbox", name="Ваш дек-лист").fill(HERO_LIST)
    page.get_by_role("button", name="Отправить").click()
    expect(page.locator("#as-read-correct")).to_be_visible()
    assert Finding.objects.filter(registration=desk.players[0]).count() == 0


def test_a_ban_after_the_lists_are_in_reaches_them(live_server, page, desk):
    services.save_decklist(registration=desk.players[1], text=correct_list(), by=desk.floor)
    sign_in(page, live_server.url, desk.organiser.username)
    page.goto(f"{live_server.url}/t/{desk.tournament.slug}/decks/rules/")
    rows = ["название;запрещена в"] + [
        f"{name};{'Стандарт' if name == 'Вампир' else ''}" for name, *_rest in DEMO_CARDS
    ]
    page.get_by_label("Файл CSV").set_input_files(
        {"name": "pool.csv", "mimeType": "text/csv", "buffer": "\n".join(rows).encode()}
    )
    page.get_by_role("button", name="Импортировать").click()
    expect(page.locator("#recheck-progress")).to_contain_text("проверены заново")
    page.goto(f"{live_server.url}/t/{desk.tournament.slug}/decks/findings/")
    expect(page.locator("main")).to_contain_text("Вампир: карта недопустима в формате Стандарт.")
