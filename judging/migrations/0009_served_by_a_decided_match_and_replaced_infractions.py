from django.db import migrations, models


class Migration(migrations.Migration):
    """A game loss is also served by a match that a pending match loss decided (rules.md §6): a
    generated column's expression cannot be altered in place, so it is dropped and added again.
    A tournament's replaced infraction keeps the reason for the replacement (rules.md §3)."""

    dependencies = [("judging", "0008_acknowledgements_and_investigation_statements")]

    operations = [
        migrations.AddField(
            model_name="infraction",
            name="replaced_because",
            field=models.TextField(blank=True, verbose_name="reason for the replacement"),
        ),
        migrations.RemoveField(model_name="penaltyrecord", name="is_pending_loss"),
        migrations.AddField(
            model_name="penaltyrecord",
            name="is_pending_loss",
            field=models.GeneratedField(
                db_persist=True,
                expression=models.Q(
                    ("loss_cancelled", False),
                    ("status", "in_force"),
                    models.Q(
                        models.Q(
                            ("applies_to", "next_game"),
                            ("served_game__isnull", True),
                            ("served_match__isnull", True),
                        ),
                        models.Q(("applies_to", "next_match"), ("served_match__isnull", True)),
                        _connector="OR",
                    ),
                ),
                output_field=models.BooleanField(),
            ),
        ),
    ]
