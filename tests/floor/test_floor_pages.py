"""The floor page a page of tables at a time (issue 29): the first screen keeps the tables still
playing, each result state is a filter with the round's count, the pages turn by table number
(a cursor that is no table number gives the first page), a table is found by its number in one
step, and the live fragments and the extension buttons keep the page they were drawn on."""

import re
import uuid
from collections import Counter

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from decks import services as deck_services
from decks.models import DeckCheckPick
from floor import selectors, services
from floor.models import TimeExtension
from floor.templatetags.floor import STATE_LABELS
from tests.factories import Desk, crowd
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def home(desk: Desk) -> str:
    return reverse("floor:home", args=[desk.tournament.slug])


def tables_of(desk: Desk, count: int) -> Desk:
    """A round of ``count`` tables: players 2n and 2n + 1 at table n + 1."""
    crowd(desk, 2 * count - len(desk.players))
    desk.pair(*[(2 * n, 2 * n + 1) for n in range(count)])
    return desk


def tile_tables(body: str) -> list[int]:
    found = re.findall(r'data-state="[a-z-]+">\s*<a [^>]*><strong>(\d+)</strong>', body)
    return [int(table) for table in found]


def tile_states(body: str) -> dict[int, str]:
    found = re.findall(r'data-state="([a-z-]+)">\s*<a [^>]*><strong>(\d+)</strong>', body)
    return {int(table): state for state, table in found}


def row_tables(body: str) -> list[int]:
    found = re.findall(
        r'<li class="floor-table"[^>]*>\s*<p class="call-head"><strong class="table-no">Стол (\d+)',
        body,
    )
    return [int(table) for table in found]


def link(body: str, rel: str) -> str | None:
    found = re.search(rf'<a href="([^"#]*)#[a-z-]+" rel="{rel}">', body)
    return found.group(1).replace("&amp;", "&") if found else None


def report(match, seat, games, phone):
    services.report_result(
        match=match,
        seat=seat,
        code=services.seat_code(match_id=match.pk, seat=seat),
        games=games,
        phone=phone,
        client_key=uuid.uuid4(),
    )


@pytest.fixture
def two_a_page(monkeypatch):
    monkeypatch.setattr(selectors, "TABLES_PER_PAGE", 2)


@pytest.fixture
def seven(db):
    return tables_of(Desk.create(players=2, uses_decklists=False), 7)


def test_the_tables_come_a_page_at_a_time_forward_and_back(seven, two_a_page):
    client = signed_in(seven.head)
    body = client.get(home(seven)).content.decode()
    assert row_tables(body) == tile_tables(body) == [1, 2]
    assert link(body, "prev") is None and "К первым столам" not in body
    assert "Столы 1–2" in body
    seen = [1, 2]
    while (after := link(body, "next")) is not None:
        body = client.get(after).content.decode()
        assert row_tables(body) == tile_tables(body)
        seen += row_tables(body)
    assert seen == [1, 2, 3, 4, 5, 6, 7]
    assert after is None and row_tables(body) == [7]  # the last page holds what is left
    back = link(body, "prev")
    assert back == f"{home(seven)}?before=7"
    body = client.get(back).content.decode()
    assert row_tables(body) == [5, 6]
    assert link(body, "next") == f"{home(seven)}?after=6"
    assert link(body, "prev") == f"{home(seven)}?before=5"
    # The first page, reached backwards, has nothing before it.
    body = client.get(home(seven), {"before": "3"}).content.decode()
    assert row_tables(body) == [1, 2] and link(body, "prev") is None


@pytest.mark.parametrize("cursor", ["abc", "-1", "0", "1.5", "9" * 40, ""])
def test_a_cursor_that_is_no_table_number_gives_the_first_page(seven, two_a_page, cursor):
    client = signed_in(seven.floor)
    for name in ("after", "before"):
        response = client.get(home(seven), {name: cursor, "show": "nonsense"})
        assert response.status_code == 200
        body = response.content.decode()
        assert row_tables(body) == [1, 2]
        assert 'data-show="playing" aria-current="true"' in body


def test_a_cursor_past_either_end_gives_an_empty_page_that_links_back(seven, two_a_page):
    client = signed_in(seven.floor)
    body = client.get(home(seven), {"after": "99999"}).content.decode()
    assert row_tables(body) == [] and tile_tables(body) == []
    assert "Дальше столов нет." in body and link(body, "next") is None
    assert link(body, "prev") == f"{home(seven)}?before=100000"
    assert row_tables(client.get(link(body, "prev")).content.decode()) == [6, 7]
    body = client.get(home(seven), {"before": "1"}).content.decode()
    assert row_tables(body) == [] and link(body, "prev") is None
    assert f'href="{home(seven)}#glance-title">К первым столам' in body
    assert link(body, "next") == f"{home(seven)}?after=0"
    assert row_tables(client.get(link(body, "next")).content.decode()) == [1, 2]


def test_the_first_screen_leaves_the_tables_done_and_each_state_is_a_filter(seven):
    tournament_services.enter_result(match=seven.match_of(2), player1_wins=2, player2_wins=0)
    report(seven.match_of(4), 1, [1, 1], "a")
    report(seven.match_of(4), 2, [1, 1], "b")  # table 3: confirmed by the players
    report(seven.match_of(6), 1, [1, 1], "c")
    report(seven.match_of(6), 2, [2, 2], "d")  # table 4: the reports differ
    report(seven.match_of(8), 1, [2, 2], "e")  # table 5: reported, not confirmed
    client = signed_in(seven.organiser)
    expected = {
        "": [1, 4, 5, 6, 7],
        "playing": [1, 4, 5, 6, 7],
        "disputed": [4],
        "reported": [5],
        "no-result": [1, 6, 7],
        "done": [2, 3],
        "all": [1, 2, 3, 4, 5, 6, 7],
    }
    for show, tables in expected.items():
        body = client.get(home(seven), {"show": show} if show else {}).content.decode()
        assert row_tables(body) == tile_tables(body) == tables, show
    counts = re.findall(r'data-show="([a-z-]+)"[^>]*>[^<:]+: (\d+)</a>', body)
    assert dict(counts) == {
        "playing": "5",
        "disputed": "1",
        "reported": "1",
        "no-result": "3",
        "done": "2",
        "all": "7",
    }
    assert 'data-show="all" aria-current="true"' in body
    body = client.get(home(seven), {"show": "done"}).content.decode()
    assert tile_states(body) == {2: "finished", 3: "confirmed"}


def test_the_legend_counts_the_whole_round_as_its_tiles_show_it(seven, two_a_page):
    """Calls, deck checks waiting and extra time colour a few tables over their result; the
    legend's counts (read without reading the round's tables) match the tiles of every page."""
    desk = seven
    services.start_clock(tournament=desk.tournament)
    tournament_services.enter_result(match=desk.match_of(0), player1_wins=2, player2_wins=1)
    report(desk.match_of(2), 1, [1, 1], "a")
    report(desk.match_of(2), 2, [1, 1], "b")  # table 2: confirmed
    report(desk.match_of(4), 1, [1, 1], "c")  # table 3: reported, and extra time
    report(desk.match_of(6), 1, [1, 1], "d")
    report(desk.match_of(6), 2, [2, 1], "e")  # table 4: disputed (a judge is called too)
    for player in (4, 10, 12):  # tables 3, 6 and 7: extra time
        services.extend_time(
            match=desk.match_of(player),
            minutes=2,
            reason="ruling",
            given_by=desk.floor,
            client_key=uuid.uuid4(),
        )
    services.call_judge(tournament=desk.tournament, table=1, caller="x")  # a table done, called
    services.call_judge(tournament=desk.tournament, table=7, caller="y")
    deck_services.pick_tables(tournament=desk.tournament, by=desk.head, count=7, seed=3)
    deck_services.record_deck_check(registration=desk.players[10], judge=desk.floor, counted={})
    assert set(DeckCheckPick.objects.get().tables) == {1, 2, 3, 4, 5, 6, 7}

    client = signed_in(desk.head)
    states: dict[int, str] = {}
    body = client.get(home(desk), {"show": "all"}).content.decode()
    states.update(tile_states(body))
    while (after := link(body, "next")) is not None:
        body = client.get(after).content.decode()
        states.update(tile_states(body))
    assert states == {
        1: "call",
        2: "confirmed",
        3: "reported",
        4: "disputed",
        5: "deck-check",
        6: "extra-time",
        7: "call",
    }
    legend = dict(re.findall(r'<li class="glance-([a-z-]+)">[^<:]+: (\d+)</li>', body))
    expected = Counter(states.values())
    assert {state: int(count) for state, count in legend.items()} == {
        state: expected.get(state, 0) for state in selectors.GLANCE_ORDER
    }
    assert str(STATE_LABELS[selectors.TableState.CALL]) == "вызов судьи"


def test_a_table_is_found_by_its_number_in_one_step(seven, two_a_page):
    match = seven.match_of(8)
    tournament_services.enter_result(match=match, player1_wins=2, player2_wins=0)
    client = signed_in(seven.floor)
    page = client.get(home(seven)).content.decode()
    assert 'name="table"' in page
    response = client.get(home(seven), {"table": "5"})
    assert response.status_code == 302
    assert response.url == f"{home(seven)}?show=all&after=4#table-row-{match.pk}"
    body = client.get(response.url).content.decode()
    assert row_tables(body) == [5, 6]  # a table done is found too
    first = client.get(home(seven), {"table": "1"})
    assert first.url == f"{home(seven)}?show=all#table-row-{seven.match_of(0).pk}"
    for typed, shown in (("99", "99"), ("abc", "abc"), ("", "—"), ("-3", "-3")):
        response = client.get(home(seven), {"table": typed})
        assert response.status_code == 200
        assert f"В этом туре нет стола {shown}." in response.content.decode()


def test_the_extension_buttons_work_on_a_later_page(seven, two_a_page):
    client = signed_in(seven.floor)
    match = seven.match_of(8)  # table 5, on the third page
    body = client.get(home(seven), {"after": "4"}).content.decode()
    assert f'href="?after=4&amp;extend={match.pk}#table-row-{match.pk}"' in body
    opened = client.get(home(seven), {"after": "4", "extend": match.pk}).content.decode()
    extend_url = reverse("floor:extend", args=[seven.tournament.slug, match.pk])
    assert extend_url in opened
    assert '<input type="hidden" name="after" value="4">' in opened
    response = client.post(
        extend_url,
        {"reason": "ruling", "minutes": "2", "client_key": str(uuid.uuid4()), "after": "4"},
    )
    assert response.url == f"{home(seven)}?after=4#table-row-{match.pk}"
    body = client.get(response.url).content.decode()
    assert "+2 мин" in body and row_tables(body) == [5, 6]
    # Over htmx the row comes back alone, its links still on the page it was drawn on.
    response = client.post(
        extend_url,
        {"reason": "deck_check", "minutes": "3", "client_key": str(uuid.uuid4()), "after": "4"},
        headers=HTMX,
    )
    row = response.content.decode()
    assert row.lstrip().startswith(f'<li class="floor-table" id="table-row-{match.pk}"')
    assert "+5 мин" in row and f"?after=4&amp;extend={match.pk}" in row
    assert TimeExtension.objects.filter(match=match).count() == 2
    closed = client.get(
        home(seven), {"after": "4", "fragment": "table-row", "row": match.pk}, headers=HTMX
    )
    assert row_tables(closed.content.decode()) == [5]


def test_the_live_fragments_keep_the_page_they_were_drawn_on(seven, two_a_page):
    tournament_services.enter_result(match=seven.match_of(2), player1_wins=2, player2_wins=0)
    client = signed_in(seven.head)
    body = client.get(home(seven), {"show": "all", "after": "2"}).content.decode()
    assert f'hx-get="{home(seven)}?show=all&amp;after=2&amp;fragment=floor-glance"' in body
    assert f'hx-get="{home(seven)}?show=all&amp;after=2&amp;fragment=floor-tables"' in body
    glance = client.get(
        home(seven), {"show": "all", "after": "2", "fragment": "floor-glance"}, headers=HTMX
    ).content.decode()
    assert glance.lstrip().startswith('<section id="floor-glance"')
    assert tile_tables(glance) == [3, 4] and "Все столы: 7" in glance
    tables = client.get(
        home(seven), {"show": "done", "fragment": "floor-tables"}, headers=HTMX
    ).content.decode()
    assert tables.lstrip().startswith('<div id="floor-tables"')
    assert row_tables(tables) == [2]


def queries(client: Client, path: str, data: dict[str, object], **headers: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(path, data, headers=headers).status_code == 200
    return len(captured)


def test_the_floor_page_reads_the_same_queries_at_3_and_at_60_tables(db):
    counts = []
    for size in (3, 60):
        desk = tables_of(Desk.create(players=2, uses_decklists=False), size)
        services.start_clock(tournament=desk.tournament)
        tournament_services.enter_result(match=desk.match_of(0), player1_wins=2, player2_wins=0)
        services.call_judge(tournament=desk.tournament, table=2, caller="x")
        services.extend_time(
            match=desk.match_of(4),
            minutes=2,
            reason="ruling",
            given_by=desk.floor,
            client_key=uuid.uuid4(),
        )
        deck_services.pick_tables(tournament=desk.tournament, by=desk.head, count=2, seed=1)
        client = signed_in(desk.head)
        body = client.get(home(desk)).content.decode()
        assert len(row_tables(body)) == min(size - 1, selectors.TABLES_PER_PAGE)
        match = desk.match_of(4)
        counts.append(
            (
                queries(client, home(desk), {}),
                queries(client, home(desk), {"show": "all", "after": "1"}),
                queries(client, home(desk), {"fragment": "floor-glance"}, **HTMX),
                queries(client, home(desk), {"fragment": "table-row", "row": match.pk}, **HTMX),
            )
        )
    assert counts[0] == counts[1]
