from django.db import migrations, models


def clear_made_up_reasons(apps, schema_editor):
    # Stacked records used to carry a made-up "stacking:<uuid>" reason; they have none now.
    PenaltyRecord = apps.get_model("judging", "PenaltyRecord")
    PenaltyRecord.objects.filter(because="stacking").update(reason=None)


def restore_made_up_reasons(apps, schema_editor):
    PenaltyRecord = apps.get_model("judging", "PenaltyRecord")
    for record in PenaltyRecord.objects.filter(because="stacking", reason__isnull=True):
        record.reason = f"stacking:{record.pk}"
        record.save(update_fields=["reason"])


class Migration(migrations.Migration):
    dependencies = [("judging", "0003_revocation_requests")]

    operations = [
        migrations.AlterField(
            model_name="penaltyrecord",
            name="reason",
            field=models.CharField(blank=True, max_length=64, null=True),
        ),
        migrations.RunPython(clear_made_up_reasons, restore_made_up_reasons),
        migrations.AddConstraint(
            model_name="penaltyrecord",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("because", "stacking"), ("reason__isnull", True)),
                    models.Q(
                        models.Q(("because", "stacking"), _negated=True),
                        ("reason__isnull", False),
                    ),
                    _connector="OR",
                ),
                name="penalty_reason_unless_stacked",
            ),
        ),
    ]
