"""The report's file formats: CSV and XLSX from a ``Table``, and the HTML page, streamed in pieces
or written to a file."""

import csv
import datetime
import io
import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from django.contrib.staticfiles import finders
from django.http import HttpRequest
from django.template.loader import get_template
from django.utils import translation
from openpyxl import Workbook
from openpyxl.cell import Cell, WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet._write_only import WriteOnlyWorksheet

from judging.report.reads import (
    CSV_ROWS_PER_PIECE,
    HTML_ROWS_PER_PIECE,
    PenaltyRow,
    Report,
    build_report,
    penalties_in_force,
    penalty_rows,
)
from judging.report.sections import read_sections, registered_sections
from judging.report.tables import CellValue, Percent, Table, report_workbook
from tournaments.models import Tournament

# A cell a spreadsheet would read as a formula (CSV injection): a player's name or a judge's
# note must never run as one. A spreadsheet may split the file on commas or on semicolons (the
# Russian default), and so see a cell start after either inside a text, or after a line break:
# every such start (past quotes) that is a formula character, or spaces or a tab before one, gets
# an apostrophe, which makes the cell text.
FORMULA_AT_A_CELL_START = re.compile(r"(^|[,;\n\r])([\"']*)(?=[ \t\r]*[=+\-@\t\r])")


def neutralise_formulas(text: str) -> str:
    """The text with an apostrophe before every formula character a spreadsheet could read as
    the start of a cell, whichever separator it splits on."""
    return FORMULA_AT_A_CELL_START.sub(r"\1\2'", text)


def _csv_value(value: CellValue) -> str | int | float:
    if value is None:
        return ""
    if isinstance(value, Percent):
        return f"{value * 100:.1f}"
    if isinstance(value, datetime.datetime):
        return value.strftime("%Y-%m-%d %H:%M")
    if isinstance(value, str):
        return neutralise_formulas(value)
    return value


def csv_pieces(table: Table, *, rows_per_piece: int = CSV_ROWS_PER_PIECE) -> Iterator[bytes]:
    """The table as UTF-8 CSV with a byte-order mark, in pieces of a few hundred rows.

    The mark makes spreadsheet programs read the file as UTF-8 rather than the system's code
    page, which would garble every Russian name.
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    buffer.write("\ufeff")
    writer.writerow([column.header for column in table.columns])
    for written, row in enumerate(table.rows, start=1):
        writer.writerow([_csv_value(value) for value in row])
        if written % rows_per_piece == 0:
            yield buffer.getvalue().encode("utf-8")
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue().encode("utf-8")


def _xlsx_cell(sheet: WriteOnlyWorksheet, value: CellValue) -> Cell | None:
    if isinstance(value, str):
        if not value:
            # An empty cell is left out of the sheet altogether: most notes and sub-items are
            # empty, and every cell written costs time on a large event.
            return None
        cell = WriteOnlyCell(sheet, ILLEGAL_CHARACTERS_RE.sub("", value))
        # openpyxl stores a text that starts with "=" as a formula; a report holds none.
        cell.data_type = "s"
        return cell
    if value is None:
        return None
    cell = WriteOnlyCell(sheet, value)
    if isinstance(value, Percent):
        cell.number_format = "0.0%"
    elif isinstance(value, datetime.datetime):
        cell.number_format = "yyyy-mm-dd hh:mm"
    return cell


def write_xlsx(table: Table, target: IO[bytes]) -> None:
    """Write the table as an XLSX workbook of one sheet."""
    write_workbook([table], target)


def write_workbook(tables: list[Table], target: IO[bytes]) -> None:
    """Write the tables as the sheets of one XLSX workbook with openpyxl's write-only mode.

    Write-only sheets spool rows to a temporary file as they are appended, so memory does not
    grow with the table; the workbook is zipped into ``target`` at the end.
    """
    workbook = Workbook(write_only=True)
    bold = Font(bold=True)
    for table in tables:
        # Sheet titles are limited to 31 characters and a few forbidden ones; ours are words.
        sheet = workbook.create_sheet(title=FORBIDDEN_IN_SHEET_TITLES.sub(" ", table.title)[:31])
        for number, column in enumerate(table.columns, start=1):
            sheet.column_dimensions[get_column_letter(number)].width = column.width
        sheet.freeze_panes = "A2"
        header = []
        for column in table.columns:
            cell = WriteOnlyCell(sheet, column.header)
            cell.font = bold
            header.append(cell)
        sheet.append(header)
        for row in table.rows:
            sheet.append([_xlsx_cell(sheet, value) for value in row])
    workbook.save(target)


FORBIDDEN_IN_SHEET_TITLES = re.compile(r"[\\/*?:\[\]]")


def write_whole_workbook(*, tournament: Tournament, target: IO[bytes]) -> None:
    """The whole judge report as one workbook: the report's own sheets, then a sheet for each
    section another app adds (``judging.report.sections``) that has a table."""
    added = [
        section.table(tournament=tournament)
        for section in registered_sections()
        if section.table is not None
    ]
    write_workbook([*report_workbook(tournament=tournament), *added], target)


def export_filename(*, tournament: Tournament, what: str, extension: str) -> str:
    return f"{tournament.slug}-{what}.{extension}"


# --- The HTML report --------------------------------------------------------------------------


def html_pieces(
    *,
    report: Report,
    context: dict[str, Any],
    request: HttpRequest | None = None,
    rows_per_piece: int = HTML_ROWS_PER_PIECE,
    penalties: slice | None = None,
) -> tuple[str, Iterator[str]]:
    """The report page as its first piece, rendered now, and an iterator of the rest.

    The page is rendered once with a marker where the penalty rows go; the part before the
    marker is returned at once (so that a web request settles its messages and CSRF cookie while
    the middleware can still see them), and the rows follow in pieces of a few hundred, each a
    pass of the page's ``penalty-rows`` partial, then the part after the marker. ``penalties``
    limits the rows to one page of them. The rows need
    nothing of the request, so they are rendered without its context processors.
    """
    marker = f"@@penalty-rows-{uuid.uuid4().hex}@@"
    page = get_template("judging/report.html").render(
        {
            **context,
            "report": report,
            "penalty_rows_marker": marker,
            # Other apps' parts of the report (judging.report.sections), whole when printed.
            "added_sections": read_sections(tournament=report.tournament, whole=penalties is None),
        },
        request,
    )
    head, tail = page.split(marker, 1)
    rows_template = get_template("judging/report.html#penalty-rows")
    records = penalty_rows(records=penalties_in_force(tournament=report.tournament), rows=penalties)

    def rest() -> Iterator[str]:
        piece: list[PenaltyRow] = []
        shown = False
        try:
            for row in records:
                piece.append(row)
                if len(piece) == rows_per_piece:
                    yield rows_template.render({"rows": piece})
                    shown = True
                    piece = []
        finally:
            # Closed half-way (the client went), the rows' cursor closes now, on this thread.
            close = getattr(records, "close", None)
            if close is not None:
                close()
        if piece or not shown:
            # An empty list still renders once: the partial says there are no penalties.
            yield rows_template.render({"rows": piece})
        yield tail

    return head, rest()


def in_language[T](language: str, pieces: Iterator[T]) -> Iterator[T]:
    """Produce each piece with ``language`` active.

    A streamed response is produced after the view has returned, possibly on another thread
    under ASGI, where the language the middleware activated may no longer be current.
    """
    try:
        while True:
            with translation.override(language):
                try:
                    piece = next(pieces)
                except StopIteration:
                    return
            yield piece
    finally:
        # A response abandoned half-way (the client went) closes this; the pieces' own cursor
        # must close with it, on the thread that ran it, before the connection is handed on.
        close = getattr(pieces, "close", None)
        if close is not None:
            close()


def write_html(*, tournament: Tournament, handle: IO[bytes]) -> None:
    """The report page as a standalone document, its rows written as they are rendered."""
    # The app's stylesheet and the report's landscape page, inlined.
    stylesheet = ""
    for name in ("css/app.css", "css/report-print.css"):
        found = finders.find(name)
        if isinstance(found, str):
            stylesheet += Path(found).read_text(encoding="utf-8")
    head, rest = html_pieces(
        report=build_report(tournament=tournament),
        context={
            "tournament": tournament,
            "standalone": True,
            "base_template": "judging/report_document.html",
            "stylesheet": stylesheet,
        },
    )
    handle.write(head.encode("utf-8"))
    for piece in rest:
        handle.write(piece.encode("utf-8"))
