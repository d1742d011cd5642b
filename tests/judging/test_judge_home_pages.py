"""The judges' start page: every player once, in table order, then those without a table, a page
at a time (the next page after its last player, the previous before its first); the same queries
for an event of any size."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from judging import selectors
from judging.selectors import players_at_glance
from players.models import Player, search_text
from tests.factories import Desk, crowd
from tournaments import services as tournament_services
from tournaments.models import Match, Registration

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


def expected(desk: Desk, needle: str = "") -> list[int]:
    """The list as the judges' start page promises it, worked out the long way: by table, then
    by name, then the players without a table by name; namesakes by registration."""
    latest = desk.tournament.rounds.order_by("-number").first()
    table_of: dict[int, int | None] = {}
    for match in Match.objects.filter(round=latest):
        table_of[match.player1_id] = match.table
        if match.player2_id:
            table_of[match.player2_id] = match.table
    registrations = Registration.objects.filter(tournament=desk.tournament).select_related("player")
    found = [
        registration
        for registration in registrations
        if search_text(needle) in registration.player.search_text
    ]

    def place(registration: Registration) -> tuple[bool, int, str, int]:
        table = table_of.get(registration.pk)
        return (table is None, table or 0, registration.player.name, registration.pk)

    return [registration.pk for registration in sorted(found, key=place)]


def pages_forward(desk: Desk, page_size: int, query: str = "") -> list[list[int]]:
    pages, after = [], None
    while True:
        found = players_at_glance(
            tournament=desk.tournament, query=query, after=after, page_size=page_size
        )
        pages.append([row.registration.pk for row in found.rows])
        assert found.has_previous == (after is not None)
        if not found.has_next:
            return pages
        after = found.last


def pages_backward(desk: Desk, page_size: int, last_page: list[int], query: str = "") -> list:
    """From the last page back to the first, through the previous links."""
    pages, before = [last_page], last_page[0]
    while True:
        found = players_at_glance(
            tournament=desk.tournament, query=query, before=before, page_size=page_size
        )
        pages.append([row.registration.pk for row in found.rows])
        assert found.has_next
        if not found.has_previous:
            return pages[::-1]
        before = found.first


@pytest.mark.parametrize("page_size", [1, 2, 3, 7, 30])
def test_the_pages_list_every_player_once_in_table_then_name_order(page_size):
    desk = running(21, unpaired=4)  # 17 paired: 8 tables and a bye; 4 without a match
    rows = [pk for page in pages_forward(desk, page_size) for pk in page]

    assert rows == expected(desk)
    glances = [_glance(desk, pk) for pk in rows]
    assert [glance.table for glance in glances[:16]] == [n for n in range(1, 9) for _ in (0, 1)]
    rest = [glance.registration.player.name for glance in glances[16:]]
    assert rest == sorted(rest) and len(rest) == 5
    assert all(glance.table is None for glance in glances[16:])


def _glance(desk: Desk, pk: int) -> selectors.PlayerAtGlance:
    registration = Registration.objects.get(pk=pk)
    return selectors.player_at_glance(tournament=desk.tournament, registration=registration)


@pytest.mark.parametrize("page_size", [1, 2, 3, 7])
def test_the_previous_links_go_back_through_the_same_pages(page_size):
    desk = running(21, unpaired=4)
    forward = pages_forward(desk, page_size)

    backward = pages_backward(desk, page_size, forward[-1])

    # Backward, the first page is the one that fills a page: the same players as going forward
    # whenever the list divides into whole pages, and a full first page otherwise.
    assert [pk for page in backward for pk in page][-len(forward[-1]) :] == forward[-1]
    assert len(backward[0]) == page_size
    assert backward[0] == expected(desk)[:page_size]
    if len(expected(desk)) % page_size == 0:
        assert backward == forward


def test_a_page_before_the_second_is_the_first_page_in_full():
    desk = running(40)
    first = players_at_glance(tournament=desk.tournament, page_size=10)
    # A page that starts three players in: going back shows the first page, not three players.
    third_in = expected(desk)[3]

    back = players_at_glance(tournament=desk.tournament, before=third_in, page_size=10)

    assert [row.registration.pk for row in back.rows] == [row.registration.pk for row in first.rows]
    assert (back.has_previous, back.has_next) == (False, True)


def test_namesakes_at_one_table_and_without_one_keep_their_order_by_registration():
    desk = running(12, unpaired=3)
    Player.objects.filter(registrations__in=desk.players[:2]).update(name="Анна Ким")
    Player.objects.filter(registrations__in=desk.players[-3:]).update(name="Борис Ли")

    for page_size in (1, 2, 5):
        rows = [pk for page in pages_forward(desk, page_size) for pk in page]
        assert rows == expected(desk), page_size


def test_a_table_with_one_player_is_listed_with_that_player_alone():
    """A playoff walkover keeps its table with one player: no place is left empty, no page is
    cut short."""
    desk = running(20, bye=False)
    Match.objects.filter(round__tournament=desk.tournament, table=3).update(player2=None)
    walked_over = expected(desk)

    for page_size in (1, 3, 4):
        pages = pages_forward(desk, page_size)
        assert [pk for page in pages for pk in page] == walked_over
        assert all(len(page) == page_size for page in pages[:-1])


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


@pytest.mark.parametrize("number", ["0", "21", "99999999999999999999999999"])
def test_a_table_that_does_not_exist_finds_nobody(number):
    desk = running(40)

    found = players_at_glance(tournament=desk.tournament, query=number)

    assert (found.rows, found.has_previous, found.has_next) == ([], False, False)


@pytest.mark.parametrize("few_found", [100, 3])
@pytest.mark.parametrize("query", ["игрок", "игрок 1", "ИГРОК 2", "нет такого"])
def test_a_name_search_lists_its_finds_in_table_order_whether_it_finds_few_or_many(
    monkeypatch, few_found, query
):
    """Few finds are sorted by table here; many walk the tables (``FEW_FOUND`` lowered to walk
    them in a small event); both give the same list, page after page."""
    monkeypatch.setattr(selectors, "FEW_FOUND", few_found)
    desk = running(33, unpaired=6)

    for page_size in (1, 4, 30):
        pages = pages_forward(desk, page_size, query)
        assert [pk for page in pages for pk in page] == expected(desk, query), page_size
        if len(pages) > 1:
            back = pages_backward(desk, page_size, pages[-1], query)
            assert [pk for page in back for pk in page][-len(pages[-1]) :] == pages[-1]


def test_before_the_first_round_the_players_are_listed_by_name():
    desk = Desk.create()
    crowd(desk, 36)
    rows = [pk for page in pages_forward(desk, 30) for pk in page]
    names = [Registration.objects.get(pk=pk).player.name for pk in rows]
    assert rows == expected(desk)
    assert names == sorted(names) and len(names) == 40


@pytest.mark.parametrize(
    "cursor", ["abc", "-1", "0", "99999999", "1e3", "", "99999999999999999999999999999999"]
)
@pytest.mark.parametrize("direction", ["after", "before"])
def test_a_cursor_that_is_not_a_player_of_the_event_shows_the_first_page(client, cursor, direction):
    desk = running(40)
    client.force_login(desk.floor)
    path = reverse("judging:judge-home", args=[desk.tournament.slug])
    first = results(client.get(path).content.decode())

    response = client.get(path, {direction: cursor})

    assert response.status_code == 200
    assert results(response.content.decode()) == first
    assert first.count('class="player-target"') == 30


def results(page: str) -> str:
    """The list of players found, without the page's per-request token."""
    return page.split('<section id="player-results">', 1)[1].split("</section>", 1)[0]


def test_a_cursor_from_another_tournament_shows_the_first_page():
    desk, other = running(40), running(10)

    for direction in ("after", "before"):
        found = players_at_glance(tournament=desk.tournament, **{direction: other.players[3].pk})
        assert [row.registration.pk for row in found.rows] == expected(desk)[:30]
        assert (found.has_previous, found.has_next) == (False, True)


def test_the_last_page_offers_no_next_link_and_the_first_no_previous(client):
    desk = running(40)
    client.force_login(desk.floor)
    path = reverse("judging:judge-home", args=[desk.tournament.slug])
    order = expected(desk)

    first = results(client.get(path).content.decode())
    last = results(client.get(path, {"after": order[29]}).content.decode())

    assert f"after={order[29]}" in first and "before=" not in first
    assert f"before={order[30]}" in last and "after=" not in last
    assert last.count('class="player-target"') == 10


def test_a_cursor_past_the_end_shows_the_first_page():
    desk = running(40)

    found = players_at_glance(tournament=desk.tournament, after=expected(desk)[-1])

    assert [row.registration.pk for row in found.rows] == expected(desk)[:30]
    assert not found.has_previous


def queries(desk: Desk, **search: object) -> int:
    with CaptureQueriesContext(connection) as captured:
        players_at_glance(tournament=desk.tournament, **search)  # type: ignore[arg-type]
    return len(captured)


def test_the_start_page_takes_the_same_queries_whatever_the_events_size():
    small, large = running(64), running(3000)

    def second(desk: Desk) -> dict[str, object]:
        return {"after": expected(desk)[29]}

    def before_last(desk: Desk) -> dict[str, object]:
        return {"before": expected(desk)[-1]}

    for search in (
        lambda desk: {},
        second,
        before_last,
        lambda desk: {"query": "7"},
        lambda desk: {"query": "игрок"},
        lambda desk: {"query": desk.players[40].player.name},
    ):
        assert queries(small, **search(small)) == queries(large, **search(large)), search(small)
    # The last page reads on past the tables to the players without one: one query more,
    # whatever the size.
    last_small = queries(small, after=expected(small)[-2])
    last_large = queries(large, after=expected(large)[-2])
    assert last_small == last_large == queries(small, **second(small)) + 1
