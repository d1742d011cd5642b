"""Running the task queue inside a test, as the worker that `serve` starts runs it."""

from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult


def run_task_queue() -> int:
    """Run every task waiting in the database's queue with django-tasks-db's own worker, one at a
    time in this thread (the worker's loop, which closes the connection between tasks, would end
    the test's transaction); return how many ran."""
    worker = Worker(
        queue_names=["default"],
        interval=0,
        batch=True,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id="tests",
        excluded_queue_names=[],
    )
    ran = 0
    while (waiting := DBTaskResult.objects.ready().first()) is not None:
        waiting.claim(worker.worker_id)
        worker.run_task(waiting)
        ran += 1
    return ran
