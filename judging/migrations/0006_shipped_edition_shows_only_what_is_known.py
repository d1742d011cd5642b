from django.db import migrations

# The first shipped 6.1 carried sub-items, examples, a philosophy and a remedy that are in neither
# the guideline text nor rules.md; its remedy began with these words.
INVENTED_REMEDY = "Главный судья проводит расследование"


def reload_shipped_edition(apps, schema_editor):
    from judging.editions import SHIPPED_EDITION_FILE, infraction_fields, load_edition, read_edition

    Infraction = apps.get_model("judging", "Infraction")
    load_edition(
        edition_model=apps.get_model("judging", "GuidelineEdition"),
        infraction_model=Infraction,
    )
    # Tournaments' own copies of the shipped edition hold the same invented text: trim them too.
    data = read_edition(SHIPPED_EDITION_FILE)
    shipped = next(item for item in data["infractions"] if item["code"] == "6.1")
    fields = infraction_fields(shipped, data["section_names"])
    Infraction.objects.filter(code="6.1", remedy__startswith=INVENTED_REMEDY).update(
        **{key: fields[key] for key in ("description", "sub_items", "examples", "philosophy", "remedy")}
    )
    # Section 2 is named by the guideline («Процессуальные ошибки»).
    Infraction.objects.filter(section="2", section_name="").update(
        section_name=data["section_names"]["2"]
    )


class Migration(migrations.Migration):
    dependencies = [("judging", "0005_pending_loss_computed_by_the_database")]

    operations = [migrations.RunPython(reload_shipped_edition, migrations.RunPython.noop)]
