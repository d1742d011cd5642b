from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def create_organisers_group(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """The group the operator puts organisers in, holding the permission to create tournaments
    and use the player registry."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    Group = apps.get_model("auth", "Group")
    content_type, _created = ContentType.objects.get_or_create(
        app_label="tournaments", model="tournament"
    )
    permission, _created = Permission.objects.get_or_create(
        content_type=content_type,
        codename="organise_tournaments",
        defaults={"name": "Can create tournaments and use the player registry"},
    )
    group, _created = Group.objects.get_or_create(name="organisers")
    group.permissions.add(permission)


def remove_organisers_group(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    apps.get_model("auth", "Group").objects.filter(name="organisers").delete()
    apps.get_model("auth", "Permission").objects.filter(
        content_type__app_label="tournaments", codename="organise_tournaments"
    ).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("tournaments", "0002_planned_rounds_round_length_and_drafts"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="tournament",
            options={
                "ordering": ["-date", "name"],
                "permissions": [
                    ("organise_tournaments", "Can create tournaments and use the player registry")
                ],
                "verbose_name": "tournament",
                "verbose_name_plural": "tournaments",
            },
        ),
        migrations.RunPython(create_organisers_group, remove_organisers_group),
    ]
