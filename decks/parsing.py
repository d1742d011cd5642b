"""Reading a typed or pasted deck list: lines like ``3 Вампир`` under main and extra headers.

Pure: it knows nothing of the database. Names are matched to the pool forgivingly (case, ё/е,
punctuation, spacing); a name that still matches nothing is never guessed: it is reported with the
closest names of the pool as suggestions. Every problem names its line, and a caller saves nothing
while any remain.
"""

import difflib
import functools
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

MAX_LINES = 300
MAX_LINE_LENGTH = 200
MAX_COPIES = 60
MAX_SUGGESTIONS = 3

MAIN, EXTRA = "main", "extra"
MAIN_HEADERS = {"основная колода", "основная", "колода", "main", "main deck", "deck", "maindeck"}
EXTRA_HEADERS = {
    "дополнительная колода",
    "дополнительная",
    "доп колода",
    "доп",
    "extra",
    "extra deck",
    "extradeck",
}

_PUNCTUATION = re.compile(r"[^\w\s]|_")
_SPACES = re.compile(r"\s+")
_LETTER = re.compile(r"[^\W\d_]")
# "3 Вампир", "3x Вампир", "3 х Вампир" (Cyrillic х), "3× Вампир", "3* Вампир"
_LEADING = re.compile(
    r"^(?P<count>[-−–]?\d+(?:[.,]\d+)?)\s*(?:[×*]\s*|[xх]\s+)?(?P<name>\D.*)$", re.I
)
# "Вампир x3", "Вампир ×3"
_TRAILING = re.compile(r"^(?P<name>.*\D)\s+[xх×*]\s*(?P<count>[-−–]?\d+)$", re.I)


@functools.lru_cache(maxsize=65536)
def normalise(name: str) -> str:
    """The form names are compared in: lower case, ё as е, no punctuation, single spaces.

    Cached: the same names come back in list after list."""
    text = unicodedata.normalize("NFC", name).casefold().replace("ё", "е")
    return _SPACES.sub(" ", _PUNCTUATION.sub(" ", text)).strip()


@dataclass(frozen=True)
class CardInfo:
    id: int
    name: str
    features: frozenset[str] = frozenset()
    legal_in: frozenset[str] = frozenset()

    def has_feature(self, feature: str) -> bool:
        return bool(feature) and normalise(feature) in {normalise(f) for f in self.features}


@dataclass
class PoolIndex:
    """The pool's cards by normalised name, for matching and for suggestions."""

    cards: dict[str, CardInfo] = field(default_factory=dict)

    @classmethod
    def of(cls, cards: Iterable[CardInfo]) -> "PoolIndex":
        return cls({normalise(card.name): card for card in cards})

    def find(self, name: str) -> CardInfo | None:
        return self.cards.get(normalise(name))

    def suggest(self, name: str) -> list[str]:
        key = normalise(name)
        keys = difflib.get_close_matches(key, self.cards.keys(), n=MAX_SUGGESTIONS, cutoff=0.6)
        # A shortened name ("Вамп") is suggested the cards it begins.
        if len(key) >= 3:
            keys += [k for k in self.cards if k.startswith(key) and k not in keys]
        return [self.cards[k].name for k in keys[:MAX_SUGGESTIONS]]


@dataclass(slots=True)
class ParsedLine:
    """A card line as read (not frozen: made 100,000 times when 2,000 lists are checked)."""

    number: int
    section: str
    written_name: str
    count: int | None
    card: CardInfo | None


@dataclass(frozen=True)
class Unmatched:
    number: int
    name: str
    suggestions: list[str]


@dataclass
class ParseResult:
    lines: list[ParsedLine] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)
    unmatched: list[Unmatched] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


@functools.lru_cache(maxsize=1024)
def _header(text: str) -> str | None:
    """A section title such as «Основная колода:» or «Extra deck (10)»."""
    key = normalise(re.sub(r"\(?\s*\d+\s*\)?\s*:?\s*$", "", text))
    if key in MAIN_HEADERS:
        return MAIN
    if key in EXTRA_HEADERS:
        return EXTRA
    return None


def _count(raw: str) -> int | str:
    """The number of copies, or the message saying why it is not one."""
    if raw[0] in "-−–":
        return _("a number of copies cannot be negative")
    if not raw.isdecimal():
        return _("the number of copies must be a whole number")
    value = int(raw)
    if value < 1:
        return _("a line of 0 copies: leave the card out")
    if value > MAX_COPIES:
        return _("%(count)s copies is more than any deck holds (at most %(limit)s)") % {
            "count": value,
            "limit": MAX_COPIES,
        }
    return value


def parse_list(text: str, pool: PoolIndex) -> ParseResult:
    """Read the list line by line; every problem is reported with its line number."""
    result = ParseResult()
    raw_lines = text.splitlines()
    filled = [line for line in raw_lines if line.strip()]
    if len(filled) > MAX_LINES:
        result.errors.append(
            (
                0,
                _("The list has %(count)s lines; a deck list has at most %(limit)s.")
                % {"count": len(filled), "limit": MAX_LINES},
            )
        )
        return result
    section = MAIN
    for number, raw in enumerate(raw_lines, start=1):
        line = raw.strip()
        if not line or line.startswith(("#", "//")):
            continue
        if len(line) > MAX_LINE_LENGTH:
            result.errors.append(
                (number, _("The line is longer than %(limit)s characters.") % {"limit": 200})
            )
            continue
        header = None if line[0].isdigit() else _header(line.rstrip(":"))
        if header is not None:
            section = header
            continue
        count: int | None = None
        name = line
        match = _LEADING.match(line) or _TRAILING.match(line)
        if match:
            parsed = _count(match["count"].replace(",", "."))
            if isinstance(parsed, str):
                result.errors.append((number, parsed))
                continue
            count, name = parsed, match["name"].strip(" -–—:.\t")
        elif re.match(r"^[-−–]?\d", line):
            result.errors.append((number, _("a number of copies needs a card name after it")))
            continue
        if not _LETTER.search(name):
            result.errors.append(
                (number, _("this is not a card line: «%(line)s»") % {"line": line})
            )
            continue
        card = pool.find(name)
        if card is None:
            result.unmatched.append(Unmatched(number, name, pool.suggest(name)))
        result.lines.append(ParsedLine(number, section, name, count, card))
    if not result.lines and not result.errors:
        result.errors.append((0, _("The list has no cards.")))
    return result
