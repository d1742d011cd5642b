"""The guideline's section 1 as pure functions: a list against the deck rules (1.1), a deck at
the table against its list (1.2). No ORM: the services load, call and write.

Every finding carries its infraction code, its sub-item letter, a ``kind`` and the exact cards and
counts (``params``); ``decks.describe`` puts it into words.
"""

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from decks.parsing import (
    EXTRA,
    MAIN,
    CardInfo,
    ParsedLine,
    ParseResult,
    PoolIndex,
    normalise,
    parse_list,
)

# How a pool may write "neutral" (нейтральная карта fits any hero's deck).
NEUTRAL_PREFIXES = ("нейтрал", "neutral")


@dataclass(frozen=True)
class RuleSet:
    format_slug: str
    format_name: str
    main_min: int | None = None
    main_max: int | None = None
    extra_max: int | None = None
    copy_limit: int | None = None
    lifting_feature: str = ""
    combine_sections: bool = False
    check_legality: bool = False
    # A list with a hero holds only cards of the hero's element and neutral ones (1.1 д).
    hero_rule: bool = False


@dataclass(frozen=True)
class FindingData:
    code: str
    sub_item: str
    kind: str
    params: dict[str, Any] = field(default_factory=dict)


def _total(lines: Iterable[ParsedLine], section: str) -> tuple[int, bool]:
    """Cards in a section, and whether every line of it has a number."""
    chosen = [line for line in lines if line.section == section]
    # A line's count is never 0 (the reader refuses it), so "or 0" only stands in for a missing
    # number, and then the total is not used: mutmut's "or 1" survives as an equivalent mutant.
    return sum(line.count or 0 for line in chosen), all(line.count is not None for line in chosen)


def is_neutral(element: str) -> bool:
    return normalise(element).startswith(NEUTRAL_PREFIXES)


def _keys(elements: frozenset[str]) -> set[str]:
    return {normalise(element) for element in elements}


def _off_element(lines: list[ParsedLine], hero: CardInfo) -> list[str]:
    """The list's cards of neither the hero's element nor neutral, each once, in list order."""
    names: list[str] = []
    for line in lines:
        card = line.card
        if card is None or not card.elements or card.name in names:
            continue
        if any(is_neutral(element) for element in card.elements):
            continue
        if not _keys(card.elements) & _keys(hero.elements):
            names.append(card.name)
    return names


def _no_count(line: ParsedLine, card: CardInfo) -> FindingData:
    """1.1 г: a line without a number, with how it was written (in words, or a list number)."""
    if line.count_word:
        return FindingData(
            "1.1",
            "г",
            "count_in_words",
            {"line": line.number, "card": card.name, "words": line.count_word},
        )
    kind = "numbered_no_count" if line.numbered else "no_count"
    return FindingData("1.1", "г", kind, {"line": line.number, "card": card.name})


def check_list(
    lines: list[ParsedLine], rules: RuleSet, *, hero: CardInfo | None = None
) -> list[FindingData]:
    """Every 1.1 finding of a list, and the names the judges may not read (1.4 а, their call).

    ``hero``: the card the list names as its hero, when the pool knows it."""
    found: list[FindingData] = []
    main, main_counted = _total(lines, MAIN)
    extra, extra_counted = _total(lines, EXTRA)
    # Sizes (б): a section with a line without a number cannot be counted; that line is a 1.1 г.
    if main_counted and rules.main_min is not None and main < rules.main_min:
        found.append(
            FindingData("1.1", "б", "main_short", {"count": main, "limit": rules.main_min})
        )
    if main_counted and rules.main_max is not None and main > rules.main_max:
        found.append(FindingData("1.1", "б", "main_over", {"count": main, "limit": rules.main_max}))
    if extra_counted and rules.extra_max is not None and extra > rules.extra_max:
        found.append(
            FindingData("1.1", "б", "extra_over", {"count": extra, "limit": rules.extra_max})
        )
    legal_reported: set[int] = set()
    copies: dict[int, dict[str, int]] = defaultdict(lambda: {MAIN: 0, EXTRA: 0})
    names: dict[int, str] = {}
    for line in lines:
        card = line.card
        if card is None:
            found.append(
                FindingData(
                    "1.4", "а", "unreadable", {"line": line.number, "name": line.written_name}
                )
            )
            continue
        names[card.id] = card.name
        if (
            rules.check_legality
            and not card.is_legal_in(rules.format_slug)
            and card.id not in legal_reported
        ):
            legal_reported.add(card.id)
            found.append(
                FindingData(
                    "1.1", "в", "not_legal", {"card": card.name, "format": rules.format_name}
                )
            )
        if line.count is None:
            found.append(_no_count(line, card))
            continue
        if rules.copy_limit is not None and not (
            card.features and card.has_feature(rules.lifting_feature)
        ):
            copies[card.id][line.section] += line.count
    limit = rules.copy_limit
    if limit is not None:
        for card_id, counts in copies.items():
            over = [section for section in (MAIN, EXTRA) if counts[section] > limit]
            for section in over:
                found.append(
                    FindingData(
                        "1.1",
                        "д",
                        "copies_over",
                        {
                            "card": names[card_id],
                            "count": counts[section],
                            "section": section,
                            "limit": limit,
                        },
                    )
                )
            together = counts[MAIN] + counts[EXTRA]
            if rules.combine_sections and not over and together > limit:
                found.append(
                    FindingData(
                        "1.1",
                        "е",
                        "combined_over",
                        {
                            "card": names[card_id],
                            "main": counts[MAIN],
                            "extra": counts[EXTRA],
                            "total": together,
                            "limit": limit,
                        },
                    )
                )
    if hero is not None and rules.check_legality and not hero.is_legal_in(rules.format_slug):
        params = {"card": hero.name, "format": rules.format_name}
        found.append(FindingData("1.1", "в", "not_legal", params))
    # The element rule needs the hero's element; a pool without one cannot say (never a guess).
    if rules.hero_rule and hero is not None and hero.elements:
        off = _off_element(lines, hero)
        if off:
            found.append(
                FindingData(
                    "1.1",
                    "д",
                    "off_element",
                    {
                        "hero": hero.name,
                        "element": ", ".join(sorted(hero.elements)),
                        "cards": off,
                    },
                )
            )
    return found


@dataclass(frozen=True)
class ListCheck:
    """A list as read and its findings (none while the reader refuses a line)."""

    parse: ParseResult
    findings: list[FindingData]


def check_text(text: str, pool: PoolIndex, rules: RuleSet) -> ListCheck:
    """Read a list and check it: what the app does when a list is saved, without saving."""
    parse = parse_list(text, pool)
    if not parse.ok:
        return ListCheck(parse, [])
    hero = parse.hero.card if parse.hero is not None else None
    return ListCheck(parse, check_list(parse.lines, rules, hero=hero))


# --- A deck check at the table (1.2) -----------------------------------------------------------


@dataclass(frozen=True)
class ListedCard:
    """A card of the list as the deck check form shows it: its copies per section."""

    key: str
    name: str
    main: int
    extra: int


def compare_deck(
    *,
    listed: list[ListedCard],
    found: Mapping[str, tuple[int, int]],
    not_on_list: list[tuple[str, int]],
) -> list[FindingData]:
    """What the deck holds against its correct list.

    ``found`` gives the copies the judge counted per card of the list (main, extra); ``not_on_list``
    the cards in the deck the list does not name. Fewer cards in the main deck than the list, or
    more in the extra deck: 1.2 а. A card not on the list: 1.2 б. A card with more copies than the
    list, or fewer when the main deck is not short as a whole: 1.2 в.
    """
    results: list[FindingData] = []
    listed_main = sum(card.main for card in listed)
    listed_extra = sum(card.extra for card in listed)
    seen_main = sum(found.get(card.key, (card.main, card.extra))[0] for card in listed)
    seen_extra = sum(found.get(card.key, (card.main, card.extra))[1] for card in listed)
    seen_main += sum(count for _name, count in not_on_list)
    if seen_main < listed_main:
        results.append(
            FindingData("1.2", "а", "deck_short", {"found": seen_main, "listed": listed_main})
        )
    if seen_extra > listed_extra:
        results.append(
            FindingData("1.2", "а", "extra_more", {"found": seen_extra, "listed": listed_extra})
        )
    for name, count in not_on_list:
        results.append(FindingData("1.2", "б", "not_on_list", {"card": name, "count": count}))
    short = seen_main < listed_main
    for card in listed:
        main, extra = found.get(card.key, (card.main, card.extra))
        for section, seen, on_list in ((MAIN, main, card.main), (EXTRA, extra, card.extra)):
            # "seen < on_list" and mutmut's "seen <= on_list" agree: equality is handled first.
            if seen == on_list or (section == MAIN and short and seen < on_list):
                continue
            results.append(
                FindingData(
                    "1.2",
                    "в",
                    "count_differs",
                    {"card": card.name, "found": seen, "listed": on_list, "section": section},
                )
            )
    return results


def listed_cards(lines: Iterable[ParsedLine]) -> list[ListedCard]:
    """The list's cards, one entry per card with its copies in each section, in list order."""
    order: dict[str, ListedCard] = {}
    for line in lines:
        name = line.card.name if line.card else line.written_name
        key = normalise(name)
        # Only the default's counts are read (the entry is rebuilt below), so mutmut's mutants
        # of its key or name survive as equivalent ones.
        known = order.get(key, ListedCard(key, name, 0, 0))
        count = line.count or 0
        order[key] = ListedCard(
            key,
            name,
            known.main + (count if line.section == MAIN else 0),
            known.extra + (count if line.section == EXTRA else 0),
        )
    return list(order.values())
