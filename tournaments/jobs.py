"""Long work for a tournament, run by the task worker in short transactions with its progress.

The players page checks an uploaded file at once (every bad row is shown before anything is
written), then hands the checked rows to a ``Job`` and answers; the worker registers them a step
at a time. Each step is its own short transaction, so on SQLite a judge's submit waits for one
step at most, never for the whole file; the whole file still counts as one import: if a step is
refused (a player suspended or registered meanwhile), what the earlier steps wrote is taken back
and the job reports the line, so the file is imported whole or not at all.
"""

import time

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from players.models import Player
from tournaments.models import Job, JobKind, JobState, Registration, Tournament
from tournaments.player_import import ImportRow, RowRefused, register_rows

# Rows registered per transaction, and the pause after each, in which a waiting writer gets its
# turn; measured in benchmarks/player_import.py. On SQLite the step holds the one write lock from
# its start (``BEGIN IMMEDIATE``), and a judge's submit that meets it waits in SQLite's busy
# handler, which tries again after 1, 3, 8, 18 ms…: a step of 100 rows held it about 12 ms, so
# such a submit got in at 18 ms; 25 rows hold it about 6 ms (in-process medians). PostgreSQL
# locks rows, not the database, and keeps the larger step; the pause gives the judges' requests
# the cores there too.
ROWS_PER_STEP_ON_SQLITE = 25
ROWS_PER_STEP = 100
PAUSE_BETWEEN_STEPS = 0.02


def start_player_import(*, tournament: Tournament, rows: list[ImportRow], by: User) -> Job:
    """Keep the checked rows in a job and queue it for the worker: both or neither."""
    from tournaments.tasks import run_job

    with transaction.atomic():
        job = Job.objects.create(
            tournament=tournament,
            kind=JobKind.PLAYER_IMPORT,
            total=len(rows),
            payload={"rows": [[r.line, r.name, r.membership_id, r.city] for r in rows]},
            started_by=by,
        )
        run_job.enqueue(job.pk)
    return job


def run_player_import(job: Job) -> None:
    """Register the job's rows a step at a time, moving its progress on after each step."""
    rows = [ImportRow(*row) for row in job.payload["rows"]]
    registered: list[int] = []
    known = set(
        Player.objects.filter(membership_id__in=[row.membership_id for row in rows]).values_list(
            "pk", flat=True
        )
    )
    size = ROWS_PER_STEP_ON_SQLITE if connection.vendor == "sqlite" else ROWS_PER_STEP
    try:
        for start in range(0, len(rows), size):
            step = rows[start : start + size]
            with transaction.atomic():
                made = register_rows(tournament=job.tournament, rows=step)
                Job.objects.filter(pk=job.pk).update(done=F("done") + len(step))
            registered += [registration.pk for registration in made]
            time.sleep(PAUSE_BETWEEN_STEPS)
    except RowRefused as refused:
        _take_back(registered=registered, known_players=known)
        _finish(job, JobState.FAILED, errors=[[refused.line, str(refused.error.message)]])
        return
    except Exception:
        _take_back(registered=registered, known_players=known)
        raise
    _finish(job, JobState.DONE)


def _take_back(*, registered: list[int], known_players: set[int]) -> None:
    """Undo the earlier steps of a refused import: their registrations, and the players they
    added to the registry that nothing else refers to."""
    with transaction.atomic():
        registrations = Registration.objects.filter(pk__in=registered)
        added = set(registrations.values_list("player_id", flat=True)) - known_players
        registrations.delete()
        Player.objects.filter(pk__in=added, registrations__isnull=True).delete()


def _finish(job: Job, state: JobState, errors: list[list[object]] | None = None) -> None:
    Job.objects.filter(pk=job.pk).update(
        state=state, errors=errors or [], finished_at=timezone.now()
    )


RUNNERS = {JobKind.PLAYER_IMPORT: run_player_import}


def run(job_id: int) -> None:
    """Run a queued job once: a job already started (a task delivered twice) is left alone."""
    with transaction.atomic():
        claimed = Job.objects.filter(pk=job_id, state=JobState.QUEUED).update(
            state=JobState.RUNNING
        )
    if not claimed:
        return
    job = Job.objects.select_related("tournament").get(pk=job_id)
    try:
        RUNNERS[JobKind(job.kind)](job)
    except Exception:
        # The worker records the traceback on the task; the organiser is told in plain words.
        _finish(job, JobState.FAILED, errors=[[0, _("The work stopped on an unexpected error.")]])
        raise
