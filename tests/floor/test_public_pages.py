"""The players' pages as prepared bytes: built once per change, gzip and validators, a name
search that answers with the player's own line, pages of pairings and standings, and the same
few queries whatever the event's size."""

import gzip

import pytest
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from floor import services
from floor.public_pages import PAGE_SIZE, SEARCH_LIMIT
from tests.factories import Desk, crowd
from tournaments import services as tournament_services
from tournaments.services import forget_public_stamp

pytestmark = pytest.mark.django_db

GZIP = {"Accept-Encoding": "gzip, deflate, br"}


@pytest.fixture(autouse=True)
def empty_cache():
    caches["public"].clear()


def paired_event(players: int) -> tuple[Desk, str]:
    desk = Desk.create()
    crowd(desk, players - len(desk.players))
    order = desk.players
    tournament_services.pair_round(
        tournament=desk.tournament,
        pairings=[(order[i], order[i + 1]) for i in range(0, len(order) - 1, 2)],
    )
    return desk, services.ensure_public_pages(tournament=desk.tournament).token


def home(token: str) -> str:
    return reverse("floor:public", args=[token])


def names_in(page: str, desk: Desk) -> list[str]:
    """The players whose own line (name first, then the table) the page shows."""
    return [
        reg.player.name
        for reg in desk.players
        if f'<td>{reg.player.name}</td><td class="table-no">' in page
    ]


def test_the_page_is_gzip_for_a_client_that_takes_it_and_plain_otherwise():
    desk, token = paired_event(4)
    client = Client()

    plain = client.get(home(token))
    packed = client.get(home(token), headers=GZIP)

    assert "Content-Encoding" not in plain
    assert packed["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.content) == plain.content
    assert len(packed.content) < len(plain.content)
    assert desk.players[0].player.name in plain.content.decode()
    # Two byte strings, two entity tags; both say they differ by the encoding and language.
    assert plain["ETag"] != packed["ETag"]
    assert packed["ETag"] == plain["ETag"][:-1] + '-gz"'
    for header in ("Accept-Encoding", "Accept-Language"):
        assert header in packed["Vary"]
    assert packed["Cache-Control"] == "no-cache"
    assert packed["Last-Modified"]


def test_gzip_refused_with_a_quality_of_zero_gets_plain_bytes():
    _desk, token = paired_event(4)
    response = Client().get(home(token), headers={"Accept-Encoding": "gzip;q=0, identity"})
    assert "Content-Encoding" not in response
    assert response.content.lstrip().startswith(b"<!doctype html>")


def test_an_unchanged_page_and_clock_answer_304_and_a_change_answers_anew():
    desk, token = paired_event(4)
    services.start_clock(tournament=desk.tournament)
    client = Client()
    clock_url = reverse("floor:public-clock", args=[token])
    page = client.get(home(token), headers=GZIP)
    clock = client.get(clock_url, headers=GZIP)

    again = client.get(home(token), headers={**GZIP, "If-None-Match": page["ETag"]})
    clock_again = client.get(clock_url, headers={**GZIP, "If-None-Match": clock["ETag"]})
    assert (again.status_code, again.content) == (304, b"")
    assert (clock_again.status_code, clock_again.content) == (304, b"")
    assert again["ETag"] == page["ETag"]

    services.pause_clock(tournament=desk.tournament)
    changed = client.get(clock_url, headers={**GZIP, "If-None-Match": clock["ETag"]})
    assert changed.status_code == 200
    assert 'data-status="paused"' in gzip.decompress(changed.content).decode()
    assert changed["ETag"] != clock["ETag"]


def test_the_prepared_clock_carries_no_moment_of_its_own():
    desk, token = paired_event(4)
    services.start_clock(tournament=desk.tournament)
    page = Client().get(home(token)).content.decode()
    clock = Client().get(reverse("floor:public-clock", args=[token])).content.decode()

    assert 'data-status="running"' in page and 'data-status="running"' in clock
    assert "data-server-now" not in page and "data-server-now" not in clock
    assert "data-ends-at=" in clock
    # The page's copy asks for the clock at once (the countdown takes the time from its
    # answer); the fragment it gets back polls only.
    assert 'hx-trigger="load, every 20s"' in page
    assert 'hx-trigger="every 20s"' in clock


def test_a_new_round_and_a_renewed_link_change_the_answer():
    desk, token = paired_event(4)
    client = Client()
    first = client.get(home(token)).content.decode()
    assert "Пары тура 1" in first
    for index in (0, 2):
        desk.win(index)
        desk.win(index)
    desk.pair((0, 2), (1, 3))

    second = client.get(home(token)).content.decode()
    assert "Пары тура 2" in second

    services.renew_public_link(tournament=desk.tournament)
    assert client.get(home(token)).status_code == 404


def test_a_phone_searching_its_name_gets_its_own_line_only():
    desk, token = paired_event(250)
    name = desk.players[201].player.name
    opponent = desk.players[200].player.name

    page = Client().get(home(token), {"q": name}).content.decode()

    assert names_in(page, desk) == [name]
    assert f"<td>{opponent}</td>" in page  # the opponent's column
    assert f'href="{home(token)}tables/101/"' in page
    assert len(page) < 10_000


def test_a_search_many_names_share_shows_a_few_and_asks_for_more_of_the_name():
    desk, token = paired_event(250)
    page = Client().get(home(token), {"q": "игрок"}).content.decode()

    assert len(names_in(page, desk)) == SEARCH_LIMIT
    assert "Это есть и в других именах: наберите имя полнее." in page


def test_the_pairings_are_paged_by_name():
    desk, token = paired_event(250)
    client = Client()
    by_name = sorted(reg.player.name for reg in desk.players)

    first = client.get(home(token)).content.decode()
    third = client.get(home(token), {"page": 3}).content.decode()
    past_the_end = client.get(home(token), {"page": 99}).content.decode()

    assert sorted(names_in(first, desk)) == by_name[:PAGE_SIZE]
    assert sorted(names_in(third, desk)) == by_name[2 * PAGE_SIZE :]
    assert past_the_end == third
    assert 'href="?page=2"' in first and "Страница 1 из 3" in first
    assert 'href="?page=2"' in third and 'href="?page=4"' not in third


def test_the_standings_are_a_page_of_their_own_once_published():
    desk, token = paired_event(4)
    client = Client()
    standings_url = reverse("floor:public-standings", args=[token])
    assert client.get(standings_url).status_code == 404
    for index in (1, 2):
        desk.win(index)
        desk.win(index)
    services.publish_standings(tournament=desk.tournament)

    assert "Турнирная таблица после тура 1" in client.get(home(token)).content.decode()
    page = client.get(standings_url).content.decode()
    winners = [desk.players[1].player.name, desk.players[2].player.name]
    losers = [desk.players[0].player.name, desk.players[3].player.name]
    assert max(page.index(name) for name in winners) < min(page.index(name) for name in losers)

    services.hide_standings(tournament=desk.tournament)
    assert client.get(standings_url).status_code == 404


def test_a_corrected_result_reaches_the_published_standings():
    desk, token = paired_event(4)
    for index in (1, 2):
        desk.win(index)
        desk.win(index)
    services.publish_standings(tournament=desk.tournament)
    client = Client()
    standings_url = reverse("floor:public-standings", args=[token])
    before = client.get(standings_url).content.decode()
    first, second = desk.players[0].player.name, desk.players[1].player.name
    assert before.index(second) < before.index(first)

    tournament_services.correct_result(
        match=_match_between(desk, 0, 1),
        player1_wins=2,
        player2_wins=0,
        draws=0,
        reason="Перепутали бланки",
        corrected_by=desk.organiser,
    )

    after = client.get(standings_url).content.decode()
    assert after.index(first) < after.index(second)


def _match_between(desk: Desk, first: int, second: int):
    from tournaments.selectors import latest_match_between

    found = latest_match_between(first=desk.players[first], second=desk.players[second])
    assert found is not None
    return found


def _queries(client: Client, path: str, data: dict[str, object] | None = None) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path, data or {}, headers=GZIP)
    assert response.status_code == 200
    return len(queries)


@pytest.mark.parametrize(
    "screen", ["home", "search", "page 2", "clock", "standings"], ids=lambda screen: screen
)
def test_building_and_serving_take_the_same_queries_whatever_the_events_size(screen):
    counts = []
    for players in (4, 8, 120):
        desk, token = paired_event(players)
        services.start_clock(tournament=desk.tournament)
        for index in range(0, players, 2):
            desk.win(index)
            desk.win(index)
        services.publish_standings(tournament=desk.tournament)
        path, data = {
            "home": (home(token), {}),
            "search": (home(token), {"q": desk.players[1].player.name}),
            "page 2": (home(token), {"page": 2}),
            "clock": (reverse("floor:public-clock", args=[token]), {}),
            "standings": (reverse("floor:public-standings", args=[token]), {}),
        }[screen]
        client = Client()
        built = _queries(client, path, data)
        # Another process's view: it has the page but must read the link's latest change.
        forget_public_stamp(tournament_id=desk.tournament.pk)
        served = _queries(client, path, data)
        counts.append((built, served))

    assert counts[0] == counts[1] == counts[2]
    # Once built, a page costs one query: the link and its latest change.
    assert counts[0][1] == 1


def test_a_page_asked_again_within_the_second_costs_no_query():
    _desk, token = paired_event(4)
    client = Client()
    client.get(home(token))
    assert _queries(client, home(token)) == 0


def test_a_change_in_this_process_is_seen_at_once():
    desk, token = paired_event(4)
    client = Client()
    clock_url = reverse("floor:public-clock", args=[token])
    assert 'data-status="not_started"' in client.get(clock_url).content.decode()
    services.start_clock(tournament=desk.tournament)
    assert 'data-status="running"' in client.get(clock_url).content.decode()


@pytest.mark.parametrize(
    ("asked", "page"),
    [("2", 2), ("0002", 2), ("0", 1), ("", 1), ("²", 1), ("-3", 1), ("9" * 5000, 100_000)],
)
def test_a_page_number_typed_by_hand_is_read_as_a_page_or_the_first(asked, page):
    from floor.public_pages import page_number

    assert page_number(asked) == page
