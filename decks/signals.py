"""The tournament's format is the deck rules' format: when it changes (on the tournament's own
set-up screen, which knows nothing of deck lists), every list is checked again."""

from typing import Any

from tournaments.models import Tournament


def remember_format(sender: type[Tournament], instance: Tournament, **kwargs: Any) -> None:
    instance._format_as_loaded = instance.format  # type: ignore[attr-defined]


def recheck_on_format_change(
    sender: type[Tournament], instance: Tournament, created: bool, **kwargs: Any
) -> None:
    loaded = getattr(instance, "_format_as_loaded", None)
    instance._format_as_loaded = instance.format  # type: ignore[attr-defined]
    if created or kwargs.get("raw") or loaded is None or loaded == instance.format:
        return
    from decks import services

    services.request_recheck(tournament=instance, rewrite_lines=False)
