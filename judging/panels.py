"""Panels other apps add to the judge's player page, without judging importing them.

An app registers a provider in its ``AppConfig.ready()``; the player page asks each provider for
its panel about one registration and renders the panel's template with its context. A provider
returns None when it has nothing to show.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tournaments.models import Registration


@dataclass(frozen=True)
class Panel:
    """A template and its context, rendered as ``panel`` on the player page."""

    template: str
    context: dict[str, Any] = field(default_factory=dict)


type PanelProvider = Callable[[Registration], Panel | None]

_providers: list[PanelProvider] = []


def register(provider: PanelProvider) -> None:
    if provider not in _providers:
        _providers.append(provider)


def panels_for(*, registration: Registration) -> list[Panel]:
    return [panel for p in _providers if (panel := p(registration)) is not None]
