"""Benchmark of the players' CSV import (``tournaments.player_import``) at 300 and 3,000 rows.

Run it with ``uv run python benchmarks/player_import.py`` (``--databases sqlite`` to skip
PostgreSQL; ``BENCH_PG_ADMIN_URL`` names a role that may create databases, by default the local
cluster's ``judging`` role that ``.ci/run`` sets up). For each database, in a throwaway database
and a child process of its own, it makes a tournament and a registry in which a tenth of the
file's players are known already, then imports a file of 300 rows and one of 3,000 rows into it
through the same function the players page calls, several times each (each run into a fresh
tournament), and prints the median beside a floor from the same run: the time to read the same
file's rows with nothing written. The issue's goal is 3,000 rows in under 5 s.
"""

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if not __package__:
    sys.path.insert(0, str(ROOT))

from benchmarks.hot_path_tools import database  # noqa: E402

SIZES = (300, 3000)
RUNS = 3
GOAL_SECONDS = 5.0


def csv_file(rows: int, offset: int) -> bytes:
    lines = ["Имя;Членский номер;Город"]
    lines += [f"Игрок {offset + n:05d};BI-{offset + n:06d};Москва" for n in range(rows)]
    return "\n".join(lines).encode("utf-8")


def child(database_url: str) -> dict[str, dict[str, float]]:
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["DJANGO_LOG_LEVEL"] = "WARNING"
    import django

    django.setup()
    from django.core.management import call_command

    from players.models import Player, search_text
    from tournaments.models import Level
    from tournaments.player_import import import_players, read_upload
    from tournaments.services import create_tournament

    call_command("migrate", interactive=False, verbosity=0)
    figures: dict[str, dict[str, float]] = {}
    offset = 0
    for size in SIZES:
        floor, spent = [], []
        for run in range(RUNS):
            content = csv_file(size, offset)
            # A tenth of the file is already in the registry, as at a club's second event.
            Player.objects.bulk_create(
                [
                    Player(
                        name=f"Игрок {offset + n:05d}",
                        membership_id=f"BI-{offset + n:06d}",
                        city="Москва",
                        search_text=search_text(f"Игрок {offset + n:05d}", f"BI-{offset + n:06d}"),
                    )
                    for n in range(0, size, 10)
                ]
            )
            tournament = create_tournament(
                name=f"Импорт {size} {run}",
                slug=f"import-{size}-{run}",
                date=datetime.date(2026, 12, 12),
                level=Level.AMATEUR,
            )
            started = time.perf_counter()
            read_upload(content)
            floor.append(time.perf_counter() - started)
            started = time.perf_counter()
            report = import_players(tournament=tournament, content=content)
            spent.append(time.perf_counter() - started)
            if report.imported != size:
                raise SystemExit(f"import refused: {report.errors[:3]}")
            offset += size
        figures[str(size)] = {
            "median_s": statistics.median(spent),
            "floor_s": statistics.median(floor),
        }
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.child:
        print(json.dumps(child(arguments.child)))
        return
    failed = False
    for kind in arguments.databases.split(","):
        with database(kind) as url:
            run = subprocess.run(
                [sys.executable, __file__, "--child", url],
                cwd=ROOT,
                capture_output=True,
                text=True,
                check=False,
            )
        if run.returncode != 0:
            raise SystemExit(run.stderr)
        figures = json.loads(run.stdout.strip().splitlines()[-1])
        for size, figure in figures.items():
            verdict = "met" if int(size) < 3000 or figure["median_s"] < GOAL_SECONDS else "MISSED"
            print(
                f"{kind:<10} {int(size):>5} rows: {figure['median_s'] * 1000:8.0f} ms "
                f"(reading the file alone: {figure['floor_s'] * 1000:6.0f} ms) {verdict}"
            )
            failed |= verdict == "MISSED"
    if failed:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
