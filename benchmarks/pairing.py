"""Benchmark of the Swiss pairing (швейцарская система) in ``tournaments.pairing``.

Run it with ``uv run python benchmarks/pairing.py``. For 128, 512 and 2048 players it plays a
9-round tournament with random results (about one match in ten drawn), times the pairing of
every round several times, and prints each round's median, then the median and the maximum over
the rounds, and finally one line for the README.

``--against DIR`` times the ``tournaments/pairing.py`` of another checkout (a git worktree of an
older commit) in the same process, run for run in turns with this one on the same entrants, checks
that both pair every round alike, and prints both totals: a shared machine's load then weighs on
both the same.
"""

import argparse
import gc
import importlib.util
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if not __package__:
    # Run as a script, Python puts benchmarks/ on the path rather than the repository root.
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from django.conf import settings

from tournaments.pairing import Entrant, pair_swiss

SIZES = (128, 512, 2048)
ROUNDS = 9
DRAW_CHANCE = 0.1


@dataclass
class Player:
    id: int
    points: int = 0
    opponents: set[int] = field(default_factory=set)
    had_bye: bool = False


@dataclass(frozen=True)
class RoundTiming:
    round_number: int
    median_ms: float
    max_ms: float


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="timed pairings per round")
    parser.add_argument("--seed", type=int, default=1, help="seed of the simulated results")
    parser.add_argument("--against", type=Path, help="another checkout to compare with")
    arguments = parser.parse_args()

    if not settings.configured:
        # Only a PairingImpossible message would be translated, and a benchmark raises none.
        settings.configure(USE_I18N=False)
    if arguments.against:
        compare(arguments.against, runs=arguments.runs, seed=arguments.seed)
        return

    summary = ""
    for size in SIZES:
        timings = simulate(size=size, runs=arguments.runs, seed=arguments.seed)
        print(f"{size} players, {ROUNDS} rounds, median of {arguments.runs} runs per round:")
        for timing in timings:
            print(
                f"  round {timing.round_number}: {timing.median_ms:7.1f} ms"
                f"  (slowest run {timing.max_ms:.1f} ms)"
            )
        medians = [timing.median_ms for timing in timings]
        print(
            f"  over the rounds: median {statistics.median(medians):.1f} ms,"
            f" max {max(medians):.1f} ms"
        )
        if size == 512:
            summary = (
                f"pair_swiss: 512 players, round {ROUNDS}: {timings[-1].median_ms:.0f} ms"
                f" (median of {arguments.runs} runs)"
            )
    print()
    print(summary)


def simulate(*, size: int, runs: int, seed: int) -> list[RoundTiming]:
    """Play a tournament of ``size`` players, timing the pairing of each round ``runs`` times."""
    rng = random.Random(seed)
    players = {player_id: Player(id=player_id) for player_id in range(1, size + 1)}
    timings: list[RoundTiming] = []
    for round_number in range(1, ROUNDS + 1):
        entrants = standings(players)
        times: list[float] = []
        for _run in range(runs):
            started = time.perf_counter()
            pairings = pair_swiss(entrants=entrants, round_number=round_number, seed=seed)
            times.append((time.perf_counter() - started) * 1000)
        timings.append(
            RoundTiming(
                round_number=round_number, median_ms=statistics.median(times), max_ms=max(times)
            )
        )
        play(players, pairings, rng)
    return timings


def play(players: dict[int, Player], pairings: list[Any], rng: random.Random) -> None:
    """Random results for the round: about one match in ten drawn."""
    for pairing in pairings:
        first = players[pairing.first]
        if pairing.second is None:
            first.points += 3
            first.had_bye = True
            continue
        second = players[pairing.second]
        first.opponents.add(second.id)
        second.opponents.add(first.id)
        outcome = rng.random()
        if outcome < DRAW_CHANCE:
            first.points += 1
            second.points += 1
        elif outcome < (1 + DRAW_CHANCE) / 2:
            first.points += 3
        else:
            second.points += 3


def load_pairing(checkout: Path) -> Any:
    """The other checkout's pairing module, under a name of its own."""
    spec = importlib.util.spec_from_file_location(
        "pairing_compared", checkout / "tournaments" / "pairing.py"
    )
    assert spec and spec.loader, f"no tournaments/pairing.py in {checkout}"
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compare(checkout: Path, *, runs: int, seed: int) -> None:
    other = load_pairing(checkout)
    print(f"this checkout against {checkout}, median of {runs} runs per round, in turns:")
    for size in SIZES:
        rng = random.Random(seed)
        players = {player_id: Player(id=player_id) for player_id in range(1, size + 1)}
        ours: list[float] = []
        theirs: list[float] = []
        for round_number in range(1, ROUNDS + 1):
            entrants = standings(players)
            old_entrants = [other.Entrant(**vars(entrant)) for entrant in entrants]
            mine: list[float] = []
            before: list[float] = []
            for run in range(runs):
                # Each first in turn, so that neither always pays for the other's garbage.
                if run % 2:
                    old = timed(before, other.pair_swiss, old_entrants, round_number, seed)
                    pairings = timed(mine, pair_swiss, entrants, round_number, seed)
                else:
                    pairings = timed(mine, pair_swiss, entrants, round_number, seed)
                    old = timed(before, other.pair_swiss, old_entrants, round_number, seed)
                assert [(p.first, p.second) for p in pairings] == [
                    (p.first, p.second) for p in old
                ], f"{size} players, round {round_number}: the two checkouts pair differently"
            ours.append(statistics.median(mine))
            theirs.append(statistics.median(before))
            play(players, pairings, rng)
        print(
            f"  {size} players, {ROUNDS} rounds: {sum(ours):.1f} ms here,"
            f" {sum(theirs):.1f} ms there ({sum(ours) / sum(theirs):.2f}x);"
            f" round {ROUNDS}: {ours[-1]:.1f} ms here, {theirs[-1]:.1f} ms there"
        )


def timed(
    samples: list[float],
    pair: Callable[..., Any],
    entrants: list[Any],
    round_number: int,
    seed: int,
) -> Any:
    gc.collect()
    started = time.perf_counter()
    pairings = pair(entrants=entrants, round_number=round_number, seed=seed)
    samples.append((time.perf_counter() - started) * 1000)
    return pairings


def standings(players: dict[int, Player]) -> list[Entrant]:
    """Entrants ranked by points, then the opponents' points (Buchholz), then id."""

    def buchholz(player: Player) -> int:
        return sum(players[opponent].points for opponent in player.opponents)

    ranked = sorted(players.values(), key=lambda p: (-p.points, -buchholz(p), p.id))
    return [
        Entrant(
            id=player.id,
            points=player.points,
            rank=rank,
            opponents=frozenset(player.opponents),
            had_bye=player.had_bye,
        )
        for rank, player in enumerate(ranked, start=1)
    ]


if __name__ == "__main__":
    main()
