"""Publishing the cut costs a fixed number of queries whatever the size of the event (issue 32):
a 2,000-player event's top 512 (half the field rounded down to a power of two) takes as many as
a 100-player event's top 32; the bracket and the final standings screens stay paged."""

import time

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import Desk, crowd
from tournaments import services as tournament_services
from tournaments.models import Match, MatchEnd, PlayoffSeed, Round


def swiss_round_played(desk: Desk) -> None:
    """One Swiss round of the whole field, every match ended 2–0 (inserted at once: the result
    service, one match at a time, would take minutes for thousands)."""
    round_ = Round.objects.create(tournament=desk.tournament, number=1)
    players = desk.players
    Match.objects.bulk_create(
        Match(
            round=round_,
            table=index // 2 + 1,
            player1=players[index],
            player2=players[index + 1],
            player1_wins=2,
            ended_at=round_.created_at,
            end_reason=MatchEnd.WINS_NEEDED,
        )
        for index in range(0, len(players) - 1, 2)
    )


def publish(count: int) -> tuple[int, float, Desk]:
    desk = Desk.create(players=0, level="professional")
    crowd(desk, count)
    swiss_round_played(desk)
    tournament_services.set_playoff(
        tournament=desk.tournament, size="half", best_of=3, final_best_of=3
    )
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        tournament_services.publish_cut(tournament=desk.tournament)
        took = time.perf_counter() - started
    return len(queries), took, desk


def test_publishing_a_2000_player_cut_takes_as_many_queries_as_a_small_one(db, client):
    small, _took, _desk = publish(100)
    large, took, desk = publish(2000)
    assert PlayoffSeed.objects.filter(tournament=desk.tournament).count() == 512
    assert (
        Match.objects.filter(round__tournament=desk.tournament, round__playoff=True).count() == 256
    )
    assert large == small
    print(f"publish the cut of 2,000 players (top 512): {large} queries, {took * 1000:.0f} ms")

    # The staff bracket shows a block of 8 first-round matches (and what they lead to).
    client.force_login(desk.organiser)
    with CaptureQueriesContext(connection) as page_queries:
        page = client.get(reverse("tournaments:playoff", args=[desk.tournament.slug]) + "?block=3")
    html = page.content.decode()
    assert html.count('class="bracket-match') == 8 + 4 + 2 + 1 * 6
    assert "часть 3 из 32" in html
    standings = client.get(reverse("tournaments:playoff-standings", args=[desk.tournament.slug]))
    assert standings.content.decode().count("<tr") == 101
    assert len(page_queries) < 25

    # The printed bracket (?all=1) of a top 512 is one A4 part per request: 16 first-round
    # matches and every match they lead to, as few queries as the screen's block.
    printed = reverse("tournaments:playoff", args=[desk.tournament.slug]) + "?all=1"
    with CaptureQueriesContext(connection) as print_queries:
        first = client.get(printed).content.decode()
    assert first.count('class="bracket-match') == 16 + 8 + 4 + 2 + 1 * 5
    assert "часть 1 из 16" in first and 'href="?all=1&amp;block=2"' in first
    assert len(print_queries) < 25
    last = client.get(printed + "&block=16").content.decode()
    assert last.count('class="bracket-match') == 16 + 8 + 4 + 2 + 1 * 5
    assert "часть 16 из 16" in last and 'href="?all=1&amp;block=15"' in last


def test_a_small_bracket_prints_whole_on_one_page(db, client):
    _queries, _took, desk = publish(40)  # half of 40: a top 16
    client.force_login(desk.organiser)
    page = client.get(reverse("tournaments:playoff", args=[desk.tournament.slug]) + "?all=1")
    html = page.content.decode()
    assert html.count('class="bracket-match') == 8 + 4 + 2 + 1
    assert "часть" not in html
