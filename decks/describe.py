"""A finding in words, in the reader's language: the exact cards and counts.

Counts take the language's plural form through ``ngettext`` (Russian has three: «1 копия»,
«3 копии», «5 копий»; the forms live in the catalogue's Plural-Forms), never a fixed ending.
"""

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from decks.parsing import EXTRA


def _section(value: object) -> str:
    # Russian says where: «в основной колоде».
    if value == EXTRA:
        return pgettext("in which deck", "extra deck")
    return pgettext("in which deck", "main deck")


def _number(value: object) -> int:
    """The count a plural form is chosen by (a stored finding's params are JSON)."""
    try:
        return int(value)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return 0


def _texts(p: dict[str, Any]) -> dict[str, Callable[[], str]]:
    count, found, total = _number(p.get("count")), _number(p.get("found")), _number(p.get("total"))
    return {
        "missing": lambda: _("No deck list was handed in."),
        "main_short": lambda: (
            ngettext(
                "The main deck lists %(count)s card; it needs at least %(limit)s.",
                "The main deck lists %(count)s cards; it needs at least %(limit)s.",
                count,
            )
            % p
        ),
        "main_over": lambda: (
            ngettext(
                "The main deck lists %(count)s card; it may hold at most %(limit)s.",
                "The main deck lists %(count)s cards; it may hold at most %(limit)s.",
                count,
            )
            % p
        ),
        "extra_over": lambda: (
            ngettext(
                "The extra deck lists %(count)s card; it may hold at most %(limit)s.",
                "The extra deck lists %(count)s cards; it may hold at most %(limit)s.",
                count,
            )
            % p
        ),
        "not_legal": lambda: _("%(card)s is not legal in %(format)s.") % p,
        "no_count": lambda: _("Line %(line)s: %(card)s is written without a number of copies.") % p,
        "numbered_no_count": lambda: (
            _(
                "Line %(line)s: %(card)s has a list number but no number of copies; a list "
                "number is not a count."
            )
            % p
        ),
        "count_in_words": lambda: (
            _("Line %(line)s: the number of copies of %(card)s is written in words («%(words)s»).")
            % p
        ),
        "copies_over": lambda: (
            ngettext(
                "%(count)s copy of %(card)s in the %(section)s; at most %(limit)s.",
                "%(count)s copies of %(card)s in the %(section)s; at most %(limit)s.",
                count,
            )
            % p
        ),
        "combined_over": lambda: (
            ngettext(
                "%(card)s: %(main)s in the main deck and %(extra)s in the extra deck, %(total)s "
                "copy together; at most %(limit)s.",
                "%(card)s: %(main)s in the main deck and %(extra)s in the extra deck, %(total)s "
                "copies together; at most %(limit)s.",
                total,
            )
            % p
        ),
        "off_element": lambda: (
            _("Cards of neither the hero's element (%(hero)s: %(element)s) nor neutral: %(cards)s.")
            % {**p, "cards": ", ".join(p.get("cards") or [])}
        ),
        "unreadable": lambda: (
            _(
                "Line %(line)s: «%(name)s» is not a card of the pool; the judge decides whether "
                "the judges can read it."
            )
            % p
        ),
        "deck_short": lambda: (
            ngettext(
                "The main deck holds %(found)s card; the list has %(listed)s.",
                "The main deck holds %(found)s cards; the list has %(listed)s.",
                found,
            )
            % p
        ),
        "extra_more": lambda: (
            ngettext(
                "The extra deck holds %(found)s card; the list has %(listed)s.",
                "The extra deck holds %(found)s cards; the list has %(listed)s.",
                found,
            )
            % p
        ),
        "not_on_list": lambda: _("%(count)s × %(card)s in the deck, not on the list.") % p,
        "count_differs": lambda: (
            _("%(card)s: %(found)s in the %(section)s, %(listed)s on the list.") % p
        ),
        "short_deck": lambda: _(
            "Too few cards in the deck, or too many in the extra deck (judge's check)."
        ),
        "illegal_card": lambda: _("A card not legal in the format (judge's check)."),
        "construction": lambda: _(
            "The deck breaks the construction rules, such as the copy limit (judge's check)."
        ),
        "not_theirs": lambda: _("Cards that are not the player's (judge's check)."),
    }


def describe(kind: str, params: dict[str, Any]) -> str:
    p = dict(params)
    if "section" in p:
        p["section"] = _section(p["section"])
    text = _texts(p).get(kind)
    return text() if text else kind
