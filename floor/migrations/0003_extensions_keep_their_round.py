import django.db.models.deletion
from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def fill_rounds(apps, schema_editor):
    """Each extension given so far takes its match's round."""
    TimeExtension = apps.get_model("floor", "TimeExtension")
    Match = apps.get_model("tournaments", "Match")
    TimeExtension.objects.update(
        round_id=Subquery(Match.objects.filter(pk=OuterRef("match_id")).values("round_id")[:1])
    )


class Migration(migrations.Migration):
    dependencies = [
        ("floor", "0002_self_reported_results_and_check_in"),
        ("tournaments", "0009_playoff_settings_rounds_and_seeds"),
    ]

    operations = [
        migrations.AddField(
            model_name="timeextension",
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
            model_name="timeextension",
            name="round",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="tournaments.round",
            ),
        ),
    ]
