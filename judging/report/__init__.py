"""The judge report (судейский отчёт) and its exports: reads and assembly, no writes.

The report has a small part that grows with the number of players (the event, the staff, the
standings, the counts, the disqualifications, the changes, the pending losses) and one part that
grows with the number of penalties: the list of every penalty in force. The small part is read
into memory as a ``Report``; the list is never held whole. It is read with ``.values()`` over
``.iterator(chunk_size=...)`` and turned into ``PenaltyRow`` objects one by one, so the CSV, the
XLSX and the HTML page of an event with tens of thousands of records use the same memory as those
of a club evening.

Exports are described as a ``Table`` (columns and an iterator of rows) so that CSV and XLSX are
written by the same two functions whatever is exported.

The package keeps them apart: ``reads`` (the report's queries and rows), ``tables`` (the exports as
columns and rows) and ``formats`` (CSV, XLSX and the HTML page); ``sections`` holds the parts
other apps add.
Callers import the package.
"""

from judging.report.formats import (
    csv_pieces,
    export_filename,
    html_pieces,
    in_language,
    neutralise_formulas,
    write_html,
    write_whole_workbook,
    write_workbook,
    write_xlsx,
)
from judging.report.reads import (
    AcknowledgementCounts,
    ChangeRow,
    CountRow,
    EventDetails,
    Investigation,
    PenaltyRow,
    Report,
    StaffRow,
    StatementRow,
    build_report,
    penalties_in_force,
    penalty_rows,
)
from judging.report.sections import (
    ReportSection,
    export_table,
    register_section,
    registered_sections,
    section_table,
)
from judging.report.tables import (
    TABLES,
    Column,
    Percent,
    Table,
    penalties_table,
    report_workbook,
    standings_table,
)

__all__ = [
    "TABLES",
    "AcknowledgementCounts",
    "ChangeRow",
    "Column",
    "CountRow",
    "EventDetails",
    "Investigation",
    "PenaltyRow",
    "Percent",
    "Report",
    "ReportSection",
    "StaffRow",
    "StatementRow",
    "Table",
    "build_report",
    "csv_pieces",
    "export_filename",
    "export_table",
    "html_pieces",
    "in_language",
    "neutralise_formulas",
    "penalties_in_force",
    "penalties_table",
    "penalty_rows",
    "register_section",
    "registered_sections",
    "report_workbook",
    "section_table",
    "standings_table",
    "write_html",
    "write_whole_workbook",
    "write_workbook",
    "write_xlsx",
]
