"""Benchmark of the judge report's exports (``judging.report``) on a large event.

Run it with ``uv run python benchmarks/report.py``. It builds, in a throwaway SQLite file, a
tournament of 2,000 players, 15 rounds and 20,000 penalty records (and one a tenth of that size, to
show that memory does not grow with the event), inserting the rows directly with ``bulk_create``
since the services would take minutes for that many. Then every export runs in a fresh process of
its own, so that its peak resident memory is its own: the penalties and the standings as CSV and
XLSX, and the whole report as HTML, each written to a temporary file the way the command does.

For each it prints the wall time, the peak of Python allocations (tracemalloc, measured in a
second run since tracing slows the code down) and how far the resident set rose above what the
process held before the export (the peak of /proc's VmHWM after resetting it, or getrusage's
maxrss where /proc is missing); then one line for the README.
"""

import argparse
import datetime
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if not __package__:
    # Run as a script, Python puts benchmarks/ on the path rather than the repository root.
    sys.path.insert(0, str(ROOT))

LARGE = (2000, 15, 20_000)
SMALL = (200, 15, 2_000)
EXPORTS = ("penalties.csv", "penalties.xlsx", "standings.csv", "standings.xlsx", "report.html")


@dataclass(frozen=True)
class Measure:
    seconds: float
    python_peak_mb: float
    rss_mb: float


def setup_django(database: Path) -> None:
    # The settings read DATABASE_URL when they are imported, so it is set before django.setup().
    os.environ["DATABASE_URL"] = f"sqlite:///{database}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def build(*, players: int, rounds: int, records: int, seed: int, slug: str) -> int:
    """Insert one finished tournament of that size; return its id."""
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.db.models import F
    from django.utils import timezone

    from judging.models import ChangeKind, Infraction, PenaltyChange, PenaltyRecord, RecordStatus
    from judging.penalties import AppliesTo, Because, Moment, Rank
    from judging.selectors import edition_for
    from players.models import Player, search_text
    from tournaments.models import (
        Level,
        Match,
        MatchEnd,
        Registration,
        RegistrationStatus,
        Round,
        Staff,
        StaffRole,
        Tournament,
        TournamentStatus,
    )

    rng = random.Random(seed)
    now = timezone.now()
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=f"Бенчмарк {players}",
            slug=slug,
            date=datetime.date(2026, 12, 5),
            venue="Москва",
            level=Level.PROFESSIONAL,
            uses_decklists=True,
            rounds_planned=rounds,
            status=TournamentStatus.FINISHED,
        )
        users = get_user_model().objects
        judges = []
        for role, count in ((StaffRole.HEAD_JUDGE, 1), (StaffRole.FLOOR_JUDGE, 8)):
            for number in range(count):
                user = users.create(username=f"{slug}-{role}-{number}", first_name="Судья")
                Staff.objects.create(tournament=tournament, user=user, role=role)
                judges.append(user)
        people = Player.objects.bulk_create(
            Player(
                name=f"Игрок {slug} {number:04d}",
                membership_id=f"{slug}-{number:05d}",
                search_text=search_text(f"Игрок {number:04d}", f"{slug}-{number:05d}"),
            )
            for number in range(players)
        )
        registrations = Registration.objects.bulk_create(
            Registration(tournament=tournament, player=person) for person in people
        )
        matches_of_round: list[list[Match]] = []
        for number in range(1, rounds + 1):
            round_ = Round.objects.create(tournament=tournament, number=number)
            order = registrations[:]
            rng.shuffle(order)
            matches = []
            for table, index in enumerate(range(0, len(order) - 1, 2), start=1):
                first_wins = rng.choice((2, 2, 1, 0))
                matches.append(
                    Match(
                        round=round_,
                        table=table,
                        player1=order[index],
                        player2=order[index + 1],
                        player1_wins=first_wins,
                        player2_wins=2 if first_wins < 2 else rng.choice((0, 1)),
                        ended_at=now,
                        end_reason=MatchEnd.WINS_NEEDED,
                    )
                )
            matches_of_round.append(Match.objects.bulk_create(matches))
        edition = edition_for(tournament=tournament)
        infractions = [
            infraction
            for infraction in Infraction.objects.filter(edition=edition)
            if infraction.code != "1.3"
        ]
        ranks = [Rank.CAUTION] * 50 + [Rank.WARNING] * 30 + [Rank.GAME_LOSS] * 15
        ranks += [Rank.MATCH_LOSS] * 4 + [Rank.DISQUALIFICATION_WITHOUT_PRIZE]
        penalties = []
        for number in range(records):
            round_index = number * rounds // records
            match = rng.choice(matches_of_round[round_index])
            infraction = rng.choice(infractions)
            rank = rng.choice(ranks)
            # A few records were amended, revoked or declined by the head judge.
            issued_rank = rank if rng.random() > 0.03 else Rank(max(1, rank - 1))
            status = RecordStatus.IN_FORCE
            if rng.random() < 0.02:
                status = RecordStatus.REVOKED
            elif rank == Rank.DISQUALIFICATION_WITHOUT_PRIZE and rng.random() < 0.3:
                status = RecordStatus.DECLINED
            applies_to = ""
            if rank in (Rank.GAME_LOSS, Rank.MATCH_LOSS):
                applies_to = rng.choice(list(AppliesTo.values))
            penalties.append(
                PenaltyRecord(
                    tournament=tournament,
                    registration=rng.choice((match.player1, match.player2)),
                    infraction=infraction,
                    sub_item=rng.choice(infraction.sub_item_letters() or [""]),
                    reason=infraction.code,
                    moment=Moment.IN_GAME,
                    round=match.round,
                    issued_in_match=match,
                    issued_in_game=1,
                    issued_by=rng.choice(judges),
                    base_rank=issued_rank,
                    issued_rank=issued_rank,
                    rank=rank,
                    because=Because.BASE,
                    explanation={},
                    applies_to=applies_to,
                    served_match=match if applies_to and rng.random() < 0.9 else None,
                    status=status,
                    note="записано при проверке" if rng.random() < 0.2 else "",
                )
            )
        penalties = PenaltyRecord.objects.bulk_create(penalties, batch_size=2000)
        # The rounds are over: their records are hours old, not made this minute (a judge's same
        # infraction for a player within minutes asks for a confirmation, issue 26). auto_now_add
        # stamps them now, so they are moved back together, their order kept.
        PenaltyRecord.objects.filter(tournament=tournament).update(
            issued_at=F("issued_at") - datetime.timedelta(hours=rounds + 1)
        )
        changes = []
        for record in penalties:
            if record.issued_rank != record.rank and record.status == RecordStatus.IN_FORCE:
                kind, reason = ChangeKind.AMENDED, "отступление"
            elif record.status == RecordStatus.REVOKED:
                kind, reason = ChangeKind.REVOKED, "выдано по ошибке"
            elif record.status == RecordStatus.DECLINED:
                kind, reason = ChangeKind.DECLINED, "нет доказательств"
            else:
                continue
            changes.append(
                PenaltyChange(
                    record=record,
                    kind=kind,
                    author=judges[0],
                    from_rank=record.issued_rank,
                    to_rank=record.rank,
                    from_status=RecordStatus.IN_FORCE,
                    to_status=record.status,
                    reason=reason,
                )
            )
        PenaltyChange.objects.bulk_create(changes, batch_size=2000)
        disqualified = {
            record.registration_id
            for record in penalties
            if record.status == RecordStatus.IN_FORCE and record.rank >= Rank.DISQUALIFICATION
        }
        Registration.objects.filter(pk__in=disqualified).update(
            status=RegistrationStatus.DISQUALIFIED, prize_eligible=False
        )
    return tournament.pk


def run_export(*, tournament_id: int, export: str, trace: bool) -> Measure:
    """Run one export to a temporary file, in this process; print nothing."""
    from django.utils import translation

    from judging import report
    from tournaments.models import Tournament

    translation.activate("ru")
    tournament = Tournament.objects.get(pk=tournament_id)
    resident_before = _resident_peak_reset()
    if trace:
        tracemalloc.start()
    started = time.perf_counter()
    with tempfile.TemporaryFile() as handle:
        what, extension = export.split(".")
        if extension == "html":
            report.write_html(tournament=tournament, handle=handle)
        elif extension == "csv":
            for piece in report.csv_pieces(report.TABLES[what](tournament=tournament)):
                handle.write(piece)
        else:
            report.write_xlsx(report.TABLES[what](tournament=tournament), handle)
    seconds = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1] if trace else 0
    if trace:
        tracemalloc.stop()
    return Measure(
        seconds=seconds,
        python_peak_mb=peak / 2**20,
        rss_mb=(_resident_peak() - resident_before) / 2**10,
    )


def _status_kb(field: str) -> int | None:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(f"{field}:"):
                return int(line.split()[1])
    except OSError:
        pass
    return None


def _resident_peak_reset() -> int:
    """Reset the resident peak where Linux allows it and return the resident size now, in KB.

    getrusage's maxrss of a child started by fork and exec starts at the parent's size (Linux
    carries the old image's peak over exec), so the peak is read from /proc where it can be
    reset; elsewhere maxrss is the fallback and the figure includes the set-up.
    """
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        return 0
    return _status_kb("VmRSS") or 0


def _resident_peak() -> int:
    peak = _status_kb("VmHWM")
    if peak is not None:
        return peak
    # Linux and the BSDs report maxrss in kilobytes (macOS in bytes; this is a benchmark).
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def child(*, database: Path, tournament_id: int, export: str, trace: bool) -> Measure:
    """Run one export in a fresh process and read back what it measured."""
    result = subprocess.run(
        [
            sys.executable,
            __file__,
            "--child",
            export,
            "--database",
            str(database),
            "--tournament",
            str(tournament_id),
            *(["--trace"] if trace else []),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return Measure(**json.loads(result.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1, help="seed of the generated event")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--database", help=argparse.SUPPRESS)
    parser.add_argument("--tournament", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--trace", action="store_true", help=argparse.SUPPRESS)
    arguments = parser.parse_args()

    if arguments.child:
        setup_django(Path(arguments.database))
        measure = run_export(
            tournament_id=arguments.tournament, export=arguments.child, trace=arguments.trace
        )
        print(json.dumps(measure.__dict__))
        return

    with tempfile.TemporaryDirectory(prefix="report-benchmark-") as folder:
        database = Path(folder) / "benchmark.sqlite3"
        setup_django(database)
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        events = {}
        for players, rounds, records in (SMALL, LARGE):
            started = time.perf_counter()
            events[records] = build(
                players=players,
                rounds=rounds,
                records=records,
                seed=arguments.seed,
                slug=f"bench-{players}",
            )
            print(
                f"built {players} players, {rounds} rounds, {records} records"
                f" in {time.perf_counter() - started:.1f} s"
            )
        from django.db import connections

        connections.close_all()  # The children open the file themselves.

        results: dict[tuple[int, str], tuple[Measure, Measure]] = {}
        for players, rounds, records in (SMALL, LARGE):
            print(f"{players} players, {rounds} rounds, {records} penalty records:")
            for export in EXPORTS:
                timed = child(
                    database=database, tournament_id=events[records], export=export, trace=False
                )
                traced = child(
                    database=database, tournament_id=events[records], export=export, trace=True
                )
                results[records, export] = (timed, traced)
                print(
                    f"  {export:15} {timed.seconds:6.2f} s"
                    f"  python peak {traced.python_peak_mb:6.1f} MB"
                    f"  resident peak +{timed.rss_mb:6.1f} MB"
                )

    def part(export: str, label: str) -> str:
        timed, traced = results[LARGE[2], export]
        small = results[SMALL[2], export][1]
        return (
            f"{label} {timed.seconds:.1f} s, peak {traced.python_peak_mb:.1f} MB"
            f" ({small.python_peak_mb:.1f} MB at a tenth of the size)"
        )

    print()
    print(
        f"judge report, {LARGE[0]:,} players / {LARGE[1]} rounds / {LARGE[2]:,} penalties"
        f" (SQLite): {part('penalties.csv', 'penalties CSV')};"
        f" {part('penalties.xlsx', 'XLSX')}; {part('report.html', 'HTML report')}"
        " (tracemalloc peak)"
    )


if __name__ == "__main__":
    main()
