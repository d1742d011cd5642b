"""The standings selector over a tournament played through the real services."""

import contextlib
import re
import sqlite3
from fractions import Fraction as F

from django.db import connection
from django.urls import reverse
from django.utils import timezone

from tests.factories import Desk
from tournaments import selectors, services
from tournaments.models import Match, Registration, RegistrationStatus
from tournaments.templatetags.desk import percent


def win_match(desk, player):
    """The player wins the two games of a best of three."""
    desk.win(player)
    desk.win(player)


def table(desk, rows):
    """Rows as (player index, points, matches played, wins, draws, losses) for easy reading."""
    index = {registration.pk: i for i, registration in enumerate(desk.players)}
    return [
        (
            index[row.registration.pk],
            row.standing.points,
            row.standing.matches_played,
            row.standing.wins,
            row.standing.draws,
            row.standing.losses,
        )
        for row in rows
    ]


def play_two_rounds_and_start_a_third(desk):
    # R1: 0 beats 1 2–0; 2 beats 3 1–0 when time is called; 4 has a bye (stored 2–0).
    desk.pair((0, 1), (2, 3), (4, None))
    win_match(desk, 0)
    desk.win(2)
    desk.finish(2)
    # R2: 0 and 4 draw one game and time is called (0–0, one drawn game); 1 is disqualified in
    # the middle of the match against 3, which 3 wins 2–0 by penalty; 2 has a bye.
    desk.pair((0, 4), (1, 3), (2, None))
    services.record_game(match=desk.match_of(0), winner=None)
    desk.finish(0)
    desk.issue(1, "6.1")
    # 4 leaves after round 2; the status is all the selector reads of a drop.
    Registration.objects.filter(pk=desk.players[4].pk).update(
        status=RegistrationStatus.DROPPED, dropped_at=timezone.now()
    )
    # R3: 0 against 2 is in progress at 1–0 and must not count; 3's bye has ended and counts.
    desk.pair((0, 2), (3, None))
    desk.win(0)


def test_standings_of_a_played_tournament(db):
    desk = Desk.create(players=5, uses_decklists=False)
    play_two_rounds_and_start_a_third(desk)
    assert Match.objects.in_progress().count() == 1

    rows = selectors.standings(tournament=desk.tournament)

    # Ended matches only:
    #   0: W 2–0 vs 1, D 0–0 (+1 drawn game) vs 4 = 4 points; games 2 won, 1 drawn: GW 7/9.
    #   1: L 0–2 vs 0, L by penalty 0–2 vs 3 = 0; GW 0 -> 0.33.
    #   2: W 1–0 vs 3, bye 2–0 = 6; GW 9/9 = 1.
    #   3: L 0–1 vs 2, W by penalty 2–0 vs 1, bye 2–0 = 6; games 4 won, 1 lost: GW 12/15 = 4/5.
    #   4: bye 2–0, D vs 0 = 4; GW 7/9.
    # MW% (floored): 0 2/3, 1 0.33, 2 1, 3 2/3, 4 2/3.
    # OMW%: 0 (1, 4) = (0.33 + 2/3)/2; 1 (0, 3) = 2/3; 2 (3) = 2/3; 3 (2, 1) = (1 + 0.33)/2;
    #       4 (0) = 2/3.
    # 2 and 3 tie on 6 points: OMW% 2/3 > 0.665 puts 2 first.
    # 4 and 0 tie on 4 points: OMW% 2/3 > 0.498 puts 4 first.
    assert table(desk, rows) == [
        (2, 6, 2, 2, 0, 0),
        (3, 6, 3, 2, 0, 1),
        (4, 4, 2, 1, 1, 0),
        (0, 4, 2, 1, 1, 0),
        (1, 0, 2, 0, 0, 2),
    ]
    assert [row.standing.position for row in rows] == [1, 2, 3, 4, 5]
    assert [
        (
            row.standing.opponents_match_win,
            row.standing.game_win,
            row.standing.opponents_game_win,
        )
        for row in rows
    ] == [
        (2 / 3, 1.0, 4 / 5),  # OGW% of 2: 3's GW% 4/5.
        (0.665, 4 / 5, 0.665),  # OGW% of 3: (1 + 0.33)/2.
        (2 / 3, 7 / 9, 7 / 9),  # OGW% of 4: 0's GW% 7/9.
        (float((F(33, 100) + F(2, 3)) / 2), 7 / 9, float((F(33, 100) + F(7, 9)) / 2)),
        (2 / 3, 0.33, 71 / 90),  # OGW% of 1: (7/9 + 4/5)/2.
    ]
    assert [(row.dropped, row.disqualified, row.prize_eligible) for row in rows] == [
        (False, False, True),
        (False, False, True),
        (True, False, True),
        (False, False, True),
        (False, True, True),
    ]
    assert [row.registration.player.name for row in rows] == [
        desk.players[i].player.name for i in (2, 3, 4, 0, 1)
    ]


def test_standings_through_a_round(db):
    desk = Desk.create(players=5, uses_decklists=False)
    play_two_rounds_and_start_a_third(desk)

    rows = selectors.standings(tournament=desk.tournament, through_round=1)

    # After R1: 0, 2 and 4 have 3 points. 0 and 2 have OMW% 1/3 (their losers, floored), GW%
    # 1 and OGW% 1/3: a full tie, which the lower registration id (0) takes. 4's only match is
    # the bye, so its OMW% is 0 and it comes after them. 1 and 3 tie on everything too (OMW% 1,
    # GW% 0 -> 1/3, OGW% 1), 1 first by id.
    assert table(desk, rows) == [
        (0, 3, 1, 1, 0, 0),
        (2, 3, 1, 1, 0, 0),
        (4, 3, 1, 1, 0, 0),
        (1, 0, 1, 0, 0, 1),
        (3, 0, 1, 0, 0, 1),
    ]


def test_the_query_count_does_not_grow_with_rounds_or_players(db, django_assert_num_queries):
    desk = Desk.create(players=7)
    desk.pair((0, 1), (2, 3), (4, 5), (6, None))
    for player in (0, 2, 4):
        win_match(desk, player)

    # One query for the registrations with their players, one for the ended matches.
    with django_assert_num_queries(2):
        after_one = selectors.standings(tournament=desk.tournament)

    desk.pair((0, 2), (4, 6), (1, 3), (5, None))
    for player in (0, 4, 1):
        win_match(desk, player)
    desk.pair((0, 4), (2, 1), (3, 6), (5, None))
    for player in (0, 2, 3):
        win_match(desk, player)

    with django_assert_num_queries(2):
        after_three = selectors.standings(tournament=desk.tournament)
    with django_assert_num_queries(2):
        through_one = selectors.standings(tournament=desk.tournament, through_round=1)
    # Reading the rows' players needs no further query: they came with the registrations.
    with django_assert_num_queries(0):
        names = [row.registration.player.name for row in after_three]

    assert len(after_one) == len(after_three) == len(names) == 7
    assert [row.standing for row in through_one] == [row.standing for row in after_one]
    assert after_three[0].registration == desk.players[0]
    assert after_three[0].standing.points == 9


def test_the_standings_page_shows_each_row_of_the_selector(client, db):
    """The page writes each row's numbers once in Python (``standing_lines``): the same cells,
    marks and percentages as the selector's rows, for the latest standings and after a round."""
    desk = Desk.create(players=5, uses_decklists=False)
    play_two_rounds_and_start_a_third(desk)
    client.force_login(desk.organiser)
    url = reverse("tournaments:standings", args=[desk.tournament.slug])

    for query, through_round in (({}, None), ({"round": 1}, 1)):
        html = client.get(url, query).content.decode()
        shown = [
            re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row)).strip()
            for row in re.findall(r"<tr(?: class=\"disqualified\")?>(.*?)</tr>", html, re.S)[1:]
        ]
        expected = []
        for row in selectors.standings(tournament=desk.tournament, through_round=through_round):
            s = row.standing
            marks = [
                mark
                for mark, shows in (
                    ("дисквалифицирован", row.disqualified),
                    ("выбыл", row.dropped),
                    ("без призов", not row.prize_eligible),
                )
                if shows
            ]
            cells = [
                str(s.position),
                row.registration.player.name,
                str(s.points),
                f"{s.wins}–{s.draws}–{s.losses}",
                percent(s.opponents_match_win),
                percent(s.game_win),
                percent(s.opponents_game_win),
                *marks,
            ]
            expected.append(" ".join(cells))
        assert shown == expected
        assert any("дисквалифицирован" in row for row in shown)
        assert any("выбыл" in row for row in shown)


def test_the_whole_table_is_read_beyond_the_databases_limit_of_parameters(db):
    """The judge report prints every row of the standings: its players are asked for in as many
    statements as the database's limit of parameters needs, not in one ``IN`` list that SQLite
    refuses beyond 32,766 ids (lowered here to 3, so that 5 players cross it)."""
    desk = Desk.create(players=5, uses_decklists=False)
    play_two_rounds_and_start_a_third(desk)
    table = selectors.standings_table(tournament=desk.tournament)
    expected = [
        (row.standing.position, row.registration.player.name, row.dropped, row.disqualified)
        for row in selectors.standings(tournament=desk.tournament)
    ]

    with lowered_parameter_limit(3):
        lines = table.lines(0, len(table))

    assert [
        (line["position"], line["name"], line["dropped"], line["disqualified"]) for line in lines
    ] == expected


@contextlib.contextmanager
def lowered_parameter_limit(limit):
    """SQLite's limit of parameters in a statement, lowered for the block. PostgreSQL's limit
    (65,535 with the server-side binding the app uses) cannot be lowered: there the block runs
    unchanged."""
    if connection.vendor != "sqlite":
        yield
        return
    connection.ensure_connection()
    raw = connection.connection
    before = raw.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, limit)
    try:
        yield
    finally:
        raw.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, before)
