"""Move the sessions from Django's table into the desk's, each with the user it signs in, so that
no one is signed out by the upgrade (in the middle of an event, say)."""

from django.apps.registry import Apps
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.utils import timezone

from core.sessions import signed_in_user_pk

BATCH = 500


def move_in(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    django_sessions = apps.get_model("sessions", "Session")
    desk_sessions = apps.get_model("core", "Session")
    # Both stores are named SessionStore, which salts the data: Django's reads the desk's data.
    store = DatabaseSessionStore()
    rows = [
        desk_sessions(
            session_key=row.session_key,
            session_data=row.session_data,
            expire_date=row.expire_date,
            user_id=signed_in_user_pk(store.decode(row.session_data).get(SESSION_KEY)),
        )
        for row in django_sessions.objects.filter(expire_date__gt=timezone.now()).iterator()
    ]
    desk_sessions.objects.bulk_create(rows, batch_size=BATCH, ignore_conflicts=True)
    django_sessions.objects.all().delete()


def move_out(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    django_sessions = apps.get_model("sessions", "Session")
    desk_sessions = apps.get_model("core", "Session")
    rows = [
        django_sessions(
            session_key=row.session_key, session_data=row.session_data, expire_date=row.expire_date
        )
        for row in desk_sessions.objects.iterator()
    ]
    django_sessions.objects.bulk_create(rows, batch_size=BATCH, ignore_conflicts=True)
    desk_sessions.objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("core", "0001_session_with_user"),
        ("sessions", "0001_initial"),
    ]

    operations = [migrations.RunPython(move_in, move_out)]
