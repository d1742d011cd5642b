"""The formats and their deck rules as decklists.md reads the guideline (1.1 б, д, е, в)."""

from django.db import migrations

from decks.formats import ship_formats


def ship(apps, schema_editor):
    ship_formats(apps.get_model("decks", "DeckFormat"))


class Migration(migrations.Migration):
    dependencies = [("decks", "0001_card_pool_formats_lists_and_checks")]

    operations = [migrations.RunPython(ship, migrations.RunPython.noop)]
