"""A finding in words, in the reader's language: the exact cards and counts."""

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from decks.parsing import EXTRA


def _section(value: object) -> str:
    # Russian says where: «в основной колоде».
    if value == EXTRA:
        return pgettext("in which deck", "extra deck")
    return pgettext("in which deck", "main deck")


def describe(kind: str, params: dict[str, Any]) -> str:
    p = dict(params)
    if "section" in p:
        p["section"] = _section(p["section"])
    texts = {
        "missing": lambda: _("No deck list was handed in."),
        "main_short": lambda: (
            _("The main deck lists %(count)s cards; it needs at least %(limit)s.") % p
        ),
        "main_over": lambda: (
            _("The main deck lists %(count)s cards; it may hold at most %(limit)s.") % p
        ),
        "extra_over": lambda: (
            _("The extra deck lists %(count)s cards; it may hold at most %(limit)s.") % p
        ),
        "not_legal": lambda: _("%(card)s is not legal in %(format)s.") % p,
        "no_count": lambda: _("Line %(line)s: %(card)s is written without a number of copies.") % p,
        "copies_over": lambda: (
            _("%(count)s copies of %(card)s in the %(section)s; at most %(limit)s.") % p
        ),
        "combined_over": lambda: (
            _(
                "%(card)s: %(main)s in the main deck and %(extra)s in the extra deck, %(total)s "
                "together; at most %(limit)s."
            )
            % p
        ),
        "unreadable": lambda: (
            _(
                "Line %(line)s: «%(name)s» is not a card of the pool; the judge decides whether "
                "the judges can read it."
            )
            % p
        ),
        "deck_short": lambda: (
            _("The main deck holds %(found)s cards; the list has %(listed)s.") % p
        ),
        "extra_more": lambda: (
            _("The extra deck holds %(found)s cards; the list has %(listed)s.") % p
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
    text = texts.get(kind)
    return text() if text else kind
