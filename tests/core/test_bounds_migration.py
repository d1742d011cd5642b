"""A value saved before the bounds (year 1 on PostgreSQL took eight pages down) is moved or
cleared by the migrations that add the constraints, so no page meets it afterwards."""

import datetime

import pytest
from django.utils import timezone

from tests.schema import migrate_to, migrate_to_newest

BEFORE = [
    ("tournaments", "0005_job_progress_of_long_work"),
    ("decks", "0002_ship_formats_with_guideline_defaults"),
]
AFTER = [("tournaments", "0006_tournament_date_in_range"), ("decks", "0003_deck_deadline_in_range")]


@pytest.mark.django_db(transaction=True)
def test_impossible_days_and_deadlines_saved_earlier_are_moved_or_cleared():
    old = migrate_to(BEFORE)
    Tournament = old.get_model("tournaments", "Tournament")
    DeckRules = old.get_model("decks", "DeckRules")
    DeckFormat = old.get_model("decks", "DeckFormat")
    try:
        slipped = Tournament.objects.create(
            name="Кубок",
            slug="slipped",
            date=datetime.date(1, 1, 1),
            level="amateur",
            uses_decklists=True,
        )
        kept = Tournament.objects.create(
            name="Кубок 2",
            slug="kept",
            date=datetime.date(2026, 12, 5),
            level="amateur",
            uses_decklists=True,
        )
        # A transactional test before this one may have emptied the shipped formats.
        deck_format, _made = DeckFormat.objects.get_or_create(
            slug="bounds-format", defaults={"name": "Формат", "kind": "constructed"}
        )
        DeckRules.objects.create(
            tournament=slipped,
            format=deck_format,
            deadline=datetime.datetime(1000, 1, 1, tzinfo=datetime.UTC),
        )
        DeckRules.objects.create(
            tournament=kept,
            format=deck_format,
            deadline=datetime.datetime(2026, 12, 4, 17, tzinfo=datetime.UTC),
        )

        new = migrate_to(AFTER)
        Tournament = new.get_model("tournaments", "Tournament")
        DeckRules = new.get_model("decks", "DeckRules")
        slipped_now = Tournament.objects.get(slug="slipped")
        # The day the tournament was made, in the event's time zone.
        assert slipped_now.date == timezone.localdate(slipped_now.created_at)
        assert Tournament.objects.get(slug="kept").date == datetime.date(2026, 12, 5)
        assert DeckRules.objects.get(tournament__slug="slipped").deadline is None
        assert DeckRules.objects.get(tournament__slug="kept").deadline == datetime.datetime(
            2026, 12, 4, 17, tzinfo=datetime.UTC
        )
    finally:
        # Every later test needs the whole schema: back to the newest migration of every app.
        migrate_to_newest()
