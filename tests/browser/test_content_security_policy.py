"""The pages keep to the Content-Security-Policy in a real browser: nothing is refused."""

import pytest

from tests.browser.conftest import sign_in
from tests.factories import Desk

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_judges_pages_break_no_rule_of_the_policy(live_server, page):
    desk = Desk.create()
    desk.pair((0, 1), (2, 3))
    record = desk.issue(0, "1.1")
    violations: list[str] = []
    page.on(
        "console",
        lambda message: (
            violations.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    sign_in(page, live_server, desk.head.username)
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
    ):
        response = page.goto(f"{live_server.url}{path}")
        assert response is not None and response.status == 200, path
        assert "default-src 'self'" in response.headers["content-security-policy"]
        page.wait_for_load_state("networkidle")

    assert violations == []
