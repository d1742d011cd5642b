"""Sections other apps add to the judge report (the floor's time extensions and judge calls).

Judging never imports those apps: each registers a provider from its ``AppConfig.ready()``. A
provider takes the tournament and returns the section's HTML, rendered and escaped by its own
template; the report page shows the sections in the order they were registered, before the counts.
"""

from collections.abc import Callable

from django.utils.safestring import SafeString

from tournaments.models import Tournament

SectionProvider = Callable[[Tournament], SafeString]

_providers: list[SectionProvider] = []


def register_section(provider: SectionProvider) -> None:
    if provider not in _providers:
        _providers.append(provider)


def extra_sections(*, tournament: Tournament) -> list[SafeString]:
    return [provider(tournament) for provider in _providers]
