"""Lines an app above this one adds to a match's history on its result screen.

The result screen shows the match's own history (its corrections); an app above (``floor``: the
players' reports and confirmations) registers a source from ``AppConfig.ready()``, so the import
still runs one way. A source reads; nothing here writes.
"""

import datetime
from collections.abc import Callable
from dataclasses import dataclass

from tournaments.models import Match


@dataclass(frozen=True)
class HistoryLine:
    at: datetime.datetime
    title: str
    detail: str


Source = Callable[[Match], list[HistoryLine]]

_sources: dict[str, Source] = {}


def register(key: str, source: Source) -> None:
    """Add (or replace, on a second ``ready()``) a source of history lines."""
    _sources[key] = source


def lines(match: Match) -> list[HistoryLine]:
    """Every registered source's lines for the match, oldest first."""
    found = [line for source in _sources.values() for line in source(match)]
    return sorted(found, key=lambda line: line.at)
