"""The shipped formats and their deck rules, as decklists.md reads the guideline (1.1 б, д, е, в).

Loaded by the data migration ``0002``; the tests that flush the tables load them again.
"""

from typing import Any

from decks.parsing import normalise
from decks.rules import RuleSet

RULE_FIELDS = (
    "main_min",
    "main_max",
    "extra_max",
    "copy_limit",
    "lifting_feature",
    "combine_sections",
    "check_legality",
    "hero_rule",
)

type FormatRow = tuple[
    str, str, str, int | None, int | None, int | None, int | None, str, bool, bool, bool
]
FORMATS: list[FormatRow] = [
    # slug, name, kind, main_min, main_max, extra_max, copy_limit, feature, combine, legality,
    # hero rule (a constructed deck is built around its hero: its element and neutral cards)
    ("constructed", "Констрактед", "constructed", 40, None, 10, 3, "Орда", True, True, True),
    ("standard", "Стандарт", "constructed", 40, None, 10, 3, "Орда", True, True, True),
    # Limited formats: sizes are the organiser's to set; cards come from the player's product.
    ("draft", "Драфт", "draft", None, None, None, None, "", False, False, False),
    ("sealed", "Силед", "sealed", None, None, None, None, "", False, False, False),
    ("other", "Другой", "other", None, None, None, None, "", False, False, False),
]


def ship_formats(deck_format_model: Any) -> None:
    """Create or restore the shipped formats (the model is the migration's or the app's)."""
    fields = RULE_FIELDS
    has_hero_rule = any(f.name == "hero_rule" for f in deck_format_model._meta.get_fields())
    for slug, name, kind, *values in FORMATS:
        defaults = {"name": name, "kind": kind, **dict(zip(fields, values, strict=True))}
        if not has_hero_rule:
            # Migration 0002 runs before the field exists.
            defaults.pop("hero_rule")
        deck_format_model.objects.update_or_create(slug=slug, defaults=defaults)


# Other ways organisers write the shipped formats' names.
ALIASES = {
    "констрактед стандарт": "standard",
    "constructed standard": "standard",
    "конструктед": "constructed",
    "силд": "sealed",
}


def shipped_names() -> dict[str, str]:
    """The shipped formats by normalised slug and name, for a machine without the database."""
    names: dict[str, str] = dict(ALIASES)
    for slug, name, *_rest in FORMATS:
        names[normalise(slug)] = slug
        names[normalise(name)] = slug
    return names


def shipped_rule_set(name: str) -> RuleSet | None:
    slug = shipped_names().get(normalise(name))
    for row in FORMATS:
        if row[0] == slug:
            main_min, main_max, extra_max, limit, feature, combine, legal, hero = row[3:]
            return RuleSet(
                row[0], row[1], main_min, main_max, extra_max, limit, feature, combine, legal, hero
            )
    return None
