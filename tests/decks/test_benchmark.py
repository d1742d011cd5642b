import random
import time

from benchmarks import decks as benchmark
from decks.parsing import PoolIndex


def test_the_benchmark_checks_lists_well_within_its_budget():
    chooser = random.Random(15)
    pool = benchmark.make_pool(2000, chooser)
    texts = benchmark.make_lists(pool, 200, 50, chooser)
    started = time.process_time()
    assert benchmark.check_all(texts, PoolIndex.of(pool)) > 0
    # A tenth of the lists in a tenth of the budget (CPU time, not the shared machine's clock).
    assert time.process_time() - started < benchmark.BUDGET_SECONDS / 10 * 3
