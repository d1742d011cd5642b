"""The organiser's pairings and standings come a page at a time, whatever the event's size, and
all at once on request for printing."""

import html
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import Desk, crowd
from tournaments import services as tournament_services
from tournaments.play_views import MATCHES_PAGE_SIZE, PAGE_SIZE

pytestmark = pytest.mark.django_db


def paired(players: int, *, finished: bool = False) -> Desk:
    desk = Desk.create()
    crowd(desk, players - len(desk.players))
    order = desk.players
    tournament_services.pair_round(
        tournament=desk.tournament,
        pairings=[(order[i], order[i + 1]) for i in range(0, len(order) - 1, 2)],
    )
    if finished:
        for index in range(0, players, 2):
            desk.win(index)
            desk.win(index)
    return desk


def get(client, desk: Desk, name: str, *args: object, **data: object) -> tuple[int, str]:
    client.force_login(desk.organiser)
    path = reverse(name, args=[desk.tournament.slug, *args])
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path, data)
    assert response.status_code == 200
    return len(queries), response.content.decode()


def tables_in(page: str) -> list[int]:
    return [int(n) for n in re.findall(r'aria-label="[^"]*">(\d+)</a>', page)]


def test_the_pairings_by_table_are_paged_and_printed_whole(client):
    desk = paired(250)  # 125 tables
    _q, first = get(client, desk, "tournaments:round", 1)
    _q, second = get(client, desk, "tournaments:round", 1, page=2)
    _q, whole = get(client, desk, "tournaments:round", 1, all=1)

    assert tables_in(first) == list(range(1, MATCHES_PAGE_SIZE + 1))
    assert tables_in(second) == list(range(MATCHES_PAGE_SIZE + 1, 2 * MATCHES_PAGE_SIZE + 1))
    assert tables_in(whole) == list(range(1, 126))
    assert 'href="?page=2"' in first and "?all=1" in first


def link(page: str, rel: str) -> str:
    """The query string of the pager's «Previous» or «Next» link."""
    found = re.search(rf'<a href="(\?[^"]*)" rel="{rel}">', page)
    assert found is not None, f"no {rel} link"
    return html.unescape(found.group(1))


def follow(client, desk: Desk, name: str, query: str, *args: object) -> str:
    path = reverse(name, args=[desk.tournament.slug, *args])
    response = client.get(path + query)
    assert response.status_code == 200
    return response.content.decode()


def names_in(page: str) -> list[str]:
    return re.findall(r"<tr><td>([^<]+)</td><td>(?:\d+|—)</td>", page)


def test_the_pairings_by_name_are_paged_in_name_order(client):
    desk = paired(250)
    by_name = sorted(reg.player.name for reg in desk.players)
    _q, first = get(client, desk, "tournaments:round", 1, order="name")
    second = follow(client, desk, "tournaments:round", link(first, "next"), 1)
    third = follow(client, desk, "tournaments:round", link(second, "next"), 1)
    back = follow(client, desk, "tournaments:round", link(third, "prev"), 1)
    _q, last = get(client, desk, "tournaments:round", 1, order="name", last=1)

    assert names_in(first) == by_name[:PAGE_SIZE]
    assert names_in(second) == by_name[PAGE_SIZE : 2 * PAGE_SIZE]
    assert names_in(third) == by_name[2 * PAGE_SIZE :]
    assert names_in(back) == names_in(second)
    # The last page is its last hundred players, whichever page they began on.
    assert names_in(last) == by_name[-PAGE_SIZE:]
    assert link(first, "next").startswith("?order=name&after=")
    assert 'rel="prev"' not in first and 'rel="next"' not in third
    assert "?order=name&amp;all=1" in first


def test_the_standings_are_paged_by_position(client):
    desk = paired(250, finished=True)
    _q, first = get(client, desk, "tournaments:standings")
    _q, third = get(client, desk, "tournaments:standings", page=3)
    _q, earlier = get(client, desk, "tournaments:standings", round=1, page=2)

    def positions(page: str) -> list[int]:
        body = page.split('id="standings-table"', 1)[1]
        return [int(n) for n in re.findall(r'<tr[^>]*>\s*<td class="num">(\d+)</td>', body)]

    assert len(positions(first)) == PAGE_SIZE and positions(first)[0] == 1
    assert len(positions(third)) == 50
    assert len(positions(earlier)) == PAGE_SIZE
    assert 'href="?round=1&amp;page=3"' in earlier


def test_the_players_are_listed_a_page_at_a_time_with_their_number(client):
    desk = paired(250)
    _q, first = get(client, desk, "tournaments:registrations")
    second = follow(client, desk, "tournaments:registrations", link(first, "next"))
    third = follow(client, desk, "tournaments:registrations", link(second, "next"))

    def names(page: str) -> list[str]:
        return re.findall(r"<tr><td>([^<]+)</td><td>", page)

    by_name = sorted(reg.player.name for reg in desk.players)
    assert names(first) == by_name[:100] and names(third) == by_name[200:]
    # The number of players stays in the heading on every page.
    assert "250 игроков" in first and "250 игроков" in third


@pytest.mark.parametrize(
    "screen",
    [
        ("tournaments:registrations", (), {}),
        ("tournaments:round", (1,), {}),
        ("tournaments:round", (1,), {"page": 2}),
        ("tournaments:round", (1,), {"order": "name"}),
        ("tournaments:round", (1,), {"order": "name", "last": 1}),
        ("tournaments:standings", (), {}),
        ("tournaments:standings", (), {"round": 1}),
    ],
    ids=[
        "players",
        "by table",
        "by table, page 2",
        "by name",
        "by name, last page",
        "standings",
        "standings after round 1",
    ],
)
def test_a_page_takes_the_same_queries_whatever_the_events_size(client, screen):
    name, args, data = screen
    counts = []
    for players in (210, 500):
        desk = paired(players, finished=name == "tournaments:standings")
        get(client, desk, name, *args, **data)  # the standings' table is computed once
        queries, page = get(client, desk, name, *args, **data)
        counts.append(queries)
        assert len(page) < 100_000
    assert counts[0] == counts[1]
