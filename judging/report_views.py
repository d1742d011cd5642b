"""The judge report for the organiser and the head judge: the printable page and the exports.

Every response here is streamed, so that an event of thousands of players and tens of thousands
of penalties is answered in seconds with flat memory: the page and the CSV are produced piece by
piece, and the XLSX is written to a temporary file and sent from it.
"""

import itertools
import tempfile
from collections.abc import AsyncIterator, Iterator

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.http import FileResponse, Http404, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.utils import translation

from core.http import DeskRequest
from judging import report
from tournaments.access import REPORT_READERS, Access, staff_view

XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
FILE_BLOCK_SIZE = 64 * 1024


@staff_view(*REPORT_READERS)
def report_page(request: DeskRequest, access: Access) -> HttpResponseBase:
    built = report.build_report(tournament=access.tournament)
    head, rest = report.html_pieces(
        report=built,
        context={"access": access, "tournament": access.tournament},
        request=request,
    )
    pieces = itertools.chain([head], report.in_language(translation.get_language(), rest))
    return StreamingHttpResponse(
        _streamed(request, pieces), content_type="text/html; charset=utf-8"
    )


@staff_view(*REPORT_READERS)
def report_export(
    request: DeskRequest, access: Access, what: str, extension: str
) -> HttpResponseBase:
    """``penalties`` or ``standings`` as ``csv`` or ``xlsx``."""
    make_table = report.TABLES.get(what)
    if make_table is None or extension not in ("csv", "xlsx"):
        raise Http404
    tournament = access.tournament
    filename = report.export_filename(tournament=tournament, what=what, extension=extension)
    table = make_table(tournament=tournament)
    if extension == "csv":
        pieces = report.in_language(translation.get_language(), report.csv_pieces(table))
        response = StreamingHttpResponse(
            _streamed(request, pieces), content_type="text/csv; charset=utf-8"
        )
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response
    # The workbook is zipped at the end, so it cannot be sent as it is written; a temporary file
    # holds it instead of memory, and is deleted when the response closes it.
    handle = tempfile.TemporaryFile()  # noqa: SIM115 (the response closes it once sent)
    try:
        report.write_xlsx(table, handle)
    except BaseException:
        handle.close()
        raise
    handle.seek(0)
    response = FileResponse(
        handle, as_attachment=True, filename=filename, content_type=XLSX_CONTENT_TYPE
    )
    if isinstance(request, ASGIRequest):
        response.streaming_content = _pulled(iter(lambda: handle.read(FILE_BLOCK_SIZE), b""))
    return response


def _streamed[T](request: DeskRequest, pieces: Iterator[T]) -> Iterator[T] | AsyncIterator[T]:
    """The pieces as the server that runs the view can send them without holding them all.

    Under ASGI Django reads a synchronous iterator whole into a list before sending it, which
    would hold the entire export in memory; an asynchronous iterator is sent as it comes.
    """
    if isinstance(request, ASGIRequest):
        return _pulled(pieces)
    return pieces


async def _pulled[T](pieces: Iterator[T]) -> AsyncIterator[T]:
    """Pull each piece on the request's own thread, where its database connection and the
    cursor the rows come from live."""
    pull = sync_to_async(lambda: next(pieces, None), thread_sensitive=True)
    while (piece := await pull()) is not None:
        yield piece
