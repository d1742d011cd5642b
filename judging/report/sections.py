"""Sections other apps add to the judge report, without judging importing them.

An app registers a provider in its ``AppConfig.ready()``; the report asks each provider for its
section of a tournament and renders the section's template with its context, after its own
sections. A provider returns None when it has nothing for that tournament.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tournaments.models import Tournament


@dataclass(frozen=True)
class ReportSection:
    template: str
    context: dict[str, Any] = field(default_factory=dict)


type SectionProvider = Callable[[Tournament], ReportSection | None]

_providers: list[SectionProvider] = []


def register(provider: SectionProvider) -> None:
    if provider not in _providers:
        _providers.append(provider)


def sections_for(*, tournament: Tournament) -> list[ReportSection]:
    return [section for p in _providers if (section := p(tournament)) is not None]
