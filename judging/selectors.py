"""Reads about guideline editions and penalty records."""

import datetime
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import (
    Exists,
    F,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
)
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _

from core.errors import DomainError
from core.people import display_name
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

    One query: the edition is found inside it (a tournament's edition changes when its first
    infraction is added, so it is not kept between requests)."""
    edition = Coalesce(
        Subquery(
            TournamentGuideline.objects.filter(tournament=tournament).values("edition_id")[:1]
        ),
        Subquery(GuidelineEdition.objects.filter(slug=SHIPPED_EDITION_SLUG).values("id")[:1]),
    )
    infraction = Infraction.objects.filter(edition_id=edition, code=code.strip()).first()
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


@dataclass(frozen=True)
class GlancePage:
    """One page of players found: bounded whatever the size of the event."""

    rows: list[PlayerAtGlance]
    number: int
    has_next: bool

    @property
    def has_previous(self) -> bool:
        return self.number > 1


def players_at_glance(
    *,
    tournament: Tournament,
    query: str = "",
    registration_ids: list[int] | None = None,
    page: int = 1,
    page_size: int = GLANCE_PAGE_SIZE,
) -> GlancePage:
    """Players of the tournament found by table number or part of a name, in table order (then
    by name; players without a table last), one page at a time.

    A handful of queries whatever the number of players or penalties, and none of them reads the
    whole round: the latest round, one page of players, the matches of those players only, and
    their penalties in force. The start page walks the round's tables in order from the page's
    first table (an index on the round and the table), rather than looking up the table of every
    registration to sort them.
    """
    latest = Round.objects.filter(tournament=tournament).order_by("-number").first()
    page = min(max(page, 1), 100_000)  # Past the last page is an empty page, never an error.
    start = (page - 1) * page_size
    query = query.strip()
    if registration_ids is not None:
        ids = _found_in_table_order(tournament, latest, registration_ids, start, page_size + 1)
    elif query.isdecimal():
        at_table = (
            Match.objects.filter(round=latest, table=int(query)).values_list(
                "player1_id", "player2_id"
            )
            if latest is not None
            else []
        )
        wanted = [player for pair in at_table for player in pair if player is not None]
        ids = _found_in_table_order(tournament, latest, wanted, start, page_size + 1)
    elif query:
        found = Registration.objects.filter(
            tournament=tournament, player__search_text__contains=search_text(query)
        ).values_list("pk", flat=True)
        ids = _found_in_table_order(tournament, latest, found, start, page_size + 1)
    else:
        ids = _tables_in_order(tournament, latest, start, page_size + 1)
    has_next = len(ids) > page_size
    ids = ids[:page_size]
    registrations = Registration.objects.select_related("player").in_bulk(ids)
    match_of: dict[int, Match] = {}
    if latest is not None and ids:
        for match in (
            Match.objects.filter(round=latest)
            .filter(Q(player1_id__in=ids) | Q(player2_id__in=ids))
            .select_related("round", "player1__player", "player2__player")
        ):
            match_of[match.player1_id] = match
            if match.player2_id:
                match_of[match.player2_id] = match
    penalties: dict[int, list[PenaltyRecord]] = {pk: [] for pk in ids}
    if ids:
        for record in (
            PenaltyRecord.objects.in_force()
            .filter(registration_id__in=ids)
            .select_related("infraction")
            .order_by("id")
        ):
            penalties[record.registration_id].append(record)
    rows = [
        PlayerAtGlance(
            registration=registrations[pk], match=match_of.get(pk), penalties=penalties[pk]
        )
        for pk in ids
    ]
    return GlancePage(rows=rows, number=page, has_next=has_next)


def _table_of(latest: Round, side: str) -> Subquery:
    """The table the registration plays at in the latest round from one side of the match: a
    look-up by that side's index, where one test of both sides would read the round's matches."""
    return Subquery(
        Match.objects.filter(round=latest, **{side: OuterRef("pk")}).values("table")[:1]
    )


def _found_in_table_order(
    tournament: Tournament,
    latest: Round | None,
    ids: "QuerySet[Registration, int] | list[int]",
    start: int,
    count: int,
) -> list[int]:
    """A search's players (a name, a table, given ids) in table order, then by name."""
    found = Registration.objects.filter(tournament=tournament, pk__in=ids)
    if latest is None:
        # No round yet, so no tables: by name alone (PostgreSQL refuses to order by a constant).
        ordered = found.order_by("player__name", "pk")
    else:
        ordered = found.annotate(
            table_no=Coalesce(_table_of(latest, "player1"), _table_of(latest, "player2"))
        ).order_by(F("table_no").asc(nulls_last=True), "player__name", "pk")
    return list(ordered.values_list("pk", flat=True)[start : start + count])


def _tables_in_order(
    tournament: Tournament, latest: Round | None, start: int, count: int
) -> list[int]:
    """Every player, ``count`` of them from position ``start``, in table order: two players per
    table, by name at their table; then the players with no table (a bye, not paired, dropped)
    by name. Reads the tables of the page only."""
    ids: list[int] = []
    tabled = 0
    if latest is not None:
        tables = Match.objects.filter(round=latest, table__isnull=False)
        # Every match with a table has two players (a bye has none), so the page starts at its
        # first player's table.
        first_table = start // 2
        rows = tables.order_by("table", "id").values_list(
            "player1_id", "player1__player__name", "player2_id", "player2__player__name"
        )[first_table : first_table + count // 2 + 2]
        for first, first_name, second, second_name in rows:
            pair = sorted([(first_name, first), (second_name, second)])
            ids.extend(pk for _name, pk in pair)
        ids = ids[start - 2 * first_table :][:count]
        if len(ids) == count:
            return ids
        tabled = 2 * tables.count()
    rest = Registration.objects.filter(tournament=tournament)
    if latest is not None:
        tables_of_round = Match.objects.filter(round=latest, table__isnull=False)
        rest = rest.exclude(Exists(tables_of_round.filter(player1=OuterRef("pk")))).exclude(
            Exists(tables_of_round.filter(player2=OuterRef("pk")))
        )
    offset = max(0, start - tabled)
    rest_ids = rest.order_by("player__name", "pk").values_list("pk", flat=True)
    ids.extend(rest_ids[offset : offset + count - len(ids)])
    return ids


def player_at_glance(*, tournament: Tournament, registration: Registration) -> PlayerAtGlance:
    """One player with their match in the latest round and penalties: reads that match only."""
    (row,) = players_at_glance(tournament=tournament, registration_ids=[registration.pk]).rows
    return row


def records_issued_by(*, tournament: Tournament, user: User) -> QuerySet[PenaltyRecord]:
    return (
        PenaltyRecord.objects.filter(tournament=tournament, issued_by=user)
        .select_related("registration__player", "infraction", "round", *STATE_RELATED)
        .order_by("-id")
    )


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
