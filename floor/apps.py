from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FloorConfig(AppConfig):
    name = "floor"
    verbose_name = _("The round on the floor")

    def ready(self) -> None:
        # The judge report lists the time extensions and the judge calls; judging never imports
        # this app, so the sections are handed to it.
        from floor.report import SECTIONS, history_lines
        from judging.report import register_section
        from tournaments import match_history

        for section in SECTIONS:
            register_section(section)
        # A match's result screen lists the players' reports and confirmations.
        match_history.register("floor-reports", history_lines)
