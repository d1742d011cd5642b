from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FederationConfig(AppConfig):
    name = "federation"
    verbose_name = _("The federation")

    def ready(self) -> None:
        # The report page offers the event file; judging never imports this app.
        from federation.report import SECTION
        from judging.report import register_section

        register_section(SECTION)
