"""Every screen costs the same whatever the event's size: the same number of queries for an event
of four players as for one of 2,000, and a page of at most about 100 KB of HTML."""

import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from judging.selectors import players_at_glance
from tests.factories import Desk, crowd
from tournaments import services as tournament_services

LARGE = 2000
MAX_BYTES = 100_000


def event(players: int) -> Desk:
    """A running event: the first round published, each player with a penalty or two."""
    desk = Desk.create()
    crowd(desk, players - len(desk.players))
    order = desk.players
    tournament_services.pair_round(
        tournament=desk.tournament,
        pairings=[(order[i], order[i + 1]) for i in range(0, len(order) - 1, 2)],
    )
    for index in range(4):
        desk.issue(index, "1.4", by="floor")
    desk.issue(0, "1.1", by="floor")
    return desk


# The small event fills more than a page of every paged screen: a page that is not full reads
# on past the round's tables (the judges' start page lists the players without one after them).
SMALL = 64


@pytest.fixture
def events(db):
    return event(SMALL), event(LARGE)


def measure(client, desk, user, method, name, data=None, **headers):
    client.force_login(getattr(desk, user))
    path = reverse(name, args=[desk.tournament.slug])
    with CaptureQueriesContext(connection) as queries:
        if method == "get":
            response = client.get(path, data or {}, headers=headers)
        else:
            response = client.post(path, data or {}, headers=headers)
    body = b"".join(response.streaming_content) if response.streaming else response.content
    assert response.status_code == 200, body[:500]
    return len(queries), len(body), body.decode()


def form(desk):
    return {
        "player": desk.players[1].pk,
        "client_key": str(uuid.uuid4()),
        "infraction": "1.4",
        "moment": "in_game",
    }


SCREENS = {
    "judge start page": ("floor", "get", "judging:judge-home", lambda desk: {}, {}),
    "judge search by name": ("floor", "get", "judging:judge-home", lambda d: {"q": "игрок"}, {}),
    "judge search by table": ("floor", "get", "judging:judge-home", lambda d: {"q": "1"}, {}),
    "log page": (
        "floor",
        "get",
        "judging:log",
        lambda desk: {"player": desk.players[1].pk},
        {},
    ),
    "preview": ("floor", "post", "judging:preview", form, {"HX-Request": "true"}),
    "my penalties": ("floor", "get", "judging:mine", lambda desk: {}, {}),
    "console": ("head", "get", "judging:console", lambda desk: {}, {}),
    "console live re-fetch": (
        "head",
        "get",
        "judging:console",
        lambda desk: {"fragment": "penalty-log", "player_name": "игрок"},
        {"HX-Request": "true"},
    ),
    "report page": ("organiser", "get", "judging:report", lambda desk: {}, {}),
    "report page 2": ("organiser", "get", "judging:report", lambda desk: {"page": "2"}, {}),
    "registry search": (
        "organiser",
        "get",
        "tournaments:player-search",
        lambda desk: {"q": "игрок"},
        {"HX-Request": "true"},
    ),
}


def test_every_screen_costs_the_same_for_four_players_and_for_two_thousand(client, events):
    small, large = events
    measured = {}
    for screen, (user, method, name, data, headers) in SCREENS.items():
        small_queries, _size, _ = measure(client, small, user, method, name, data(small), **headers)
        large_queries, large_size, _ = measure(
            client, large, user, method, name, data(large), **headers
        )
        measured[screen] = (small_queries, large_queries, large_size < MAX_BYTES)

    assert measured == {
        screen: (small, small, True) for screen, (small, _l, _s) in measured.items()
    }


def test_the_start_page_pages_through_the_players_in_table_order(client, db):
    large = event(100)
    client.force_login(large.floor)
    path = reverse("judging:judge-home", args=[large.tournament.slug])

    first = " ".join(client.get(path).content.decode().split())
    last_on_first = players_at_glance(tournament=large.tournament).last
    second_page = players_at_glance(tournament=large.tournament, after=last_on_first)
    second = " ".join(client.get(path, {"after": last_on_first}).content.decode().split())

    assert "Стол 1 <" in first and "Стол 15 <" in first and "Стол 16 <" not in first
    assert "Стол 16 <" in second and "Стол 30 <" in second and "Стол 15 <" not in second
    assert f"after={last_on_first}" in first
    assert f"before={second_page.first}" in second


def test_the_console_player_filter_is_a_search(client, db):
    small = event(4)
    _queries, _size, page = measure(client, small, "head", "get", "judging:console")

    assert 'name="player_name"' in page
    assert '<select name="player"' not in page
    assert f">{small.players[3].player.name}</option>" not in page


def test_the_live_re_fetch_brings_the_queue_with_the_log(client, db):
    small = event(4)
    _queries, _size, fragment = measure(
        client,
        small,
        "head",
        "get",
        "judging:console",
        {"fragment": "penalty-log"},
        **{"HX-Request": "true"},
    )

    assert fragment.lstrip().startswith('<section id="penalty-log"')
    assert '<section id="request-queue" class="queue" hx-swap-oob="true">' in fragment


def test_publishing_a_round_takes_the_same_queries_whatever_its_size(db):
    counts = []
    for players in (4, LARGE):
        desk = Desk.create()
        crowd(desk, players - len(desk.players))
        order = desk.players
        pairings = [(order[i], order[i + 1]) for i in range(0, len(order) - 1, 2)]
        with CaptureQueriesContext(connection) as queries:
            tournament_services.pair_round(tournament=desk.tournament, pairings=pairings)
        counts.append(len(queries))

    assert counts[0] == counts[1]


def test_the_report_page_shows_one_page_of_each_list_and_the_whole_report_on_request(client, db):
    desk = event(120)
    client.force_login(desk.organiser)
    path = reverse("judging:report", args=[desk.tournament.slug])

    def standings_rows(response):
        page = b"".join(response.streaming_content).decode()
        section = page.split('id="report-standings"')[1].split("</section>")[0]
        return section.count("<tr") - 1, page

    first, first_page = standings_rows(client.get(path))
    third, third_page = standings_rows(client.get(path, {"page": 3}))
    whole, whole_page = standings_rows(client.get(path, {"all": 1}))

    assert (first, third, whole) == (50, 20, 120)
    assert "page=2" in first_page and "?all=1" in first_page
    assert "page=2" in third_page and "page=4" not in third_page
    assert "data-print" in whole_page and 'id="report-pager"' not in whole_page


def waiting_losses(players: int, each: int) -> tuple[Desk, list]:
    """An event between rounds 1 and 2 with losses waiting, ``each`` of every kind: a game loss,
    two game losses (the match is lost 0–2 by them), a match loss, and a game loss for both
    players of one match (a drawn game)."""
    from django.utils import timezone

    from judging.editions import assign_edition, derive_edition, put_infraction
    from judging.selectors import edition_for
    from tournaments.models import Match

    desk = Desk.create(level="professional")
    slug = f"x-{desk.tournament.slug}"
    edition = derive_edition(base=edition_for(tournament=desk.tournament), slug=slug, name="x")
    put_infraction(
        edition=edition, code="9.5", name="Тяжёлое", penalties={"professional": "match_loss"}
    )
    assign_edition(tournament=desk.tournament, edition=edition)
    crowd(desk, players - len(desk.players))
    order = desk.players
    pairs = [(order[i], order[i + 1]) for i in range(0, len(order) - 1, 2)]
    tournament_services.pair_round(tournament=desk.tournament, pairings=pairs)
    Match.objects.filter(round__tournament=desk.tournament).update(
        ended_at=timezone.now(), end_reason="time_called"
    )
    kinds = []
    for index in range(each):
        first, second, third, fourth, fifth = (8 * index + n for n in (0, 2, 4, 6, 7))
        desk.issue(first, "1.2", "between_matches")
        desk.issue(second, "1.1", "between_matches")
        desk.issue(second, "1.2", "between_matches")
        desk.issue(third, "9.5", "between_matches")
        desk.issue(fourth, "1.2", "between_matches")
        desk.issue(fifth, "1.2", "between_matches")
        kinds.append((first, second, third, fourth))
    return desk, kinds


def test_publishing_with_losses_waiting_takes_the_same_queries_whatever_their_number(db):
    from tournaments.models import Match, MatchEnd

    counts = []
    for players, each in ((8, 1), (LARGE, 50)):
        desk, kinds = waiting_losses(players, each)
        order = desk.players
        # Round 2 pairs the same tables again: each waiting player meets the same opponent.
        pairings = [(order[i], order[i + 1]) for i in range(0, len(order) - 1, 2)]
        with CaptureQueriesContext(connection) as queries:
            tournament_services.pair_round(tournament=desk.tournament, pairings=pairings)
        counts.append(len(queries))

        def match(index, desk=desk):
            return Match.objects.get(round__number=2, player1=desk.players[index])

        for first, second, third, fourth in kinds:
            one_loss, two_losses, match_loss, both = (
                match(first),
                match(second),
                match(third),
                match(fourth),
            )
            assert (one_loss.player1_wins, one_loss.player2_wins, one_loss.ended_at) == (0, 1, None)
            assert list(one_loss.games.values_list("number", "winner_id")) == [
                (1, one_loss.player2_id)
            ]
            assert (two_losses.player1_wins, two_losses.player2_wins) == (0, 2)
            assert two_losses.end_reason == MatchEnd.WINS_NEEDED
            assert (match_loss.player1_wins, match_loss.player2_wins) == (0, 2)
            assert (match_loss.end_reason, match_loss.player1_lost_by_penalty) == (
                MatchEnd.PENALTY,
                True,
            )
            assert (both.draws, both.ended_at) == (1, None)
            assert list(both.games.values_list("number", "winner_id")) == [(1, None)]
        from judging.models import PenaltyRecord

        assert not PenaltyRecord.objects.filter(tournament=desk.tournament).pending_losses()

    assert counts[0] == counts[1]


def test_the_report_page_computes_the_standings_again_only_when_a_match_ends(
    client, db, monkeypatch
):
    from tournaments import selectors as tournament_selectors

    desk = event(40)
    client.force_login(desk.organiser)
    path = reverse("judging:report", args=[desk.tournament.slug])
    computed = []
    compute = tournament_selectors.compute_standings

    def counted(**arguments):
        computed.append(len(arguments["registration_ids"]))
        return compute(**arguments)

    monkeypatch.setattr(tournament_selectors, "compute_standings", counted)

    def record_of(player):
        page = b"".join(client.get(path, {"all": 1}).streaming_content).decode()
        section = page.split('id="report-standings"')[1].split("</section>")[0]
        row = section.split(f">{player.player.name}<")[1].split("</tr>")[0]
        return [cell.split(">")[-1].strip() for cell in row.split("</td>")][2]  # W–D–L

    first = record_of(desk.players[0])
    b"".join(client.get(path, {"page": 2}).streaming_content)
    assert computed == [40]

    desk.win(0)
    desk.win(0)

    assert (first, record_of(desk.players[0])) == ("0–0–0", "1–0–0")
    assert computed == [40, 40]
