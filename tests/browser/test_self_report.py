"""Players report their own results at the table (issue 35), as its "done when" says: two
phones at table 1 report and confirm 2–1; table 2's phones report different results, which calls
a judge at once; table 3's first game was lost by a penalty, its page shows it, and its players
report the rest. The head judge's round at a glance and the standings follow."""

from playwright.sync_api import expect

from floor import services
from floor.models import JudgeCall
from tests.browser.helpers import phone, signed_in
from tests.factories import Desk
from tournaments.selectors import standings


def report(page, seat, code, winners):
    form = page.locator("form.report-form")
    form.locator(f'input[name="seat"][value="{seat}"]').check()
    form.locator('input[name="code"]').fill(code)
    for number, winner in winners.items():
        form.locator(f'input[name="game_{number}"][value="{winner}"]').check()
    form.get_by_role("button", name="Сообщить результат").click()


def test_players_report_confirm_and_dispute_at_their_tables(asgi_server, browser, screenshot):
    desk = Desk.create(players=6, level="professional")
    desk.pair((0, 1), (2, 3), (4, 5))
    desk.issue(4, "1.1")  # a game loss in game 1 at table 3
    token = services.ensure_public_pages(tournament=desk.tournament).token
    matches = [desk.match_of(n) for n in (0, 2, 4)]
    names = [registration.player.name for registration in desk.players]

    def code(table, seat):
        return services.seat_code(match_id=matches[table - 1].pk, seat=seat)

    def table_url(table):
        return f"{asgi_server}/p/{token}/tables/{table}/"

    # Table 1: the first player's phone reports 2–1 game by game...
    first = phone(browser)
    first.goto(table_url(1))
    report(first, 1, code(1, 1), {1: 1, 2: 2, 3: 1})
    expect(first.locator("#table-report [data-state=reported]")).to_contain_text(
        f"{names[0]} сообщает: 2–1"
    )
    screenshot(first, "player-reported")
    # ...and the opponent confirms it on their own phone with their own code.
    second = phone(browser)
    second.goto(table_url(1))
    confirm = second.locator("form.confirm-form")
    confirm.locator('input[name="code"]').fill(code(1, 2))
    confirm.get_by_role("button", name="Подтвердить 2–1").click()
    expect(second.locator("#table-report [data-state=ended]")).to_contain_text(
        "Результат записан: 2–1"
    )
    screenshot(second, "player-confirmed")

    # Table 2: the two phones report different results; a judge is called at once.
    third, fourth = phone(browser), phone(browser)
    third.goto(table_url(2))
    report(third, 1, code(2, 1), {1: 1, 2: 1})
    expect(third.locator("#table-report [data-state=reported]")).to_be_visible()
    fourth.goto(table_url(2))
    report(fourth, 2, code(2, 2), {1: 2, 2: 2})
    expect(fourth.locator("#table-report [data-state=disputed]")).to_contain_text("вызван судья")
    call = JudgeCall.objects.get(table=2)
    assert (call.reason, call.status) == ("dispute", "open")

    # Table 3: the penalty's game is shown as decided; the players report the other games.
    fifth, sixth = phone(browser), phone(browser)
    fifth.goto(table_url(3))
    expect(fifth.locator('[data-game="1"]')).to_contain_text(names[5])
    expect(fifth.locator('[data-game="1"]')).to_contain_text("исход определён пенальти")
    assert fifth.locator('input[name="game_1"]').count() == 0
    report(fifth, 1, code(3, 1), {2: 1, 3: 2})
    expect(fifth.locator("#table-report [data-state=reported]")).to_contain_text("сообщает: 1–1")
    sixth.goto(table_url(3))
    confirm = sixth.locator("form.confirm-form")
    confirm.locator('input[name="code"]').fill(code(3, 2))
    confirm.get_by_role("button", name="Подтвердить 1–1").click()
    expect(sixth.locator("#table-report [data-state=ended]")).to_contain_text(
        "Результат записан: 1–2"
    )

    # The head judge's round at a glance: table 1 and 3 confirmed, table 2 disputed.
    head = signed_in(browser, asgi_server, desk.head.username)
    head.goto(f"{asgi_server}/t/{desk.tournament.slug}/floor/")
    tiles = head.locator("#floor-glance .glance-tile")
    # The first screen: the tables still playing, the disputed one among them.
    expect(tiles.nth(0)).to_have_attribute("data-state", "disputed")
    expect(head.get_by_role("link", name="Результаты расходятся: 1")).to_be_visible()
    head.goto(f"{asgi_server}/t/{desk.tournament.slug}/floor/?show=all")
    expect(tiles.nth(0)).to_have_attribute("data-state", "confirmed")
    expect(tiles.nth(1)).to_have_attribute("data-state", "disputed")
    expect(tiles.nth(2)).to_have_attribute("data-state", "confirmed")
    screenshot(head, "head-glance-reports")

    # The standings follow the confirmed results.
    points = {
        row.registration.pk: row.standing.points for row in standings(tournament=desk.tournament)
    }
    assert [points[desk.players[n].pk] for n in (0, 1, 4, 5)] == [3, 0, 0, 3]
    head.goto(f"{asgi_server}/t/{desk.tournament.slug}/standings/")
    expect(head.locator("#main")).to_contain_text(names[0])
