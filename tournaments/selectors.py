"""Reads about tournaments, their staff, rounds and matches."""

import functools
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict, cast, overload

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import (
    Count,
    Exists,
    F,
    Max,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
)
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _

from core.paging import Window
from core.rows import IdLink
from players.models import Player, search_text
from tournaments.models import (
    Game,
    Match,
    MatchQuerySet,
    Registration,
    RegistrationStatus,
    ResultCorrection,
    Round,
    RoundDraft,
    Staff,
    StaffRole,
    Tournament,
)
from tournaments.name_order import NameCursor, NamePage, mapped, page_in_name_order
from tournaments.standings import MatchResult, Standing, compute_standings
from tournaments.templatetags.desk import percent


def staff_roles(*, tournament: Tournament, user: User | AnonymousUser) -> set[str]:
    if not user.is_authenticated:
        return set()
    return set(
        Staff.objects.filter(tournament=tournament, user=user).values_list("role", flat=True)
    )


def staff_access(*, slug: str, user: User | AnonymousUser) -> tuple[Tournament | None, set[str]]:
    """The tournament of that slug and the user's roles in it, in one query (a row per role);
    no tournament when it does not exist or the user is not on its staff (the two look the same
    from outside)."""
    if not user.is_authenticated:
        return None, set()
    rows = list(
        Staff.objects.filter(tournament__slug=slug, user=user)
        .select_related("tournament")
        .order_by("role")
    )
    if not rows:
        return None, set()
    return rows[0].tournament, {row.role for row in rows}


def judge_role(*, tournament: Tournament, user: User | AnonymousUser) -> str | None:
    """The strongest judging role the user holds in the tournament, if any."""
    return strongest_judging_role(staff_roles(tournament=tournament, user=user))


def strongest_judging_role(roles: Collection[str]) -> str | None:
    """The strongest judging role among these roles of one user, if any."""
    for role in (StaffRole.HEAD_JUDGE, StaffRole.FLOOR_JUDGE):
        if role in roles:
            return role
    return None


def staff_of(*, tournament: Tournament) -> QuerySet[Staff]:
    """The tournament's staff with their accounts, by role and login."""
    return (
        Staff.objects.filter(tournament=tournament)
        .select_related("user")
        .order_by("role", "user__username")
    )


def registry_search(*, tournament: Tournament, query: str, limit: int = 20) -> list[Player]:
    """Players of the registry not yet in the tournament, by part of a name or a membership id;
    nothing for fewer than two characters."""
    if len(query) < 2:
        return []
    return list(
        Player.objects.filter(search_text__contains=search_text(query))
        .exclude(registrations__tournament=tournament)
        .order_by("name")[:limit]
    )


def latest_round(*, tournament: Tournament) -> Round | None:
    return Round.objects.filter(tournament=tournament).order_by("-number").first()


def current_match(*, registration: Registration, bare: bool = False) -> Match | None:
    """The player's match that has not ended (a bye is not a match and never counts), with its
    round and the number of its games recorded so far (``games_recorded``); ``bare`` reads the
    match and its round without the players (the caller has them)."""
    matches = (
        matches_in_play(registration.pk)
        .annotate(game_count=_games_recorded())
        .select_related("round")
        .order_by("-round__number")
    )
    if not bare:
        matches = matches.select_related("player1__player", "player2__player")
    match = matches.first()
    if match is not None:
        match.games_recorded = match.game_count
    return match


def _games_recorded() -> Coalesce:
    """The number of the match's games recorded so far, read with the match itself."""
    games = (
        Game.objects.filter(match=OuterRef("pk"))
        .order_by()
        .values("match")
        .annotate(count=Count("pk"))
        .values("count")
    )
    return Coalesce(Subquery(games), 0)


def plays_a_match(*, registration: Registration) -> bool:
    """Whether the player has a match in progress (``current_match`` without reading it)."""
    return matches_in_play(registration.pk).exists()


def matches_in_play(registration: int | OuterRef) -> MatchQuerySet:
    """The player's matches in progress; a bye is not a match."""
    return Match.objects.of(registration).in_progress().filter(player2__isnull=False)


def registration_in(*, tournament: Tournament, pk: int) -> Registration | None:
    """The tournament's registration of that id with its player, the tournament set from the one
    given (the caller has it); None when the tournament has no such registration."""
    registration = (
        Registration.objects.filter(pk=pk, tournament=tournament).select_related("player").first()
    )
    if registration is not None:
        registration.tournament = tournament
    return registration


def latest_match_between(*, first: Registration, second: Registration) -> Match | None:
    return Match.objects.of(first).of(second).order_by("-round__number", "-id").first()


# The latest standings table of each tournament this process computed, with what it was computed
# from (``_standings_version``): tournament id → (version, table).
_tables: dict[int, tuple[tuple[object, ...], list[Standing]]] = {}


@dataclass(frozen=True)
class StandingRow:
    """A standings row with the registration it belongs to and the marks the table shows."""

    standing: Standing
    registration: Registration
    disqualified: bool
    dropped: bool
    prize_eligible: bool


def _standings_version(tournament: Tournament) -> tuple[object, ...]:
    """What the standings are computed from, in brief: the players registered (how many, and
    the newest with the moment they registered), the matches ended (how many, and the latest
    end: a match only ends) and the latest correction (a result is corrected only with a
    correction row).

    A page of the standings asks this on every view, so each part is read from an index, never
    from every row: the registrations' by tournament, the matches' by round and end, the
    corrections newest first, each looked up to its tournament (a correction is rare, where an
    event has thousands of matches to walk). The newest registration is read by its id, not as
    the latest moment of all (which read every registration's row: 8 ms at 10,000)."""
    registrations = Registration.objects.filter(tournament=tournament)
    players = (
        registrations.count(),
        registrations.order_by("-pk").values_list("pk", "registered_at").first(),
    )
    matches = Match.objects.filter(round__tournament=tournament, ended_at__isnull=False).aggregate(
        ended=Count("ended_at"), last_end=Max("ended_at")
    )
    # Through the corrections' own round (tournaments 0012), not the event's matches.
    last_correction = (
        ResultCorrection.objects.filter(round__tournament=tournament)
        .order_by("-pk")
        .values_list("pk", flat=True)
        .first()
    )
    return (*players, *matches.values(), last_correction)


def standings_table(*, tournament: Tournament) -> "StandingsTable":
    """The standings after every ended match as a table whose rows are marked (the player, the
    disqualified and dropped marks) only as they are read: a page of it costs the same whatever
    the event's size. The table itself is computed again only when a match has ended or been
    corrected, or a player registered, since this process last computed it."""
    version = _standings_version(tournament)
    known = _tables.get(tournament.pk)
    if known is None or known[0] != version:
        registrations = list(
            Registration.objects.filter(tournament=tournament).values_list("pk", flat=True)
        )
        table = compute_standings(
            registration_ids=registrations, results=_results(tournament, through_round=None)
        )
        known = _tables[tournament.pk] = (version, table)
    return StandingsTable(known[1])


class StandingsTable(Sequence["StandingRow"]):
    """Standings rows marked when read: a slice reads only its own players (one query)."""

    def __init__(self, table: list[Standing]) -> None:
        self._table = table

    def __len__(self) -> int:
        return len(self._table)

    @overload
    def __getitem__(self, index: int) -> "StandingRow": ...

    @overload
    def __getitem__(self, index: slice) -> list["StandingRow"]: ...

    def __getitem__(self, index: int | slice) -> "StandingRow | list[StandingRow]":
        if isinstance(index, slice):
            return _marked(self._table[index])
        return _marked([self._table[index]])[0]

    def __iter__(self) -> Iterator["StandingRow"]:
        return iter(_marked(self._table))

    def lines(self, start: int, stop: int) -> list["StandingLine"]:
        """The rows from ``start`` to ``stop`` as the standings page shows them: their players
        read as the values shown (one query a page), no model instances. ``in_bulk`` asks for
        the ids in batches the database takes: the report prints the whole table, and beyond
        the limit of parameters in a statement (SQLite 32,766, PostgreSQL with server-side
        binding 65,535) one ``IN`` list would fail."""
        table = self._table[start:stop]
        # The stubs type ``in_bulk`` as giving instances; on a ``values()`` query it gives dicts.
        registrations = cast(
            dict[int, dict[str, Any]],
            Registration.objects.values(
                "status", "prize_eligible", "player__name", "player__membership_id"
            ).in_bulk([standing.registration_id for standing in table]),
        )
        return [
            _line(
                standing,
                name=registrations[standing.registration_id]["player__name"],
                membership_id=registrations[standing.registration_id]["player__membership_id"],
                status=registrations[standing.registration_id]["status"],
                prize_eligible=registrations[standing.registration_id]["prize_eligible"],
            )
            for standing in table
        ]


class StandingLine(TypedDict):
    """A row of the standings page, in words: a dict, which a template reads without a failed
    attribute lookup, its numbers written once in Python rather than by filters per cell (a page
    has 100 rows of eight cells; issue 29)."""

    position: int
    name: str
    # Shown by the judge report, not by the standings page.
    membership_id: str
    points: int
    # «3–0–1»: wins, draws and losses.
    record: str
    opponents_match_win: str
    game_win: str
    opponents_game_win: str
    disqualified: bool
    dropped: bool
    prize_eligible: bool


def _line(
    standing: Standing, *, name: str, membership_id: str, status: str, prize_eligible: bool
) -> StandingLine:
    return StandingLine(
        position=standing.position,
        name=name,
        membership_id=membership_id,
        points=standing.points,
        record=f"{standing.wins}–{standing.draws}–{standing.losses}",
        opponents_match_win=percent(standing.opponents_match_win),
        game_win=percent(standing.game_win),
        opponents_game_win=percent(standing.opponents_game_win),
        disqualified=status == RegistrationStatus.DISQUALIFIED,
        dropped=status == RegistrationStatus.DROPPED,
        prize_eligible=prize_eligible,
    )


def standing_lines(*, tournament: Tournament, through_round: int | None) -> Window[StandingLine]:
    """The standings as the standings page shows them, a page at a time: after every ended match
    (``standings_table``: only the page's players are read), or after round ``through_round``."""
    if through_round is None:
        table = standings_table(tournament=tournament)
        return Window(count=lambda: len(table), rows=table.lines)
    rows = standings(tournament=tournament, through_round=through_round)
    return Window(
        count=lambda: len(rows),
        rows=lambda start, stop: [
            _line(
                row.standing,
                name=row.registration.player.name,
                membership_id=row.registration.player.membership_id,
                status=row.registration.status,
                prize_eligible=row.prize_eligible,
            )
            for row in rows[start:stop]
        ],
    )


def _marked(table: list[Standing]) -> list["StandingRow"]:
    registrations = Registration.objects.select_related("player").in_bulk(
        [standing.registration_id for standing in table]
    )
    return _mark(table, registrations)


def _mark(table: list[Standing], registrations: dict[int, Registration]) -> list["StandingRow"]:
    marked: list[StandingRow] = []
    for standing in table:
        registration = registrations[standing.registration_id]
        marked.append(
            StandingRow(
                standing=standing,
                registration=registration,
                disqualified=registration.status == RegistrationStatus.DISQUALIFIED,
                dropped=registration.status == RegistrationStatus.DROPPED,
                prize_eligible=registration.prize_eligible,
            )
        )
    return marked


def standings(*, tournament: Tournament, through_round: int | None = None) -> list[StandingRow]:
    """The standings after every ended match, or after round ``through_round`` and those before.

    Two queries whatever the number of players or rounds: the registrations with their players,
    and the ended matches as plain tuples. Matches in progress do not count yet; byes are ended
    from the start and count at once. Dropped and disqualified players keep their rows.
    """
    registrations = {
        registration.pk: registration
        for registration in Registration.objects.filter(tournament=tournament).select_related(
            "player"
        )
    }
    table = compute_standings(
        registration_ids=list(registrations),
        results=_results(tournament, through_round=through_round),
        through_round=through_round,
    )
    return _mark(table, registrations)


def _results(tournament: Tournament, *, through_round: int | None) -> list[MatchResult]:
    """The ended matches of the Swiss rounds as plain results, in one query (the playoff has
    standings of its own: ``tournaments.playoff_selectors.final_standings``)."""
    matches = Match.objects.filter(
        round__tournament=tournament, round__playoff=False, ended_at__isnull=False
    )
    if through_round is not None:
        matches = matches.filter(round__number__lte=through_round)
    rows = matches.order_by("round__number", "id").values_list(
        "round__number",
        "player1_id",
        "player2_id",
        "player1_wins",
        "player2_wins",
        "draws",
        "player1_lost_by_penalty",
        "player2_lost_by_penalty",
    )
    return [
        MatchResult(
            round_number=number,
            first=first,
            second=second,
            first_games=first_games,
            second_games=second_games,
            draws=draws,
            first_lost_by_penalty=first_penalty,
            second_lost_by_penalty=second_penalty,
        )
        for (
            number,
            first,
            second,
            first_games,
            second_games,
            draws,
            first_penalty,
            second_penalty,
        ) in rows
    ]


def round_in_progress(*, tournament: Tournament) -> bool:
    """Some match of the tournament has not ended yet."""
    return Match.objects.filter(round__tournament=tournament).in_progress().exists()


def open_match_count(*, tournament: Tournament) -> int:
    return Match.objects.filter(round__tournament=tournament).in_progress().count()


class RegistrationValues(TypedDict):
    pk: int
    player_id: int
    status: str
    prize_eligible: bool


def registrations_with_players(
    *, tournament: Tournament, query: str = ""
) -> QuerySet[Registration, RegistrationValues]:
    """The tournament's registrations by name, those whose player's name or membership id holds
    ``query`` when one is given; a queryset, so that a page of it is read, not the whole event
    (``tournaments.name_order``), of the values ``registration_rows`` words."""
    registrations = Registration.objects.filter(tournament=tournament)
    if query.strip():
        registrations = registrations.filter(
            player__search_text__contains=search_text(query.strip())
        )
    return registrations.order_by("sort_name", "pk").values(
        "pk", "player_id", "status", "prize_eligible"
    )


class RegistrationRow(TypedDict):
    """A row of the players page, in words: a dict, which a template reads without a failed
    attribute lookup, made once per row in Python rather than by tags per row (issue 29)."""

    pk: int
    name: str
    membership_id: str
    city: str
    status: str
    prize_eligible: bool
    is_playing: bool
    drop_url: str
    # «Пётр Петров выбывает из турнира?», asked before «Drop».
    drop_question: str


def registration_rows(
    registrations: list[RegistrationValues], *, tournament: Tournament
) -> list[RegistrationRow]:
    """A page of ``registrations_with_players`` as the players page shows it. Their players are
    read for the page's rows only, after it is cut (joined before, PostgreSQL without statistics
    joined the whole event and sorted it: 44 ms at 10,000), as the three columns shown. The drop
    link is reversed, the question and the statuses translated, once for the page."""
    players = {
        player["pk"]: player
        for player in Player.objects.filter(
            pk__in=[registration["player_id"] for registration in registrations]
        ).values("pk", "name", "membership_id", "city")
    }
    statuses = {status.value: str(status.label) for status in RegistrationStatus}
    drop = IdLink("tournaments:registration-drop", tournament.slug)
    question = _("%(name)s leaves the tournament?")
    rows: list[RegistrationRow] = []
    for registration in registrations:
        player = players[registration["player_id"]]
        rows.append(
            RegistrationRow(
                pk=registration["pk"],
                name=player["name"],
                membership_id=player["membership_id"],
                city=player["city"],
                status=statuses[registration["status"]],
                prize_eligible=registration["prize_eligible"],
                is_playing=registration["status"] == RegistrationStatus.PLAYING,
                drop_url=drop(registration["pk"]),
                drop_question=question % {"name": player["name"]},
            )
        )
    return rows


def registration_count(*, tournament: Tournament, query: str = "") -> int:
    """How many players ``registrations_with_players`` lists, for the page's heading: without a
    search, counted over the registrations' index by tournament (0.3–0.6 ms at 10,000 on SQLite),
    the one read of the players page that grows with the event; the organiser reads the total."""
    registrations = Registration.objects.filter(tournament=tournament)
    if query.strip():
        registrations = registrations.filter(
            player__search_text__contains=search_text(query.strip())
        )
    return registrations.count()


@dataclass(frozen=True)
class RoundSummary:
    number: int
    matches: int
    open: int


def round_summaries(*, tournament: Tournament) -> list[RoundSummary]:
    rows = (
        Round.objects.filter(tournament=tournament)
        .annotate(
            match_count=Count("matches"),
            open_count=Count("matches", filter=Q(matches__ended_at__isnull=True)),
        )
        .order_by("number")
    )
    return [RoundSummary(row.number, row.match_count, row.open_count) for row in rows]


@dataclass(frozen=True)
class DraftRow:
    table: int | None
    first: Registration
    second: Registration | None
    first_points: int
    second_points: int | None
    rematch: bool


def draft_rows(*, draft: RoundDraft) -> list[DraftRow]:
    """The draft's pairings with names, points, and a flag where a hand swap made a rematch."""
    points = {
        row.registration.pk: row.standing.points for row in standings(tournament=draft.tournament)
    }
    ids = [player for pair in draft.pairings for player in pair if player is not None]
    registrations = Registration.objects.select_related("player").in_bulk(ids)
    met = set(
        Match.objects.filter(round__tournament=draft.tournament, player2__isnull=False).values_list(
            "player1_id", "player2_id"
        )
    )
    rows = []
    table = 0
    for first, second in draft.pairings:
        if second is not None:
            table += 1
        rows.append(
            DraftRow(
                table=table if second is not None else None,
                first=registrations[first],
                second=registrations.get(second) if second is not None else None,
                first_points=points.get(first, 0),
                second_points=points.get(second, 0) if second is not None else None,
                rematch=(first, second) in met or (second, first) in met,
            )
        )
    return rows


class PenaltyGame(TypedDict):
    """A game of an open match that a penalty decided: its number and its winner (none for a
    draw by penalties)."""

    number: int
    winner_id: int | None
    winner: str | None


class MatchRow(TypedDict):
    """A row of the pairings by table, in words: a dict, which a template reads without a failed
    attribute lookup, made once per row in Python rather than by tags per row (issue 29)."""

    pk: int
    table: int | None
    is_bye: bool
    has_ended: bool
    player1: str
    # The opponent's name; none for a bye.
    player2: str | None
    player1_wins: int
    player2_wins: int
    draws: int
    lost_by_penalty: bool
    penalty_games: list[PenaltyGame]
    match_url: str
    result_url: str
    # «Стол 7: партии и исправления», the table link's accessible name.
    table_label: str
    # «партии, выигранные игроком …», the result inputs' accessible names.
    player1_label: str
    player2_label: str


MATCH_VALUES = (
    "pk",
    "table",
    "player2_id",
    "player1_wins",
    "player2_wins",
    "draws",
    "player1_lost_by_penalty",
    "player2_lost_by_penalty",
    "ended_at",
    "player1__player__name",
    "player2__player__name",
)


def round_matches(*, round_: Round, only: int | None = None) -> list[MatchRow]:
    """The round's matches in table order with the games penalties decided (two queries)."""
    return _match_rows(round_, only=only)


def _match_rows(
    round_: Round,
    *,
    only: int | None = None,
    tables: tuple[int, int] | None = None,
    byes: slice | None = None,
) -> list[MatchRow]:
    """The round's matches in table order (``only`` the one of that id; those of tables above
    the first number up to the second; ``byes``: that slice of the matches without a table), read
    as the values a row shows and worded once for the page: the links reversed and the labels
    translated once (``core.rows``), not by tags in each of a page's 50 rows."""
    matches = Match.objects.filter(round=round_).order_by(F("table").asc(nulls_last=True), "id")
    if only is not None:
        matches = matches.filter(pk=only)
    if tables is not None:
        matches = matches.filter(table__gt=tables[0], table__lte=tables[1])
    if byes is not None:
        matches = matches.filter(table__isnull=True)[byes]
    values = list(matches.values(*MATCH_VALUES))
    games: dict[int, list[PenaltyGame]] = {}
    open_ids = [value["pk"] for value in values if value["ended_at"] is None]
    if open_ids:
        for game in Game.objects.filter(match__in=open_ids, decided_by_penalty=True).values(
            "match_id", "number", "winner_id", "winner__player__name"
        ):
            games.setdefault(game["match_id"], []).append(
                PenaltyGame(
                    number=game["number"],
                    winner_id=game["winner_id"],
                    winner=game["winner__player__name"],
                )
            )
    slug = round_.tournament.slug
    match_link = IdLink("tournaments:match", slug)
    result_link = IdLink("tournaments:match-result", slug)
    table_label = _("Table %(n)s: games and corrections")
    games_won = _("games won by %(name)s")
    return [
        MatchRow(
            pk=value["pk"],
            table=value["table"],
            is_bye=value["player2_id"] is None,
            has_ended=value["ended_at"] is not None,
            player1=value["player1__player__name"],
            player2=value["player2__player__name"],
            player1_wins=value["player1_wins"],
            player2_wins=value["player2_wins"],
            draws=value["draws"],
            lost_by_penalty=value["player1_lost_by_penalty"] or value["player2_lost_by_penalty"],
            penalty_games=games.get(value["pk"], []),
            match_url=match_link(value["pk"]),
            result_url=result_link(value["pk"]),
            # A bye has no table link and no result inputs.
            table_label="" if value["table"] is None else table_label % {"n": value["table"]},
            player1_label=games_won % {"name": value["player1__player__name"]},
            player2_label=(
                ""
                if value["player2_id"] is None
                else games_won % {"name": value["player2__player__name"]}
            ),
        )
        for value in values
    ]


def round_match_rows(*, round_: Round) -> Window[MatchRow]:
    """The round's matches in table order with the games penalties decided, a slice at a time.

    A match's place in the list is its table's number, the byes (no table) after the last
    table: the page of tables 51–100 is read as that range of the index on (round, table, id),
    which bounds the rows read whatever plan the database takes. A count and an offset read
    every table before the page, and PostgreSQL without statistics joined the round's 5,000
    matches to their players before it cut the page (78 ms)."""

    @functools.cache
    def last_table_and_byes() -> tuple[int, int]:
        matches = Match.objects.filter(round=round_)
        last = (
            matches.filter(table__isnull=False)
            .order_by("-table")
            .values_list("table", flat=True)
            .first()
        )
        return last or 0, matches.filter(table__isnull=True).count()

    def rows(start: int, stop: int) -> list[MatchRow]:
        last, _byes = last_table_and_byes()
        found = _match_rows(round_, tables=(start, stop))
        if stop > last:
            found += _match_rows(round_, byes=slice(max(start - last, 0), stop - last))
        return found

    return Window(count=lambda: sum(last_table_and_byes()), rows=rows)


@dataclass(frozen=True)
class NameRow:
    name: str
    table: int | None
    opponent: str | None


def pairings_by_name_page(*, round_: Round, cursor: NameCursor, size: int) -> NamePage[NameRow]:
    """A page of the round's players by name with their table and opponent.

    A Swiss round walks the tournament's players in name order from the index
    (``tournaments.name_order``), keeping those who play in the round (two indexed look-ups each,
    as the first player and as the second), then reads the page's matches: the page costs the
    same whatever the round's size, and the players who left before the round are few. A
    playoff round of a page or less (a top 8 of thousands) is read whole and sorted here,
    rather than walking every player of the event to find its few."""
    matches = Match.objects.filter(round=round_).order_by()
    if round_.playoff and not matches[size // 2 : size // 2 + 1].exists():
        rows = _name_rows(round_)
        return NamePage(
            rows=[rows[key] for key in sorted(rows)],
            has_previous=False,
            has_next=False,
            first_key=None,
            last_key=None,
        )
    page = page_in_name_order(
        _players_of(round_), tournament=round_.tournament, cursor=cursor, size=size
    )
    return mapped(page, lambda players: _rows_of(round_, players))


def pairings_by_name_all(*, round_: Round) -> list[NameRow]:
    """Every player of the round by name with their table and opponent (printing)."""
    rows = _name_rows(round_)
    return [rows[key] for key in sorted(rows)]


def _players_of(round_: Round) -> QuerySet[Registration]:
    """The tournament's registrations that play in the round, as either player: their keys in
    name order only, the rows' names come with their matches."""
    matches = Match.objects.filter(round=round_)
    return (
        Registration.objects.filter(tournament_id=round_.tournament_id)
        .filter(
            Exists(matches.filter(player1=OuterRef("pk")))
            | Exists(matches.filter(player2=OuterRef("pk")))
        )
        .only("pk", "sort_name")
    )


def _rows_of(round_: Round, players: list[Registration]) -> list[NameRow]:
    """The name rows of these players of the round, in their order: their matches, then the
    names of everyone in them (two queries, each bounded by the page's ids; a join of the
    matches to their players ahead of the ids' filter let PostgreSQL read every registration)."""
    ids = [player.pk for player in players]
    matches = (
        Match.objects.filter(round=round_)
        .filter(Q(player1__in=ids) | Q(player2__in=ids))
        .order_by()
        .values_list("table", "player1_id", "player2_id")
    )
    seats: dict[int, tuple[int | None, int | None]] = {}
    for table, first, second in matches:
        seats[first] = (table, second)
        if second is not None:
            seats[second] = (table, first)
    everyone = set(seats) | {opponent for _table, opponent in seats.values() if opponent}
    names = dict(
        Registration.objects.filter(pk__in=everyone).order_by().values_list("pk", "player__name")
    )
    rows = []
    for player in players:
        table, opponent = seats[player.pk]
        rows.append(NameRow(names[player.pk], table, names[opponent] if opponent else None))
    return rows


def _name_rows(round_: Round) -> dict[tuple[str, int], NameRow]:
    """The name row of each of the round's players, by its key in name order: the sort name
    and the registration's id (the whole round, in one query)."""
    rows: dict[tuple[str, int], NameRow] = {}
    for table, first, first_key, first_name, second, second_key, second_name in (
        Match.objects.filter(round=round_)
        .order_by()
        .values_list(
            "table",
            "player1_id",
            "player1__sort_name",
            "player1__player__name",
            "player2_id",
            "player2__sort_name",
            "player2__player__name",
        )
    ):
        rows[(first_key, first)] = NameRow(first_name, table, second_name)
        if second is not None:
            rows[(second_key, second)] = NameRow(second_name, table, first_name)
    return rows


def match_detail(*, match_id: int) -> Match:
    """One match with its players, games and corrections, for the table's result screen."""
    return (
        Match.objects.select_related("round__tournament", "player1__player", "player2__player")
        .prefetch_related(
            Prefetch("games", queryset=Game.objects.select_related("winner__player")),
            Prefetch(
                "corrections",
                queryset=ResultCorrection.objects.select_related("corrected_by"),
            ),
        )
        .get(pk=match_id)
    )


def result_corrections(*, tournament: Tournament) -> list[ResultCorrection]:
    """Every result correction of the tournament, in the order they were made (for the report)."""
    return list(
        ResultCorrection.objects.filter(round__tournament=tournament)
        .select_related(
            "match__round", "match__player1__player", "match__player2__player", "corrected_by"
        )
        .order_by("corrected_at", "id")
    )
