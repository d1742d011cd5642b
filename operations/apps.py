from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OperationsConfig(AppConfig):
    """Running the desk at a venue: serving, the first account, logs, backups, health.

    It sits above the other apps (nothing of theirs imports it) and hears what it needs through
    Django's signals, so the rules and the tournament services know nothing of logs or backups.
    """

    name = "operations"
    verbose_name = _("Operations")

    def ready(self) -> None:
        from django.db.models.signals import post_save

        from operations import audit, backups

        audit.connect()
        post_save.connect(
            backups.round_published, sender="tournaments.Round", dispatch_uid="desk-round-snapshot"
        )
