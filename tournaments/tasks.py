"""Tasks for the worker (Django's tasks framework, ``manage.py db_worker``)."""

from django.tasks import task

from tournaments import jobs


@task()
def run_job(job_id: int) -> None:
    jobs.run(job_id)
