"""Maximum matching (tournaments.matching): exact small graphs and brute force, no database."""

import itertools
import random

from tournaments import matching


def test_blossom_matching_is_maximum():
    rng = random.Random(5)
    for _ in range(400):
        n = rng.randint(1, 11)
        edges = [e for e in itertools.combinations(range(n), 2) if rng.random() < rng.random()]
        adjacency = [[] for _ in range(n)]
        for a, b in rng.sample(edges, len(edges)):
            adjacency[a].append(b)
            adjacency[b].append(a)
        mate = matching.maximum_matching(adjacency)
        for v, w in enumerate(mate):
            assert w == -1 or (mate[w] == v and w in adjacency[v])
        size = sum(w != -1 for w in mate) // 2
        assert size == largest_matching(tuple(range(n)), adjacency)


def largest_matching(free, adjacency):
    if not free:
        return 0
    head, rest = free[0], free[1:]
    best = largest_matching(rest, adjacency)
    for other in rest:
        if other in adjacency[head]:
            remaining = tuple(x for x in rest if x != other)
            best = max(best, 1 + largest_matching(remaining, adjacency))
    return best


def test_the_matching_starts_from_each_players_first_free_preference():
    # Two maximum matchings exist (0–1 with 3–4, or 0–2 with 1–4); the greedy start in
    # preference order gives the first, which augmenting paths alone from vertex 0 would not.
    adjacency = [[1, 2], [4, 0], [0], [4], [1, 3]]
    assert matching.maximum_matching(adjacency) == [1, 0, -1, 4, 3]


def test_a_blossom_makes_its_inner_vertex_outer():
    # Root 1 is free, 0–2 are matched, and 0, 1, 2 form a triangle: 0 is reached as the inner
    # (odd) vertex, and the edge 2–1 closes the blossom, after which 0 can be left free too.
    adjacency = [[2, 1], [0, 2], [0, 1]]
    mate = [2, -1, 0]
    assert matching.augment_from(1, adjacency, mate) == [True, True, True]
    assert mate == [2, -1, 0]


def test_an_augmenting_path_through_a_blossom_is_flipped_whole():
    # The greedy start left 2 and 5 free; the augmenting path between them runs through an odd
    # cycle that the search contracts, so the flip follows the parents the contraction set.
    adjacency = [
        [3, 6],
        [6, 3, 4],
        [3, 7],
        [0, 1, 5, 2, 6],
        [7, 1],
        [6, 3, 7],
        [0, 1, 5, 3],
        [4, 5, 2],
    ]
    mate = [3, 6, -1, 0, 7, -1, 1, 4]
    assert matching.augment_from(2, adjacency, mate) is None
    assert mate == [6, 4, 7, 5, 1, 3, 0, 2]
