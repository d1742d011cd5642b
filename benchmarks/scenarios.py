"""Benchmark of the executable rulings: every scenario file played through the real services.

Run it with ``uv run python benchmarks/scenarios.py``. It migrates a throwaway SQLite database,
then plays every ``*.json`` of the shared scenarios folder (``../shared/scenarios``; ``--folder``
picks another) several times, each run in its own rolled-back transaction as ``run_scenarios``
does, and prints each file's median, the median of one pass over all of them, and one line for
the README. A scenario that fails is reported, and the benchmark exits 1: a timing of a failing
ruling would compare nothing.

``--against DIR`` compares with another checkout (a git worktree of an older commit): two worker
processes, one in each checkout with its own throwaway database, play the same file in turns, the
order swapped every pass, so a shared machine's load weighs on both alike; it prints each one's
median pass and their ratio.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if not __package__:
    # Run as a script, Python puts benchmarks/ on the path rather than the repository root.
    sys.path.insert(0, str(ROOT))

SHARED_SCENARIOS = ROOT.parent / "shared" / "scenarios"


def setup_django(folder: Path) -> None:
    # The settings read the environment when they are imported, so it is set before setup().
    os.environ["DATABASE_URL"] = f"sqlite:///{folder / 'bench.sqlite3'}"
    os.environ["DJANGO_DATA_DIR"] = str(folder)
    os.environ.setdefault("DJANGO_SECRET_KEY", "benchmark-only-" + "x" * 40)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


# A worker: set Django up in its checkout (the working folder), then play each file named on a
# line of its input and answer with a JSON line: the seconds it took and whether it passed.
WORKER = """
import json, sys, tempfile, time
from pathlib import Path
sys.path.insert(0, ".")
SETUP
folder = tempfile.mkdtemp()
setup_django(Path(folder))
from judging.scenarios import run_scenario_file
print("ready", flush=True)
for line in sys.stdin:
    started = time.perf_counter()
    result = run_scenario_file(Path(line.strip()))
    print(json.dumps([time.perf_counter() - started, result.passed, result.line]), flush=True)
"""


class Worker:
    def __init__(self, checkout: Path) -> None:
        import inspect

        code = WORKER.replace("SETUP", "import os\n" + inspect.getsource(setup_django))
        self.checkout = checkout
        self.process = subprocess.Popen(
            [sys.executable, "-c", code],
            cwd=checkout,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert self.process.stdout and self.process.stdin
        if self.process.stdout.readline().strip() != "ready":
            sys.exit(f"the worker in {checkout} did not start")

    def play(self, path: Path) -> float:
        assert self.process.stdout and self.process.stdin
        self.process.stdin.write(f"{path}\n")
        self.process.stdin.flush()
        seconds, passed, line = json.loads(self.process.stdout.readline())
        if not passed:
            sys.exit(f"{self.checkout}: {line}")
        return float(seconds)


def compare(files: list[Path], checkout: Path, runs: int) -> None:
    here, there = Worker(ROOT), Worker(checkout)
    for path in files:  # a first pass for the caches, untimed
        here.play(path)
        there.play(path)
    passes: dict[Worker, list[float]] = {here: [], there: []}
    for run in range(runs):
        totals = {here: 0.0, there: 0.0}
        order = (here, there) if run % 2 == 0 else (there, here)
        for path in files:
            for worker in order:
                totals[worker] += worker.play(path)
        for worker, total in totals.items():
            passes[worker].append(total)
    mine, theirs = (statistics.median(passes[worker]) * 1000 for worker in (here, there))
    print(
        f"scenarios: {len(files)} files, one pass {mine:.0f} ms here, {theirs:.0f} ms in"
        f" {checkout.name} ({mine / theirs:.2f}x; median of {runs} passes in turns)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=SHARED_SCENARIOS)
    parser.add_argument("--runs", type=int, default=20, help="timed passes over the files")
    parser.add_argument("--against", type=Path, help="another checkout to compare with")
    arguments = parser.parse_args()
    files = sorted(arguments.folder.resolve().glob("*.json"))
    if not files:
        sys.exit(f"no scenario files in {arguments.folder}")
    if arguments.against:
        compare(files, arguments.against.resolve(), arguments.runs)
        return

    with tempfile.TemporaryDirectory() as folder:
        setup_django(Path(folder))
        from judging.scenarios import run_scenario_file

        failed = [result.line for result in map(run_scenario_file, files) if not result.passed]
        if failed:
            print("\n".join(failed))
            sys.exit(1)
        per_file: dict[Path, list[float]] = {path: [] for path in files}
        passes = []
        for _ in range(arguments.runs):
            started = time.perf_counter()
            for path in files:
                begun = time.perf_counter()
                run_scenario_file(path)
                per_file[path].append(time.perf_counter() - begun)
            passes.append(time.perf_counter() - started)

    print(f"{len(files)} scenarios, median of {arguments.runs} runs each:")
    for path, seconds in per_file.items():
        print(f"  {path.name}: {statistics.median(seconds) * 1000:6.1f} ms")
    print()
    print(
        f"scenarios: {len(files)} files, one pass {statistics.median(passes) * 1000:.0f} ms"
        f" (median of {arguments.runs}; fastest {min(passes) * 1000:.0f} ms)"
    )


if __name__ == "__main__":
    main()
