"""Parts of the judge report that other apps add: deck checks, time extensions, judge calls.

``judging`` must not import the apps above it, so they hand their part in: each app's
``AppConfig.ready()`` calls ``register_section`` once. The printed report renders every registered
section after its own, in ``order``, and a section with a ``table`` is also exported as CSV and
XLSX at ``report/<key>.csv`` and ``report/<key>.xlsx`` beside the penalties and the standings.
"""

from collections.abc import Callable
from dataclasses import dataclass

from django.utils.functional import Promise

from judging.report.tables import TABLES, Table
from tournaments.models import Tournament


@dataclass(frozen=True)
class ReportSection:
    """One part of the report.

    ``read(tournament=..., whole=...)`` returns what ``template`` shows as ``data``; ``whole`` is
    False for the report on screen, which shows a bounded page of every long list (the section
    may then return its first rows and a count), and True for the printed report and the file.
    ``template`` is rendered inside ``<section id="report-<key>">`` with ``data`` and
    ``tournament``; it starts with its own ``<h2>``.
    """

    key: str
    title: str | Promise
    template: str
    read: Callable[..., object]
    table: Callable[..., Table] | None = None
    order: int = 100

    @property
    def exported(self) -> bool:
        """For templates, which would call ``table`` if they read it."""
        return self.table is not None


_sections: dict[str, ReportSection] = {}


def register_section(section: ReportSection) -> None:
    """Add ``section`` to the report; registering the same key again replaces it (a reload)."""
    if section.key in ("penalties", "standings", "report"):
        raise ValueError(f"{section.key!r} is the report's own export")
    _sections[section.key] = section


def registered_sections() -> list[ReportSection]:
    return sorted(_sections.values(), key=lambda section: (section.order, section.key))


def section_table(key: str) -> Callable[..., Table] | None:
    section = _sections.get(key)
    return section.table if section is not None else None


def export_table(key: str) -> Callable[..., Table] | None:
    """The table exported at ``report/<key>.csv|xlsx``: the report's own (penalties, standings)
    or a registered section's. The view and the export process both ask this one function, so
    a section exported in tests is exported under ``serve`` too."""
    return TABLES.get(key) or section_table(key)


def read_sections(*, tournament: Tournament, whole: bool) -> list[tuple[ReportSection, object]]:
    """Every registered section with what it shows of this tournament."""
    return [
        (section, section.read(tournament=tournament, whole=whole))
        for section in registered_sections()
    ]
