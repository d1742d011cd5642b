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
