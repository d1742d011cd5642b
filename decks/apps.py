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

        # A new tournament's page lists its deck rules among the steps still to do.
        from decks.selectors import rules_saved
        from tournaments import next_steps

        next_steps.register(
            next_steps.Step(
                key="deck-rules",
                order=30,
                title=_("Set the deck rules"),
                hint=_("The format, the card pool and the limits deck lists are checked against."),
                url_name="decks:rules",
                is_done=rules_saved,
            )
        )
        from django.db.models.signals import post_init, post_save

        from decks.signals import recheck_on_format_change, remember_format
        from tournaments.models import Tournament

        post_init.connect(remember_format, sender=Tournament, dispatch_uid="decks-format")
        post_save.connect(recheck_on_format_change, sender=Tournament, dispatch_uid="decks-format")
