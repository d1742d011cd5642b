"""The deck benchmark times real work: its lists are read in full against its pool and checked.

Its budget (2 s of CPU for 2,000 lists) is the benchmark's own to judge when it is run
(``uv run python benchmarks/decks.py``, figures in the README), not a timed test's: a slower
machine would fail a timed test with nothing wrong in the code.
"""

import random

from benchmarks import decks as benchmark
from decks.parsing import PoolIndex, parse_list


def test_the_benchmarks_lists_are_read_in_full_and_found_over_the_copy_limit():
    chooser = random.Random(15)
    pool = benchmark.make_pool(2000, chooser)
    index = PoolIndex.of(pool)
    texts = benchmark.make_lists(pool, 200, 50, chooser)
    for text in texts:
        parsed = parse_list(text, index)
        assert parsed.ok and not parsed.unmatched
        assert len(parsed.lines) == 50 and all(line.card is not None for line in parsed.lines)
    # Counts of 1 to 4 copies: most lists hold a card over Стандарт's limit of 3.
    assert benchmark.check_all(texts, index) > len(texts) // 2
