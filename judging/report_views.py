"""The judge report for the organiser and the head judge: the printable page and the exports.

Every response here is streamed, so that an event of thousands of players and tens of thousands
of penalties is answered in seconds with flat memory: the page and the CSV are produced piece by
piece, and the XLSX is written to a temporary file and sent from it. Under an ASGI server the
exports are built in an export process (``judging.export_processes``), so that their Python work
does not slow the judges' requests down, and sent from its file.
"""

import asyncio
import contextlib
import dataclasses
import math
import os
import tempfile
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import cast

from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connections
from django.http import Http404, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.utils import translation

from core.http import DeskRequest
from judging import export_processes as processes
from judging import report
from tournaments.access import REPORT_READERS, Access, staff_view
from tournaments.models import Tournament

XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
FILE_BLOCK_SIZE = 64 * 1024


REPORT_PAGE_SIZE = 50


@staff_view(*REPORT_READERS)
def report_page(request: DeskRequest, access: Access) -> HttpResponseBase:
    """One page of the report's long lists on screen; ``?all=1`` the whole report, to print."""
    built = report.build_report(tournament=access.tournament)
    context: dict[str, object] = {"access": access, "tournament": access.tournament}
    penalties = None
    if not request.GET.get("all"):
        built, penalties, context["pager"] = _one_page(built, request.GET.get("page", ""))
    head, rest = report.html_pieces(
        report=built, context=context, request=request, penalties=penalties
    )
    pieces = _head_then(head, report.in_language(translation.get_language(), rest))
    return StreamingHttpResponse(
        _streamed(request, pieces), content_type="text/html; charset=utf-8"
    )


def _head_then(head: str, rest: Iterator[str]) -> Iterator[str]:
    """The page's head, then the rest; closing it closes the rest (and the rest's cursor), which
    a chain of iterators would not."""
    yield head
    yield from rest


def _one_page(built: report.Report, raw: str) -> tuple[report.Report, slice, dict[str, int]]:
    """The report with each long list cut to the same page of it: a bounded page on screen."""
    longest = max(
        len(built.standings), len(built.disqualifications), len(built.changes), built.total_in_force
    )
    pages = max(1, math.ceil(longest / REPORT_PAGE_SIZE))
    number = min(int(raw), pages) if raw.isdecimal() and 0 < len(raw) < 6 and int(raw) else 1
    rows = slice((number - 1) * REPORT_PAGE_SIZE, number * REPORT_PAGE_SIZE)
    paged = dataclasses.replace(
        built,
        standings=built.standings[rows],
        disqualifications=built.disqualifications[rows],
        changes=built.changes[rows],
        pending_losses=built.pending_losses[rows],
    )
    pager = {"number": number, "pages": pages, "previous": number - 1, "next": number + 1}
    return paged, rows, pager


@staff_view(*REPORT_READERS)
def report_export(
    request: DeskRequest, access: Access, what: str, extension: str
) -> HttpResponseBase:
    """``penalties``, ``standings`` or an added section's table as ``csv`` or ``xlsx``; the whole
    ``report`` as ``xlsx``, one sheet per part."""
    tournament = access.tournament
    whole = what == "report" and extension == "xlsx"
    make_table = None if whole else report.export_table(what)
    if not whole and (make_table is None or extension not in ("csv", "xlsx")):
        raise Http404
    if settings.DESK_EXPORT_PROCESSES and isinstance(request, ASGIRequest):
        return _from_process(request, tournament, what, extension)
    filename = report.export_filename(tournament=tournament, what=what, extension=extension)
    if make_table is None:
        response = StreamingHttpResponse(
            _streamed(request, _workbook_pieces(tournament)), content_type=XLSX_CONTENT_TYPE
        )
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response
    table = make_table(tournament=tournament)
    if extension == "csv":
        pieces = report.in_language(translation.get_language(), report.csv_pieces(table))
        response = StreamingHttpResponse(
            _streamed(request, pieces), content_type="text/csv; charset=utf-8"
        )
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response
    response = StreamingHttpResponse(
        _streamed(request, _xlsx_pieces(table)), content_type=XLSX_CONTENT_TYPE
    )
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _workbook_pieces(tournament: Tournament) -> Iterator[bytes]:
    """The whole report's workbook, built on the export's own thread like the other files."""
    with tempfile.TemporaryFile() as handle:
        report.write_whole_workbook(tournament=tournament, target=handle)
        handle.seek(0)
        yield from iter(lambda: handle.read(FILE_BLOCK_SIZE), b"")


def _from_process(
    request: DeskRequest, tournament: Tournament, what: str, extension: str
) -> HttpResponseBase:
    """The export built in an export process (``judging.export_processes``), then streamed from
    its file."""
    future, path = processes.build_export(
        tournament_id=tournament.pk,
        what=what,
        extension=extension,
        language=translation.get_language(),
    )
    content_type = "text/csv; charset=utf-8" if extension == "csv" else XLSX_CONTENT_TYPE
    response = StreamingHttpResponse(_file_when_built(future, path), content_type=content_type)
    filename = report.export_filename(tournament=tournament, what=what, extension=extension)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


async def _file_when_built(future: "Future[None]", path: str) -> AsyncIterator[bytes]:
    """Wait on the event loop (holding no thread) for the file, then send it in blocks."""

    def delete(_done: object = None) -> None:
        with contextlib.suppress(OSError):
            os.unlink(path)

    try:
        await asyncio.wrap_future(future)
        with open(path, "rb") as handle:
            while block := handle.read(FILE_BLOCK_SIZE):
                yield block
    finally:
        if future.done():
            delete()
        else:
            # The client went away first: the file is deleted once the process has written it.
            future.add_done_callback(delete)


def _xlsx_pieces(table: report.Table) -> Iterator[bytes]:
    """The workbook is zipped at the end, so it cannot be sent as it is written; a temporary file
    holds it instead of memory, and is deleted once sent."""
    with tempfile.TemporaryFile() as handle:
        report.write_xlsx(table, handle)
        handle.seek(0)
        yield from iter(lambda: handle.read(FILE_BLOCK_SIZE), b"")


def _streamed[T](request: DeskRequest, pieces: Iterator[T]) -> Iterator[T] | AsyncIterator[T]:
    """The pieces as the server that runs the view can send them without holding them all.

    Under ASGI Django reads a synchronous iterator whole into a list before sending it, which
    would hold the entire export in memory; an asynchronous iterator is sent as it comes.
    """
    if isinstance(request, ASGIRequest):
        return _pulled(pieces)
    return pieces


async def _pulled[T](pieces: Iterator[T]) -> AsyncIterator[T]:
    """Produce the pieces on a thread of this response's own.

    An export of a large event takes seconds of queries, rendering and zipping. On the thread
    that runs every synchronous view it would make each judge's submit wait for it; on the event
    loop it would stop every stream. A thread of its own keeps its database connection and the
    cursor the rows come from, and is given back (with its connection) when the export ends.
    """
    loop = asyncio.get_running_loop()
    worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="export")
    done = object()
    try:
        while (piece := await loop.run_in_executor(worker, next, pieces, done)) is not done:
            yield cast(T, piece)
    finally:
        await loop.run_in_executor(worker, _close_pieces, pieces)
        worker.shutdown(wait=False)


def _close_pieces(pieces: Iterator[object]) -> None:
    """End the export (its temporary file, its cursor) and close the thread's connections."""
    try:
        close = getattr(pieces, "close", None)
        if close is not None:
            close()
    finally:
        connections.close_all()
