"""«My penalties»: the judge's own records of the tournament, newest first, a page at a time,
the older page after the page's last record and the newer one before its first; no count of
the records, and the same queries for a judge with four records as for one with hundreds."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from judging import views
from judging.models import PenaltyRecord
from judging.selectors import records_issued_page
from tests.factories import Desk

pytestmark = pytest.mark.django_db


def judged(records: int) -> Desk:
    """An event where the floor judge recorded one warning for each of ``records`` players."""
    players = max(2, records + records % 2)
    desk = Desk.create(players=players)
    desk.pair(*[(n, n + 1) for n in range(0, players, 2)])
    for n in range(records):
        desk.issue(n, "1.4", "between_matches", by="floor")
    return desk


def own(desk: Desk) -> list[int]:
    return list(
        PenaltyRecord.objects.filter(tournament=desk.tournament, issued_by=desk.floor)
        .order_by("-id")
        .values_list("pk", flat=True)
    )


def page(desk: Desk, **cursor: int | None) -> tuple[list[int], bool, bool]:
    found = records_issued_page(tournament=desk.tournament, user=desk.floor, page_size=3, **cursor)
    return [record["pk"] for record in found.records], found.has_newer, found.has_older


def test_the_older_links_walk_every_record_once_newest_first_and_the_newer_links_walk_back():
    desk = judged(8)
    desk.issue(0, "1.1", by="head")  # another judge's record is never on the page

    forward, older_than = [], None
    while True:
        records, has_newer, has_older = page(desk, older_than=older_than)
        assert has_newer == (older_than is not None)
        forward.append(records)
        if not has_older:
            break
        older_than = records[-1]
    backward, newer_than = [forward[-1]], forward[-1][0]
    while True:
        records, has_newer, has_older = page(desk, newer_than=newer_than)
        assert has_older
        backward.append(records)
        if not has_newer:
            break
        newer_than = records[0]

    assert [pk for records in forward for pk in records] == own(desk)
    assert [len(records) for records in forward] == [3, 3, 2]
    # Back from the last page, the first page is the newest three, as going forward.
    assert backward[::-1][0] == forward[0]
    assert backward[::-1][1] == forward[1]


def test_a_page_newer_than_the_second_record_is_the_first_page_in_full():
    desk = judged(8)
    records = own(desk)

    assert page(desk, newer_than=records[2]) == (records[:3], False, True)


@pytest.mark.parametrize("cursor", ["older_than", "newer_than"])
def test_a_cursor_beyond_the_records_shows_the_first_page(cursor):
    desk = judged(5)
    first = page(desk)

    assert page(desk, **{cursor: 10**9}) == first
    # Older than the oldest record: nothing there, so the newest page rather than an empty one.
    assert page(desk, older_than=own(desk)[-1]) == first


def test_a_judge_without_records_sees_the_empty_list_without_links(client):
    desk = judged(0)
    client.force_login(desk.floor)

    body = client.get(reverse("judging:mine", args=[desk.tournament.slug])).content.decode()

    assert "Вы ещё не записали в этом турнире ни одного пенальти." in body
    assert "?older=" not in body and "?newer=" not in body


@pytest.mark.parametrize(
    "query",
    [
        {"older": "abc"},
        {"older": "-1"},
        {"older": "0"},
        {"older": "99999999999999999999999999"},
        {"newer": "abc"},
        {"newer": "99999999"},
        {"page": "2"},
        {"older": "1", "newer": "1"},
    ],
)
def test_a_bad_cursor_shows_the_first_page_never_an_error(client, monkeypatch, query):
    monkeypatch.setattr(views, "MINE_PAGE_SIZE", 3)
    desk = judged(5)
    client.force_login(desk.floor)
    path = reverse("judging:mine", args=[desk.tournament.slug])
    first = shown(client.get(path).content.decode())

    response = client.get(path, query)

    assert response.status_code == 200
    assert shown(response.content.decode()) == first == own(desk)[:3]


def shown(body: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'id="my-record-(\d+)"', body)]


def test_the_pages_link_to_each_other_through_their_first_and_last_records(client, monkeypatch):
    monkeypatch.setattr(views, "MINE_PAGE_SIZE", 3)
    desk = judged(7)
    client.force_login(desk.floor)
    path = reverse("judging:mine", args=[desk.tournament.slug])
    records = own(desk)

    first = client.get(path).content.decode()
    second = client.get(path, {"older": records[2]}).content.decode()

    assert shown(first) == records[:3] and shown(second) == records[3:6]
    assert f"?older={records[2]}" in first and "?newer=" not in first
    assert f"?newer={records[3]}" in second and f"?older={records[5]}" in second


def queries(client, desk: Desk, **query: object) -> int:
    client.force_login(desk.floor)
    path = reverse("judging:mine", args=[desk.tournament.slug])
    with CaptureQueriesContext(connection) as captured:
        assert client.get(path, query).status_code == 200
    return len(captured)


def test_the_same_queries_for_four_records_as_for_many(client, monkeypatch):
    monkeypatch.setattr(views, "MINE_PAGE_SIZE", 3)
    few, many = judged(4), judged(40)

    assert queries(client, few) == queries(client, many)
    assert queries(client, few, older=own(few)[2]) == queries(client, many, older=own(many)[2])
    assert queries(client, few, newer=own(few)[3]) == queries(client, many, newer=own(many)[10])
