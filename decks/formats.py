"""The shipped formats and their deck rules, as decklists.md reads the guideline (1.1 б, д, е, в).

Loaded by the data migration ``0002``; the tests that flush the tables load them again.
"""

from typing import Any

FORMATS = [
    # slug, name, kind, main_min, main_max, extra_max, copy_limit, feature, combine, legality
    ("constructed", "Констрактед", "constructed", 40, None, 10, 3, "Орда", True, True),
    ("standard", "Стандарт", "constructed", 40, None, 10, 3, "Орда", True, True),
    # Limited formats: sizes are the organiser's to set; cards come from the player's product.
    ("draft", "Драфт", "draft", None, None, None, None, "", False, False),
    ("sealed", "Силед", "sealed", None, None, None, None, "", False, False),
    ("other", "Другой", "other", None, None, None, None, "", False, False),
]


def ship_formats(deck_format_model: Any) -> None:
    """Create or restore the shipped formats (the model is the migration's or the app's)."""
    for slug, name, kind, main_min, main_max, extra_max, limit, feature, combine, legal in FORMATS:
        deck_format_model.objects.update_or_create(
            slug=slug,
            defaults={
                "name": name,
                "kind": kind,
                "main_min": main_min,
                "main_max": main_max,
                "extra_max": extra_max,
                "copy_limit": limit,
                "lifting_feature": feature,
                "combine_sections": combine,
                "check_legality": legal,
            },
        )
