"""Reading a card pool file: the organiser's own CSV or a deck builder's card export.

Pure: the caller gives the formats (each name and slug, normalised, to its slug) and writes the
cards. Columns are found by their header names in any order and case; columns the pool does not
use (cost, class, artist…) are ignored. A file without a header row is read in the older fixed
order: name, set, features, formats where legal. Every bad row is named; a caller imports nothing
while any remain.
"""

import csv
import io
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from core.uploads import MAX_UPLOAD_BYTES, UnreadableUpload, decode_upload
from decks.parsing import normalise

MAX_POOL_ROWS = 20_000
MAX_NAME = 200
MAX_CELL = 300

NAME, FEATURES, ELEMENT, TYPE, SET, BANNED, LEGAL = (
    "name",
    "features",
    "element",
    "type",
    "set",
    "banned",
    "legal",
)
# Each column's header as organisers and deck builders write it, normalised.
COLUMNS = {
    NAME: {"название", "название карты", "карта", "имя", "name", "card", "card name"},
    FEATURES: {"особенности", "особенность", "features", "feature"},
    ELEMENT: {"стихия", "стихии", "element", "elements"},
    TYPE: {"тип", "тип карты", "type", "card type"},
    SET: {"выпуск", "сет", "набор", "издание", "set", "edition"},
    BANNED: {"запрещена в", "запрещена", "запрещено в", "бан", "banned in", "banned"},
    LEGAL: {"разрешена в", "разрешена", "легальна в", "форматы", "legal in", "legal", "formats"},
}
LEGACY_ORDER = (NAME, SET, FEATURES, LEGAL)
HERO_TYPES = {"герой", "hero"}


@dataclass(frozen=True)
class PoolCard:
    name: str
    key: str
    set_name: str = ""
    features: tuple[str, ...] = ()
    elements: tuple[str, ...] = ()
    is_hero: bool = False
    legal_in: tuple[str, ...] = ()
    banned_in: tuple[str, ...] = ()


@dataclass
class PoolRead:
    cards: list[PoolCard] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


def decode_pool_file(content: bytes) -> tuple[str, str | None]:
    """The file's text, or why it cannot be read, through the desk's one upload decoding
    (``core.uploads``: its size, UTF-8/UTF-16/cp1251, no control characters)."""
    try:
        return decode_upload(content), None
    except UnreadableUpload as error:
        return "", error.message


def decode_list_file(content: bytes) -> tuple[str, str | None]:
    """A deck list sent as a file: UTF-8 or UTF-16 with their byte-order marks, UTF-8, else the
    Windows Cyrillic code page; a binary file is refused."""
    if len(content) > MAX_UPLOAD_BYTES:
        return "", _("The file is too large (at most 2 MB).")
    if content.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return content.decode("utf-16"), None
        except UnicodeDecodeError:
            return "", _("The file is not a text file.")
    if b"\x00" in content:
        return "", _("The file is not a text file.")
    try:
        return content.decode("utf-8-sig"), None
    except UnicodeDecodeError:
        return content.decode("cp1251", errors="replace"), None


def file_rows(text: str) -> list[tuple[int, list[str]]]:
    """Every non-empty row with its line number, the header row included; the delimiter
    (comma, semicolon or tab) is sniffed."""
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(
            text[:4096], delimiters=",;\t"
        )
    except csv.Error:
        dialect = csv.excel
    rows = []
    for number, row in enumerate(csv.reader(io.StringIO(text), dialect), start=1):
        cells = [cell.strip() for cell in row]
        if any(cells):
            rows.append((number, cells))
    return rows


def split_cell(cell: str) -> list[str]:
    return [part.strip() for part in re.split(r"[;|,]", cell) if part.strip()]


def _columns(header: list[str]) -> dict[str, int] | None:
    """Where each known column is, when the row is a header naming the card name's column."""
    found: dict[str, int] = {}
    for position, cell in enumerate(header):
        key = normalise(cell)
        for column, names in COLUMNS.items():
            if key in names and column not in found:
                found[column] = position
    return found if NAME in found else None


def read_pool(rows: list[tuple[int, list[str]]], formats: Mapping[str, str]) -> PoolRead:
    """The cards of the rows; ``formats`` maps each format's normalised name and slug to it."""
    read = PoolRead()
    columns = _columns(rows[0][1]) if rows else None
    legacy = columns is None
    if columns is None:
        columns = {column: position for position, column in enumerate(LEGACY_ORDER)}
    else:
        rows = rows[1:]
    if not rows:
        read.errors.append((0, _("The file has no cards.")))
        return read
    if len(rows) > MAX_POOL_ROWS:
        read.errors.append(
            (0, _("The file has more than %(limit)s cards.") % {"limit": MAX_POOL_ROWS})
        )
        return read
    seen: dict[str, int] = {}
    for number, cells in rows:

        def cell(column: str, cells: list[str] = cells) -> str:
            position = columns.get(column)
            return cells[position] if position is not None and position < len(cells) else ""

        name = cell(NAME)
        key = normalise(name)
        banned = split_cell(cell(BANNED))
        legal = split_cell(cell(LEGAL))
        unknown = [name for name in banned + legal if normalise(name) not in formats]
        problem = ""
        if not key:
            problem = _("The card has no name.")
        elif len(name) > MAX_NAME or any(len(value) > MAX_CELL for value in cells):
            problem = _("A cell is too long (a name at most %(limit)s characters).") % {
                "limit": MAX_NAME
            }
        elif legacy and len(cells) > len(LEGACY_ORDER):
            problem = _(
                "The row has more than four columns: name, set, features, legal formats. "
                "Add a header row to name the columns."
            )
        elif key in seen:
            problem = _("%(name)s is already on line %(line)s.") % {"name": name, "line": seen[key]}
        elif unknown:
            problem = _("Unknown format: %(names)s.") % {"names": ", ".join(unknown)}
        if problem:
            read.errors.append((number, problem))
            continue
        seen[key] = number
        read.cards.append(
            PoolCard(
                name=name,
                key=key,
                set_name=cell(SET)[:100],
                features=tuple(split_cell(cell(FEATURES))),
                elements=tuple(split_cell(cell(ELEMENT))),
                is_hero=normalise(cell(TYPE)) in HERO_TYPES,
                legal_in=tuple(sorted({formats[normalise(value)] for value in legal})),
                banned_in=tuple(sorted({formats[normalise(value)] for value in banned})),
            )
        )
    return read
