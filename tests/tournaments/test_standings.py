"""The standings rules on plain match results, without a database."""

from fractions import Fraction as F

import pytest

from tournaments.standings import MatchResult, Standing, _outcomes, compute_standings

# The floor as MTR Appendix C prints it: 0.33, not 1/3.
FL = F(33, 100)


def match(round_number, first, second, first_games, second_games, draws=0, *, lost=()):
    """A result in one line; ``lost`` names the players who lost the match by penalty."""
    return MatchResult(
        round_number=round_number,
        first=first,
        second=second,
        first_games=first_games,
        second_games=second_games,
        draws=draws,
        first_lost_by_penalty=first in lost,
        second_lost_by_penalty=second in lost,
    )


def bye(round_number, player, games=2):
    return match(round_number, player, None, games, 0)


def by_id(standings):
    return {row.registration_id: row for row in standings}


def record(row):
    return (row.points, row.matches_played, row.wins, row.draws, row.losses)


def tie_breakers(row):
    return (row.opponents_match_win, row.game_win, row.opponents_game_win)


def exact(*fractions):
    """Floats as the module makes them from exact fractions, so they compare with ``==``."""
    return tuple(float(value) for value in fractions)


@pytest.mark.parametrize(
    ("result", "first", "second"),
    [
        # (points, matches played, wins, draws, losses) of each player.
        (match(1, 1, 2, 2, 0), (3, 1, 1, 0, 0), (0, 1, 0, 0, 1)),
        (match(1, 1, 2, 2, 1), (3, 1, 1, 0, 0), (0, 1, 0, 0, 1)),
        (match(1, 1, 2, 1, 2), (0, 1, 0, 0, 1), (3, 1, 1, 0, 0)),
        # Time called at 1–0 after two drawn games: more games won still wins the match.
        (match(1, 1, 2, 1, 0, 2), (3, 1, 1, 0, 0), (0, 1, 0, 0, 1)),
        # Equal games won is a drawn match, with or without drawn games, even with none at all.
        (match(1, 1, 2, 1, 1), (1, 1, 0, 1, 0), (1, 1, 0, 1, 0)),
        (match(1, 1, 2, 1, 1, 1), (1, 1, 0, 1, 0), (1, 1, 0, 1, 0)),
        (match(1, 1, 2, 0, 0, 1), (1, 1, 0, 1, 0), (1, 1, 0, 1, 0)),
        (match(1, 1, 2, 0, 0), (1, 1, 0, 1, 0), (1, 1, 0, 1, 0)),
        # A penalty loss stands whatever the games say ...
        (match(1, 1, 2, 0, 2, lost={1}), (0, 1, 0, 0, 1), (3, 1, 1, 0, 0)),
        (match(1, 1, 2, 2, 0, lost={1}), (0, 1, 0, 0, 1), (3, 1, 1, 0, 0)),
        (match(1, 1, 2, 1, 1, lost={2}), (3, 1, 1, 0, 0), (0, 1, 0, 0, 1)),
        # ... and when both players lost by penalty, both have lost.
        (match(1, 1, 2, 0, 0, lost={1, 2}), (0, 1, 0, 0, 1), (0, 1, 0, 0, 1)),
        (match(1, 1, 2, 2, 1, lost={1, 2}), (0, 1, 0, 0, 1), (0, 1, 0, 0, 1)),
    ],
)
def test_match_points(result, first, second):
    rows = by_id(compute_standings(registration_ids=[1, 2], results=[result]))

    assert (record(rows[1]), record(rows[2])) == (first, second)


@pytest.mark.parametrize(
    ("result", "first_gw", "second_gw"),
    [
        # Game points over 3 × games played: a game won is 3, a drawn game 1; floor 0.33.
        (match(1, 1, 2, 2, 0), F(1), FL),  # 6/6; 0/6 floored
        (match(1, 1, 2, 2, 1), F(2, 3), F(1, 3)),  # 6/9; 3/9 is above 0.33
        (match(1, 1, 2, 1, 0, 2), F(5, 9), FL),  # 5/9; 2/9 floored
        (match(1, 1, 2, 1, 1, 1), F(4, 9), F(4, 9)),  # (3 + 1)/9 each
        (match(1, 1, 2, 0, 0, 1), F(1, 3), F(1, 3)),  # 1/3 each, above the floor
        # No game recorded: 0/0 is read as 0 and floored, as the players have played.
        (match(1, 1, 2, 0, 0), FL, FL),
        (match(1, 1, 2, 0, 0, lost={1, 2}), FL, FL),
        # A penalty loss counts the games stored on the match, which the app sets to 0–2.
        (match(1, 1, 2, 0, 2, lost={1}), FL, F(1)),
    ],
)
def test_game_win_percentage(result, first_gw, second_gw):
    rows = by_id(compute_standings(registration_ids=[1, 2], results=[result]))

    assert (rows[1].game_win, rows[2].game_win) == exact(first_gw, second_gw)


@pytest.mark.parametrize("stored_games", [1, 2, 3])
def test_a_bye_is_a_two_nil_win_whatever_the_best_of(stored_games):
    # Best of one stores a bye as 1–0, best of three 2–0, best of five 3–0; MTR Appendix C
    # counts it as 2–0 in every case. With a 0–2 loss: 6 game points of 12 = 1/2.
    results = [bye(1, 1, stored_games), match(2, 2, 1, 2, 0)]

    rows = by_id(compute_standings(registration_ids=[1, 2], results=results))

    assert record(rows[1]) == (3, 2, 1, 0, 1)
    assert rows[1].game_win == float(F(1, 2))
    [alone] = compute_standings(registration_ids=[1], results=[bye(1, 1, stored_games)])
    # A bye is no opponent: with nothing to average, OMW% and OGW% are 0.
    assert tie_breakers(alone) == exact(0, F(1), 0)


def test_a_bye_counts_in_the_players_own_percentages_but_is_nobodys_opponent():
    # Round 1: player 1 has a bye, player 2 beats player 3 2–1.
    # Round 2: player 1 beats player 2 2–0, player 3 has a bye.
    results = [bye(1, 1), match(1, 2, 3, 2, 1), match(2, 1, 2, 2, 0), bye(2, 3)]

    rows = by_id(compute_standings(registration_ids=[1, 2, 3], results=results))

    # MW%: 1 has 6/6 = 1 (the bye counts as a won match), 2 has 3/6 = 1/2, 3 has 3/6 = 1/2.
    # GW%: 1 has 4 of 4 games = 1, 2 has 2 of 5 = 2/5, 3 has 3 of 5 = 3/5.
    # Player 1's only opponent is 2, not the bye: OMW% = 1/2 and OGW% = 2/5, not averaged
    # with anything for the bye. Player 2 met 3 and 1: OMW% = (1/2 + 1)/2 = 3/4 and
    # OGW% = (3/5 + 1)/2 = 4/5. Player 3 met only 2: OMW% = 1/2, OGW% = 2/5.
    assert tie_breakers(rows[1]) == exact(F(1, 2), F(1), F(2, 5))
    assert tie_breakers(rows[2]) == exact(F(3, 4), F(2, 5), F(4, 5))
    assert tie_breakers(rows[3]) == exact(F(1, 2), F(3, 5), F(2, 5))
    assert [row.matches_played for row in rows.values()] == [2, 2, 2]


def test_the_floor_raises_low_percentages_in_the_averages_and_the_shown_game_win():
    # Player 1 beats players 2, 3 and 4, all 2–0; players 2, 3 and 4 play nobody else.
    results = [match(1, 1, 2, 2, 0), match(2, 1, 3, 2, 0), match(3, 1, 4, 2, 0)]

    rows = by_id(compute_standings(registration_ids=[1, 2, 3, 4], results=results))

    # Every opponent of player 1 has an MW% and a GW% of 0, each raised to 0.33: OMW% and OGW%
    # are 0.33, not 0. The losers show their own GW% of 0 raised to 0.33 as well, and their
    # OMW% is player 1's MW% of 1, which the floor leaves alone.
    assert tie_breakers(rows[1]) == exact(FL, F(1), FL)
    for loser in (2, 3, 4):
        assert tie_breakers(rows[loser]) == exact(F(1), FL, F(1))


def test_the_floor_leaves_percentages_above_it_alone():
    # Player 1 draws player 2 1–1 and loses to player 3 0–2; player 2 beat player 3 before.
    results = [match(1, 2, 3, 2, 1), match(2, 1, 2, 1, 1), match(3, 1, 3, 0, 2)]

    rows = by_id(compute_standings(registration_ids=[1, 2, 3], results=results))

    # Player 1: MW% 1/6 and GW% 3/12 = 1/4 would be below the floor; shown GW% is 0.33.
    # Player 2: 4 of 6 match points = 2/3, games 3 won of 5 = 3/5 (above the floor, unchanged).
    # Player 3: 3 of 6 match points = 1/2, games 3 won of 5 = 3/5.
    # Player 1's OMW% = (2/3 + 1/2)/2 = 7/12, OGW% = (3/5 + 3/5)/2 = 3/5.
    assert tie_breakers(rows[1]) == exact(F(7, 12), FL, F(3, 5))
    # Player 2 met 3 and 1: OMW% = (1/2 + 0.33 floored)/2 = 83/200, OGW% = (3/5 + 0.33)/2.
    assert tie_breakers(rows[2]) == exact(F(83, 200), F(3, 5), F(93, 200))


def test_a_player_without_matches_shows_zeros_and_comes_after_everyone_who_played():
    # Player 3 registered but is in no result yet (late, or every match still in progress).
    results = [match(1, 1, 2, 0, 2)]

    standings = compute_standings(registration_ids=[3, 1, 2], results=results)

    assert [row.registration_id for row in standings] == [2, 1, 3]
    assert standings[2] == Standing(
        position=3,
        registration_id=3,
        points=0,
        matches_played=0,
        wins=0,
        draws=0,
        losses=0,
        opponents_match_win=0.0,
        game_win=0.0,
        opponents_game_win=0.0,
    )
    # Player 1 lost and has 0 points too, but floored percentages put them above player 3.
    assert tie_breakers(standings[1]) == exact(F(1), FL, F(1))


def test_equal_tie_breakers_get_distinct_positions_by_registration_id():
    results = [match(1, 7, 3, 1, 1), match(1, 5, 9, 1, 1)]

    standings = compute_standings(registration_ids=[9, 7, 5, 3], results=results)

    # Four identical records: points 1, OMW% 1/3, GW% 1/2, OGW% 1/2. The id decides.
    assert [(row.position, row.registration_id) for row in standings] == [
        (1, 3),
        (2, 5),
        (3, 7),
        (4, 9),
    ]
    assert {tie_breakers(row) for row in standings} == {exact(F(1, 3), F(1, 2), F(1, 2))}


# The worked example: six players, A..F = registration ids 1..6, three Swiss rounds, best of 3.
A, B, C, D, E, F_ = 1, 2, 3, 4, 5, 6
PLAYERS = [A, B, C, D, E, F_]


def swiss(final_game_of_a_against_e):
    """Three rounds; the last argument is E's games in R3, where A beats E either 2–0 or 2–1."""
    return [
        # R1: A 2–0 B, C 2–1 D, E 2–0 F.
        match(1, A, B, 2, 0),
        match(1, C, D, 2, 1),
        match(1, E, F_, 2, 0),
        # R2: A 2–0 C, E 2–1 B, D 2–0 F.
        match(2, A, C, 2, 0),
        match(2, E, B, 2, 1),
        match(2, D, F_, 2, 0),
        # R3: A 2–0 or 2–1 E, C 2–0 F, B 2–1 D.
        match(3, A, E, 2, final_game_of_a_against_e),
        match(3, C, F_, 2, 0),
        match(3, B, D, 2, 1),
    ]


def test_the_worked_example_through_all_three_rounds():
    # Records (R3 A 2–0 E):
    #   A: W W W = 9 points; games 6 won, 0 lost.        MW% 9/9 = 1    GW% 18/18 = 1
    #   B: L L W = 3;        games 0+1+2 = 3, lost 5.    MW% 3/9 = 1/3  GW% 9/24 = 3/8
    #   C: W L W = 6;        games 2+0+2 = 4, lost 3.    MW% 6/9 = 2/3  GW% 12/21 = 4/7
    #   D: L W L = 3;        games 1+2+1 = 4, lost 4.    MW% 1/3        GW% 12/24 = 1/2
    #   E: W W L = 6;        games 2+2+0 = 4, lost 3.    MW% 2/3        GW% 4/7
    #   F: L L L = 0;        games 0, lost 6.            MW% 0 -> 0.33  GW% 0 -> 0.33
    # OMW% (opponents' floored MW%, averaged):
    #   A: B, C, E = (1/3 + 2/3 + 2/3)/3 = 5/9     B: A, E, D = (1 + 2/3 + 1/3)/3 = 2/3
    #   C: D, A, F = (1/3 + 1 + 0.33)/3            D: C, F, B = (2/3 + 0.33 + 1/3)/3
    #   E: F, B, A = (0.33 + 1/3 + 1)/3            F: E, D, C = (2/3 + 1/3 + 2/3)/3 = 5/9
    # OGW% (opponents' floored GW%, averaged):
    #   A: (3/8 + 4/7 + 4/7)/3 = 85/168            B: (1 + 4/7 + 1/2)/3 = 29/42
    #   C: (1/2 + 1 + 0.33)/3                      D: (4/7 + 0.33 + 3/8)/3
    #   E: (0.33 + 3/8 + 1)/3                      F: (4/7 + 1/2 + 4/7)/3 = 23/42
    # C and E tie on points (6), OMW% and GW% (4/7): OGW% (3/2 + 0.33) > (11/8 + 0.33) puts C
    # first. B and D tie on points (3): OMW% 2/3 > 4/9 puts B first although D has the better
    # GW% (1/2 > 3/8), so OMW% comes before GW%.
    standings = compute_standings(registration_ids=PLAYERS, results=swiss(0))

    assert [
        (row.position, row.registration_id, *record(row), *tie_breakers(row)) for row in standings
    ] == [
        (1, A, 9, 3, 3, 0, 0, *exact(F(5, 9), F(1), F(85, 168))),
        (2, C, 6, 3, 2, 0, 1, *exact((F(4, 3) + FL) / 3, F(4, 7), (F(3, 2) + FL) / 3)),
        (3, E, 6, 3, 2, 0, 1, *exact((F(4, 3) + FL) / 3, F(4, 7), (F(11, 8) + FL) / 3)),
        (4, B, 3, 3, 1, 0, 2, *exact(F(2, 3), F(3, 8), F(29, 42))),
        (5, D, 3, 3, 1, 0, 2, *exact((1 + FL) / 3, F(1, 2), (F(4, 7) + FL + F(3, 8)) / 3)),
        (6, F_, 0, 3, 0, 0, 3, *exact(F(5, 9), FL, F(23, 42))),
    ]


def test_game_win_comes_before_opponents_game_win():
    # The same rounds with R3 A 2–1 E: E now has won 5 games and lost 3, GW% 15/24 = 5/8, and A
    # has lost one, GW% 18/21 = 6/7. Match points and so OMW% are unchanged: C and E still tie
    # on 6 points and OMW%. C keeps the better OGW%: (1/2 + 6/7 + 0.33)/3 against E's
    # (0.33 + 3/8 + 6/7)/3, but E's GW% 5/8 beats C's 4/7 and decides.
    rows = compute_standings(registration_ids=PLAYERS, results=swiss(1))

    assert [row.registration_id for row in rows] == [A, E, C, B, D, F_]
    c, e = rows[2], rows[1]
    omw = (F(4, 3) + FL) / 3
    assert tie_breakers(c) == exact(omw, F(4, 7), (F(1, 2) + F(6, 7) + FL) / 3)
    assert tie_breakers(e) == exact(omw, F(5, 8), (FL + F(3, 8) + F(6, 7)) / 3)


@pytest.mark.parametrize(
    ("through_round", "order", "points"),
    [
        # After R1: A, C and E have 3 points and OMW% 0.33 (each beat a player at 0, floored).
        # GW%: A 1, E 1, C 6/9 = 2/3. A and E also tie on OGW% (their losers B and F both have a
        # GW% of 0, floored to 0.33), so the lower id puts A before E.
        # B, D and F have 0 points and OMW% 1; D's GW% of 1 game in 3 = 1/3 is above the floor
        # of 0.33 that B and F get, so D comes first (with a floor of 1/3 it would come last).
        # OGW%: B and F met a GW% of 1 (A and E); B before F by id.
        (1, [A, E, C, D, B, F_], [3, 3, 3, 0, 0, 0]),
        # After R2: A 6, E 6, C 3, D 3, B 0, F 0. MW%: A 1, E 1, C 1/2, D 1/2, B and F 0.33.
        # OMW%: A (B, C) = (0.33 + 1/2)/2 > E (F, B) = 0.33.
        #       C (D, A) = (1/2 + 1)/2 = 3/4 > D (C, F) = (1/2 + 0.33)/2.
        #       B (A, E) = 1 > F (E, D) = (1 + 1/2)/2 = 3/4.
        (2, [A, E, C, D, B, F_], [6, 6, 3, 3, 0, 0]),
        (3, [A, C, E, B, D, F_], [9, 6, 6, 3, 3, 0]),
        (None, [A, C, E, B, D, F_], [9, 6, 6, 3, 3, 0]),
        (0, [A, B, C, D, E, F_], [0, 0, 0, 0, 0, 0]),
    ],
)
def test_through_round_shows_the_standings_as_they_stood(through_round, order, points):
    standings = compute_standings(
        registration_ids=PLAYERS, results=swiss(0), through_round=through_round
    )

    assert [row.registration_id for row in standings] == order
    assert [row.points for row in standings] == points
    assert [row.position for row in standings] == [1, 2, 3, 4, 5, 6]


def test_through_round_ignores_later_rounds_entirely():
    # A later round may hold anything, even a player the earlier table must not count.
    results = [match(1, 1, 2, 2, 0), match(2, 1, 2, 0, 2)]

    [first, second] = compute_standings(registration_ids=[1, 2], results=results, through_round=1)

    assert (first.registration_id, record(first)) == (1, (3, 1, 1, 0, 0))
    assert (second.registration_id, record(second)) == (2, (0, 1, 0, 0, 1))


def test_through_round_skips_later_rounds_whatever_order_the_results_come_in():
    # A round 3 result listed before round 1's is skipped, and round 1 is still counted.
    results = [match(3, 1, 2, 0, 2), match(1, 1, 2, 2, 0)]

    [first, second] = compute_standings(registration_ids=[1, 2], results=results, through_round=1)

    assert (first.registration_id, record(first)) == (1, (3, 1, 1, 0, 0))
    assert (second.registration_id, record(second)) == (2, (0, 1, 0, 0, 1))


def test_two_drawn_matches_are_two_draws():
    results = [match(1, 1, 2, 1, 1), match(2, 1, 2, 0, 0, 1)]

    rows = by_id(compute_standings(registration_ids=[1, 2], results=results))

    assert record(rows[1]) == (2, 2, 0, 2, 0)
    assert record(rows[2]) == (2, 2, 0, 2, 0)


BYE_MESSAGE = "A bye has no opponent's games, no drawn games and serves no penalty."


@pytest.mark.parametrize(
    ("ids", "results", "message"),
    [
        ([1, 1], [], "A registration id appears more than once."),
        ([1], [match(1, 1, 2, 2, 0)], "Registration 2 is not among the registration ids."),
        (
            [1, 2, 3],
            [match(1, 1, 2, 2, 0), match(1, 1, 3, 2, 0)],
            "Registration 1 plays twice in round 1.",
        ),
        ([1], [match(1, 1, 1, 2, 0)], "Registration 1 cannot play against itself."),
        ([1, 2], [match(1, 1, 2, -1, 0)], "Game counts cannot be negative."),
        ([1, 2], [match(1, 1, 2, 2, -1)], "Game counts cannot be negative."),
        ([1, 2], [match(1, 1, 2, 2, 0, -1)], "Game counts cannot be negative."),
        ([1], [match(1, 1, None, 2, 0, lost={1})], BYE_MESSAGE),
        ([1], [match(1, 1, None, 2, 0, 1)], BYE_MESSAGE),
        ([1], [match(1, 1, None, 2, 1)], BYE_MESSAGE),
    ],
)
def test_results_the_app_cannot_produce_are_refused(ids, results, message):
    with pytest.raises(ValueError) as refused:
        compute_standings(registration_ids=ids, results=results)

    assert str(refused.value) == message


@pytest.mark.parametrize(
    ("result", "outcomes"),
    [
        (bye(1, 1), ("win", "loss")),
        (match(1, 1, 2, 2, 1), ("win", "loss")),
        (match(1, 1, 2, 0, 2), ("loss", "win")),
        (match(1, 1, 2, 1, 1), ("draw", "draw")),
        (match(1, 1, 2, 2, 0, lost={1}), ("loss", "win")),
        (match(1, 1, 2, 0, 2, lost={2}), ("win", "loss")),
        (match(1, 1, 2, 1, 1, lost={1, 2}), ("loss", "loss")),
    ],
)
def test_each_results_outcomes_are_named_exactly(result, outcomes):
    # The record treats any outcome but "win" and "draw" as a loss, so the words themselves are
    # checked here: a misspelt "loss" would otherwise pass unnoticed.
    assert _outcomes(result) == outcomes
