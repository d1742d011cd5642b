from django.db import migrations

# The guideline lists 1.1's first sub-items as the end of a sentence («включает случаи:
# а) Отсутствия дек-листа.»), so their text is in the genitive; a button needs the nominative.
# The shipped file now gives each of them a ``label``; the shipped edition and the tournaments'
# copies of it get the same labels, matched by code, letter and text.


def label_sub_items(apps, schema_editor):
    from judging.editions import SHIPPED_EDITION_FILE, read_edition

    data = read_edition(SHIPPED_EDITION_FILE)
    labels = {
        (item["code"], sub["letter"], sub["text"]): sub["label"]
        for item in data["infractions"]
        for sub in item.get("sub_items", [])
        if "label" in sub
    }
    Infraction = apps.get_model("judging", "Infraction")
    codes = {code for code, _letter, _text in labels}
    for infraction in Infraction.objects.filter(code__in=codes):
        items = []
        for sub in infraction.sub_items or []:
            label = labels.get((infraction.code, sub.get("letter"), sub.get("text")))
            items.append({**sub, "label": label} if label else sub)
        if items != infraction.sub_items:
            infraction.sub_items = items
            infraction.save(update_fields=["sub_items"])


class Migration(migrations.Migration):
    dependencies = [("judging", "0009_served_by_a_decided_match_and_replaced_infractions")]

    operations = [migrations.RunPython(label_sub_items, migrations.RunPython.noop)]
