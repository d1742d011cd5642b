"""The pages keep to the Content-Security-Policy in a real browser: nothing is refused."""

import pytest

from floor import services as floor_services
from tests.browser.helpers import sign_in
from tests.factories import Desk

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_judges_pages_break_no_rule_of_the_policy(live_server, page):
    desk = Desk.create()
    desk.pair((0, 1), (2, 3))
    record = desk.issue(0, "1.1")
    floor_services.start_clock(tournament=desk.tournament)
    floor_services.call_judge(tournament=desk.tournament, table=1, caller="csp")
    token = floor_services.ensure_public_pages(tournament=desk.tournament).token
    violations: list[str] = []
    page.on(
        "console",
        lambda message: (
            violations.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    sign_in(page, live_server.url, desk.head.username)
    slug = desk.tournament.slug
    for path in (
        "/",
        f"/t/{slug}/",
        f"/t/{slug}/judge/",
        f"/t/{slug}/judge/log/?player={desk.players[0].pk}",
        f"/t/{slug}/console/",
        f"/t/{slug}/console/records/{record.pk}/",
        f"/t/{slug}/players/",
        f"/t/{slug}/rounds/1/",
        f"/t/{slug}/standings/",
        f"/t/{slug}/report/",
        f"/t/{slug}/floor/",
        f"/t/{slug}/floor/clock/projector/",
        f"/t/{slug}/floor/slips/",
        f"/t/{slug}/floor/players-link/",
        f"/p/{token}/",
        f"/p/{token}/tables/1/",
    ):
        response = page.goto(f"{live_server.url}{path}")
        assert response is not None and response.status == 200, path
        assert "default-src 'self'" in response.headers["content-security-policy"]
        page.wait_for_load_state("networkidle")

    assert violations == []
