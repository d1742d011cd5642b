"""Benchmark of the deck-list checks in ``decks.parsing`` and ``decks.rules``.

Run it with ``uv run python benchmarks/decks.py``. It makes a pool of 2,000 cards (some with
«Орда», some legal in Констрактед only) and 2,000 lists of 50 lines each, then times reading every
list against the pool and checking it against Стандарт's rules: the work ``save_decklist`` does
before it writes. The issue's budget is 2 s for all 2,000; the script exits non-zero above it.
The time is the process's CPU time, so that other work on a shared machine does not count.
"""

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

if not __package__:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from django.conf import settings

from decks.parsing import CardInfo, PoolIndex, parse_list
from decks.rules import RuleSet, check_list

BUDGET_SECONDS = 2.0
STANDARD = RuleSet(
    format_slug="standard",
    format_name="Стандарт",
    main_min=40,
    extra_max=10,
    copy_limit=3,
    lifting_feature="Орда",
    combine_sections=True,
    check_legality=True,
)
SYLLABLES = [
    "ва",
    "мп",
    "ир",
    "са",
    "мо",
    "ход",
    "гн",
    "ом",
    "бо",
    "гарт",
    "шар",
    "смер",
    "ти",
    "эль",
]


def make_pool(size: int, chooser: random.Random) -> list[CardInfo]:
    names: set[str] = set()
    while len(names) < size:
        words = [
            "".join(chooser.choice(SYLLABLES) for _ in range(chooser.randint(2, 4)))
            for _ in range(chooser.randint(1, 3))
        ]
        names.add(" ".join(words).capitalize())
    return [
        CardInfo(
            id=number,
            name=name,
            features=frozenset({"Орда"}) if number % 50 == 0 else frozenset(),
            legal_in=frozenset({"constructed"}) if number % 97 == 0 else frozenset(),
        )
        for number, name in enumerate(sorted(names), start=1)
    ]


def make_lists(pool: list[CardInfo], count: int, lines: int, chooser: random.Random) -> list[str]:
    texts = []
    for _ in range(count):
        cards = chooser.sample(pool, lines)
        main = [f"{chooser.randint(1, 4)} {card.name.upper()}" for card in cards[:-5]]
        extra = [f"{chooser.randint(1, 2)}x {card.name}" for card in cards[-5:]]
        texts.append("Основная колода:\n" + "\n".join(main) + "\nДоп. колода:\n" + "\n".join(extra))
    return texts


def check_all(texts: list[str], index: PoolIndex) -> int:
    findings = 0
    for text in texts:
        parsed = parse_list(text, index)
        findings += len(check_list(parsed.lines, STANDARD))
    return findings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lists", type=int, default=2000)
    parser.add_argument("--lines", type=int, default=50)
    parser.add_argument("--cards", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    arguments = parser.parse_args()
    if not settings.configured:
        settings.configure(USE_I18N=False)
    chooser = random.Random(15)
    pool = make_pool(arguments.cards, chooser)
    index = PoolIndex.of(pool)
    texts = make_lists(pool, arguments.lists, arguments.lines, chooser)
    timings = []
    findings = 0
    for _ in range(arguments.runs):
        started = time.process_time()
        findings = check_all(texts, index)
        timings.append(time.process_time() - started)
    median = statistics.median(timings)
    print(
        f"deck checks: {arguments.lists} lists × {arguments.lines} lines against "
        f"{arguments.cards} cards: {median:.2f} s (median of {arguments.runs}; "
        f"max {max(timings):.2f} s; {findings} findings); budget {BUDGET_SECONDS:.0f} s"
    )
    return 0 if median < BUDGET_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
