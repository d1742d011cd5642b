"""Swiss pairing (tournaments.pairing): exact small cases and simulated tournaments, no database."""

import dataclasses
import functools
import itertools
import random
import time
from collections import Counter
from dataclasses import dataclass

import pytest
from django.utils import translation

from tournaments import pairing
from tournaments.pairing import Entrant, Pairing, PairingImpossible, pair_swiss


def entrant(id, points=0, rank=None, opponents=(), had_bye=False):
    return Entrant(
        id=id,
        points=points,
        rank=id if rank is None else rank,
        opponents=frozenset(opponents),
        had_bye=had_bye,
    )


def pairs_of(pairings):
    return [(p.first, p.second) for p in pairings]


def field_of(played, points=None, byes=()):
    """Entrants 1..n ranked by id, with the given meetings (a list of id pairs)."""
    ids = sorted(set(itertools.chain(*played)) | set(points or {}))
    met = {i: set() for i in ids}
    for a, b in played:
        met[a].add(b)
        met[b].add(a)
    return [
        entrant(i, points=(points or {}).get(i, 0), opponents=met[i], had_bye=i in byes)
        for i in ids
    ]


# Round 1.


def test_round_one_is_deterministic_for_a_seed_whatever_the_input_order():
    field = [entrant(i) for i in range(1, 18)]
    first = pair_swiss(entrants=field, round_number=1, seed=42)
    assert pair_swiss(entrants=field, round_number=1, seed=42) == first
    assert pair_swiss(entrants=list(reversed(field)), round_number=1, seed=42) == first


def test_round_one_depends_on_the_seed():
    field = [entrant(i) for i in range(1, 17)]
    draws = {tuple(pairs_of(pair_swiss(entrants=field, round_number=1, seed=s))) for s in range(8)}
    assert len(draws) > 1


def test_round_one_pairs_the_drawn_order_top_down_and_gives_the_bye_to_the_last():
    field = [entrant(i) for i in range(1, 10)]
    order = [e.id for e in field]
    random.Random(7).shuffle(order)
    result = pair_swiss(entrants=field, round_number=1, seed=7)
    expected = {frozenset(order[k : k + 2]) for k in range(0, 8, 2)}
    assert {frozenset((p.first, p.second)) for p in result[:-1]} == expected
    assert result[-1] == Pairing(first=order[-1], second=None)
    # Tables and seats follow the standings (here the rank, i.e. the id), not the draw.
    assert [p.first for p in result[:-1]] == sorted(p.first for p in result[:-1])
    assert all(p.first < p.second for p in result[:-1])


def test_round_one_ignores_points_carried_in():
    # Points (say from a previous stage) order the tables and seats, but the draw alone decides
    # who plays whom and who sits out: the same pairs and bye as with no points at all.
    plain = [entrant(i) for i in range(1, 8)]
    carried = [entrant(i, points=3 * (i % 3), rank=8 - i) for i in range(1, 8)]
    drawn = pair_swiss(entrants=plain, round_number=1, seed=11)
    result = pair_swiss(entrants=carried, round_number=1, seed=11)
    assert {frozenset((p.first, p.second)) for p in result} == {
        frozenset((p.first, p.second)) for p in drawn
    }
    assert result[-1] == drawn[-1]
    by_id = {e.id: e for e in carried}
    keys = [(-by_id[p.first].points, by_id[p.first].rank) for p in result[:-1]]
    assert keys == sorted(keys)


# Score groups, table order, floating.


def test_equal_points_are_paired_together_in_table_order():
    # After round 1: 1–5, 2–6, 3–7 and 4–8 were played and the first four won.
    field = field_of(
        [(1, 5), (2, 6), (3, 7), (4, 8)], points={1: 3, 2: 3, 3: 3, 4: 3, 5: 0, 6: 0, 7: 0, 8: 0}
    )
    assert pairs_of(pair_swiss(entrants=field, round_number=2, seed=0)) == [
        (1, 2),
        (3, 4),
        (5, 6),
        (7, 8),
    ]


def test_points_come_before_rank_and_the_better_player_sits_first():
    # The caller's rank disagrees with the points here; points decide, then rank.
    field = [
        entrant(10, points=0, rank=1),
        entrant(11, points=3, rank=4),
        entrant(12, points=3, rank=3),
        entrant(13, points=0, rank=2),
    ]
    assert pairs_of(pair_swiss(entrants=field, round_number=2, seed=0)) == [(12, 11), (10, 13)]


def test_a_score_group_is_rearranged_rather_than_floating_players():
    # The nearest opponents 1–2 would leave 3 and 4, who have met, to float; 1–3 and 2–4 avoid it.
    field = field_of([(3, 4), (5, 6)], points={1: 6, 2: 6, 3: 6, 4: 6, 5: 0, 6: 0, 7: 0, 8: 0})
    assert pairs_of(pair_swiss(entrants=field, round_number=3, seed=0)) == [
        (1, 3),
        (2, 4),
        (5, 7),
        (6, 8),
    ]


def test_no_rematch_even_when_it_means_floating():
    # Player 1 has met everyone else with 6 points, so 1 must float down to the 3-point group.
    field = field_of(
        [(1, 2), (1, 3), (1, 4), (5, 6)],
        points={1: 6, 2: 6, 3: 6, 4: 6, 5: 3, 6: 3, 7: 3, 8: 3},
    )
    result = pair_swiss(entrants=field, round_number=4, seed=0)
    by_id = {e.id: e for e in field}
    assert_valid(field, result)
    partner = {p.first: p.second for p in result} | {p.second: p.first for p in result}
    assert by_id[partner[1]].points == 3
    mixed = [p for p in result if by_id[p.first].points != by_id[p.second].points]
    assert len(mixed) == 2  # 1 and one of 2–4 float; nothing else needs to.


def test_an_odd_group_floats_its_lowest_player():
    field = field_of([], points={1: 3, 2: 3, 3: 3, 4: 0, 5: 0, 6: 0})
    assert pairs_of(pair_swiss(entrants=field, round_number=2, seed=0)) == [
        (1, 2),
        (3, 4),
        (5, 6),
    ]


# Byes.


def test_bye_goes_to_the_lowest_ranked_player_without_a_bye():
    field = field_of([], points={1: 6, 2: 3, 3: 3, 4: 3, 5: 3}, byes={5})
    result = pair_swiss(entrants=field, round_number=3, seed=0)
    assert result[-1] == Pairing(first=4, second=None)
    assert_valid(field, result)


def test_bye_moves_up_when_the_lowest_players_bye_would_force_a_rematch():
    field = field_of([(1, 2)], points={1: 3, 2: 3, 3: 0})
    assert pairs_of(pair_swiss(entrants=field, round_number=2, seed=0)) == [(1, 3), (2, None)]


def test_bye_skips_many_candidates_at_once_when_only_a_higher_group_can_give_it():
    # The top seven (3 points) have met all the bottom six, so the top group must pair itself
    # and, being odd, give the bye: to its lowest player, 7, although 8–13 rank lower.
    top, bottom = range(1, 8), range(8, 14)
    points = {i: 3 for i in top} | {i: 0 for i in bottom}
    field = field_of(list(itertools.product(top, bottom)), points=points)
    result = pair_swiss(entrants=field, round_number=7, seed=0)
    assert_valid(field, result)
    assert result[-1] == Pairing(first=7, second=None)
    with pytest.raises(PairingImpossible):
        field = field_of(list(itertools.product(top, bottom)), points=points, byes=set(top))
        pair_swiss(entrants=field, round_number=7, seed=0)


def test_a_lone_player_gets_the_bye_and_no_one_gets_an_empty_round():
    assert pair_swiss(entrants=[], round_number=3, seed=0) == []
    assert pair_swiss(entrants=[entrant(9)], round_number=2, seed=0) == [Pairing(9, None)]


# Impossible pairings and bad input.


@pytest.mark.parametrize(
    ("field", "round_number"),
    [
        pytest.param(field_of([(1, 2)]), 2, id="two players who have met"),
        pytest.param(field_of(list(itertools.combinations(range(1, 5), 2))), 4, id="round robin"),
        pytest.param(field_of(list(itertools.combinations(range(1, 4), 2))), 4, id="odd trio"),
        pytest.param([entrant(1, had_bye=True)], 2, id="lone player who had a bye"),
        pytest.param([entrant(i, had_bye=True) for i in range(1, 4)], 4, id="everyone had a bye"),
    ],
)
def test_pairing_impossible_when_every_pairing_is_a_rematch(field, round_number):
    with pytest.raises(PairingImpossible) as caught:
        pair_swiss(entrants=field, round_number=round_number, seed=0)
    assert caught.value.message
    assert str(caught.value) == caught.value.message


def test_bad_input_is_refused():
    with pytest.raises(ValueError) as twice:
        pair_swiss(entrants=[entrant(1), entrant(1)], round_number=2, seed=0)
    assert str(twice.value) == "An entrant appears more than once."
    with pytest.raises(ValueError) as numbered:
        pair_swiss(entrants=[entrant(1), entrant(2)], round_number=0, seed=0)
    assert str(numbered.value) == "Rounds are numbered from 1."


@pytest.mark.parametrize(
    ("field", "round_number", "message"),
    [
        pytest.param(
            field_of([(1, 2)]),
            2,
            "No pairing of the 2 players for round 2 avoids a rematch (or a second bye).",
            id="a rematch",
        ),
        pytest.param(
            [entrant(i, had_bye=True) for i in range(1, 4)],
            4,
            "Every one of the 3 players has already had a bye, so an odd number of players "
            "cannot be paired for round 4.",
            id="everyone had a bye",
        ),
    ],
)
def test_an_impossible_pairing_says_why_exactly(field, round_number, message):
    with translation.override("en"), pytest.raises(PairingImpossible) as caught:
        pair_swiss(entrants=field, round_number=round_number, seed=0)
    assert caught.value.message == message
    assert caught.value.args == (message,)


@pytest.mark.parametrize("side", ["higher", "lower"])
def test_a_meeting_recorded_on_one_side_only_still_counts(side):
    field = [
        entrant(1, opponents={2} if side == "higher" else ()),
        entrant(2, opponents={1} if side == "lower" else ()),
        entrant(3),
        entrant(4),
    ]
    assert pairs_of(pair_swiss(entrants=field, round_number=2, seed=0)) == [(1, 3), (2, 4)]


def test_eight_players_seven_rounds_ends_in_a_quick_answer():
    # A full round robin by the circle method: in round 8 every possible opponent is a rematch.
    ids = list(range(1, 9))
    played = []
    for round_index in range(7):
        rotated = [ids[0], *ids[1:][round_index:], *ids[1:][:round_index]]
        played += [(rotated[k], rotated[7 - k]) for k in range(4)]
    started = time.perf_counter()
    with pytest.raises(PairingImpossible):
        pair_swiss(entrants=field_of(played), round_number=8, seed=0)
    assert time.perf_counter() - started < 0.5


# Reference answers by brute force, for small fields.


def perfect_pairing_exists(ids, met):
    if not ids:
        return True
    head, rest = ids[0], ids[1:]
    return any(
        perfect_pairing_exists([x for x in rest if x != other], met)
        for other in rest
        if other not in met[head]
    )


def expected_bye(field):
    """The bye the rules call for, or None when the field is even; raises if nothing works."""
    order = [e.id for e in sorted(field, key=lambda e: (-e.points, e.rank, e.id))]
    met = met_of(field)
    if len(order) % 2 == 0:
        if perfect_pairing_exists(order, met):
            return None
        raise PairingImpossible("brute force")
    for candidate in reversed(order):
        eligible = not next(e for e in field if e.id == candidate).had_bye
        rest = [x for x in order if x != candidate]
        if eligible and perfect_pairing_exists(rest, met):
            return candidate
    raise PairingImpossible("brute force")


def met_of(field):
    met = {e.id: set(e.opponents) for e in field}
    for e in field:
        for other in e.opponents:
            met.setdefault(other, set()).add(e.id)
    return met


def least_squared_difference(field):
    """The smallest sum of squared point differences over all pairings without a rematch."""
    points = {e.id: e.points for e in field}
    met = met_of(field)

    @functools.cache
    def best(free):
        if not free:
            return 0
        head, rest = free[0], free[1:]
        costs = [
            (points[head] - points[other]) ** 2 + best(tuple(x for x in rest if x != other))
            for other in rest
            if other not in met[head]
        ]
        return min(costs, default=float("inf"))

    return best(tuple(sorted(points)))


def random_small_field(rng):
    n = rng.randint(1, 10)
    density = rng.choice([0.2, 0.5, 0.8])
    played = [pair for pair in itertools.combinations(range(1, n + 1), 2) if rng.random() < density]
    met = {i: set() for i in range(1, n + 1)}
    for a, b in played:
        met[a].add(b)
        met[b].add(a)
    ranks = rng.sample(range(1, n + 1), n)
    return [
        Entrant(
            id=i,
            points=rng.choice([0, 1, 3, 4, 6]),
            rank=ranks[i - 1],
            opponents=frozenset(met[i]),
            had_bye=rng.random() < 0.4,
        )
        for i in range(1, n + 1)
    ]


@pytest.mark.parametrize("limits", ["normal", "no search"])
def test_small_fields_agree_with_brute_force(limits, monkeypatch):
    if limits == "no search":
        # Without any work allowance every bracket goes straight to the blossom matching, which
        # must then be just as exact.
        monkeypatch.setattr(pairing, "WORK_PER_SEARCH", 0)
        monkeypatch.setattr(pairing, "TOTAL_WORK", 0)
    rng = random.Random(2024)
    for _ in range(400):
        field = random_small_field(rng)
        try:
            bye = expected_bye(field)
        except PairingImpossible:
            with pytest.raises(PairingImpossible):
                pair_swiss(entrants=field, round_number=5, seed=0)
            continue
        result = pair_swiss(entrants=field, round_number=5, seed=0)
        assert_valid(field, result)
        assert (result[-1].first if result[-1].second is None else None) == bye


# Simulated tournaments.


@dataclass
class Player:
    id: int
    points: int = 0
    opponents: set[int] = dataclasses.field(default_factory=set)
    had_bye: bool = False
    byes: int = 0
    status: str = "playing"


class Tournament:
    """A pure stand-in for the app: random results with draws, drops and disqualifications."""

    def __init__(self, size, seed, leave_rate=0.06):
        self.rng = random.Random(seed)
        self.leave_rate = leave_rate
        self.players = {i: Player(id=i) for i in self.rng.sample(range(1, 10 * size), size)}

    def entrants(self):
        active = [p for p in self.players.values() if p.status == "playing"]

        def buchholz(player):
            return sum(self.players[o].points for o in player.opponents)

        standing = sorted(active, key=lambda p: (-p.points, -buchholz(p), p.id))
        return [
            Entrant(
                id=p.id,
                points=p.points,
                rank=position,
                opponents=frozenset(p.opponents),
                had_bye=p.had_bye,
            )
            for position, p in enumerate(standing, start=1)
        ]

    def play(self, pairings):
        for p in pairings:
            first = self.players[p.first]
            if p.second is None:
                first.points += 3
                first.had_bye = True
                first.byes += 1
                continue
            second = self.players[p.second]
            first.opponents.add(second.id)
            second.opponents.add(first.id)
            outcome = self.rng.random()
            if outcome < 0.12:
                first.points += 1
                second.points += 1
            elif outcome < 0.56:
                first.points += 3
            else:
                second.points += 3

    def drop_some(self):
        # Dropped and disqualified players are alike for pairing: they are simply not passed in,
        # yet they stay in the opponents of those who played them.
        for p in self.players.values():
            if p.status == "playing":
                chance = self.rng.random()
                if chance < self.leave_rate * 5 / 6:
                    p.status = "dropped"
                elif chance < self.leave_rate:
                    p.status = "disqualified"


def assert_valid(field, result):
    given = {e.id for e in field}
    by_id = {e.id: e for e in field}
    seated = [p.first for p in result] + [p.second for p in result if p.second is not None]
    assert sorted(seated) == sorted(given), "everyone given is paired exactly once"
    byes = [p for p in result if p.second is None]
    assert len(byes) == len(given) % 2
    assert all(p.second is not None for p in result[: len(result) - len(byes)]), "bye last"
    for p in byes:
        assert not by_id[p.first].had_bye, "no second bye"
    tables = [p for p in result if p.second is not None]
    for p in tables:
        a, b = by_id[p.first], by_id[p.second]
        assert b.id not in a.opponents and a.id not in b.opponents, "no rematch"
        assert (-a.points, a.rank, a.id) < (-b.points, b.rank, b.id), "better player first"
    keys = [(-by_id[p.first].points, by_id[p.first].rank) for p in tables]
    assert keys == sorted(keys), "strongest tables first"


def tables_of(field, result):
    by_id = {e.id: e for e in field}
    return [(by_id[p.first], by_id[p.second]) for p in result if p.second is not None]


def squared_difference(tables):
    return sum((a.points - b.points) ** 2 for a, b in tables)


def parity_lower_bound(tables):
    """A sum of squared point differences no pairing of these players can go below.

    Between two adjacent score levels, a cut with an odd number of seated players above it must
    be crossed by some table, and a table crossing several cuts costs at least the squares of
    their gaps; so the squared gaps of the odd cuts add up to a lower bound.
    """
    seated = Counter(e.points for table in tables for e in table)
    levels = sorted(seated, reverse=True)
    above = 0
    bound = 0
    for higher, lower in itertools.pairwise(levels):
        above += seated[higher]
        if above % 2:
            bound += (higher - lower) ** 2
    return bound


def simulated_rounds(seed, size, rounds, leave_rate=0.06):
    """Yield (round number, entrants, pairings) of a simulated tournament, then play the round.

    When a round cannot be paired, its pairings are None and the tournament ends there.
    """
    tournament = Tournament(size, seed, leave_rate)
    for round_number in range(1, rounds + 1):
        if round_number > 1:
            tournament.drop_some()
        field = tournament.entrants()
        removed = {p.id for p in tournament.players.values() if p.status != "playing"}
        assert removed.isdisjoint(e.id for e in field)
        try:
            result = pair_swiss(entrants=field, round_number=round_number, seed=seed)
        except PairingImpossible:
            yield round_number, field, None
            return
        seated = {p.first for p in result} | {p.second for p in result}
        assert removed.isdisjoint(seated), "no dropped or disqualified player is paired"
        yield round_number, field, result
        tournament.play(result)
    assert all(p.byes <= 1 for p in tournament.players.values()), "no second bye"


SIMULATION_SEEDS = range(100)


@pytest.mark.parametrize("seed", SIMULATION_SEEDS)
def test_simulated_tournaments(seed):
    rng = random.Random(seed)
    size = rng.choice([8, 9, 12, 15, 16, 24, 33, 48, 64, 97, 128])
    rounds = rng.randint(3, 7)
    for round_number, entrants, result in simulated_rounds(seed, size, rounds):
        if result is None:
            # Only a tiny field runs out of opponents in seven rounds; brute force confirms it.
            assert len(entrants) <= 10
            with pytest.raises(PairingImpossible):
                expected_bye(entrants)
            continue
        assert_valid(entrants, result)
        assert pair_swiss(entrants=entrants, round_number=round_number, seed=seed) == result
        if round_number == 1:
            continue
        tables = tables_of(entrants, result)
        if len(entrants) <= 14:
            # Small fields are checked against the best pairing there is, with the bye the rules
            # call for.
            best = least_squared_difference([e for table in tables for e in table])
            assert squared_difference(tables) == best
        if len(tables) >= 24:
            # In a big field the score groups are big, so most tables are within one.
            mixed = sum(a.points != b.points for a, b in tables)
            assert 2 * mixed < len(tables)


def test_big_fields_mostly_reach_the_parity_lower_bound():
    # Reaching the lower bound proves a round's pairing is the best there is. Rematches make it
    # unreachable now and then, but a pairing that lost track of score groups would miss it
    # almost always and by far.
    excesses = []
    for seed in range(12):
        size = random.Random(seed).choice([64, 97, 128])
        for round_number, entrants, result in simulated_rounds(seed, size, 7, leave_rate=0.02):
            assert result is not None
            if round_number > 1:
                tables = tables_of(entrants, result)
                excess = squared_difference(tables) - parity_lower_bound(tables)
                assert 0 <= excess <= len(tables)
                excesses.append(excess)
    assert sum(excess == 0 for excess in excesses) >= 0.6 * len(excesses)


def test_a_big_late_round_is_fast():
    tournament = Tournament(512, seed=1)
    for round_number in range(1, 10):
        field = tournament.entrants()
        started = time.perf_counter()
        result = pair_swiss(entrants=field, round_number=round_number, seed=1)
        elapsed = time.perf_counter() - started
        assert elapsed < 1.0
        assert_valid(field, result)
        tournament.play(result)


@pytest.mark.parametrize(
    ("points", "bound"),
    [
        ([], 0),
        ([3, 3], 0),
        ([6, 3, 3, 0], 18),  # both cuts odd: 3² + 3²
        ([5, 3, 0], 4),  # only the cut below the single 5 is odd, and it is measured from above
        ([4, 2, 2, 0], 8),
        ([3, 0], 9),  # a gap of three costs nine, not six
    ],
)
def test_the_parity_bound_adds_the_squared_gaps_of_odd_cuts(points, bound):
    assert pairing._parity_bound(points) == bound


# The work limits of the search and of the improvement pass. Players are referred to by their
# index in the pairer's order, as the pass sees them.


def pairer_of(points, met=()):
    """A pairer over players 1..n with these points (best first) and meetings (index pairs)."""
    opponents = {k: set() for k in range(len(points))}
    for a, b in met:
        opponents[a].add(b + 1)
        opponents[b].add(a + 1)
    order = [entrant(k + 1, points=value, opponents=opponents[k]) for k, value in enumerate(points)]
    return pairing._Pairer(order, groups_by_points=True)


@pytest.mark.parametrize(
    ("work", "pairs", "left"),
    [
        # From the start 0–2 the pass looks at 2 (the start itself) and then at 3, whose swap saves
        # everything: the second look finds the cycle, so an allowance of one gives up.
        pytest.param(1, [(0, 2), (1, 3)], 0, id="one look: gives up"),
        pytest.param(2, [(0, 1), (2, 3)], 0, id="two looks: found on the last one"),
        pytest.param(3, [(0, 1), (2, 3)], 1, id="three looks: one left over"),
    ],
)
def test_the_improvement_pass_gives_up_exactly_at_its_work_limit(monkeypatch, work, pairs, left):
    monkeypatch.setattr(pairing, "IMPROVE_WORK", work)
    pairer = pairer_of([3, 3, 0, 0])
    assert pairer._improve([0, 1, 2, 3], [(0, 2), (1, 3)]) == pairs
    assert pairer.improve_work_left == left


def test_the_improvement_pass_stops_at_the_parity_bound():
    # Three 3s and three 0s: one pair must cross, so 9 is the least; pairs already there cost
    # the pass nothing, and pairs that reach it by one cycle (two looks) end the pass there.
    at_bound = pairer_of([3, 3, 3, 0, 0, 0])
    assert at_bound._improve(list(range(6)), [(0, 1), (2, 3), (4, 5)]) == [(0, 1), (2, 3), (4, 5)]
    assert at_bound.improve_work_left == pairing.IMPROVE_WORK
    crossed = pairer_of([3, 3, 3, 0, 0, 0])
    assert crossed._improve(list(range(6)), [(0, 3), (1, 4), (2, 5)]) == [(0, 1), (3, 4), (2, 5)]
    assert crossed.improve_work_left == pairing.IMPROVE_WORK - 2


def test_a_bracket_whose_search_gave_up_is_not_searched_again_for_the_same_floaters(
    monkeypatch,
):
    # With no work allowed the search gives up after its first look (one unit of work); the
    # matching then pairs everyone, as few floaters as the search tried, so no second search.
    monkeypatch.setattr(pairing, "WORK_PER_SEARCH", 0)
    pairer = pairer_of([3, 3, 3, 3])
    assert pairer._pair_bracket([0, 1, 2, 3], must_pair_all=True) == ([(0, 1), (2, 3)], [])
    assert pairer.work_left == pairing.TOTAL_WORK - 1


@pytest.mark.parametrize(
    ("points", "met", "expected"),
    [
        pytest.param(
            {1: 6, 2: 6, 3: 3, 4: 3, 5: 3, 6: 0, 7: 0, 8: 0},
            [(3, 7), (4, 5), (4, 7), (5, 7), (6, 7), (7, 8)],
            [(1, 7), (2, 4), (3, 5), (6, 8)],
            id="7 has met all but the 6s: the cycles only look as far as their gain reaches",
        ),
        pytest.param(
            {1: 12, 2: 11, 3: 11, 4: 9, 5: 7, 6: 7, 7: 5, 8: 3, 9: 2, 10: 1, 11: 1, 12: 0},
            [(3, 4), (7, 8), (7, 9), (8, 9), (8, 12), (9, 12), (10, 12)],
            [(1, 3), (2, 4), (5, 7), (6, 8), (9, 10), (11, 12)],
            id="scattered points: cycles of at most four pairs",
        ),
        pytest.param(
            {1: 6, 2: 4, 3: 4, 4: 4, 5: 3, 6: 3, **dict.fromkeys(range(7, 17), 1), 17: 0, 18: 0},
            [
                *[(1, 5), (2, 4), (3, 4), (4, 5), (5, 6), (5, 7), (7, 8), (7, 10), (7, 11)],
                *[(7, 14), (8, 9), (8, 10), (8, 11), (8, 15), (9, 10), (9, 13), (10, 11)],
                *[(10, 13), (10, 15), (10, 16), (13, 15), (13, 16), (15, 16)],
            ],
            [(1, 3), (2, 5), (4, 6), (7, 16), (8, 12), (9, 15), (10, 14), (11, 13), (17, 18)],
            id="ten 1s: past its few swaps in a group the scan goes on to the rest",
        ),
    ],
)
def test_the_improvement_pass_reaches_the_best_pairing_exactly_so(points, met, expected):
    # Both fields have other pairings of the same least cost; the pass stops at the first one
    # its bounded cycles reach, which is this one.
    field = field_of(met, points=points)
    result = pair_swiss(entrants=field, round_number=5, seed=0)
    assert pairs_of(result) == expected
    assert squared_difference(tables_of(field, result)) == least_squared_difference(field)


# The depth-first search of one bracket, exactly: its answer, and the work it counts (one unit
# per candidate looked at, and one for finding a player's options exhausted). Players are
# indices 0..n-1 of one score group; meetings are index pairs.


@pytest.mark.parametrize(
    ("size", "met", "floats", "limit", "expected", "work"),
    [
        pytest.param(
            5,
            [(2, 3), (2, 4), (3, 4)],
            1,
            None,
            ("found", [(0, 2), (1, 3)], [4]),
            11,
            id="a float undone gives it back for a lower player",
        ),
        pytest.param(
            6,
            [(0, 4), (1, 3), (1, 4), (2, 3), (2, 4), (2, 5), (3, 4), (3, 5), (4, 5)],
            2,
            None,
            ("found", [(0, 2), (1, 5)], [3, 4]),
            22,
            id="a float undone while the other is unused leaves both for later",
        ),
        pytest.param(
            3,
            [(0, 1), (0, 2), (1, 2)],
            1,
            None,
            ("none", [], []),
            6,
            id="one float where three would be needed: none",
        ),
        pytest.param(
            5,
            [(0, 1), (0, 3), (0, 4), (1, 3), (1, 4), (3, 4)],
            1,
            None,
            ("none", [], []),
            19,
            id="undoing floats never lets more players float than allowed",
        ),
        pytest.param(2, [(0, 1)], 0, None, ("none", [], []), 2, id="no float, no partner: none"),
        pytest.param(2, [(0, 1)], 2, None, ("found", [], [0, 1]), 3, id="two floats: both float"),
        pytest.param(
            2, [], 2, 1, ("found", [(0, 1)], []), 1, id="work exactly at the limit: found"
        ),
        pytest.param(2, [], 0, 0, ("gave_up", [], []), 1, id="work past the limit: gives up"),
        pytest.param(
            4,
            [(1, 2), (2, 3)],
            0,
            2,
            ("gave_up", [], []),
            3,
            id="past the limit while backtracking: gives up",
        ),
        pytest.param(
            3,
            [(0, 1), (0, 2), (1, 2)],
            1,
            5,
            ("none", [], []),
            6,
            id="exhausted before the limit is checked: none, not given up",
        ),
    ],
)
def test_the_search_of_a_bracket(monkeypatch, size, met, floats, limit, expected, work):
    if limit is not None:
        monkeypatch.setattr(pairing, "WORK_PER_SEARCH", limit)
    pairer = pairer_of([3] * size, met)
    status, pairs, floaters = pairer._search(list(range(size)), floats=floats)
    assert (status.value, pairs, floaters) == expected
    assert pairer.work_left == pairing.TOTAL_WORK - work


@pytest.mark.parametrize(
    ("rotations", "pairs", "left"),
    [
        # From the start 3–5, the swap 5–4 (both at 0 points, 4 paired with 7) saves nothing, but
        # from 7 the cycle goes on 7–6, 0–1, 2–3, and every pair costs 0. Without that swap  the
        # meetings 0–3, 5–6 and 5–7 leave nothing better within sixteen looks.
        (1, [(2, 3), (0, 1), (6, 7), (4, 5)], pairing.IMPROVE_WORK - 14),
        (0, [(3, 5), (1, 2), (0, 6), (4, 7)], pairing.IMPROVE_WORK - 16),
    ],
)
def test_the_improvement_pass_follows_exactly_its_few_swaps_inside_a_score_group(
    monkeypatch, rotations, pairs, left
):
    monkeypatch.setattr(pairing, "IMPROVE_ROTATIONS", rotations)
    pairer = pairer_of([3, 3, 3, 3, 0, 0, 0, 0], [(0, 3), (2, 7), (5, 6), (5, 7)])
    assert pairer._improve(list(range(8)), [(3, 5), (1, 2), (0, 6), (4, 7)]) == pairs
    assert pairer.improve_work_left == left


def test_the_improvement_pass_spends_its_last_look_on_the_next_start(monkeypatch):
    # The starts before it find nothing in thirteen looks; the fourteenth, the next start's
    # only one, finds 1–2 and 3–4 in place of 1–3 and 2–4 (a total of 45 rather than 81). One
    # look fewer and the pairs stay as they were.
    monkeypatch.setattr(pairing, "IMPROVE_WORK", 14)
    pairer = pairer_of([6, 6, 6, 3, 0, 0], [(0, 1), (0, 4), (4, 5)])
    assert pairer._improve(list(range(6)), [(1, 3), (0, 5), (2, 4)]) == [(1, 2), (3, 4), (0, 5)]
    assert pairer.improve_work_left == 0


def test_a_pairer_that_has_not_improved_anything_has_its_whole_allowance():
    pairer = pairing._Pairer([entrant(1), entrant(2)], groups_by_points=False)
    assert pairer.pair(1) == ([(0, 1)], None)
    assert pairer.improve_work_left == pairing.IMPROVE_WORK


def test_a_last_bracket_that_cannot_pair_takes_in_one_bracket_above_then_two_more():
    # 1 floats out of the 4s (it met both) and pairs with 4; 5 floats onto 6, whom it met. Merged
    # with the bracket above (5's own), the last bracket still cannot pair, so the next merge
    # takes two more, the 4s and the 3, with 1 floated into them, and pairs them top-down.
    field = field_of([(1, 2), (1, 3), (2, 6), (5, 6)], points={1: 6, 2: 4, 3: 4, 4: 3, 5: 1, 6: 0})
    assert pairs_of(pair_swiss(entrants=field, round_number=4, seed=0)) == [
        (1, 4),
        (2, 5),
        (3, 6),
    ]


def test_a_field_pairable_only_whole_is_merged_one_then_two_then_four_brackets_up():
    # One player per score group, and 7 has met 4, 5 and 6 (indices). The last bracket (6 floated
    # onto 7) fails; merged with one bracket above it is the same two players and fails again;
    # with two more, 4 to 7, it fails, 7 having met the three others; with four more it is the
    # whole field, which pairs. The searches spend exactly the work of those brackets in turn.
    met = [(7, 4), (7, 5), (7, 6)]
    points = [7, 6, 5, 4, 3, 2, 1, 0]
    brackets = [[0], [0, 1], [2], [2, 3], [4], [4, 5], [6], [6, 7], [6, 7], [4, 5, 6, 7]]
    spent = 0
    for bracket in [*brackets, list(range(8))]:
        alone = pairer_of(points, met)
        alone._search(bracket, floats=len(bracket) % 2)
        spent += pairing.TOTAL_WORK - alone.work_left
    pairer = pairer_of(points, met)
    assert pairer.pair(3) == ([(0, 1), (2, 4), (3, 7), (5, 6)], None)
    assert pairer.work_left == pairing.TOTAL_WORK - spent
