"""The players page's import runs as a task: checked at once, registered by the worker a step at a
time with its progress shown, and still all or nothing."""

from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from players.models import MembershipSuspension, Player
from tests.factories import Desk, PlayerFactory
from tournaments import jobs
from tournaments.models import Job, JobState
from tournaments.player_import import ImportRow, check_import, register_rows


def players_file(count: int, first: int = 1) -> bytes:
    return "\n".join(
        f"Игрок {n:04d};BJ-{n:05d};Тверь" for n in range(first, first + count)
    ).encode()


def run_the_worker():
    """What `serve` runs beside the server, here until the queue is empty. The worker closes
    connections between tasks, as a process of its own does, so its tests commit their data."""
    call_command("db_worker", "--batch", "--no-startup-delay", verbosity=0)


def upload(client, desk, content: bytes):
    client.force_login(desk.organiser)
    return client.post(
        reverse("tournaments:registration-import", args=[desk.tournament.slug]),
        {"file": SimpleUploadedFile("players.csv", content, content_type="text/csv")},
    )


def test_a_checked_file_is_imported_by_the_worker_with_its_progress_shown(
    transactional_db, client, desk
):
    before = desk.tournament.registrations.count()

    response = upload(client, desk, players_file(3))

    job = Job.objects.get()
    registrations = reverse("tournaments:registrations", args=[desk.tournament.slug])
    assert response.status_code == 302
    assert response["Location"] == f"{registrations}?job={job.pk}"
    assert (job.state, job.done, job.total) == (JobState.QUEUED, 0, 3)
    assert desk.tournament.registrations.count() == before
    waiting = client.get(response["Location"]).content.decode()
    assert "Импорт игроков: 0 из 3." in waiting
    assert f'hx-get="/t/{desk.tournament.slug}/jobs/{job.pk}/"' in waiting

    run_the_worker()

    job.refresh_from_db()
    assert (job.state, job.done, job.errors) == (JobState.DONE, 3, [])
    assert job.finished_at is not None
    assert desk.tournament.registrations.count() == before + 3
    done = client.get(reverse("tournaments:job", args=[desk.tournament.slug, job.pk]))
    page = done.content.decode()
    assert "Импортировано игроков: 3." in page
    assert "hx-get" not in page  # finished: the page stops asking


def test_a_file_with_bad_rows_is_refused_at_once_and_queues_nothing(client, desk):
    response = upload(client, desk, "Анна;BJ-1;Тверь\nБорис;;Тула\n".encode())

    assert response.status_code == 200
    assert "строка 2" in response.content.decode()
    assert not Job.objects.exists()


def test_a_refusal_in_a_later_step_takes_back_the_earlier_steps(transactional_db, desk):
    known = PlayerFactory(name="Игрок 0230", membership_id="BJ-00230")
    rows, report = check_import(tournament=desk.tournament, content=players_file(250))
    assert report.ok and len(rows) == 250
    job = jobs.start_player_import(tournament=desk.tournament, rows=rows, by=desk.organiser)
    players_before = Player.objects.count()
    # Between the check and a later step of the worker's (the third of 100 rows on PostgreSQL,
    # the tenth of 25 on SQLite), the coordinator suspends line 230's player.
    MembershipSuspension.objects.create(
        player=known, starts_on=timezone.localdate(), reason="обман"
    )

    run_the_worker()

    job.refresh_from_db()
    assert job.state == JobState.FAILED
    assert job.errors[0][0] == 230
    assert "Членство игрока Игрок 0230 приостановлено" in job.errors[0][1]
    assert not desk.tournament.registrations.filter(player__membership_id__startswith="BJ-")
    assert Player.objects.count() == players_before  # the players the steps added are gone
    assert Player.objects.filter(pk=known.pk).exists()  # the one known before stays


def test_a_job_delivered_twice_runs_once(desk):
    rows, _report = check_import(tournament=desk.tournament, content=players_file(2))
    job = jobs.start_player_import(tournament=desk.tournament, rows=rows, by=desk.organiser)
    jobs.run(job.pk)

    jobs.run(job.pk)

    assert (
        desk.tournament.registrations.filter(player__membership_id__startswith="BJ-").count() == 2
    )


def test_another_tournaments_job_is_not_shown(client, desk):
    other = Desk.create(players=0)
    rows, _report = check_import(tournament=other.tournament, content=players_file(1))
    job = jobs.start_player_import(tournament=other.tournament, rows=rows, by=other.organiser)
    client.force_login(desk.organiser)

    response = client.get(reverse("tournaments:job", args=[desk.tournament.slug, job.pk]))
    page = client.get(
        reverse("tournaments:registrations", args=[desk.tournament.slug]) + f"?job={job.pk}"
    )
    huge = client.get(
        reverse("tournaments:registrations", args=[desk.tournament.slug]) + "?job=²" + "9" * 40
    )

    assert response.status_code == 404
    assert 'id="job-progress"' not in page.content.decode()
    assert huge.status_code == 200


def test_a_step_costs_the_same_queries_whatever_its_size(desk):
    def queries_for(first: int, count: int) -> list[str]:
        PlayerFactory(name=f"Игрок {first:04d}", membership_id=f"BJ-{first:05d}")
        rows = [
            ImportRow(n, f"Игрок {n:04d}", f"BJ-{n:05d}", "Тверь")
            for n in range(first, first + count)
        ]
        with CaptureQueriesContext(connection) as queries:
            register_rows(tournament=desk.tournament, rows=rows)
        return [query["sql"].split()[0] for query in queries]

    # A known player and new ones: one row more or a hundred more is the same statements.
    assert queries_for(1, 2) == queries_for(100, 4) == queries_for(200, 100)
