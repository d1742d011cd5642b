"""The playoff's arithmetic (issue 32), knowing nothing of the ORM: the size of the cut, the
seeds' places in the bracket, who meets whom in the next round, and the order of the final
standings.

A bracket of N players (a power of two) has log2(N) rounds; round ``r`` (0 first) has N / 2^(r+1)
matches in slots 0, 1, …; the winners of slots 2i and 2i+1 meet in slot i of the next round.
"""

from collections.abc import Sequence
from dataclasses import dataclass

# The sizes a fixed cut may have; "half" picks one of them from the field.
FIXED_SIZES = (2, 4, 8, 16, 32)
NO_PLAYOFF = "none"
HALF = "half"


def largest_power_of_two(count: int) -> int:
    """The largest power of two at most ``count`` (0 for fewer than one)."""
    if count < 1:
        return 0
    return 1 << (count.bit_length() - 1)


def cut_size(setting: str, field: int) -> int:
    """How many players the playoff takes: a fixed top N, or half the field (every registered
    player) rounded down to a power of two (24 → 8, 40 → 16); 0 without a playoff or when half
    the field is fewer than two."""
    if setting == NO_PLAYOFF:
        return 0
    if setting == HALF:
        size = largest_power_of_two(field // 2)
        return size if size >= 2 else 0
    return int(setting)


def seed_order(size: int) -> list[int]:
    """The seeds in slot order of the first round, so that the higher seeds meet as late as
    possible: 1–8, 4–5, 2–7, 3–6 in a top 8 (``[1, 8, 4, 5, 2, 7, 3, 6]``)."""
    if size < 2 or size & (size - 1):
        raise ValueError("A bracket has a power of two players, at least two.")
    order = [1, 2]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def first_round(size: int) -> list[tuple[int, int]]:
    """The first round's pairs of seeds in slot order, the higher seed first."""
    order = seed_order(size)
    return [(order[i], order[i + 1]) for i in range(0, size, 2)]


def round_count(size: int) -> int:
    return size.bit_length() - 1


def matches_in_round(size: int, index: int) -> int:
    """The number of matches in round ``index`` (0 first) of a bracket of ``size`` players."""
    return size >> (index + 1)


def stage_key(matches: int) -> str:
    """The round's usual name by its number of matches: final, semi, quarter or top N."""
    return {1: "final", 2: "semi", 4: "quarter"}.get(matches, f"top{matches * 2}")


@dataclass(frozen=True)
class Advancer:
    """Who comes out of a slot: the winner's registration id (None: nobody, every player of the
    slot left) and their seed, to name the higher seed first."""

    registration_id: int | None
    seed: int


def next_pairs(
    winners: Sequence[Advancer],
) -> list[tuple[Advancer, Advancer]]:
    """The next round's pairs from the winners in slot order: slots 2i and 2i+1 meet in slot i,
    the higher seed (the smaller number) first."""
    if len(winners) < 2 or len(winners) % 2:
        raise ValueError("The next round needs the winners of an even number of slots.")
    pairs = []
    for i in range(0, len(winners), 2):
        first, second = winners[i], winners[i + 1]
        if second.seed < first.seed:
            first, second = second, first
        pairs.append((first, second))
    return pairs


@dataclass(frozen=True)
class Finish:
    """How far a player of the cut went: the round they lost in (``out_in``, 0 first; None for
    the champion) and their place in the final Swiss standings."""

    registration_id: int
    out_in: int | None
    swiss_position: int


def final_order(finishes: Sequence[Finish], rounds: int) -> list[Finish]:
    """The final standings of the cut: the champion, then by the round they went out in (the
    later the better), ties within a round broken by the Swiss standings."""

    def key(finish: Finish) -> tuple[int, int]:
        reached = rounds if finish.out_in is None else finish.out_in
        return (-reached, finish.swiss_position)

    return sorted(finishes, key=key)
