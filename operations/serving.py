"""Which process serves from a data folder.

``serve`` and ``demo`` hold a lock on a file in the data folder for as long as they serve, and
``restore`` takes the same lock before it touches the database: a restore never swaps the database
under a running server (whose tablets would then see another event's state mid-request), and a
second server cannot start on a folder that one already serves. The operating system releases the
lock when the holder ends, even when it is killed, so a crash never leaves the folder "in use".
"""

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

import dj_database_url
import portalocker
import psutil
from django.conf import settings
from django.utils.translation import gettext as _

from operations.tls import ServerCertificate

LOCK_FILE = "serving.lock"


class DataFolderInUse(Exception):
    """Another process holds the data folder: a server is running from it, or a restore is."""


@contextlib.contextmanager
def hold_data_folder() -> Iterator[None]:
    """Hold the data folder for the block's length; raise ``DataFolderInUse`` if another does."""
    path = Path(settings.DATA_DIR) / LOCK_FILE
    with path.open("a+", encoding="utf-8") as file:
        try:
            portalocker.lock(file, portalocker.LOCK_EX | portalocker.LOCK_NB)
        except portalocker.LockException as error:
            raise DataFolderInUse(str(path)) from error
        try:
            yield
        finally:
            portalocker.unlock(file)


def folder_in_use_message() -> str:
    """What a second server is told; a restore says it in its own words (what to stop first)."""
    return _(
        "Another server or a restore is already using this data folder (%(folder)s): stop it "
        "first, or give this one another folder with DJANGO_DATA_DIR."
    ) % {"folder": settings.DATA_DIR}


# How much lower than the server's the task worker's CPU priority is (Unix niceness): the same
# as the export processes' (judging/export_processes.py), for the same reason.
WORKER_NICENESS = 10


def lower_cpu_priority(process: subprocess.Popen[bytes], *, idle_policy: bool = False) -> None:
    """Give a process this one started a lower CPU priority than this one's, so that on a
    laptop's two cores the scheduler serves the judges' requests first and the background work
    takes the time they leave. Set from here, just after the start: the worker is django-tasks-db's
    own command, which has no hook of its own to lower itself.

    ``idle_policy``: on Linux, also the idle scheduling policy (``SCHED_IDLE``). Niceness only
    weighs the worker's share when both want a core, and a request that wakes beside a niced
    worker may wait for the worker's time slice to end; beside an idle-policy worker it takes the
    core at once (measured in ``benchmarks/decks.py --recheck``, the README's round E). But an
    idle-policy process barely runs while any other process wants its core, so it must never hold
    what a judge's request waits for: see ``task_worker``."""
    child = psutil.Process(process.pid)
    if sys.platform == "win32":
        child.nice(psutil.BELOW_NORMAL_PRIORITY_CLASS)
        return
    child.nice(min(os.nice(0) + WORKER_NICENESS, 19))
    if idle_policy and sys.platform == "linux":
        # A container may refuse the call; the niceness alone then orders the two.
        with contextlib.suppress(OSError):
            os.sched_setscheduler(process.pid, os.SCHED_IDLE, os.sched_param(0))


def worker_may_idle(environment: Mapping[str, str] | None = None) -> bool:
    """Whether the task worker may run under the idle policy: with PostgreSQL, not SQLite.

    On SQLite every write transaction holds the one write lock from its start, the worker's too
    (a step of an import or a re-check, and django-tasks-db's own claim of a task), and a judge's
    submit waits for it. A worker under the idle policy that is preempted while holding it, on a
    machine whose cores are busy (a round start's phones, an export), would make that wait
    last until the cores are free; niceness still gives it a share, so its hold ends in
    milliseconds. PostgreSQL locks rows, and the worker's rows (new registrations, deck lists
    and their findings, its task) are not those a judge's submit, preview or result locks."""
    url = (environment if environment is not None else os.environ).get("DATABASE_URL", "")
    return bool(url) and dj_database_url.parse(url)["ENGINE"] == "django.db.backends.postgresql"


# How often the worker beside ``serve`` looks in the queue for work, in seconds.
WORKER_POLL_SECONDS = 0.5
# The folder of ``manage.py`` (``settings.BASE_DIR``), found from this file so that a process
# that has not set Django up, such as a benchmark's driver, can start the worker too.
PROJECT_FOLDER = Path(__file__).resolve().parent.parent


@contextlib.contextmanager
def task_worker(
    *,
    poll_seconds: float = WORKER_POLL_SECONDS,
    environment: Mapping[str, str] | None = None,
) -> Iterator[subprocess.Popen[bytes]]:
    """The task queue's worker (``manage.py db_worker``) beside the server, for the block's length.

    Long work (an import of thousands of players, a re-check of every deck list) waits in the
    database's queue until a worker takes it; on a laptop the organiser starts nothing but
    ``serve``, so ``serve`` starts the one worker and stops it with itself. It runs as a process of
    its own at a lower CPU priority, so its work never takes the server's time (measured in
    ``benchmarks/decks.py --recheck``), and reads the same settings and data folder: this
    process's environment, or ``environment`` where the caller serves the app from processes with
    settings of their own, as the benchmarks do.
    """
    worker = subprocess.Popen(
        [
            sys.executable,
            "manage.py",
            "db_worker",
            "--interval",
            str(poll_seconds),
            "--no-startup-delay",
        ],
        cwd=PROJECT_FOLDER,
        env=environment,
    )
    lower_cpu_priority(worker, idle_policy=worker_may_idle(environment))
    try:
        yield worker
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=10)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()


def run_servers(
    *,
    host: str,
    port: int,
    workers: int = 1,
    https_port: int | None = None,
    certificate: ServerCertificate | None = None,
    **options: object,
) -> None:
    """uvicorn on ``port`` (plain HTTP) and, with a certificate, on ``https_port`` (TLS) too.

    Both listeners run in this one process and event loop and load the same application, so a
    page opened over HTTPS gets the live updates of a change made over HTTP at once. uvicorn's
    several workers take one listener only, so HTTPS beside HTTP needs ``workers == 1`` (the
    laptop's set-up). Ctrl+C stops both: each server passes the signal on to the one started
    before it when it has stopped.
    """
    import asyncio

    import uvicorn

    common: dict[str, object] = {
        # The project's logging (console and the data folder's file) takes uvicorn's lines.
        "log_config": None,
        "log_level": "info",
        "timeout_graceful_shutdown": 3,
        **options,
    }
    if certificate is None or https_port is None:
        uvicorn.run(
            "config.asgi:application",
            host=host,
            port=port,
            workers=workers,
            **common,  # type: ignore[arg-type]
        )
        return
    if workers != 1:
        raise ValueError("HTTPS beside HTTP runs in one process")
    plain = uvicorn.Config("config.asgi:application", host=host, port=port, **common)  # type: ignore[arg-type]
    secure = uvicorn.Config(
        "config.asgi:application",
        host=host,
        port=https_port,
        ssl_certfile=str(certificate.certfile),
        ssl_keyfile=str(certificate.keyfile),
        **common,  # type: ignore[arg-type]
    )

    async def both() -> None:
        await asyncio.gather(uvicorn.Server(plain).serve(), uvicorn.Server(secure).serve())

    # As uvicorn.run does: Ctrl+C, handed back by the servers once they stopped, ends quietly.
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(both())
