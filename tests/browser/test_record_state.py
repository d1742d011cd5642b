"""What a floor judge reads on the card of a record that does not stand as issued (issue 26):
declined, revoked, lowered; and the card re-rendered live when the head judge lowers a penalty
while the judge waits at the table. «Скажите игроку» appears only where something stands."""

import pytest
from playwright.sync_api import expect

from judging.models import PenaltyRecord
from judging.penalties import AppliesTo, Rank
from tests.browser.conftest import axe_violations
from tests.browser.helpers import signed_in
from tests.factories import Desk
from tests.judging.test_record_state_screens import Records
from tournaments.models import Level

pytestmark = pytest.mark.django_db(transaction=True)

TELL = "Скажите игроку"


def open_card(page, live_server, records, record):
    page.goto(f"{live_server.url}/t/{records.desk.tournament.slug}/records/{record.pk}/")
    card = page.locator("#record-card")
    expect(card).to_be_visible()
    return card


def test_the_cards_of_declined_revoked_and_lowered_records(live_server, browser, screenshot):
    records = Records()
    page = signed_in(browser, live_server.url, records.desk.floor.username, for_axe=True)

    declined = open_card(page, live_server, records, records.declined)
    expect(declined.locator(".big")).to_have_text(
        "Дисквалификация без призов (включает: поражение в матче)"
    )
    expect(declined.locator("#record-status")).to_have_text(
        "Отклонено главным судьёй: не вступало в силу."
    )
    expect(declined.get_by_role("heading", name=TELL)).to_have_count(0)
    expect(declined.locator(".tell")).to_have_count(0)
    assert "дисквалифицированы" not in declined.inner_text()
    screenshot(page, "judge-card-declined")
    assert axe_violations(page) == []

    revoked = open_card(page, live_server, records, records.revoked)
    expect(revoked.locator("#record-status")).to_have_text(
        "Отменено главным судьёй: больше не действует."
    )
    expect(revoked.locator("#record-loss")).to_have_text("Поражение отменено: партия не проиграна.")
    expect(revoked.get_by_role("heading", name=TELL)).to_have_count(0)
    assert "следующая партия проиграна" not in revoked.inner_text().lower()
    screenshot(page, "judge-card-revoked")
    assert axe_violations(page) == []

    lowered = open_card(page, live_server, records, records.to_caution)
    expect(lowered.locator(".big")).to_have_text("Замечание")
    expect(lowered.locator("#record-status")).to_have_text("Действует.")
    expect(lowered.locator("#record-loss")).to_have_text("Поражение отменено: матч не проигран.")
    expect(lowered).to_contain_text(
        "Выдано как «Поражение в матче»; главный судья снизил его до «Замечание»."
    )
    expect(lowered.get_by_role("heading", name=TELL)).to_be_visible()
    expect(lowered.locator(".tell")).to_have_text(
        "Это устное замечание; оно учитывается при сложении пенальти."
    )
    assert "следующий матч проигран" not in lowered.inner_text().lower()
    screenshot(page, "judge-card-lowered")
    assert axe_violations(page) == []

    tell, loss = records.game_loss_tell_and_loss()
    to_game_loss = open_card(page, live_server, records, records.to_game_loss)
    expect(to_game_loss.locator(".big")).to_have_text(
        "Поражение в партии (включает: предупреждение)"
    )
    expect(to_game_loss.locator("#record-loss")).to_have_text(loss)
    expect(to_game_loss.locator(".tell")).to_have_text(tell)
    assert "следующий матч проигран" not in to_game_loss.inner_text().lower()


def test_a_card_open_at_the_table_follows_the_head_judge_lowering_it(
    asgi_server, browser, screenshot
):
    desk = Desk.create(players=4, level=Level.PROFESSIONAL)
    desk.issue(0, "1.1", "between_matches", by="floor")
    record = desk.issue(0, "1.1", "between_matches", by="floor")
    assert (record.rank, record.applies_to) == (Rank.MATCH_LOSS, AppliesTo.NEXT_MATCH)
    floor = signed_in(browser, asgi_server, desk.floor.username)
    head = signed_in(browser, asgi_server, desk.head.username)
    slug = desk.tournament.slug

    floor.goto(f"{asgi_server}/t/{slug}/records/{record.pk}/")
    card = floor.locator("#record-card")
    expect(card.locator(".tell")).to_have_text(
        "Записано предупреждение, и следующий матч проигран."
    )
    expect(card.locator("#record-loss")).to_have_text(
        "Следующий матч проигран: ждёт пар следующего тура."
    )

    head.goto(f"{asgi_server}/t/{slug}/console/records/{record.pk}/")
    head.get_by_label("Новое пенальти").select_option(str(int(Rank.CAUTION)))
    head.locator("#id_amend_reason").fill("Ошибка в дек-листе исправлена сразу.")
    head.get_by_role("button", name="Изменить", exact=True).click()
    expect(head.locator(".messages")).to_contain_text("Изменено")

    # No reload on the judge's tablet: the card says at once what stands now.
    expect(card.locator(".big")).to_have_text("Замечание", timeout=6000)
    expect(card.locator(".tell")).to_have_text(
        "Это устное замечание; оно учитывается при сложении пенальти."
    )
    expect(card.locator("#record-loss")).to_have_text("Поражение отменено: матч не проигран.")
    assert "следующий матч проигран" not in card.inner_text().lower()
    screenshot(floor, "judge-card-lowered-live")
    record.refresh_from_db()
    assert (record.rank, record.loss_cancelled) == (Rank.CAUTION, True)
    assert PenaltyRecord.objects.get(pk=record.pk).state.tell == (
        "Это устное замечание; оно учитывается при сложении пенальти."
    )
