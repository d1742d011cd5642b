"""A new organiser runs a whole event in the browser: set-up, 32 players from CSV, five Swiss
rounds with results, and the standings."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import sign_in
from tests.factories import UserFactory
from tournaments.models import Match, Tournament
from tournaments.permissions import make_organiser

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_organiser_runs_five_rounds_from_a_csv_list(live_server, page, screenshot, tmp_path):
    make_organiser(UserFactory(username="org"))
    sign_in(page, live_server.url, "org")

    page.get_by_role("link", name="Новый турнир").click()
    page.get_by_label("Короткий адрес").fill("cup-32")
    page.get_by_label("Название", exact=False).first.fill("Кубок тридцати двух")
    page.get_by_label("Дата").fill("2026-12-12")
    page.get_by_label("Уровень строгости правил").select_option("professional")
    page.get_by_label("Туры по швейцарской системе").fill("5")
    page.get_by_role("button", name="Создать турнир").click()
    expect(page.get_by_role("heading", name="Кубок тридцати двух")).to_be_visible()

    csv_file = tmp_path / "players.csv"
    csv_file.write_text(
        "Имя;Членский номер;Город\n"
        + "\n".join(f"Игрок {n:02d};BH-{n:03d};Москва" for n in range(1, 33)),
        encoding="utf-8",
    )
    page.get_by_role("navigation", name="Турнир").get_by_role("link", name="Игроки").click()
    page.get_by_label("Файл CSV").set_input_files(str(csv_file))
    page.get_by_role("button", name="Импортировать").click()
    expect(page.get_by_text("Импортировано игроков: 32")).to_be_visible()
    screenshot(page, "organiser-players")

    for round_number in range(1, 6):
        page.get_by_role("navigation", name="Турнир").get_by_role("link", name="Туры").click()
        page.get_by_role("button", name="Составить пары следующего тура").click()
        expect(
            page.get_by_role("heading", name=f"Черновик пар тура {round_number}")
        ).to_be_visible()
        if round_number == 1:
            screenshot(page, "organiser-draft")
        page.get_by_role("button", name=f"Опубликовать тур {round_number}").click()
        expect(page.get_by_role("heading", name=f"Тур {round_number}")).to_be_visible()
        forms = page.locator("form.result-form")
        expect(forms).to_have_count(16)
        for index in range(16):
            form = page.locator("form.result-form").first
            # The first-listed player wins 2–1 at odd tables and loses 0–2 at even ones.
            first, second = (2, 1) if index % 2 == 0 else (0, 2)
            form.locator("input[name=player1_wins]").fill(str(first))
            form.locator("input[name=player2_wins]").fill(str(second))
            form.get_by_role("button", name="Сохранить").click()
            expect(page.locator("form.result-form")).to_have_count(15 - index)
        if round_number == 5:
            screenshot(page, "organiser-results")

    page.get_by_role("navigation", name="Турнир").get_by_role(
        "link", name="Турнирная таблица"
    ).click()
    rows = page.locator("#standings-table tbody tr")
    expect(rows).to_have_count(32)
    screenshot(page, "organiser-standings")

    tournament = Tournament.objects.get(slug="cup-32")
    assert Match.objects.filter(round__tournament=tournament, ended_at__isnull=True).count() == 0
    pairs = [
        frozenset((m.player1_id, m.player2_id))
        for m in Match.objects.filter(round__tournament=tournament, player2__isnull=False)
    ]
    assert len(pairs) == len(set(pairs)) == 80  # five rounds of 16 matches, no rematch
    top = rows.first.locator("td").nth(2)
    expect(top).to_have_text(re.compile(r"^1[2-5]$"))
