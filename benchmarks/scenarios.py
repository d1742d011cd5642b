"""Benchmark of the executable rulings: every scenario file played through the real services.

Run it with ``uv run python benchmarks/scenarios.py``. It migrates a throwaway SQLite database,
then plays every ``*.json`` of the shared scenarios folder (``../shared/scenarios``; ``--folder``
picks another) several times, each run in its own rolled-back transaction as ``run_scenarios``
does, and prints each file's median, the median of one pass over all of them, and one line for
the README. A scenario that fails is reported, and the benchmark exits 1: a timing of a failing
ruling would compare nothing.
"""

import argparse
import os
import statistics
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=SHARED_SCENARIOS)
    parser.add_argument("--runs", type=int, default=20, help="timed passes over the files")
    arguments = parser.parse_args()
    files = sorted(arguments.folder.glob("*.json"))
    if not files:
        sys.exit(f"no scenario files in {arguments.folder}")

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
