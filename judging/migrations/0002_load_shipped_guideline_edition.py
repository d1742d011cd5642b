from django.db import migrations


def load_shipped_edition(apps, schema_editor):
    # The loader takes the historical models so the migration keeps working as models change.
    from judging.editions import load_edition

    load_edition(
        edition_model=apps.get_model("judging", "GuidelineEdition"),
        infraction_model=apps.get_model("judging", "Infraction"),
    )


class Migration(migrations.Migration):
    dependencies = [("judging", "0001_guideline_editions_and_penalty_records")]

    operations = [migrations.RunPython(load_shipped_edition, migrations.RunPython.noop)]
