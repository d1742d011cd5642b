"""The judges' start page: every player once, in table order, then those without a table, a page
at a time; the same queries for an event of any size."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from judging.selectors import players_at_glance
from tests.factories import Desk, crowd
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


def running(players: int, *, bye: bool = True, unpaired: int = 0) -> Desk:
    """Round 1 paired with a bye (the last player) and ``unpaired`` players registered late."""
    desk = Desk.create()
    crowd(desk, players - len(desk.players))
    order = desk.players[: players - unpaired]
    pairs = [(order[i], order[i + 1]) for i in range(0, len(order) - 1, 2)]
    if bye and len(order) % 2:
        pairs.append((order[-1], None))
    tournament_services.pair_round(tournament=desk.tournament, pairings=pairs)
    return desk


def every_page(desk: Desk, page_size: int) -> list[tuple[int | None, str]]:
    rows, page = [], 1
    while True:
        found = players_at_glance(tournament=desk.tournament, page=page, page_size=page_size)
        rows += [(row.table, row.registration.player.name) for row in found.rows]
        if not found.has_next:
            return rows
        page += 1


@pytest.mark.parametrize("page_size", [1, 2, 3, 7, 30])
def test_the_pages_list_every_player_once_in_table_then_name_order(page_size):
    desk = running(21, unpaired=4)  # 17 paired: 8 tables and a bye; 4 without a match
    rows = every_page(desk, page_size)

    assert len(rows) == 21
    assert {name for _table, name in rows} == {reg.player.name for reg in desk.players}
    tabled = [row for row in rows if row[0] is not None]
    assert [table for table, _name in tabled] == [n for n in range(1, 9) for _ in (0, 1)]
    for table in range(1, 9):
        at_table = [name for number, name in tabled if number == table]
        assert at_table == sorted(at_table)
    rest = [name for table, name in rows if table is None]
    assert rest == sorted(rest) and len(rest) == 5


def test_a_table_number_finds_both_players_and_a_name_finds_its_player():
    desk = running(40)
    by_table = players_at_glance(tournament=desk.tournament, query="3")
    name = desk.players[7].player.name

    assert sorted(row.registration.pk for row in by_table.rows) == [
        desk.players[4].pk,
        desk.players[5].pk,
    ]
    assert [
        row.registration.player.name
        for row in players_at_glance(tournament=desk.tournament, query=name).rows
    ] == [name]


def test_before_the_first_round_the_players_are_listed_by_name():
    desk = Desk.create()
    crowd(desk, 36)
    rows = every_page(desk, 30)
    names = [name for _table, name in rows]
    assert names == sorted(reg.player.name for reg in desk.players)


def queries(desk: Desk, **search: object) -> int:
    with CaptureQueriesContext(connection) as captured:
        players_at_glance(tournament=desk.tournament, **search)  # type: ignore[arg-type]
    return len(captured)


def test_the_start_page_takes_the_same_queries_whatever_the_events_size():
    small, large = running(64), running(3000)
    for search in ({}, {"page": 2}, {"query": "7"}, {"query": "игрок"}):
        assert queries(small, **search) == queries(large, **search), search
    # The last page reads on past the tables to the players without one: two queries more,
    # whatever the size.
    last_small = queries(small, page=3)
    last_large = queries(large, page=100)
    assert last_small == last_large == queries(small) + 2
