"""Mutation testing of the pure rule modules (issue 27 item 5), and their score.

Run from the project root::

    uv run python benchmarks/mutation.py            # mutate, test every mutant, print the score
    uv run python benchmarks/mutation.py --report   # only print the score of the last run

mutmut (a dev dependency) reads its settings from ``[tool.mutmut]`` in pyproject.toml: the
modules it mutates and the fast, database-free tests it runs against each mutant. It works in
a copy of the project under ``mutants/`` and keeps each mutant's outcome there, so a second run
only tests the mutants of functions that changed. ``uv run mutmut show NAME`` prints a mutant's
diff, and ``uv run mutmut results`` lists the survivors.

The score of a module is the share of its mutants that a test kills; a mutant that hangs the
tests until mutmut's time limit counts as killed (the change was noticed), and one that no test
reaches counts as a survivor.
"""

import argparse
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# mutmut's exit codes, as its stats module names them.
KILLED = {1, 3}
TIMEOUT = {-24, 24, 36, 152, 255}
SURVIVED = {0}
NO_TESTS = {5, 33}


def run_mutmut(children: int) -> int:
    """Run mutmut at the lowest priority, since the machine is shared."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings"}
    command = ["nice", "-n", "19", "mutmut", "run", "--max-children", str(children)]
    return subprocess.run(command, cwd=ROOT, env=env, check=False).returncode


def module_counts() -> dict[str, Counter[str]]:
    """Every mutated module's mutants by outcome, read from the files mutmut leaves."""
    counts: dict[str, Counter[str]] = {}
    for meta in sorted((ROOT / "mutants").rglob("*.py.meta")):
        module = str(meta.relative_to(ROOT / "mutants")).removesuffix(".meta")
        exit_codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
        tally: Counter[str] = Counter()
        for code in exit_codes.values():
            if code in KILLED:
                tally["killed"] += 1
            elif code in TIMEOUT:
                tally["timeout"] += 1
            elif code in SURVIVED:
                tally["survived"] += 1
            elif code in NO_TESTS:
                tally["no tests"] += 1
            elif code is None:
                tally["not checked"] += 1
            else:
                tally["other"] += 1
        counts[module] = tally
    return counts


def score_line(name: str, tally: Counter[str]) -> str:
    checked = sum(tally.values()) - tally["not checked"]
    caught = tally["killed"] + tally["timeout"]
    score = 100 * caught / checked if checked else 0.0
    details = ", ".join(f"{key} {value}" for key, value in sorted(tally.items()))
    return f"{name:28} {score:6.1f} %  {caught}/{checked}  ({details})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--report", action="store_true", help="only print the last run's score")
    parser.add_argument("--children", type=int, default=2, help="mutants tested at once")
    args = parser.parse_args()
    if not args.report:
        run_mutmut(args.children)
    counts = module_counts()
    if not counts:
        print("No mutants yet: run without --report first.", file=sys.stderr)
        return 1
    total: Counter[str] = Counter()
    for module, tally in counts.items():
        print(score_line(module, tally))
        total.update(tally)
    print(score_line("overall", total))
    return 0


if __name__ == "__main__":
    sys.exit(main())
