"""Benchmark of the Swiss pairing (швейцарская система) in ``tournaments.pairing``.

Run it with ``uv run python benchmarks/pairing.py``. For 128, 512 and 2048 players it plays a
9-round tournament with random results (about one match in ten drawn), times the pairing of
every round several times, and prints each round's median, then the median and the maximum over
the rounds, and finally one line for the README.
"""

import argparse
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

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
    arguments = parser.parse_args()

    if not settings.configured:
        # Only a PairingImpossible message would be translated, and a benchmark raises none.
        settings.configure(USE_I18N=False)

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
    return timings


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
