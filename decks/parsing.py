"""Reading a deck list the ways players really write it: typed, pasted from a chat, a deck builder
or a spreadsheet.

Pure: it knows nothing of the database. A card line is a name and a number of copies, the number
before the name (``3 Вампир``, ``3x Вампир``, ``3 шт. Вампир``) or after it (``Вампир - 3``,
``Вампир: 3``, ``Вампир (3)``, ``Вампир 3 шт.``, name⇥count). Around the cards a list may carry the
player's name and a deck name at the top, headers that start the main or the extra deck (``Сайд:``,
``Основа (40)``, ``Main deck:``), a hero line (``Герой: Хакодар``), a total (``Итого: 50``),
comments, list numbers (``1.``, ``2)``: never a number of copies) and set or collector numbers
(``(14-29)``), which are set aside.

Names are matched to the pool forgivingly (case, ё/е, punctuation, spacing) and then through
Russian morphology (``3 Вампира``, ``2 Шара смерти``: every word's dictionary forms, from
pymorphy3); a name that still matches exactly one card of the pool nowhere is never guessed: it is
reported with the closest names of the pool as suggestions. Every problem names its line.
"""

import difflib
import functools
import itertools
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field

import pymorphy3
from django.utils.translation import gettext as _

MAX_LINES = 300
MAX_LINE_LENGTH = 200
MAX_COPIES = 60
MAX_SUGGESTIONS = 3
# A card name longer than this is not looked up through its word forms (the combinations grow).
MAX_MORPH_WORDS = 6
MAX_MORPH_KEYS = 256
# At most this many unlabelled lines above the first card are the player's and the deck's names.
MAX_TITLE_LINES = 2

MAIN, EXTRA = "main", "extra"
MAIN_HEADERS = {
    "основная колода",
    "основная",
    "основа",
    "колода",
    "мейн",
    "мэйн",
    "мейндек",
    "main",
    "main deck",
    "deck",
    "maindeck",
}
EXTRA_HEADERS = {
    "дополнительная колода",
    "дополнительная",
    "доп колода",
    "доп",
    "допка",
    "сайд",
    "сайдборд",
    "сайд борд",
    "extra",
    "extra deck",
    "extradeck",
    "side",
    "sideboard",
    "side board",
}
HERO_LABELS = {"герой", "hero"}
PLAYER_LABELS = {"игрок", "имя", "фио", "участник", "имя игрока", "player", "name", "player name"}
DECK_NAME_LABELS = {"название", "название колоды", "дека", "архетип", "deck name", "archetype"}
TOTAL_LABELS = {"итого", "всего", "всего карт", "итого карт", "сумма", "total", "total cards"}
COMMENT_LABELS = {"комментарий", "примечание", "коммент", "comment", "note", "notes"}
# Numbers written as words are the guideline's 1.1 г ("заполнен без использования цифр").
NUMBER_WORDS = {
    "один",
    "два",
    "три",
    "четыре",
    "пять",
    "шесть",
    "семь",
    "восемь",
    "девять",
    "десять",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
}

# Characters a word processor or a messenger leaves in text that no reader sees.
_INVISIBLE = re.compile("[\u200b\u200c\u200d\u2060\ufeff\u00ad]")
_ODD_SPACES = re.compile(r"[\u00a0\u2007\u202f\u3000]")
_PUNCTUATION = re.compile(r"[^\w\s]|_")
_SPACES = re.compile(r"\s+")
_LETTER = re.compile(r"[^\W\d_]")
_CYRILLIC = re.compile(r"[а-яё]")
_LATIN = re.compile(r"[a-z]")
_LOOKALIKES = str.maketrans("aceopxykmthb", "асеорхукмтнв")
# Column titles a spreadsheet pastes above the cards («Карта ⇥ Количество»).
COLUMN_TITLES = {
    "карта",
    "карты",
    "название",
    "количество",
    "кол во",
    "колво",
    "копии",
    "шт",
    "card",
    "cards",
    "name",
    "count",
    "qty",
    "quantity",
    "copies",
}
_INLINE_COMMENT = re.compile(r"\s+(?://|#).*$")
_MINUS = "-−–"
_MINUS_CLASS = r"\-−–"
# Words for "copies" after a number; «карт» only after the number, never before a name.
_UNIT = r"(?:шт(?:ук[аи]?)?|экз(?:емпляр(?:а|ов)?)?|копи[йяи]|cop(?:y|ies)|pcs)\.?"
_TAIL_UNIT = (
    r"(?:шт(?:ук[аи]?)?|экз(?:емпляр(?:а|ов)?)?|копи[йяи]|карт[аы]?|cards?|cop(?:y|ies)|pcs)\.?"
)
_NUMBER = r"[\-−–]?\d+(?:[.,]\d+)?"
# "3 Вампир", "3x Вампир", "3 х Вампир" (Cyrillic х), "3× Вампир", "3* Вампир", "3 шт. Вампир"
_LEADING = re.compile(
    rf"^(?P<count>{_NUMBER})\s*(?:[×*]\s*|[xх]\s+|{_UNIT}\s+|[xх×]?\s*[-–—:]\s+)?(?P<name>\D.*)$",
    re.I,
)
# "x3 Вампир"
_LEADING_TIMES = re.compile(r"^[xх×]\s*(?P<count>\d+)\s+(?P<name>\D.*)$", re.I)
# "Вампир 3", "Вампир - 3", "Вампир — 3", "Вампир: 3", "Вампир (3)", "Вампир x3", "Вампир 3 шт."
_TRAILING = re.compile(
    rf"^(?P<name>.*?[^\s\d.,:=(\[{_MINUS_CLASS}—])\s*(?:[{_MINUS_CLASS}—:=]\s*|(?:[.…]\s*){{2,}})?"
    rf"[(\[]?\s*"
    rf"(?:[xх×*]\s*)?(?P<count>{_NUMBER})\s*(?:[xх×]|{_TAIL_UNIT})?\s*[)\]]?\.?$",
    re.I,
)
# "1. Вампир 3", "1) 3x Вампир": the list's own numbering, never a number of copies.
_NUMBERING = re.compile(r"^(?P<number>\d{1,3})(?:[.)]|\.\))(?!\d)\s*(?=\S)")
_STARTS_WITH_NUMBER = re.compile(rf"^[{_MINUS_CLASS}]?\d")
_BULLET = re.compile(r"^[-•*·▪►–—]\s+")
# A trailing group in brackets holding a digit: a set or collector number such as (14-29).
_TRAILING_GROUP = re.compile(r"\s*[(\[](?P<inside>[^()\[\]]*\d[^()\[\]]*)[)\]]\s*$")
_PURE_COUNT = re.compile(rf"^\s*(?:[xх×*]\s*)?\d+\s*(?:[xх×]|{_TAIL_UNIT})?\s*$", re.I)
_LABELLED = re.compile(r"^(?P<label>[^:：\d]{2,40}?)\s*(?:[:：]|\s[-–—]\s)\s*(?P<value>.*)$")
# What a header or a total may carry after its words: «(40)», «: 40 карт», «- 10», «[10]».
_HEADER_TAIL = re.compile(
    rf"\s*[-–—:=]?\s*[(\[]?\s*(?P<count>\d+)?\s*(?:{_TAIL_UNIT})?\s*[)\]]?\s*[:：]?\s*$",
    re.I,
)
_WORD_COUNT = re.compile(r"^(?P<word>[^\W\d_]+)\s+(?P<name>.+)$")
_WORD_COUNT_AFTER = re.compile(r"^(?P<name>.+?)\s*[-–—:=xх×]?\s+(?P<word>[^\W\d_]+)$")


@functools.lru_cache(maxsize=65536)
def normalise(name: str) -> str:
    """The form names are compared in: lower case, ё as е, no punctuation, single spaces.

    Cached: the same names come back in list after list."""
    text = unicodedata.normalize("NFC", name).casefold().replace("ё", "е")
    text = _SPACES.sub(" ", _PUNCTUATION.sub(" ", text)).strip()
    if _CYRILLIC.search(text) and _LATIN.search(text):
        # «Самоходa» typed with a Latin «a»: in a word of Cyrillic letters, Latin letters that
        # look the same are the Cyrillic ones.
        text = " ".join(
            word.translate(_LOOKALIKES) if _CYRILLIC.search(word) else word
            for word in text.split(" ")
        )
    return text


def clean_text(text: str) -> str:
    """The text without the invisible characters and odd spaces a word processor leaves."""
    return _ODD_SPACES.sub(" ", _INVISIBLE.sub("", text))


@functools.cache
def _analyzer() -> pymorphy3.MorphAnalyzer:
    # Built once per process: loading the dictionary takes a fraction of a second.
    return pymorphy3.MorphAnalyzer(lang="ru")


@functools.lru_cache(maxsize=65536)
def word_forms(word: str) -> frozenset[str]:
    """A normalised word and every dictionary form (lemma) pymorphy3 reads it as."""
    forms = {word}
    if _CYRILLIC.search(word):
        for parse in _analyzer().parse(word):
            forms.add(normalise(parse.normal_form))
    return frozenset(forms)


@functools.lru_cache(maxsize=65536)
def lemma_keys(key: str) -> frozenset[str]:
    """Every reading of a normalised name with each word in one of its dictionary forms."""
    words = key.split()
    if not words or len(words) > MAX_MORPH_WORDS:
        return frozenset({key})
    options = [sorted(word_forms(word)) for word in words]
    size = 1
    for option in options:
        size *= len(option)
    if size > MAX_MORPH_KEYS:
        return frozenset({key})
    return frozenset(" ".join(words) for words in itertools.product(*options))


@functools.lru_cache(maxsize=4096)
def is_number_word(word: str) -> bool:
    return bool(word_forms(normalise(word)) & NUMBER_WORDS)


@functools.lru_cache(maxsize=4096)
def looks_like_person(text: str) -> bool:
    """A line such as «Иванов Иван» or «Петрова А.»: every word a first name, surname,
    patronymic or an initial, as pymorphy3's dictionary knows them."""
    words = re.findall(r"[^\W\d_]+\.?", text)
    if not words or len(words) > 4:
        return False
    for word in words:
        bare = word.rstrip(".")
        if len(bare) == 1 and bare.isupper():
            continue
        parses = _analyzer().parse(bare)
        if not parses or not ({"Name", "Surn", "Patr"} & set(parses[0].tag.grammemes)):
            return False
    return True


@dataclass(frozen=True)
class CardInfo:
    id: int
    name: str
    features: frozenset[str] = frozenset()
    legal_in: frozenset[str] = frozenset()
    banned_in: frozenset[str] = frozenset()
    # Elements (стихии) as the pool writes them; empty: the pool does not say.
    elements: frozenset[str] = frozenset()
    is_hero: bool = False

    # The card's key as its pool stored it (``Card.key``); empty for a card read from a file
    # without a database (``check_decklist``), whose key is its name as ``normalise`` reads it.
    pool_key: str = ""

    @property
    def key(self) -> str:
        """The key a saved line names its card by. The pool's own, where the card has a row: a
        pool imported before ``normalise`` last changed keeps the keys it was imported with."""
        return self.pool_key or normalise(self.name)

    def has_feature(self, feature: str) -> bool:
        return bool(feature) and normalise(feature) in {normalise(f) for f in self.features}

    def is_legal_in(self, format_slug: str) -> bool:
        if format_slug in self.banned_in:
            return False
        return not self.legal_in or format_slug in self.legal_in


@dataclass
class PoolIndex:
    """The pool's cards by normalised name, for matching and for suggestions."""

    cards: dict[str, CardInfo] = field(default_factory=dict)
    _by_lemma: dict[str, set[str]] | None = field(default=None, repr=False)

    @classmethod
    def of(cls, cards: Iterable[CardInfo]) -> "PoolIndex":
        return cls({normalise(card.name): card for card in cards})

    def _lemmas(self) -> dict[str, set[str]]:
        # Built on the first name that is not written as in the pool, then kept with the index.
        if self._by_lemma is None:
            index: dict[str, set[str]] = {}
            for key in self.cards:
                for lemma in lemma_keys(key):
                    index.setdefault(lemma, set()).add(key)
            self._by_lemma = index
        return self._by_lemma

    def _candidates(self, key: str) -> set[str]:
        index = self._lemmas()
        found: set[str] = set()
        for lemma in lemma_keys(key):
            found |= index.get(lemma, set())
        return found

    def has_exactly(self, name: str) -> bool:
        """Whether a card is written so, without reading word forms (a header's test: cheap)."""
        return normalise(name) in self.cards

    def find(self, name: str) -> CardInfo | None:
        """The one card the name is, as written or in another case or number; None when no card
        or more than one card reads so (never a guess)."""
        key = normalise(name)
        card = self.cards.get(key)
        if card is not None or not key:
            return card
        candidates = self._candidates(key)
        return self.cards[candidates.pop()] if len(candidates) == 1 else None

    def suggest(self, name: str) -> list[str]:
        key = normalise(name)
        # The reader only asks about names with a letter, so ``key`` is never empty there and
        # mutmut's "or True" is equivalent; the guard keeps a direct call with nothing cheap.
        keys = sorted(self._candidates(key)) if key else []
        # MAX_SUGGESTIONS (3) and 0.6 are difflib's own defaults, written out so the limits are
        # visible here; mutmut's mutants dropping either argument are therefore equivalent.
        keys += [
            k
            for k in difflib.get_close_matches(
                key, self.cards.keys(), n=MAX_SUGGESTIONS, cutoff=0.6
            )
            if k not in keys
        ]
        # A shortened name ("Вамп") is suggested the cards it begins.
        if len(key) >= 3:
            keys += [k for k in self.cards if k.startswith(key) and k not in keys]
        return [self.cards[k].name for k in keys[:MAX_SUGGESTIONS]]

    def is_close(self, name: str) -> bool:
        """Whether the name is near enough a card's to be a misspelt card rather than a title."""
        key = normalise(name)
        # Only whether there is a match is read, so mutmut's mutants of ``n`` are equivalent.
        return bool(key) and bool(
            difflib.get_close_matches(key, self.cards.keys(), n=1, cutoff=0.75)
        )


@dataclass(slots=True)
class ParsedLine:
    """A card line as read (not frozen: made 100,000 times when 2,000 lists are checked).

    ``count`` None: the line has no number of copies (1.1 г); ``count_word`` holds the number
    when it was written in words, ``numbered`` says the line began with a list number."""

    number: int
    section: str
    written_name: str
    count: int | None
    card: CardInfo | None
    count_word: str = ""
    numbered: bool = False


@dataclass(frozen=True)
class Unmatched:
    number: int
    name: str
    suggestions: list[str]


@dataclass(frozen=True)
class HeroLine:
    number: int
    written_name: str
    card: CardInfo | None


@dataclass
class ParseResult:
    lines: list[ParsedLine] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)
    unmatched: list[Unmatched] = field(default_factory=list)
    hero: HeroLine | None = None
    player_name: str = ""
    deck_name: str = ""
    # Totals the list states itself («Основа (40)», «Итого: 50»), by section or "total".
    stated: dict[str, int] = field(default_factory=dict)
    # What the reader read as something other than a card, so the player can see it.
    notes: list[tuple[int, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


def _header(text: str) -> tuple[str, int | None] | None:
    """A section title such as «Основная колода:», «Сайдборд (10)» or «Основа: 40 карт»."""
    tail = _HEADER_TAIL.search(text)
    stated = int(tail["count"]) if tail and tail["count"] else None
    # _HEADER_TAIL may match nothing at the end, so it always matches and "if tail" is only a
    # guard for the type checker: mutmut's "always" mutant survives as an equivalent one.
    key = normalise(text[: tail.start()] if tail else text)
    if key in MAIN_HEADERS:
        return MAIN, stated
    if key in EXTRA_HEADERS:
        return EXTRA, stated
    return None


def _count(raw: str) -> int | str:
    """The number of copies, or the message saying why it is not one."""
    # Each check is made once: the whole numbers (nearly every count) first, then the rest,
    # which ``_NUMBER`` lets be only a negative number or a fraction («1,5», «1.5»).
    if raw.isdecimal():
        value = int(raw)
        if value < 1:
            return _("a line of 0 copies: leave the card out")
        if value > MAX_COPIES:
            return _("%(count)s copies is more than any deck holds (at most %(limit)s)") % {
                "count": value,
                "limit": MAX_COPIES,
            }
        return value
    if raw[0] in _MINUS:
        return _("a number of copies cannot be negative")
    return _("the number of copies must be a whole number")


def _without_collector_number(line: str, *, count_before: bool) -> str:
    """The line without a trailing set or collector number such as «(14-29)»; a bracketed
    number alone («Вампир (3)») is a number of copies unless the count came first."""
    group = _TRAILING_GROUP.search(line)
    if group is None or (not count_before and _PURE_COUNT.match(group["inside"])):
        return line
    # No spaces are left before the group: its pattern takes them, and the search finds the
    # leftmost match, which starts at the first of them.
    return line[: group.start()]


def _two_numbers() -> str:
    return _("two numbers on one line: which is the count?")


@dataclass(frozen=True)
class _CardText:
    name: str
    count: str | None
    count_word: str = ""
    # Two numbers on one line: which is the count? (a flag, not the message: the reading of a
    # line is cached across lists and languages, the message is translated where it is used).
    two_numbers: bool = False
    # The name itself ends in a number: two numbers on one line unless the pool knows the name.
    second_number: bool = False


def _cells(line: str) -> _CardText | None:
    """A spreadsheet row: cells split by tabs or semicolons, one of them the number."""
    cells = [cell.strip() for cell in re.split(r"[\t;]", line) if cell.strip()]
    if len(cells) < 2:
        return None
    numbers = [cell for cell in cells if _PURE_COUNT.match(cell) or re.fullmatch(_NUMBER, cell)]
    names = [cell for cell in cells if cell not in numbers]
    if not names:
        return None
    if len(numbers) > 1:
        return _CardText(names[0], None, two_numbers=True)
    found = re.search(_NUMBER, numbers[0]) if numbers else None
    return _CardText(" ".join(names), found[0] if found else None)


def _name(text: str) -> str:
    return _without_collector_number(text, count_before=True).strip(" -–—:.\t")


def _read_card_text(line: str) -> _CardText:
    """The name and the number of copies as written on one card line.

    Cached: the same lines («3 Вампир») come back in list after list, and a re-check reads every
    list of a tournament again; the reading of a line depends on nothing but its text."""
    if "\t" in line or ";" in line:
        cells = _cells(line)
        if cells is not None:
            return cells
    leading = _LEADING.match(line) or _LEADING_TIMES.match(line)
    if leading:
        name = _name(leading["name"])
        return _CardText(name, leading["count"], second_number=bool(_TRAILING.match(name)))
    # Only the flag's truth is read, so mutmut's None for False is an equivalent mutant.
    trimmed = _without_collector_number(line, count_before=False)
    trailing = _TRAILING.match(trimmed)
    if trailing:
        return _CardText(_name(trailing["name"]), trailing["count"])
    before = _WORD_COUNT.match(trimmed)
    if before and is_number_word(before["word"]):
        return _CardText(_name(before["name"]), None, count_word=before["word"])
    after = _WORD_COUNT_AFTER.match(trimmed)
    if after and is_number_word(after["word"]):
        return _CardText(_name(after["name"]), None, count_word=after["word"])
    return _CardText(_name(trimmed), None)


# The cache wraps the function rather than decorating it, as for every cached reading of a line
# below: mutmut leaves decorated functions unmutated, and these hold the reading's rules.
_card_text = functools.lru_cache(maxsize=65536)(_read_card_text)


# «40 карт» under a header, in any case.
_CARDS_STATED = re.compile(r"\d+\s*(?:карт\w*|cards?)\.?", re.I)

# The pure parts of reading a line, each cached by the line's text: a tournament's lists repeat
# the same lines, and a re-check reads all of them again (benchmarks/decks.py --recheck).


def _read_cards_stated(line: str) -> int | None:
    """«40 карт»: the number of cards a line states, when that is all it says."""
    if _CARDS_STATED.fullmatch(line):
        return int(re.match(r"\d+", line)[0])  # type: ignore[index]
    return None


_cards_stated = functools.lru_cache(maxsize=65536)(_read_cards_stated)


def _read_prepared(line: str) -> tuple[str, bool] | None:
    """A stripped line without its bullet, inline comment and list number, and whether it had a
    list number; None for a row of column titles («Карта ⇥ Количество»)."""
    line = _INLINE_COMMENT.sub("", _BULLET.sub("", line))
    cells = [normalise(cell) for cell in re.split(r"[\t;,|]", line) if cell.strip()]
    if len(cells) > 1 and all(cell in COLUMN_TITLES for cell in cells):
        return None
    numbering = _NUMBERING.match(line)
    if numbering:
        return line[numbering.end() :], True
    return line, False


_prepared = functools.lru_cache(maxsize=65536)(_read_prepared)


def _read_label_parts(line: str) -> tuple[str, str, str] | None:
    """«Герой: Хакодар»: the label as written, the label normalised, the value."""
    match = _LABELLED.match(line)
    if match is None:
        return None
    return match["label"], normalise(match["label"]), match["value"].strip()


_label_parts = functools.lru_cache(maxsize=65536)(_read_label_parts)


def _read_header_parts(line: str) -> tuple[tuple[str, int | None] | None, str, int | None]:
    """A line not starting with a digit as a header: the header it is (or None), the words
    before its count, and the total it states when it is one («Итого 50»)."""
    header = _header(line)
    tail = _HEADER_TAIL.search(line)
    # The tail always matches (see _header), so mutmut's "always" mutant is equivalent.
    base = line[: tail.start()] if tail else line
    total = None
    if tail and tail["count"] and normalise(base) in TOTAL_LABELS:
        total = int(tail["count"])
    return header, base, total


_header_parts = functools.lru_cache(maxsize=65536)(_read_header_parts)


def _read_number_without_name(line: str) -> bool:
    """A line that starts with a number but is no count before a name («40», «12.12.2026»)."""
    return bool(_STARTS_WITH_NUMBER.match(line)) and not _LEADING.match(line)


_number_without_name = functools.lru_cache(maxsize=65536)(_read_number_without_name)


class _Reader:
    """One list's reading state: the section, the lines read so far, the result."""

    def __init__(self, pool: PoolIndex, *, titles: bool) -> None:
        self.pool = pool
        self.result = ParseResult()
        self.section = MAIN
        # Only its truth is read, so mutmut's None for False is an equivalent mutant.
        self.cards_seen = False
        self.titles_left = MAX_TITLE_LINES if titles else 0

    def line(self, number: int, raw: str) -> None:
        line = raw.strip()
        if not line or line.startswith(("#", "//", "--", "%")):
            return
        if len(line) > MAX_LINE_LENGTH:
            self.result.errors.append(
                (number, _("The line is longer than %(limit)s characters.") % {"limit": 200})
            )
            return
        prepared = _prepared(line)
        if prepared is None:
            return
        line, numbered = prepared
        if self._labelled(number, line) or self._header_or_total(number, line):
            return
        self._card(number, line, numbered=numbered)

    def _labelled(self, number: int, line: str) -> bool:
        """«Герой: Хакодар», «Игрок: Иванов Иван», «Итого: 50», «Сайд: » and the like."""
        parts = _label_parts(line)
        if parts is None:
            return False
        written_label, label, value = parts
        if label in HERO_LABELS:
            self._hero(number, value)
        elif label in PLAYER_LABELS and value:
            self.result.player_name = value
        elif label in DECK_NAME_LABELS and value:
            self.result.deck_name = value
        elif label in COMMENT_LABELS:
            pass
        elif label in TOTAL_LABELS:
            self._total(number, value)
        # A header read here is read the same by _header_or_total, where the line goes when
        # this returns False, so mutmut's mutant joining with "XX XX" (no header) is equivalent.
        elif (header := _header(written_label + " " + value)) is not None:
            if self.pool.has_exactly(written_label):
                return False  # «Основа - 2» is two of the card Основа when the pool has it.
            self._start_section(header)
        elif label in {"колода", "deck"} and value and _LETTER.search(value):
            # «Колода: Вампиры» names the deck; «Колода: 40» is a header (above).
            self.result.deck_name = value
        else:
            return False
        return True

    def _header_or_total(self, number: int, line: str) -> bool:
        # ``number`` is taken like every line handler's but not needed here, so mutmut's mutant
        # passing None for it survives as an equivalent one.
        if line[0].isdigit():
            stated = _cards_stated(line)
            if stated is not None:
                # «40 карт» under a header: the size the player states, not a card.
                self.result.stated[self.section] = stated
                return True
            return False
        header, base, total = _header_parts(line)
        if header is not None and not self.pool.has_exactly(base):
            self._start_section(header)
            return True
        if total is not None:
            self.result.stated["total"] = total
            return True
        return False

    def _start_section(self, header: tuple[str, int | None]) -> None:
        self.section, stated = header
        if stated is not None:
            self.result.stated[self.section] = stated

    def _total(self, number: int, value: str) -> None:
        digits = re.search(r"\d+", value)
        if digits:
            self.result.stated["total"] = int(digits[0])
        else:
            self.result.errors.append(
                (number, _("a total needs a number: «%(value)s»") % {"value": value})
            )

    def _hero(self, number: int, value: str) -> None:
        # _card_text("") also names nothing, so mutmut's "always read" mutant is equivalent.
        name = _card_text(value).name if value else ""
        if not name or not _LETTER.search(name):
            self.result.errors.append((number, _("the hero line names no hero")))
            return
        card = self.pool.find(name)
        if card is None:
            self.result.unmatched.append(Unmatched(number, name, self.pool.suggest(name)))
        self.result.hero = HeroLine(number, name, card)

    def _card(self, number: int, line: str, *, numbered: bool) -> None:
        if not numbered and _number_without_name(line):
            self._refuse(number, line, line, _("a number of copies needs a card name after it"))
            return
        text = _card_text(line)
        if text.count_word and self.pool.find(line) is not None:
            # «Три богатыря» is a card's name, not three of something.
            text = _CardText(line, None)
        if text.two_numbers or (text.second_number and self.pool.find(text.name) is None):
            self._refuse(number, line, text.name, _two_numbers())
            return
        count: int | None = None
        if text.count is not None:
            parsed = _count(text.count)
            if isinstance(parsed, str):
                self._refuse(number, line, text.name, parsed)
                return
            count = parsed
        name = text.name
        if not _LETTER.search(name):
            message = _("this is not a card line: «%(line)s»") % {"line": line}
            self._refuse(number, line, name, message)
            return
        card = self.pool.find(name)
        if (
            card is None
            and count is None
            and not numbered
            and not text.count_word
            and self._title(number, line)
        ):
            return
        self.cards_seen = True
        if card is not None and card.is_hero and self.result.hero is None and (count or 1) == 1:
            # A deck builder lists the hero among the cards: it leads the deck, it is not in it.
            self.result.hero = HeroLine(number, name, card)
            return
        if card is None:
            self.result.unmatched.append(Unmatched(number, name, self.pool.suggest(name)))
        self.result.lines.append(
            ParsedLine(number, self.section, name, count, card, text.count_word, numbered)
        )

    def _refuse(self, number: int, line: str, name: str, message: str) -> None:
        """A line that cannot be a card line: above the cards, and naming no card, it is the
        player's nickname or a date («Dimon228», «12.12.2026»); anywhere else, an error."""
        # _title does not read ``number``, so mutmut's None for it is an equivalent mutant.
        if self.pool.find(name) is None and self._title(number, line):
            return
        self.result.errors.append((number, message))

    def _title(self, number: int, line: str) -> bool:
        """An unlabelled line above the cards: the player's name, then the deck's. A line near
        a card's name is a misspelt card, never a title."""
        # ``number`` is not needed here (a title is never reported by line), so the mutants
        # passing None for it survive as equivalent ones.
        if self.cards_seen or self.titles_left <= 0 or self.pool.is_close(line):
            return False
        # There are only two titles to fill, so once the count reaches 0 both are filled or
        # refused; mutmut's "= 1" and "+= 1" reach the final "return False" instead and survive
        # as equivalent mutants.
        self.titles_left -= 1
        if not self.result.player_name and looks_like_person(line):
            self.result.player_name = line
        elif not self.result.deck_name:
            self.result.deck_name = line
        elif not self.result.player_name:
            self.result.player_name = line
        else:
            return False
        return True


def parse_list(text: str, pool: PoolIndex, *, titles: bool = True) -> ParseResult:
    """Read the list line by line; every problem is reported with its line number.

    ``titles``: unlabelled lines above the first card may be the player's and the deck's names
    (a list of cards found at a deck check has none)."""
    raw_lines = clean_text(text).splitlines()
    filled = [line for line in raw_lines if line.strip()]
    if len(filled) > MAX_LINES:
        result = ParseResult()
        result.errors.append(
            (
                0,
                _("The list has %(count)s lines; a deck list has at most %(limit)s.")
                % {"count": len(filled), "limit": MAX_LINES},
            )
        )
        return result
    reader = _Reader(pool, titles=titles)
    for number, raw in enumerate(raw_lines, start=1):
        reader.line(number, raw)
    result = reader.result
    if not result.lines and not result.errors:
        result.errors.append((0, _("The list has no cards.")))
    _compare_stated(result)
    return result


def _compare_stated(result: ParseResult) -> None:
    """A size the list states («Основа (40)», «Итого: 50») that its lines do not add up to: a
    note for the player, who may have left a line out (the checks count the lines)."""
    if any(line.count is None for line in result.lines):
        return
    # Every count is known here, so "or 0" never applies (mutmut's "or 1" is equivalent).
    counted = {
        MAIN: sum(line.count or 0 for line in result.lines if line.section == MAIN),
        EXTRA: sum(line.count or 0 for line in result.lines if line.section == EXTRA),
    }
    counted["total"] = counted[MAIN] + counted[EXTRA]
    for part, stated in result.stated.items():
        if counted[part] != stated:
            result.notes.append(
                (
                    0,
                    _("The list says %(stated)s %(part)s; its lines add up to %(counted)s.")
                    % {"stated": stated, "part": _part_name(part), "counted": counted[part]},
                )
            )


def _part_name(part: str) -> str:
    if part == MAIN:
        return _("in the main deck")
    if part == EXTRA:
        return _("in the extra deck")
    return _("in all")
