"""A row's link made from the URL reversed once per page is the link ``reverse()`` makes."""

import pytest
from django.urls import reverse

from core.row_links import IdLink

URLS = [
    ("judging:record", "record_id"),
    ("tournaments:match", "match_id"),
    ("tournaments:match-result", "match_id"),
    ("tournaments:registration-drop", "registration_id"),
]


@pytest.mark.parametrize(("viewname", "argument"), URLS)
@pytest.mark.parametrize("slug", ["spring-open", "cup-2026", "98765432109-x", "1"])
@pytest.mark.parametrize("pk", [1, 7, 10, 987, 2_147_483_647])
def test_a_row_link_is_the_reversed_url(viewname, argument, slug, pk):
    assert IdLink(viewname, slug)(pk) == reverse(viewname, kwargs={"slug": slug, argument: pk})
