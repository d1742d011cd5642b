"""The standings against the worked examples of MTR Appendix C, the tie-breakers the app says it
follows: match points, game points, match-win % (floor 0.33 as printed), byes as 2–0 wins."""

from fractions import Fraction as F
from itertools import count

import pytest

from tournaments.standings import MatchResult, compute_standings

FLOOR = F(33, 100)


class Event:
    """Results written one match at a time; each match gets its own round number."""

    def __init__(self):
        self.results = []
        self.rounds = count(1)
        self.ids = set()

    def play(self, first, second, first_games, second_games, draws=0):
        self.ids.update({first} if second is None else {first, second})
        self.results.append(
            MatchResult(
                round_number=next(self.rounds),
                first=first,
                second=second,
                first_games=first_games,
                second_games=second_games,
                draws=draws,
                first_lost_by_penalty=False,
                second_lost_by_penalty=False,
            )
        )

    def standings(self):
        rows = compute_standings(registration_ids=sorted(self.ids), results=self.results)
        return {row.registration_id: row for row in rows}


def record(event, player, wins, losses, draws, *, first_opponent=None, bye_first=False):
    """Give ``player`` a wins–losses–draws record against fresh opponents (ids from 100 up),
    the first one ``first_opponent`` when given; every game 2–0 (a draw 1–1)."""
    fresh = count(100 + 20 * player)
    if bye_first:
        event.play(player, None, 2, 0)
        wins -= 1
    outcomes = ["W"] * wins + ["L"] * losses + ["D"] * draws
    for index, outcome in enumerate(outcomes):
        opponent = first_opponent if index == 0 and first_opponent else next(fresh)
        games = {"W": (2, 0), "L": (0, 2), "D": (1, 1)}[outcome]
        event.play(player, opponent, *games)


@pytest.mark.parametrize(
    ("wins", "losses", "draws", "points"),
    [(6, 2, 0, 18), (4, 2, 2, 14)],  # «6–2–0 … 18 match points», «4–2–2 … 14»
)
def test_match_points(wins, losses, draws, points):
    event = Event()
    record(event, 1, wins, losses, draws)

    assert event.standings()[1].points == points


@pytest.mark.parametrize(
    ("games", "winner_points", "loser_points"),
    [
        ((2, 0, 0), 6, 0),  # «2–0–0: 6 game points, the opponent 0»
        ((2, 1, 0), 6, 3),  # «2–1–0: 6 and 3»
        ((2, 0, 1), 7, 1),  # «2–0–1: 7 and 1»
    ],
)
def test_game_points(games, winner_points, loser_points):
    event = Event()
    event.play(1, 2, *games)
    played = sum(games)

    rows = event.standings()

    # GW% is game points over 3 × games played, floored at 0.33.
    assert rows[1].game_win == float(max(F(winner_points, 3 * played), FLOOR))
    assert rows[2].game_win == float(max(F(loser_points, 3 * played), FLOOR))


@pytest.mark.parametrize(
    ("wins", "losses", "draws", "bye_first", "match_win"),
    [
        (5, 2, 1, False, F(16, 24)),  # «5–2–1 in 8 rounds: 16/24 = 0.667»
        (1, 3, 0, False, FLOOR),  # «1–3–0, then withdraws: 3/12 = 0.25, so 0.33 is used»
        (3, 2, 0, True, F(9, 15)),  # «3–2–0 including a first-round bye: 9/15 = 0.60»
    ],
)
def test_match_win_percentage(wins, losses, draws, bye_first, match_win):
    # The player's MW% is what their only opponent 99 gets as OMW%, since 99 met nobody else.
    event = Event()
    record(event, 1, wins, losses, draws, first_opponent=99, bye_first=bye_first)

    assert event.standings()[99].opponents_match_win == float(match_win)


def test_a_bye_is_a_two_nil_win_whatever_the_best_of():
    # Stored as 1–0 (best of one) or 3–0 (best of five): both count as 2–0. With a 0–2 loss the
    # game points are 6 of 12.
    for stored in (1, 3):
        event = Event()
        event.play(1, None, stored, 0)
        event.play(2, 1, 2, 0)

        assert event.standings()[1].game_win == 0.5


def test_the_floor_is_0_33_not_a_third():
    # X (1) beat opponents whose MW% are 0.25, 2/3 and 2/3; Y (2) beat opponents at 1/2, 1/2
    # and 2/3. With the floor 0.33: X's OMW% is (0.33 + 2/3 + 2/3)/3 = 0.5544, Y's 5/9 = 0.5556,
    # so Y is ahead; with a floor of 1/3 both would be 5/9, and every later tie-breaker would tie
    # too, leaving X first by registration order. Every match is won 2–0 by the first named.
    x, y, a, b, c, d, e, f = range(1, 9)
    event = Event()
    for winner, loser in [
        (x, a), (x, b), (x, c), (y, d), (y, e), (y, f),
        (a, 20), (21, a), (22, a),  # a: 1–3 = 0.25
        (b, 23), (b, 24), (c, 25), (c, 26),  # b, c: 2–1 = 2/3
        (d, 27), (e, 28),  # d, e: 1–1 = 1/2
        (f, 29), (f, 30),  # f: 2–1 = 2/3
    ]:  # fmt: skip
        event.play(winner, loser, 2, 0)

    rows = event.standings()

    assert (rows[x].points, rows[y].points) == (9, 9)
    assert rows[x].opponents_match_win == float((FLOOR + F(2, 3) + F(2, 3)) / 3)
    assert rows[y].opponents_match_win == float(F(5, 9))
    assert (rows[y].position, rows[x].position) == (1, 2)
