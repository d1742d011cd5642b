from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DecksConfig(AppConfig):
    name = "decks"
    verbose_name = _("Deck lists")

    def ready(self) -> None:
        # The judge report shows the deck-list findings, the deck checks and the penalties issued
        # for deck problems; judging never imports this app, so the section is registered here.
        from decks.report import DECK_SECTION, player_panel
        from judging import panels
        from judging.report.sections import register_section

        register_section(DECK_SECTION)
        panels.register(player_panel)

        from django.db.models.signals import post_init, post_save

        from decks.signals import recheck_on_format_change, remember_format
        from tournaments.models import Tournament

        post_init.connect(remember_format, sender=Tournament, dispatch_uid="decks-format")
        post_save.connect(recheck_on_format_change, sender=Tournament, dispatch_uid="decks-format")
