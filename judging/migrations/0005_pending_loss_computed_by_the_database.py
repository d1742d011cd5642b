from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("judging", "0004_stacked_penalties_have_no_reason")]

    operations = [
        migrations.AddField(
            model_name="penaltyrecord",
            name="is_pending_loss",
            field=models.GeneratedField(
                db_persist=True,
                expression=models.Q(
                    ("loss_cancelled", False),
                    ("status", "in_force"),
                    models.Q(
                        models.Q(("applies_to", "next_game"), ("served_game__isnull", True)),
                        models.Q(("applies_to", "next_match"), ("served_match__isnull", True)),
                        _connector="OR",
                    ),
                ),
                output_field=models.BooleanField(),
            ),
        ),
    ]
