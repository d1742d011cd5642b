"""The players' pages' one write: a change they must show (``PublicChange``).

The pages' server (``floor/public_pages.py``) keeps each link's latest change in the ``public``
cache for a second, so that a phone's request needs no query; a change made in this process
forgets it at once, and one made in another server process is seen within that second.
"""

from collections.abc import Callable

from django.core.cache import caches

from tournaments.models import PublicChange

# How long a server process trusts the latest change it read, in seconds.
STAMP_SECONDS = 1.0


def stamp_key(token: str) -> str:
    """The cache key of a link's latest change."""
    return f"players-pages-stamp:{token}"


def token_key(tournament_id: int) -> str:
    """The cache key of the link whose latest change this process keeps, by tournament."""
    return f"players-pages-token:{tournament_id}"


def forget_public_stamp(*, tournament_id: int) -> None:
    """Let the next request of this process read the tournament's latest change again."""
    cache = caches["public"]
    token = cache.get(token_key(tournament_id))
    if token is not None:
        cache.delete(stamp_key(token))


def mark_public_change(*, tournament_id: int) -> None:
    """Say that the players' pages of the tournament show something out of date; the next
    phone that asks gets pages built anew. Call it inside the writer's transaction: the mark
    commits, or rolls back, with the change itself."""
    PublicChange.objects.create(tournament_id=tournament_id)
    forget_public_stamp(tournament_id=tournament_id)


# The live event the bracket's pages listen for (``sse:bracket-changed``): a playoff match got a
# game, ended, was corrected or got its named winner, or a playoff round was published.
BRACKET_CHANGED = "bracket-changed"

type Announcer = Callable[..., None]
_announcers: list[Announcer] = []


def register_announcer(announcer: Announcer) -> None:
    """The live updates (``judging.live.publish_event``, keyword arguments ``tournament_id`` and
    ``event``) are handed in by the judging app at start-up: this app does not import it."""
    if announcer not in _announcers:
        _announcers.append(announcer)


def announce_bracket_change(*, tournament_id: int) -> None:
    """Tell the open bracket pages to re-fetch it, once the writer's transaction commits (the
    announcer delivers on commit); the players' pages get a change mark as well."""
    mark_public_change(tournament_id=tournament_id)
    for announcer in _announcers:
        announcer(tournament_id=tournament_id, event=BRACKET_CHANGED)
