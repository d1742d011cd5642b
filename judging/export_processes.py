"""Building an export in a process of its own.

An XLSX or CSV export of a large event is seconds of Python work (rows, cells, zipping). On a
thread of the server process it holds the interpreter's lock in turns with the judges' requests,
and their submits wait on it. A separate process has an interpreter of its own: it reads the
database on its own connection and writes the file into a temporary file, which the server then
streams to the client and deletes. The process runs at a lower CPU priority than the server, so
that while an export is built the judges' requests still come first.

The processes are started once (``DESK_EXPORT_PROCESSES`` of them, by spawning, not forking: the
server's threads and database connections are not copied) and serve every later export; each
sets Django up once with the server's settings module and its databases.
"""

import functools
import multiprocessing
import os
import tempfile
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from django.conf import settings

_executor: ProcessPoolExecutor | None = None
# How much lower than the server's an export process's CPU priority is (Unix niceness).
EXPORT_NICENESS = 10
_starting = threading.Lock()


def _start(settings_module: str, databases: dict[str, Any]) -> None:
    """Each process once: Django with the server's settings and the very databases it uses (a
    test run's test database included)."""
    # An export can wait a moment; a judge at a table cannot: on a venue laptop's few cores the
    # scheduler gives the server's requests the CPU first, from Django's start-up on. Windows has
    # no niceness (`os.nice` is Unix only); there an export runs at the server's priority.
    if hasattr(os, "nice"):
        os.nice(EXPORT_NICENESS)
    os.environ["DJANGO_SETTINGS_MODULE"] = settings_module
    import django
    from django.conf import settings as process_settings

    process_settings.DATABASES = databases
    django.setup()
    # The process holds its own end of the pipe its work comes through, so it would outlive a
    # server stopped without shutting it down (a signal, a crash): it ends with its server.
    server = os.getppid()
    threading.Thread(target=_end_with, args=(server,), daemon=True).start()


def _end_with(server: int) -> None:
    while os.getppid() == server:
        time.sleep(2)
    os._exit(0)


def _build(*, tournament_id: int, what: str, extension: str, language: str, path: str) -> None:
    from django.db import connections
    from django.utils import translation

    from judging.report.formats import csv_pieces, write_whole_workbook, write_xlsx
    from judging.report.sections import export_table
    from tournaments.models import Tournament

    try:
        with translation.override(language), open(path, "wb") as handle:
            tournament = Tournament.objects.get(pk=tournament_id)
            if what == "report":
                # The whole report as one workbook (only as XLSX; the view checks).
                write_whole_workbook(tournament=tournament, target=handle)
                return
            make_table = export_table(what)
            if make_table is None:
                # The view refuses an unknown key before starting a process; this is a bug.
                raise LookupError(f"no export {what!r}")
            table = make_table(tournament=tournament)
            if extension == "csv":
                for piece in csv_pieces(table):
                    handle.write(piece)
            else:
                write_xlsx(table, handle)
    finally:
        connections.close_all()


def _pool() -> ProcessPoolExecutor:
    global _executor
    with _starting:
        if _executor is None:
            _executor = ProcessPoolExecutor(
                max_workers=settings.DESK_EXPORT_PROCESSES,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start,
                initargs=(
                    settings.SETTINGS_MODULE
                    or os.environ.get("DJANGO_SETTINGS_MODULE", "config.settings"),
                    settings.DATABASES,
                ),
            )
        return _executor


def build_export(
    *, tournament_id: int, what: str, extension: str, language: str
) -> tuple["Future[None]", str]:
    """Start building the export in an export process; the future ends when the file at the
    returned path is complete. The caller deletes the file."""
    global _executor
    handle, path = tempfile.mkstemp(prefix="desk-export-", suffix=f".{extension}")
    os.close(handle)
    job = functools.partial(
        _build,
        tournament_id=tournament_id,
        what=what,
        extension=extension,
        language=language,
        path=path,
    )
    try:
        return _pool().submit(job), path
    except BrokenProcessPool:
        # An export process died (killed, out of memory): start them again.
        with _starting:
            _executor = None
        return _pool().submit(job), path
