"""Which tables get a deck check: pure weighting and a seeded draw, no database.

The head judge asks for a number of tables; ``decks.services.pick_tables`` reads the round and the
earlier checks, asks these two functions, and records the seed so anyone can redo the draw.
"""

import random
from collections.abc import Mapping


def pick_weights(
    tables: list[tuple[int, list[int]]], checked: Mapping[int, int]
) -> list[tuple[int, float]]:
    """Each table's weight: top tables (low numbers) up to twice as likely, and each earlier
    check of a player at the table halves it."""
    count = len(tables)
    weights = []
    for position, (table, players) in enumerate(sorted(tables)):
        top = 1 + (count - position) / count
        earlier = sum(checked.get(player, 0) for player in players)
        weights.append((table, top / (2**earlier)))
    return weights


def choose_tables(weights: list[tuple[int, float]], count: int, seed: int) -> list[int]:
    """Weighted sampling without replacement; the same seed gives the same tables."""
    chooser = random.Random(seed)
    left = list(weights)
    chosen: list[int] = []
    while left and len(chosen) < count:
        total = sum(weight for _table, weight in left)
        point = chooser.random() * total
        for index, (table, weight) in enumerate(left):
            point -= weight
            if point <= 0 or index == len(left) - 1:
                chosen.append(table)
                del left[index]
                break
    return sorted(chosen)
