"""Deck list lines name their card by its key in the tournament's pool instead of a row of one
pool: a new pool no longer means rewriting every line of every list (issue 28)."""

from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def keys_from_cards(apps, schema_editor):
    line_model = apps.get_model("decks", "DeckListLine")
    card_model = apps.get_model("decks", "Card")
    line_model.objects.filter(card__isnull=False).update(
        card_key=Subquery(card_model.objects.filter(pk=OuterRef("card_id")).values("key")[:1])
    )


def cards_from_keys(apps, schema_editor):
    """Back: each line reads the card of its key in its tournament's current pool."""
    line_model = apps.get_model("decks", "DeckListLine")
    card_model = apps.get_model("decks", "Card")
    for rules in apps.get_model("decks", "DeckRules").objects.exclude(pool=None):
        line_model.objects.filter(decklist__tournament_id=rules.tournament_id).exclude(
            card_key=""
        ).update(
            card=Subquery(
                card_model.objects.filter(pool_id=rules.pool_id, key=OuterRef("card_key")).values(
                    "pk"
                )[:1]
            )
        )


class Migration(migrations.Migration):
    dependencies = [
        ("decks", "0004_pool_owner_elements_heroes_bans_one_format"),
    ]

    operations = [
        migrations.AddField(
            model_name="decklistline",
            name="card_key",
            field=models.CharField(blank=True, default="", max_length=200),
        ),
        migrations.RunPython(keys_from_cards, cards_from_keys),
        migrations.RemoveField(
            model_name="decklistline",
            name="card",
        ),
    ]
