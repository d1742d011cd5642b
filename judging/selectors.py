"""Reads about guideline editions and penalty records."""

import datetime
from dataclasses import dataclass
from typing import Any, TypedDict

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import (
    Exists,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
)
from django.utils.translation import gettext as _

from core.errors import DomainError
from core.people import display_name
from core.rows import IdLink, clock_text
from judging import stacking
from judging.explanations import explain
from judging.models import (
    AcknowledgementKind,
    Availability,
    ChangeKind,
    GuidelineEdition,
    Infraction,
    InvestigationStatement,
    PenaltyAcknowledgement,
    PenaltyChange,
    PenaltyRecord,
    PenaltyRecordQuerySet,
    RecordStatus,
    TournamentGuideline,
    clock_was_off,
)
from judging.penalties import AppliesTo, Rank
from judging.plain_reads import infraction_by_code
from judging.record_state import STATE_VALUES, RecordState, state_from_values
from players.models import search_text
from tournaments import selectors as tournament_selectors
from tournaments.models import Game, Level, Match, Registration, Round, Tournament

SHIPPED_EDITION_SLUG = "berserk-heroes-penalty-guideline"


def edition_for(*, tournament: Tournament) -> GuidelineEdition:
    assigned = TournamentGuideline.objects.filter(tournament=tournament).select_related("edition")
    for row in assigned:
        return row.edition
    return GuidelineEdition.objects.get(slug=SHIPPED_EDITION_SLUG)


def unavailability(*, infraction: Infraction, tournament: Tournament) -> str | None:
    """Why the infraction cannot be issued in this tournament, or None when it can (rules.md §3)."""
    if infraction.availability == Availability.DECKLISTS and not tournament.uses_decklists:
        return _("Infraction %(code)s applies only to tournaments that use deck lists.") % {
            "code": infraction.code
        }
    if infraction.availability == Availability.NO_DECKLISTS and tournament.uses_decklists:
        return _("Infraction %(code)s applies only to tournaments without deck lists.") % {
            "code": infraction.code
        }
    if infraction.base_penalty(tournament.level) is None:
        return _("Infraction %(code)s has no penalty at the %(level)s level.") % {
            "code": infraction.code,
            "level": Level(tournament.level).label,
        }
    return None


def available_infractions(*, tournament: Tournament) -> list[Infraction]:
    """The infractions a judge may issue in this tournament, in guideline order."""
    edition = edition_for(tournament=tournament)
    infractions = [
        infraction
        for infraction in Infraction.objects.filter(edition=edition)
        if unavailability(infraction=infraction, tournament=tournament) is None
    ]
    return sorted(infractions, key=lambda infraction: infraction.sort_key)


def issuable_infraction(*, tournament: Tournament, code: str) -> Infraction:
    """The infraction with that code, if a judge may issue it here; otherwise a clear refusal.

    One statement, in plain SQL (``judging.plain_reads``): the edition is found inside it (a
    tournament's edition changes when its first infraction is added, so it is not kept between
    requests)."""
    infraction = infraction_by_code(tournament.pk, code.strip(), SHIPPED_EDITION_SLUG)
    if infraction is None:
        raise DomainError(
            "unknown_infraction",
            _("There is no infraction %(code)s in the guideline of this tournament.")
            % {"code": code},
        )
    refusal = unavailability(infraction=infraction, tournament=tournament)
    if refusal is not None:
        raise DomainError("infraction_unavailable", refusal)
    return infraction


@dataclass(frozen=True)
class PlayerForRuling:
    """What a ruling needs of the player: the registration with its player, whether they play a
    match now, and the penalties they hold, oldest first."""

    registration: Registration
    in_match: bool
    held: tuple[stacking.HeldPenalty, ...]


def player_for_ruling(*, tournament: Tournament, pk: int) -> PlayerForRuling | None:
    """The tournament's registration of that id, with what a ruling needs of it; None when the
    tournament has no such registration. The preview runs it on every change of the form: two
    queries, the player with whether they play, and the penalties they hold."""
    registration = (
        Registration.objects.filter(pk=pk, tournament=tournament)
        .select_related("player")
        .annotate(in_match=Exists(tournament_selectors.matches_in_play(OuterRef("pk"))))
        .first()
    )
    if registration is None:
        return None
    registration.tournament = tournament
    return PlayerForRuling(
        registration=registration,
        in_match=registration.in_match,
        held=tuple(penalties_held(registration=registration)),
    )


def penalties_held(*, registration: Registration) -> list[stacking.HeldPenalty]:
    """The player's penalties in force in this tournament, oldest first, as stacking sees them
    (one query of the columns stacking reads)."""
    held = (
        PenaltyRecord.objects.in_force()
        .filter(registration=registration)
        .order_by("id")
        .values_list(*HELD_COLUMNS)
    )
    return [held_penalty(*columns) for columns in held]


def held_penalty(
    pk: int, rank: int, reason: str | None, round_number: int | None, stacked_into: int | None
) -> stacking.HeldPenalty:
    """A penalty in force as stacking sees it, from its columns."""
    return stacking.HeldPenalty(
        id=pk,
        rank=Rank(rank),
        reason=reason,
        round_number=round_number,
        stacked=stacked_into is not None,
    )


# The columns of a penalty held that stacking reads (``held_penalty``), from a record's own row.
HELD_COLUMNS = ("id", "rank", "reason", "round__number", "stacked_into_id")


# What ``PenaltyRecord.state`` reads beyond the record's own row (a served game's number, a served
# match's round): every selector of records to show selects it, so a list costs no query per record.
STATE_RELATED = ("served_game", "served_match__round")


def records_of(*, registration: Registration) -> PenaltyRecordQuerySet:
    return (
        PenaltyRecord.objects.filter(registration=registration)
        .select_related("infraction", "round", "issued_by", *STATE_RELATED)
        .order_by("id")
    )


def penalties_in_force(*, registration: Registration) -> QuerySet[PenaltyRecord]:
    return records_of(registration=registration).in_force()


def pending_losses(*, registration: Registration) -> QuerySet[PenaltyRecord]:
    return records_of(registration=registration).pending_losses()


@dataclass(frozen=True)
class PlayerAtGlance:
    """A player as a floor judge needs them at a table: match, opponent, penalties so far."""

    registration: Registration
    match: Match | None
    penalties: list[PenaltyRecord]

    @property
    def table(self) -> int | None:
        return self.match.table if self.match else None

    @property
    def opponent(self) -> Registration | None:
        if self.match is None:
            return None
        return self.match.opponent_of(self.registration)

    @property
    def score(self) -> str:
        """The match score from this player's side ("2–1"); empty without a match or at a bye."""
        if self.match is None or self.match.is_bye or self.opponent is None:
            return ""
        return f"{self.match.wins_of(self.registration)}–{self.match.wins_of(self.opponent)}"


GLANCE_PAGE_SIZE = 30

# A name search that finds at most this many players sorts them by table here, after reading
# their matches by the players' own indexes; one that finds more (the first letter or two typed)
# walks the round's tables in order and stops at the end of its page.
FEW_FOUND = 100


@dataclass(frozen=True, order=True)
class GlanceKey:
    """A player's place in the glance list: those at a table first, by table and then by name;
    then those without one (a bye, not paired, dropped), by name. The registration's id breaks
    ties between namesakes."""

    after_tables: bool
    table: int
    name: str
    pk: int

    @classmethod
    def of(cls, table: int | None, name: str, pk: int) -> "GlanceKey":
        return cls(after_tables=table is None, table=table or 0, name=name, pk=pk)


@dataclass(frozen=True)
class GlancePage:
    """One page of players found: bounded whatever the size of the event. Its neighbours are
    reached from its first and last players (``before`` and ``after``), never by counting the
    players ahead of it."""

    rows: list[PlayerAtGlance]
    has_previous: bool
    has_next: bool

    @property
    def first(self) -> int | None:
        return self.rows[0].registration.pk if self.rows else None

    @property
    def last(self) -> int | None:
        return self.rows[-1].registration.pk if self.rows else None


def players_at_glance(
    *,
    tournament: Tournament,
    query: str = "",
    after: int | None = None,
    before: int | None = None,
    page_size: int = GLANCE_PAGE_SIZE,
) -> GlancePage:
    """Players of the tournament found by table number or part of a name (all of them without a
    query), in table order, one page at a time: the page after the player ``after`` or the one
    before the player ``before``; the first page without either, or when that player is not one
    of this tournament's.

    A handful of queries whatever the number of players or penalties: the latest round, the
    cursor player's place, one page of players, their matches and their penalties in force. The
    start page and a search that finds many walk the round's tables from the cursor's table (an
    index on the round and the table) and stop at the page's end; a table number or a name that
    finds few reads just those players. Only a page that reaches past the tables reads the
    players without one, which means looking at every registration once.
    """
    latest = Round.objects.filter(tournament=tournament).order_by("-number").first()
    backward = before is not None and after is None
    cursor = before if backward else after
    key = _key_of(tournament, latest, cursor) if cursor is not None else None
    if key is None:
        backward = False
    query = query.strip()
    keys = _glance_keys(tournament, latest, query, key, page_size + 1, backward)
    if key is not None and (not keys or (backward and len(keys) < page_size)):
        # Nothing after the cursor (the list changed under it), or less than a page before it:
        # the first page, rather than an empty or a short one.
        key, backward = None, False
        keys = _glance_keys(tournament, latest, query, None, page_size + 1, False)
    if backward:
        has_previous, has_next = len(keys) > page_size, True
        keys = keys[:page_size][::-1]
    else:
        has_previous, has_next = key is not None, len(keys) > page_size
        keys = keys[:page_size]
    rows = _glance_rows(latest, [found.pk for found in keys])
    return GlancePage(rows=rows, has_previous=has_previous, has_next=has_next)


def player_at_glance(*, tournament: Tournament, registration: Registration) -> PlayerAtGlance:
    """One player with their match in the latest round and penalties: reads that match only."""
    latest = Round.objects.filter(tournament=tournament).order_by("-number").first()
    (row,) = _glance_rows(latest, [registration.pk])
    return row


def _glance_keys(
    tournament: Tournament,
    latest: Round | None,
    query: str,
    key: GlanceKey | None,
    count: int,
    backward: bool,
) -> list[GlanceKey]:
    """Up to ``count`` places after ``key`` in list order (before it, nearest first, when
    ``backward``) of the players the query finds."""
    if query.isdecimal():
        return _beyond(_at_table(latest, int(query)), key, count, backward)
    if not query:
        return _walk(tournament, latest, key, count, backward, needle=None)
    needle = search_text(query)
    found = list(
        # No order: a sort would read every find before the limit.
        Registration.objects.filter(tournament=tournament, player__search_text__contains=needle)
        .order_by()
        .values_list("pk", "player__name")[: FEW_FOUND + 1]
    )
    if len(found) > FEW_FOUND:
        return _walk(tournament, latest, key, count, backward, needle=needle)
    where = _latest_matches(latest, [pk for pk, _name in found])
    tables = {pk: table for pk, (_match, table) in where.items()}
    places = sorted(GlanceKey.of(tables.get(pk), name, pk) for pk, name in found)
    return _beyond(places, key, count, backward)


def _beyond(
    places: list[GlanceKey], key: GlanceKey | None, count: int, backward: bool
) -> list[GlanceKey]:
    """``count`` of the sorted places after ``key`` (or before it, nearest first)."""
    if key is None:
        return places[:count]
    if backward:
        return [place for place in reversed(places) if place < key][:count]
    return [place for place in places if place > key][:count]


# Larger than any table: a longer number typed in the search box finds nobody rather than
# overflowing the database's integers.
MAX_TABLE = 1_000_000


def _at_table(latest: Round | None, table: int) -> list[GlanceKey]:
    """The players at that table of the latest round, by name (one index look-up)."""
    if latest is None or table > MAX_TABLE:
        return []
    at_table = Match.objects.filter(round=latest, table=table).values_list(
        "player1_id", "player1__player__name", "player2_id", "player2__player__name"
    )
    return sorted(
        GlanceKey.of(table, name, pk)
        for first, first_name, second, second_name in at_table
        for pk, name in ((first, first_name), (second, second_name))
        if pk is not None
    )


def _walk(
    tournament: Tournament,
    latest: Round | None,
    key: GlanceKey | None,
    count: int,
    backward: bool,
    needle: str | None,
) -> list[GlanceKey]:
    """``count`` places after ``key`` (before it, nearest first, when ``backward``) of every
    player, or of those whose search text holds ``needle``: the round's tables in order from
    the key's table, then the players without a table (backward: the other way round)."""
    after_tables = key is not None and key.after_tables
    places: list[GlanceKey] = []
    if not backward:
        exhausted = True
        if latest is not None and not after_tables:
            places, exhausted = _walk_tables(latest, key, count, backward, needle)
        if exhausted:
            places += _walk_untabled(tournament, latest, key, count - len(places), backward, needle)
        return places
    if after_tables:
        places = _walk_untabled(tournament, latest, key, count, backward, needle)
    if len(places) < count and latest is not None:
        places += _walk_tables(latest, key, count - len(places), backward, needle)[0]
    return places


def _walk_tables(
    latest: Round,
    key: GlanceKey | None,
    count: int,
    backward: bool,
    needle: str | None,
) -> tuple[list[GlanceKey], bool]:
    """Up to ``count`` places at the round's tables beyond ``key``, and whether the tables ran
    out before the count was reached."""
    tables = Match.objects.filter(round=latest, table__isnull=False)
    if key is not None and not key.after_tables:
        tables = (
            tables.filter(table__lte=key.table) if backward else tables.filter(table__gte=key.table)
        )
    if needle is not None:
        tables = tables.filter(
            Q(player1__player__search_text__contains=needle)
            | Q(player2__player__search_text__contains=needle)
        )
    # Every table read gives at least one place, except the key's own table: one table more
    # than the count fills the page.
    rows = tables.order_by(*(("-table", "-id") if backward else ("table", "id"))).values_list(
        "table",
        "player1_id",
        "player1__player__name",
        "player1__player__search_text",
        "player2_id",
        "player2__player__name",
        "player2__player__search_text",
    )[: count + 1]
    places: list[GlanceKey] = []
    for table, first, first_name, first_text, second, second_name, second_text in rows:
        at_table = sorted(
            GlanceKey.of(table, name, pk)
            for pk, name, text in (
                (first, first_name, first_text),
                (second, second_name, second_text),
            )
            if pk is not None and (needle is None or needle in text)
        )
        if backward:
            at_table.reverse()
        places += [
            place for place in at_table if key is None or (place < key if backward else place > key)
        ]
    return places[:count], len(rows) <= count


def _walk_untabled(
    tournament: Tournament,
    latest: Round | None,
    key: GlanceKey | None,
    count: int,
    backward: bool,
    needle: str | None,
) -> list[GlanceKey]:
    """Up to ``count`` players without a table in the latest round beyond ``key``, by name."""
    if count <= 0:
        return []
    rest = Registration.objects.filter(tournament=tournament)
    if latest is not None:
        # Each side of the round's tables read once (a list the database keeps while it reads
        # the registrations), not looked up again for each registration.
        tables = Match.objects.filter(round=latest, table__isnull=False)
        rest = rest.exclude(pk__in=tables.values("player1_id")).exclude(
            pk__in=tables.filter(player2__isnull=False).values("player2_id")
        )
    if needle is not None:
        rest = rest.filter(player__search_text__contains=needle)
    if key is not None and key.after_tables:
        if backward:
            rest = rest.filter(
                Q(player__name__lt=key.name) | Q(player__name=key.name, pk__lt=key.pk)
            )
        else:
            rest = rest.filter(
                Q(player__name__gt=key.name) | Q(player__name=key.name, pk__gt=key.pk)
            )
    order = ("-player__name", "-pk") if backward else ("player__name", "pk")
    return [
        GlanceKey.of(None, name, pk)
        for pk, name in rest.order_by(*order).values_list("pk", "player__name")[:count]
    ]


def _key_of(tournament: Tournament, latest: Round | None, pk: int) -> GlanceKey | None:
    """The place of the tournament's registration ``pk`` in the list, or None when the
    tournament has no such registration (a cursor from another page, or made up)."""
    name = (
        Registration.objects.filter(tournament=tournament, pk=pk)
        .values_list("player__name", flat=True)
        .first()
    )
    if name is None:
        return None
    match = _latest_matches(latest, [pk]).get(pk)
    return GlanceKey.of(match[1] if match else None, name, pk)


def _latest_matches(latest: Round | None, ids: list[int]) -> dict[int, tuple[int, int | None]]:
    """The match id and table of each of these players in the latest round, by registration.

    Read by each side's index over every round the players played, one side at a time, and kept
    for the latest round here. A test of the round in the query lets SQLite read the whole round
    instead (it knows no more of the indexes than that each picks out rows), and one test of
    both sides lets PostgreSQL read every match."""
    if latest is None or not ids:
        return {}
    columns = ("pk", "round_id", "table", "player1_id", "player2_id")
    sides = Match.objects.order_by().filter(player1_id__in=ids).values_list(*columns)
    sides = sides.union(
        Match.objects.order_by().filter(player2_id__in=ids).values_list(*columns), all=True
    )
    found: dict[int, tuple[int, int | None]] = {}
    for match, round_id, table, first, second in sides:
        if round_id == latest.pk:
            found[first] = (match, table)
            if second is not None:
                found[second] = (match, table)
    return found


def _glance_rows(latest: Round | None, ids: list[int]) -> list[PlayerAtGlance]:
    """The players of these registrations with their match in the latest round and their
    penalties in force, in the order given; each read by the rows' own keys. A player with a
    match comes with it, so only those without one are read on their own."""
    if not ids:
        return []
    where = _latest_matches(latest, ids)
    matches = Match.objects.select_related("player1__player", "player2__player").in_bulk(
        {match for match, _table in where.values()}
    )
    registrations: dict[int, Registration] = {}
    for match in matches.values():
        for side in (match.player1, match.player2):
            if side is not None:
                registrations[side.pk] = side
    unmatched = [pk for pk in ids if pk not in registrations]
    if unmatched:
        registrations.update(Registration.objects.select_related("player").in_bulk(unmatched))
    penalties: dict[int, list[PenaltyRecord]] = {pk: [] for pk in ids}
    for record in (
        PenaltyRecord.objects.in_force()
        .filter(registration_id__in=ids)
        .select_related("infraction")
        .order_by("id")
    ):
        penalties[record.registration_id].append(record)
    return [
        PlayerAtGlance(
            registration=registrations[pk],
            match=matches[where[pk][0]] if pk in where else None,
            penalties=penalties[pk],
        )
        for pk in ids
    ]


def records_issued_by(*, tournament: Tournament, user: User) -> QuerySet[PenaltyRecord, Any]:
    """The judge's records in the tournament, newest first (an index on the tournament, the
    judge and the id: a page reads its own rows only), as the columns a row of «My penalties»
    shows and its state reads (``MINE_VALUES``): plain values, no model instances (five per row
    with the rows joined), and no infraction's texts, explanation or note (issue 29)."""
    return (
        PenaltyRecord.objects.filter(tournament=tournament, issued_by=user)
        .order_by("-id")
        .values(*MINE_VALUES)
    )


MINE_VALUES = (
    "id",
    "issued_at",
    "round__number",
    "registration__player__name",
    "infraction__code",
    *STATE_VALUES,
)


class MineRow(TypedDict):
    """A row of «My penalties», in words: a dict, which a template reads without a failed
    attribute lookup, made once per row in Python rather than by tags per row (issue 29)."""

    pk: int
    url: str
    round: str
    player: str
    infraction: str
    rank_key: str
    rank_name: str
    # The record's status and its loss now, as its state words them (``RecordState``).
    status: str
    issued_at: str


@dataclass(frozen=True)
class RecordPage:
    """One page of a judge's records, newest first, with whether newer and older ones exist.
    Its neighbours are reached from its own first and last records, never by counting."""

    records: list[MineRow]
    has_newer: bool
    has_older: bool

    @property
    def newest(self) -> int | None:
        return self.records[0]["pk"] if self.records else None

    @property
    def oldest(self) -> int | None:
        return self.records[-1]["pk"] if self.records else None


def records_issued_page(
    *,
    tournament: Tournament,
    user: User,
    older_than: int | None = None,
    newer_than: int | None = None,
    page_size: int,
) -> RecordPage:
    """The page of the judge's records older than the record ``older_than`` (or the one newer
    than ``newer_than``); the newest page without either, or when the other side of the cursor
    has less than a page (a cursor made up or a list that changed shows a full page)."""
    records = records_issued_by(tournament=tournament, user=user)

    def page(values: list[dict[str, Any]], *, has_newer: bool, has_older: bool) -> RecordPage:
        return RecordPage(
            records=_mine_rows(values, tournament=tournament),
            has_newer=has_newer,
            has_older=has_older,
        )

    if newer_than is not None and older_than is None:
        newer = list(records.filter(pk__gt=newer_than).order_by("id")[: page_size + 1])
        if len(newer) >= page_size:
            found = newer[:page_size][::-1]
            return page(
                found,
                has_newer=len(newer) > page_size,
                has_older=records.filter(pk__lt=found[-1]["id"]).exists(),
            )
    elif older_than is not None:
        older = list(records.filter(pk__lt=older_than)[: page_size + 1])
        if older:
            return page(
                older[:page_size],
                has_newer=records.filter(pk__gt=older[0]["id"]).exists(),
                has_older=len(older) > page_size,
            )
    newest = list(records[: page_size + 1])
    return page(newest[:page_size], has_newer=False, has_older=len(newest) > page_size)


def _mine_rows(values: list[dict[str, Any]], *, tournament: Tournament) -> list[MineRow]:
    """The records as «My penalties» shows them. The link is reversed and «Round N» translated
    once for the page, not per row (``core.rows``); the time is the local time of the record's
    issue, as ``|time:"H:i"`` showed it (``clock_text``); what the record does now is its state
    (``state_from_values``), worded by ``RecordState``."""
    link = IdLink("judging:record", tournament.slug)
    round_label = _("Round %(n)s")
    rows: list[MineRow] = []
    for value in values:
        state = state_from_values(value)
        loss = state.loss_text
        number = value["round__number"]
        rows.append(
            MineRow(
                pk=value["id"],
                url=link(value["id"]),
                round="" if number is None else round_label % {"n": number},
                player=value["registration__player__name"],
                infraction=value["infraction__code"] or "",
                rank_key=state.rank_key,
                rank_name=state.rank_name,
                status=f"{state.status_label} · {loss}" if loss else state.status_label,
                issued_at=clock_text(value["issued_at"]),
            )
        )
    return rows


def record_for_card(*, tournament: Tournament, record_id: int) -> PenaltyRecord | None:
    return (
        PenaltyRecord.objects.filter(tournament=tournament, pk=record_id)
        .select_related(
            "registration__player",
            "infraction",
            "round",
            "issued_by",
            "acknowledgement__recorded_by",
            *STATE_RELATED,
        )
        .first()
    )


def infraction_sections(*, infractions: list[Infraction]) -> list[tuple[str, list[Infraction]]]:
    """Infractions grouped by their section, as the guideline lists them."""
    sections: dict[str, list[Infraction]] = {}
    for infraction in infractions:
        # An added infraction's section may have no name: it still gets a readable title.
        name = infraction.section_name or _("Section %(number)s") % {"number": infraction.section}
        title = f"{infraction.section}. {name}" if infraction.section_name else name
        sections.setdefault(title, []).append(infraction)
    return list(sections.items())


@dataclass(frozen=True)
class LogFilters:
    round: int | None = None
    judge: int | None = None
    player: int | None = None
    rank: int | None = None
    status: str = ""
    player_name: str = ""


def penalty_log(*, tournament: Tournament, filters: LogFilters) -> QuerySet[PenaltyRecord]:
    """Every record of the tournament that the filters keep, newest first."""
    records = PenaltyRecord.objects.filter(tournament=tournament).order_by("-id")
    if filters.round is not None:
        records = records.filter(round__number=filters.round)
    if filters.judge is not None:
        records = records.filter(issued_by_id=filters.judge)
    if filters.player is not None:
        records = records.filter(registration_id=filters.player)
    if filters.player_name:
        records = records.filter(
            registration__player__search_text__contains=search_text(filters.player_name)
        )
    if filters.rank is not None:
        records = records.filter(rank=filters.rank)
    if filters.status:
        records = records.filter(status=filters.status)
    return records


@dataclass(frozen=True, slots=True)
class LogRow:
    """One record as the head judge's log shows it, read from its columns: a page of the log
    builds no model instance per record (nor decodes the infraction's texts it does not show)."""

    pk: int
    registration_id: int
    issued_at: datetime.datetime
    tablet_clock_was_off: bool
    # Where it was issued, in words («round 2, table 7»); "" for a record made before round 1.
    where: str
    player: str
    # The infraction's code; "" for a penalty made by stacking, which has none.
    code: str
    sub_item: str
    state: RecordState
    explanation: str
    # The judge who issued it, as the desk names people; "" when the desk issued it itself.
    judge: str
    # The player's answer on the judge's tablet: None when none was recorded.
    answer: str | None

    @property
    def answer_declined(self) -> bool:
        return self.answer == AcknowledgementKind.DECLINED


# The columns a row of the log reads (``LogRow``), beside ``LOG_LOOKUPS`` and the judges' names.
# Only the rows every record has are joined: each join more costs PostgreSQL's planner more than
# the page itself costs to read (twelve tables took it 20 ms to plan, five take 1 ms).
LOG_VALUES = (
    "id",
    "registration_id",
    "issued_at",
    "tablet_clock_skew",
    "round__number",
    "issued_in_match__table",
    "registration__player__name",
    "infraction__code",
    "sub_item",
    "explanation",
    "issued_by_id",
    *(column for column in STATE_VALUES if "__" not in column),
)

# What few records have, looked up for each row of the page instead of joined (see above): the
# player's answer, and the game or the match a loss took.
LOG_LOOKUPS = {
    "answer": Subquery(
        PenaltyAcknowledgement.objects.filter(record_id=OuterRef("pk")).values("kind")
    ),
    "served_game_number": Subquery(
        Game.objects.filter(pk=OuterRef("served_game_id")).values("number")
    ),
    "served_match_round": Subquery(
        Match.objects.filter(pk=OuterRef("served_match_id")).values("round__number")
    ),
}


def _log_rows(records: QuerySet[PenaltyRecord], count: int) -> list[LogRow]:
    """The first ``count`` records as rows: one query for the records, one for their judges."""
    values = list(records.annotate(**LOG_LOOKUPS).values(*LOG_VALUES, *LOG_LOOKUPS)[:count])
    judges = {
        user.pk: display_name(user)
        for user in get_user_model()
        .objects.filter(pk__in={value["issued_by_id"] for value in values})
        .only("username", "first_name", "last_name")
    }
    return [_log_row(value, judges.get(value["issued_by_id"], "")) for value in values]


def _log_row(value: dict[str, Any], judge: str) -> LogRow:
    where = ""
    if value["round__number"]:
        where = _("round %(n)s") % {"n": value["round__number"]}
        if value["issued_in_match__table"]:
            where += ", " + _("table %(n)s") % {"n": value["issued_in_match__table"]}
    state = state_from_values(
        {
            **value,
            "served_game__number": value["served_game_number"],
            "served_match__round__number": value["served_match_round"],
        }
    )
    return LogRow(
        pk=value["id"],
        registration_id=value["registration_id"],
        issued_at=value["issued_at"],
        tablet_clock_was_off=clock_was_off(value["tablet_clock_skew"]),
        where=where,
        player=value["registration__player__name"],
        code=value["infraction__code"] or "",
        sub_item=value["sub_item"],
        state=state,
        explanation=explain(value["explanation"] or None),
        judge=judge,
        answer=value["answer"],
    )


@dataclass(frozen=True)
class LogPage:
    """One page of the log, newest first, with the keys of the pages beside it.

    Pages are keyed by record id rather than numbered: a page reads its own rows and no more,
    however long the log, and a record that arrives while a judge reads an older page does not
    shift that page."""

    rows: list[LogRow]
    # ``after`` shows the page of newer records, ``before`` the page of older ones; None at
    # either end of the log.
    newer: int | None
    older: int | None
    # The ``before`` key that shows this very page again (its live re-fetch); None for the
    # first page, which follows the newest records.
    key: int | None


def penalty_log_page(
    *,
    tournament: Tournament,
    filters: LogFilters,
    size: int,
    before: int | None = None,
    after: int | None = None,
) -> LogPage:
    """The page of the filtered log that holds the ``size`` records just older than ``before``,
    or just newer than ``after``; without either, the newest. A key that leads to no record (an
    old link, a tampered one) and a newer page short of ``size`` records give the first page.

    One query for the first page (the console and its every live re-fetch), two for another."""
    records = penalty_log(tournament=tournament, filters=filters)
    if after is not None:
        newer = _log_rows(records.filter(id__gt=after).order_by("id"), size + 1)
        if len(newer) > size:
            rows = newer[:size][::-1]
            older = rows[-1].pk if records.filter(id__lt=rows[-1].pk).exists() else None
            return LogPage(rows=rows, newer=rows[0].pk, older=older, key=rows[0].pk + 1)
        before = None
    if before is not None:
        rows = _log_rows(records.filter(id__lt=before), size + 1)
        if rows:
            newer_exists = records.filter(id__gt=rows[0].pk).exists()
            return _page_of(rows, size, newer=rows[0].pk if newer_exists else None, key=before)
    return _page_of(_log_rows(records, size + 1), size, newer=None, key=None)


def _page_of(rows: list[LogRow], size: int, *, newer: int | None, key: int | None) -> LogPage:
    """The page from up to ``size + 1`` rows read newest first: the extra row only tells that
    there are older ones."""
    shown = rows[:size]
    older = shown[-1].pk if len(rows) > size else None
    return LogPage(rows=shown, newer=newer, older=older, key=key)


def head_judge_queue(*, tournament: Tournament) -> list[PenaltyRecord]:
    """Requests waiting for the head judge: disqualifications to confirm, revocations asked."""
    return list(
        PenaltyRecord.objects.filter(tournament=tournament)
        .filter(Q(status=RecordStatus.AWAITING_HEAD_JUDGE) | Q(revocation_requested=True))
        .select_related("registration__player", "infraction", "round", "issued_by", *STATE_RELATED)
        .order_by("id")
    )


def record_history(*, record: PenaltyRecord) -> list[PenaltyChange]:
    return list(record.history.select_related("author").order_by("id"))


def statements_of(*, record: PenaltyRecord) -> list[InvestigationStatement]:
    """A disqualification's investigation, in the order it was taken."""
    return list(record.statements.select_related("taken_by").order_by("at", "id"))


# The changes whose reason is the head judge's reasoning for a disqualification: confirming a
# request, or raising a penalty to one.
DECISION_KINDS = (ChangeKind.CONFIRMED, ChangeKind.AMENDED, ChangeKind.DECLINED)


def decision_of(*, record: PenaltyRecord) -> PenaltyChange | None:
    """The head judge's latest decision on the record, with its reasoning, if any."""
    return (
        record.history.filter(kind__in=DECISION_KINDS)
        .select_related("author")
        .order_by("-at", "-id")
        .first()
    )


def player_records_elsewhere(*, registration: Registration) -> list[PenaltyRecord]:
    """The player's records in other tournaments, newest first: repeat offenders across events."""
    return list(
        PenaltyRecord.objects.filter(registration__player_id=registration.player_id)
        .exclude(tournament_id=registration.tournament_id)
        .select_related("tournament", "infraction", "round", *STATE_RELATED)
        .order_by("-tournament__date", "-id")
    )


def served_loss_to_correct(*, record: PenaltyRecord) -> int | None:
    """The match whose result still holds a loss this record served but no longer costs (it was
    revoked, or lowered below that loss), or None. A served loss stays in the results until the
    head judge corrects them (rules.md §4, §6), so the revocation or amendment offers that
    match's correction at once."""
    if record.served_match_id is not None and record.applies_to in (
        AppliesTo.CURRENT_MATCH,
        AppliesTo.NEXT_MATCH,
    ):
        kept = record.status == RecordStatus.IN_FORCE and record.rank >= Rank.MATCH_LOSS
        return None if kept else record.served_match_id
    if record.served_game_id is not None:
        kept = record.status == RecordStatus.IN_FORCE and record.rank >= Rank.GAME_LOSS
        if kept:
            return None
        return Game.objects.filter(pk=record.served_game_id).values_list("match_id", flat=True)[0]
    # A game loss served by a match that another record's match loss decided took nothing of
    # the result: there is nothing to correct.
    return None
