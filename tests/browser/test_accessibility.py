"""axe-core on every page as each role, one h1 per page, a skip link, targets of at least 44 px,
and no sideways scrolling at a tablet's 800 px. One browser context per role, its page reused."""

import os
from pathlib import Path
from uuid import uuid4

import pytest
from playwright.sync_api import expect

from decks import services as deck_services
from floor import services as floor_services
from judging.models import PenaltyRecord
from tests.browser.conftest import axe_violations
from tests.browser.helpers import TABLET, signed_in
from tests.factories import Desk
from tournaments import services

pytestmark = pytest.mark.django_db(transaction=True)

# Interactive elements smaller than this (CSS px) are hard to hit on a tablet (WCAG 2.5.5).
TARGET = 44

TARGETS_TOO_SMALL = (Path(__file__).parent / "small_targets.js").read_text(encoding="utf-8")


def problems(page, url):
    """Everything wrong with one page, as lines (an empty list is a pass)."""
    page.goto(url)
    found = []
    headings = page.locator("h1").count()
    if headings != 1:
        found.append(f"{headings} h1 elements")
    skip = page.locator("a.skip-link")
    if skip.count() != 1 or skip.first.get_attribute("href") != "#main":
        found.append("no skip link to #main")
    found += axe_violations(page)
    small = page.evaluate(TARGETS_TOO_SMALL)
    if small:
        found.append(f"targets under {TARGET} px: {small}")
    if not page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"):
        found.append(f"scrolls sideways at {page.viewport_size['width']} px")
    beyond = page.evaluate(
        "() => [...document.querySelectorAll('main table')].filter(t => "
        "t.getBoundingClientRect().right > window.innerWidth + 1).length"
    )
    if beyond:
        found.append("a table reaches past the screen's edge (hidden columns)")
    if os.environ.get("DESK_A11Y_SHOTS"):
        name = url.split("/t/")[-1].strip("/").replace("/", "_").replace("?", "_") or "home"
        page.screenshot(path=f"{os.environ['DESK_A11Y_SHOTS']}/{name}.png", full_page=True)
    return [f"{url.split('/t/')[-1]}: {line}" for line in found]


@pytest.fixture
def event(db):
    desk = Desk.create(level="professional", players=5)
    desk.pair((0, 1), (2, 3), (4, None))
    desk.issue(0, "1.4", "between_games")
    desk.issue(0, "1.4", "between_games")
    request = desk.issue(2, "6.1", by="floor")
    services.enter_result(match=desk.match_of(0), player1_wins=2, player2_wins=1)
    services.correct_result(
        match=desk.tournament.rounds.get().matches.get(table=1),
        player1_wins=2,
        player2_wins=0,
        draws=0,
        reason="Бланк",
        corrected_by=desk.head,
    )
    # A deck list with a finding and a deck check, so the deck pages show their tables.
    deck_services.save_decklist(
        registration=desk.players[0],
        text="3 Вампир",
        by=desk.floor,
        accept_unmatched=True,
        reason="Бланк",
    )
    deck_services.record_deck_check(registration=desk.players[0], judge=desk.floor, counted={})
    return desk, request


def test_every_page_as_every_role(live_server, browser, event):
    desk, request = event
    base = live_server.url
    t = f"{base}/t/{desk.tournament.slug}"
    match = desk.tournament.rounds.get().matches.get(table=1)
    open_match = desk.tournament.rounds.get().matches.get(table=2)
    first_record = PenaltyRecord.objects.filter(registration=desk.players[0]).first()
    player = desk.players[0].pk

    # The floor: the clock running, a table with extra time, a player's call waiting.
    floor_services.start_clock(tournament=desk.tournament)
    floor_services.extend_time(
        match=open_match, minutes=3, reason="deck_check", given_by=desk.floor, client_key=uuid4()
    )
    floor_services.call_judge(tournament=desk.tournament, table=2, caller="a11y")
    token = floor_services.ensure_public_pages(tournament=desk.tournament).token

    anonymous = browser.new_context(viewport=TABLET, locale="ru-RU", bypass_csp=True).new_page()
    found = problems(anonymous, f"{base}/login/")
    found += problems(anonymous, f"{base}/p/{token}/")
    found += problems(anonymous, f"{base}/p/{token}/tables/1/")
    found += problems(anonymous, f"{base}/p/{token}/tables/2/")
    anonymous.context.close()

    # A tournament just created: its page lists the next steps.
    fresh = Desk.create(players=0)
    services.add_staff(tournament=fresh.tournament, user=desk.organiser, role="organiser")

    pages = {
        desk.organiser.username: [
            f"{base}/",
            f"{base}/t/new/",
            f"{base}/t/{fresh.tournament.slug}/",
            f"{t}/",
            f"{t}/settings/",
            f"{t}/staff/",
            f"{t}/players/",
            f"{t}/rounds/",
            f"{t}/rounds/1/",
            f"{t}/rounds/1/?order=name",
            f"{t}/matches/{match.pk}/",
            f"{t}/matches/{open_match.pk}/",
            f"{t}/standings/",
            f"{t}/guideline/",
            f"{t}/report/",
            f"{t}/players/{player}/record/",
            f"{t}/decks/",
            f"{t}/decks/rules/",
            f"{t}/decks/findings/",
            f"{t}/decks/players/{player}/",
            f"{base}/decklist/{desk.tournament.slug}/",
            f"{t}/floor/",
            f"{t}/floor/clock/projector/",
            f"{t}/floor/slips/",
            f"{t}/floor/players-link/",
        ],
        desk.floor.username: [
            f"{t}/floor/",
            f"{t}/floor/?extend={open_match.pk}",
            f"{base}/",
            f"{t}/",
            f"{t}/judge/",
            f"{t}/judge/log/?player={player}",
            f"{t}/records/{request.pk}/",
            f"{t}/records/{first_record.pk}/",
            f"{t}/judge/mine/",
            f"{t}/rounds/1/",
            f"{t}/matches/{open_match.pk}/",
            f"{t}/standings/",
            f"{t}/guideline/",
            f"{t}/players/{player}/record/",
            f"{t}/decks/",
            f"{t}/decks/players/{player}/",
            f"{t}/decks/players/{player}/check/",
            f"{t}/decks/checks/",
        ],
        desk.head.username: [
            f"{t}/console/",
            f"{t}/console/records/{first_record.pk}/",
            f"{t}/console/records/{request.pk}/",
            f"{t}/judge/log/?player={player}",
            f"{t}/players/{player}/record/",
            f"{t}/report/",
            f"{t}/decks/checks/",
        ],
    }
    for username, urls in pages.items():
        page = signed_in(browser, base, username, for_axe=True)
        for url in urls:
            found += [f"{username} {line}" for line in problems(page, url)]
        if username == desk.organiser.username:
            # A flash message sits inside the page's main landmark.
            page.goto(f"{t}/floor/")
            page.get_by_role("button", name="Пауза").click()
            expect(page.locator("main .messages")).to_be_visible()
            found += [f"flash message: {line}" for line in axe_violations(page)]
        if username == desk.head.username:
            # The disqualification's second step.
            page.goto(f"{t}/console/records/{request.pk}/")
            page.get_by_label("Обоснование (обязательно для дисквалификации)").fill("Видел сам.")
            page.get_by_role("button", name="Подтвердить…").click()
            expect(page.locator(".confirm-effects")).to_be_visible()
            found += [f"confirm step: {line}" for line in axe_violations(page)]
        page.context.close()

    assert found == [], "\n".join(found)
