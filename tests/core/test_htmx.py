"""A URL that answers with a whole page or, to HTMX, with a fragment tells caches so."""

import pytest
from django.urls import reverse


def pages(desk):
    record = desk.issue(0, "1.4", moment="between_matches")
    slug = desk.tournament.slug
    return [
        (desk.floor, reverse("judging:judge-home", args=[slug])),
        (desk.floor, reverse("judging:record", args=[slug, record.pk])),
        (desk.head, reverse("judging:console", args=[slug]) + "?fragment=penalty-log"),
    ]


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_pages_with_fragments_vary_on_the_htmx_header(client, desk, htmx):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    for user, url in pages(desk):
        client.force_login(user)

        response = client.get(url, **headers)

        assert response.status_code == 200, url
        assert "HX-Request" in response.headers["Vary"], url
        assert response.content.decode().lstrip().startswith("<!doctype") is not htmx, url
