import django.db.models.deletion
from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def fill_rounds(apps, schema_editor):
    """Each correction made so far takes its match's round."""
    ResultCorrection = apps.get_model("tournaments", "ResultCorrection")
    Match = apps.get_model("tournaments", "Match")
    ResultCorrection.objects.update(
        round_id=Subquery(Match.objects.filter(pk=OuterRef("match_id")).values("round_id")[:1])
    )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0011_index_matches_playing_and_ended_by_table"),
    ]

    operations = [
        migrations.AddField(
            model_name="resultcorrection",
            name="round",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="tournaments.round",
            ),
        ),
        migrations.RunPython(fill_rounds, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="resultcorrection",
            name="round",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="tournaments.round",
            ),
        ),
    ]
