"""The players' pages as prepared bytes: built once per change, served to every phone.

What every phone of a round sees is the same (the pairings a page at a time, the clock, the
published standings), so it is rendered once, compressed once, and kept in the ``public`` cache
(settings.CACHES) under a key that names the tournament's link, the latest change the pages must
show (``tournaments.models.PublicChange``), the standings published and the language. A change
makes a new key; the old pages are never read again and the cache drops them as it fills.

A phone's request then costs one small query (the link and its latest change) and a cache read:
no template, no list of the round. The clock carries no "now" of its own, since the bytes outlive
the moment they were built: the browser takes the server's time from the ``Date`` header of its
clock's poll (``static/js/floor.js``).
"""

import datetime
import gzip
import hashlib
from dataclasses import dataclass

from django.core.cache import BaseCache, caches
from django.db.models import OuterRef, Subquery
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language

from floor import selectors
from floor.forms import PlayerSearchForm
from floor.models import PublicPages
from tournaments import playoff_selectors
from tournaments.models import PublicChange, Tournament
from tournaments.selectors import latest_round, standings
from tournaments.services.pages import STAMP_SECONDS, stamp_key, token_key

# Rows a page of pairings or standings shows: a phone's screen or two, whatever the event's size.
PAGE_SIZE = 100
# A search by name shows at most this many players; a longer list asks for more of the name.
SEARCH_LIMIT = 30
# Phones re-read the clock this often (the countdown itself runs in the browser).
CLOCK_POLL_SECONDS = 20
# How often a phone showing the bracket asks for it again (a 304 while nothing changed); a
# playoff result reaches it at once over the players' stream (``public_views.public_events``).
PLAYOFF_POLL_SECONDS = 20

# Bytes are kept at most this long; a change replaces them long before, under a new key.
KEEP_SECONDS = 3600


def _cache() -> BaseCache:
    return caches["public"]


@dataclass(frozen=True)
class Stamp:
    """What the players' pages of one link show, as of the latest change."""

    token: str
    tournament_id: int
    change: int
    standings_through: int | None

    def key(self, *parts: object, language: str | None = None) -> str:
        # The language is the request's (LocaleMiddleware): a page in Russian and its English
        # copy are two entries.
        return ":".join(
            str(part)
            for part in (
                "players-pages",
                self.token,
                self.change,
                self.standings_through,
                language or get_language(),
                *parts,
            )
        )


def cached_stamp(token: str) -> Stamp | None:
    """The link's latest change if this process read it less than a second ago."""
    stamp: Stamp | None = _cache().get(stamp_key(token))
    return stamp


def page_number(value: str) -> int:
    """The page a phone asks for: 1 for anything that is no page number (a word, «²», zero), and
    a typed number too long to be one (thousands of digits) is the last page a list can have."""
    digits = value.lstrip("0") if value.isascii() and value.isdecimal() else ""
    if not digits:
        return 1
    return 100_000 if len(digits) > 6 else min(int(digits), 100_000)


def page_key(stamp: Stamp, kind: str, query: str, page: str, language: str | None = None) -> str:
    """The cache key of the page a request asks for (``kind``: home, clock or standings), the
    same for the view that builds it and the front door that serves it."""
    if kind == "clock":
        return stamp.key("clock", language=language)
    if kind == "standings":
        return stamp.key("standings-page", page_number(page), language=language)
    if query:
        return stamp.key("search", digest_of(fold(query)), language=language)
    return stamp.key("home", page_number(page), language=language)


def stamp_of(token: str) -> Stamp | None:
    """The link's tournament and its latest change; None for an unknown link.

    Read from the cache when this process read it less than ``STAMP_SECONDS`` ago (a change
    made here forgets it at once: ``tournaments.services.pages``), else in one query."""
    if not token or len(token) > 40:
        return None
    cache = _cache()
    stamp: Stamp | None = cache.get(stamp_key(token))
    if stamp is None:
        stamp = _read_stamp(token)
        if stamp is not None:
            cache.set(token_key(stamp.tournament_id), token, KEEP_SECONDS)
            cache.set(stamp_key(token), stamp, STAMP_SECONDS)
    return stamp


def _read_stamp(token: str) -> Stamp | None:
    latest = PublicChange.objects.filter(tournament_id=OuterRef("tournament_id")).order_by("-id")
    row = (
        PublicPages.objects.filter(token=token)
        .annotate(change=Subquery(latest.values("id")[:1]))
        .values_list("tournament_id", "change", "standings_through")
        .first()
    )
    if row is None:
        return None
    tournament_id, change, through = row
    return Stamp(token, tournament_id, change or 0, through)


@dataclass(frozen=True)
class Prepared:
    """A page's bytes, plain and gzip-compressed, with its validators."""

    plain: bytes
    compressed: bytes
    digest: str
    built_at: datetime.datetime

    @classmethod
    def of(cls, html: str) -> "Prepared":
        plain = html.encode()
        # mtime=0: the same page compresses to the same bytes whenever it is built.
        compressed = gzip.compress(plain, compresslevel=6, mtime=0)
        digest = hashlib.blake2b(plain, digest_size=12).hexdigest()
        return cls(plain, compressed, digest, timezone.now().replace(microsecond=0))


def cached_page(key: str) -> Prepared | None:
    """The page under ``key`` if it is built already: no database, no template."""
    page: Prepared | None = _cache().get(key)
    return page


def keep(key: str, page: Prepared) -> None:
    _cache().set(key, page, KEEP_SECONDS)


# What a page is built from -----------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """A player of the round with their table and opponent (None: a bye)."""

    name: str
    table: int | None
    opponent: str | None


def fold(text: str) -> str:
    """Text as a search compares it: case and «ё» do not matter."""
    return text.casefold().replace("ё", "е")


def _lines(stamp: Stamp) -> tuple[int | None, list[Line]]:
    """The latest round's number and its players by name: read once per change."""

    def build() -> tuple[int | None, list[Line]]:
        tournament = Tournament(pk=stamp.tournament_id)
        round_ = latest_round(tournament=tournament)
        if round_ is None:
            return None, []
        lines = [
            Line(line.name, line.table, line.opponent)
            for line in selectors.public_pairings(round_=round_)
        ]
        return round_.number, lines

    key = stamp.key("lines")
    cache = _cache()
    found = cache.get(key)
    if found is None:
        found = build()
        cache.set(key, found, KEEP_SECONDS)
    return found


def _clock_context(stamp: Stamp, tournament: Tournament | None = None) -> dict[str, object]:
    if tournament is None:
        tournament = Tournament.objects.get(pk=stamp.tournament_id)
    return {
        "time": selectors.round_time(tournament=tournament),
        "poll": CLOCK_POLL_SECONDS,
        "token": stamp.token,
        # The bytes outlive the moment they are built: the page carries no "now".
        "prepared": True,
    }


@dataclass(frozen=True)
class PageLinks:
    number: int
    count: int

    @property
    def has_previous(self) -> bool:
        return self.number > 1

    @property
    def has_next(self) -> bool:
        return self.number < self.count

    @property
    def previous(self) -> int:
        return self.number - 1

    @property
    def next(self) -> int:
        return self.number + 1


def page_count(total: int) -> int:
    return max(1, -(-total // PAGE_SIZE))


def _base_context(stamp: Stamp) -> dict[str, object]:
    home = reverse("floor:public", args=[stamp.token])
    tournament = Tournament.objects.get(pk=stamp.tournament_id)
    return {
        "playoff_url": reverse("floor:public-playoff", args=[stamp.token])
        if tournament.rounds.filter(playoff=True).exists()
        else "",
        **_clock_context(stamp, tournament),
        "tournament_name": tournament.name,
        "home_url": home,
        "tables_url": f"{home}tables/",
        "standings_url": f"{home}standings/",
        "standings_through": stamp.standings_through,
    }


def home_page(stamp: Stamp, number: int) -> Prepared:
    """One page of the round's pairings by name, with the clock."""
    round_number, lines = _lines(stamp)
    links = PageLinks(min(number, page_count(len(lines))), page_count(len(lines)))
    start = (links.number - 1) * PAGE_SIZE
    context = {
        **_base_context(stamp),
        "round_number": round_number,
        "rows": lines[start : start + PAGE_SIZE],
        "pages": links if links.count > 1 else None,
        "query": "",
    }
    return Prepared.of(render_to_string("floor/public_home.html", context))


def digest_of(text: str) -> str:
    """A short fixed-length name for a search in a cache key."""
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def search_page(stamp: Stamp, query: str) -> Prepared:
    """The players whose name holds the query: their own lines, never the whole round."""
    folded = fold(query)
    round_number, lines = _lines(stamp)
    found = [line for line in lines if folded in fold(line.name)]
    context = {
        **_base_context(stamp),
        "round_number": round_number,
        "rows": found[:SEARCH_LIMIT],
        "more": len(found) > SEARCH_LIMIT,
        "pages": None,
        "query": query,
    }
    return Prepared.of(render_to_string("floor/public_home.html", context))


def refused_search(stamp: Stamp, form: PlayerSearchForm) -> str:
    """The first page again with the search's error (bad input: built for this request only)."""
    round_number, _lines_of_round = _lines(stamp)
    context = {
        **_base_context(stamp),
        "round_number": round_number,
        "rows": [],
        "pages": None,
        "query": "",
        "errors": form.errors.get("q", []),
    }
    return render_to_string("floor/public_home.html", context)


def clock_fragment(stamp: Stamp) -> Prepared:
    return Prepared.of(render_to_string("floor/_public_clock.html", _clock_context(stamp)))


@dataclass(frozen=True)
class StandingLine:
    rank: int
    name: str
    points: int


def standings_page(stamp: Stamp, number: int) -> Prepared:
    """One page of the published standings (the caller checks that some are published)."""
    through = stamp.standings_through

    def lines() -> list[StandingLine]:
        key = stamp.key("standings")
        cache = _cache()
        found: list[StandingLine] | None = cache.get(key)
        if found is None:
            table = standings(tournament=Tournament(pk=stamp.tournament_id), through_round=through)
            found = [
                StandingLine(rank, row.registration.player.name, row.standing.points)
                for rank, row in enumerate(table, start=1)
            ]
            cache.set(key, found, KEEP_SECONDS)
        return found

    rows = lines()
    links = PageLinks(min(number, page_count(len(rows))), page_count(len(rows)))
    start = (links.number - 1) * PAGE_SIZE
    context = {
        **_base_context(stamp),
        "rows": rows[start : start + PAGE_SIZE],
        "pages": links if links.count > 1 else None,
    }
    return Prepared.of(render_to_string("floor/public_standings.html", context))


def playoff_page(stamp: Stamp, block: int) -> Prepared:
    """A block of the playoff's bracket (the whole of a top 16 or smaller), with the clock; the
    page asks for itself again now and then (a 304 while nothing changed)."""
    tournament = Tournament(pk=stamp.tournament_id)
    bracket = playoff_selectors.playoff_bracket(tournament=tournament, block=block)
    if bracket.blocks and bracket.block >= bracket.blocks:
        bracket = playoff_selectors.playoff_bracket(tournament=tournament, block=0)
    context = {
        **_base_context(stamp),
        "bracket": bracket,
        "staff": False,
        "poll": PLAYOFF_POLL_SECONDS,
        # The players' live stream: a playoff result re-fetches the bracket at once.
        "events_url": reverse("floor:public-events", args=[stamp.token]),
    }
    return Prepared.of(render_to_string("floor/public_playoff.html", context))
