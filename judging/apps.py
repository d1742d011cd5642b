from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class JudgingConfig(AppConfig):
    name = "judging"
    verbose_name = _("Judging")

    def ready(self) -> None:
        # The tournaments app runs matches; the penalty rules that act when a match starts, gets a
        # game or ends belong here, so they are handed to it as a policy (tournaments never imports
        # judging).
        from judging.services import JudgingMatchPolicy
        from tournaments import lifecycle

        lifecycle.register_policy(JudgingMatchPolicy())

        # The playoff's final standings and matches in the judge report (issue 32).
        from judging.report import register_section
        from judging.report.playoff import SECTIONS

        for section in SECTIONS:
            register_section(section)

        # Live streams end with their session and with their owner's staff membership.
        from django.contrib.auth.signals import user_logged_out
        from django.db.models.signals import post_delete

        from judging import live
        from tournaments.models import Staff

        # The playoff's writes announce the bracket's changes over the same live stream.
        from tournaments.services.pages import register_announcer

        register_announcer(live.publish_event)

        user_logged_out.connect(live.on_signed_out, dispatch_uid="live-signed-out")
        post_delete.connect(live.on_staff_removed, sender=Staff, dispatch_uid="live-staff-removed")
