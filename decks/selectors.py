"""Reads of the decks app: rules, pools, lists, findings and deck checks."""

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, TypedDict
from urllib.parse import urlencode

from django.contrib.auth.models import User
from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from core.paging import Window
from core.rows import clock_text
from decks.describe import describe
from decks.formats import ALIASES
from decks.models import (
    Card,
    CardPool,
    DeckCheck,
    DeckFormat,
    DeckList,
    DeckRules,
    Finding,
    RecheckRun,
    Section,
    SubmissionCode,
)
from decks.parsing import (
    EXTRA,
    MAIN,
    CardInfo,
    ParsedLine,
    ParseResult,
    PoolIndex,
    Unmatched,
    normalise,
    parse_list,
)
from decks.rules import FindingData, RuleSet, check_text
from judging.models import PenaltyRecord
from judging.record_state import STATE_VALUES, state_from_values
from tournaments.models import Match, Registration, RegistrationStatus, Round, Tournament

RULE_FIELDS = (
    "main_min",
    "main_max",
    "extra_max",
    "copy_limit",
    "lifting_feature",
    "combine_sections",
    "check_legality",
    "hero_rule",
)


CARD_FIELDS = ("id", "name", "key", "features", "legal_in", "banned_in", "elements", "is_hero")


def format_names() -> dict[str, str]:
    """Each format by its slug and by its name, normalised, to its slug (for pool files)."""
    names: dict[str, str] = {}
    for slug, name in DeckFormat.objects.values_list("slug", "name"):
        names[normalise(slug)] = slug
        names[normalise(name)] = slug
    known = set(names.values())
    return {alias: slug for alias, slug in ALIASES.items() if slug in known} | names


def format_rule_set(name: str) -> RuleSet | None:
    """A format's own deck rules, found by its name or slug in any case (no tournament)."""
    slug = format_names().get(normalise(name))
    deck_format = DeckFormat.objects.filter(slug=slug).first() if slug else None
    if deck_format is None:
        return None
    return RuleSet(
        format_slug=deck_format.slug,
        format_name=deck_format.name,
        **{name: getattr(deck_format, name) for name in RULE_FIELDS},
    )


def format_labels() -> list[str]:
    return [f"{name} ({slug})" for slug, name in DeckFormat.objects.values_list("slug", "name")]


def pools_for(*, user: User, current: int | None) -> QuerySet[CardPool]:
    """The pools an organiser may choose: their own, and the one the tournament uses now."""
    return CardPool.objects.filter(Q(owner=user) | Q(pk=current))


def default_format(*, tournament: Tournament) -> DeckFormat | None:
    return (
        DeckFormat.objects.filter(slug=tournament.format).first()
        or DeckFormat.objects.filter(kind=tournament.format).first()
    )


def rules_for(*, tournament: Tournament) -> DeckRules | None:
    """The tournament's deck rules; unsaved defaults from its format when none were set."""
    # The tournament is read with the rules: its format is the rules' format, and the caller's
    # tournament object may predate a change of it.
    rules = (
        DeckRules.objects.select_related("pool", "tournament").filter(tournament=tournament).first()
    )
    if rules is not None:
        return rules
    deck_format = default_format(tournament=tournament)
    if deck_format is None:
        return None
    return defaults_from(tournament=tournament, deck_format=deck_format)


def rules_saved(tournament: Tournament) -> bool:
    """Whether the organiser has saved the tournament's deck rules (the set-up's step)."""
    return DeckRules.objects.filter(tournament=tournament).exists()


def defaults_from(*, tournament: Tournament, deck_format: DeckFormat) -> DeckRules:
    rules = DeckRules(tournament=tournament)
    for name in RULE_FIELDS:
        setattr(rules, name, getattr(deck_format, name))
    return rules


def rule_set(rules: DeckRules) -> RuleSet:
    return RuleSet(
        format_slug=rules.format.slug,
        format_name=rules.format.name,
        **{name: getattr(rules, name) for name in RULE_FIELDS},
    )


def card_info(card: Card) -> CardInfo:
    return CardInfo(
        id=card.pk,
        name=card.name,
        features=frozenset(card.features or ()),
        legal_in=frozenset(card.legal_in or ()),
        banned_in=frozenset(card.banned_in or ()),
        elements=frozenset(card.elements or ()),
        is_hero=card.is_hero,
        pool_key=card.key,
    )


def pool_index(*, pool_id: int | None) -> PoolIndex:
    if pool_id is None:
        return PoolIndex()
    cards = Card.objects.filter(pool_id=pool_id).only(*CARD_FIELDS)
    return PoolIndex.of(card_info(card) for card in cards)


@dataclass(frozen=True)
class SavedLine:
    """A saved line of a list with the card its key names in the tournament's current pool."""

    number: int
    section: str
    written_name: str
    count: int | None
    card: Card | None

    @property
    def section_label(self) -> str:
        return str(Section(self.section).label)


def saved_lines(*, decklist: DeckList) -> list[SavedLine]:
    """The list's lines as saved (``lines`` may be prefetched), each with its card looked up by
    key in the pool the tournament uses now (one query)."""
    lines = list(decklist.lines.all())
    keys = {line.card_key for line in lines if line.card_key}
    current_pool = DeckRules.objects.filter(tournament_id=decklist.tournament_id).values("pool")
    cards = (
        {card.key: card for card in Card.objects.filter(pool__in=current_pool, key__in=keys)}
        if keys
        else {}
    )
    return [
        SavedLine(
            number=line.number,
            section=line.section,
            written_name=line.written_name,
            count=line.count,
            card=cards.get(line.card_key),
        )
        for line in lines
    ]


def parsed_lines(*, decklist: DeckList) -> list[ParsedLine]:
    """The saved lines of a list as the pure checks take them."""
    return [
        ParsedLine(
            number=line.number,
            section=line.section,
            written_name=line.written_name,
            count=line.count,
            card=card_info(line.card) if line.card else None,
        )
        for line in saved_lines(decklist=decklist)
    ]


def log_query(*, registration_id: int, code: str, sub_item: str, note: str) -> str:
    """The query string that opens the judge's log flow with the finding filled in."""
    return urlencode(
        {"player": registration_id, "infraction": code, "sub_item": sub_item, "note": note}
    )


@dataclass(frozen=True)
class FindingRow:
    registration: Registration
    code: str
    sub_item: str
    kind: str
    params: dict[str, Any]
    found_at: datetime.datetime | None
    text: str
    # «14:30» in the event's time zone, as ``|date:"H:i"`` wrote it, written once per row here:
    # the filter cost 35 µs a cell, on pages of 50 findings (issue 29).
    found_at_text: str = ""

    @property
    def log_query(self) -> str:
        return log_query(
            registration_id=self.registration.pk,
            code=self.code,
            sub_item=self.sub_item,
            note=self.text,
        )

    @property
    def is_pointer(self) -> bool:
        """A 1.4 name the judge decides on, not a finding of the app's own."""
        return self.code == "1.4"


def _row(finding: Finding) -> FindingRow:
    return FindingRow(
        registration=finding.registration,
        code=finding.code,
        sub_item=finding.sub_item,
        kind=finding.kind,
        params=finding.params,
        found_at=finding.created_at,
        text=describe(finding.kind, finding.params),
        found_at_text=clock_text(finding.created_at),
    )


def missing_since(*, tournament: Tournament, rules: DeckRules | None) -> datetime.datetime | None:
    """When missing lists became a finding: the deadline passed, or the first round was paired."""
    moments = []
    if rules is not None and rules.deadline is not None and rules.deadline <= timezone.now():
        moments.append(rules.deadline)
    first_round = Round.objects.filter(tournament=tournament).order_by("number").first()
    if first_round is not None:
        moments.append(first_round.created_at)
    return min(moments) if moments else None


def _without_list(*, tournament: Tournament) -> QuerySet[Registration]:
    """The playing (not dropped) players without a list, by name: by their sort name, as every
    list of the players is (``tournaments.name_order``), so that a page of them is read from the
    index on (tournament, sort name, id) rather than sorted from the whole event's players (the
    report's first page: 3.9 ms at 10,000 by the players' names, 1.1 ms by the index). "No list"
    is asked as NOT EXISTS, not as a left join whose list is NULL: PostgreSQL misjudges the
    join's rows and joins and sorts the whole event (12.7 ms at 10,000), where the anti-join
    walks the name index and stops at the page (0.2 ms)."""
    return (
        Registration.objects.filter(tournament=tournament)
        .filter(~Exists(DeckList.objects.filter(registration=OuterRef("pk"))))
        .exclude(status=RegistrationStatus.DROPPED)
        .select_related("player")
        .order_by("sort_name", "pk")
    )


def _missing_row(
    registration: Registration, since: datetime.datetime, text: str | None = None
) -> FindingRow:
    """A missing list's finding; ``text`` its words, worded once by a caller with many rows."""
    return FindingRow(
        registration=registration,
        code="1.1",
        sub_item="а",
        kind="missing",
        params={},
        found_at=since,
        text=describe("missing", {}) if text is None else text,
        found_at_text=clock_text(since),
    )


def _missing_from(*, tournament: Tournament) -> datetime.datetime | None:
    """When missing lists became findings; None while they are not (or lists are not used)."""
    if not tournament.uses_decklists:
        return None
    return missing_since(tournament=tournament, rules=rules_for(tournament=tournament))


def missing_lists(
    *, tournament: Tournament, registration: Registration | None = None
) -> list[FindingRow]:
    """1.1 а for every playing player without a list (or for ``registration`` only), once the
    deadline or first pairing came."""
    since = _missing_from(tournament=tournament)
    if since is None:
        return []
    without = _without_list(tournament=tournament)
    if registration is not None:
        without = without.filter(pk=registration.pk)
    text = describe("missing", {})
    return [_missing_row(r, since, text) for r in without]


def missing_count(*, tournament: Tournament) -> int:
    """How many players have a missing list (1.1 а), without reading them."""
    if _missing_from(tournament=tournament) is None:
        return 0
    return _without_list(tournament=tournament).count()


def finding_rows(*, tournament: Tournament) -> Window[FindingRow]:
    """Every finding of the tournament, newest first; a missing list from when it became one.

    Every missing list dates from the same moment, so in this order they are one block, by
    player name: the saved findings from that moment on (a tie goes to the saved finding), then
    the missing lists, then the older saved findings. Any window of the order is therefore one
    slice of the saved findings and one of the missing lists: two counts and at most two reads,
    whatever the size of the event.
    """
    saved = (
        Finding.objects.filter(tournament=tournament)
        .select_related("registration__player")
        .order_by("-created_at", "-id")
    )
    since = _missing_from(tournament=tournament)
    without = _without_list(tournament=tournament)

    @cache
    def sizes() -> tuple[int, int, int]:
        """The saved findings not older than the missing lists, the missing lists, all saved."""
        if since is None:
            total = saved.count()
            return total, 0, total
        counted = saved.aggregate(
            newer=Count("id", filter=Q(created_at__gte=since)), total=Count("id")
        )
        return counted["newer"], without.count(), counted["total"]

    def rows(start: int, stop: int) -> list[FindingRow]:
        newer, missing, _total = sizes()

        def saved_at(position: int) -> int:
            # The saved findings before ``position`` of the merged order.
            return min(position, newer) + max(0, position - newer - missing)

        def missing_at(position: int) -> int:
            return min(max(0, position - newer), missing)

        first, last = saved_at(start), saved_at(stop)
        found = [_row(f) for f in saved[first:last]] if first < last else []
        low, high = missing_at(start), missing_at(stop)
        absent = []
        if since and low < high:
            # Every missing list says the same: worded once for the page, not for each row.
            text = describe("missing", {})
            absent = [_missing_row(r, since, text) for r in without[low:high]]
        before = max(0, min(newer, last) - first)
        return found[:before] + absent + found[before:]

    return Window(count=lambda: sizes()[1] + sizes()[2], rows=rows)


def tournament_findings(*, tournament: Tournament) -> list[FindingRow]:
    """Every finding of the tournament in the screen's order, for the report and the exports."""
    return list(finding_rows(tournament=tournament))


def player_findings(*, registration: Registration) -> list[FindingRow]:
    rows = [
        _row(finding)
        for finding in Finding.objects.filter(registration=registration)
        .select_related("registration__player")
        .order_by("id")
    ]
    if not rows:
        rows = missing_lists(tournament=registration.tournament, registration=registration)
    return rows


def decklist_of(*, registration: Registration) -> DeckList | None:
    return (
        DeckList.objects.filter(registration=registration)
        .prefetch_related(
            "lines",
            "versions__author",
        )
        .first()
    )


@dataclass(frozen=True)
class PlayerListRow:
    registration: Registration
    decklist: DeckList | None
    findings: int
    code: str


def player_rows(*, tournament: Tournament) -> Window[PlayerListRow]:
    """Each player by name with their list's state, its findings and their personal code: a
    count, then a page of players with their lists and codes and the page's finding counts."""
    registrations = (
        Registration.objects.filter(tournament=tournament)
        .select_related("player", "decklist", "submission_code")
        # The screen shows a list's version, never its text (up to 20,000 characters).
        .defer("decklist__text")
        .order_by("player__name", "pk")
    )

    def rows(start: int, stop: int) -> list[PlayerListRow]:
        page = list(registrations[start:stop])
        counts = dict(
            Finding.objects.filter(registration__in=page)
            .order_by()
            .values("registration_id")
            .annotate(n=Count("id"))
            .values_list("registration_id", "n")
        )
        return [
            PlayerListRow(
                registration=r,
                decklist=getattr(r, "decklist", None),
                findings=counts.get(r.pk, 0),
                code=getattr(getattr(r, "submission_code", None), "code", ""),
            )
            for r in page
        ]

    return Window(count=registrations.count, rows=rows)


def current_seat(*, registration: Registration) -> tuple[Round | None, int | None]:
    """The round and table of the player's latest match."""
    match = (
        Match.objects.filter(round__tournament_id=registration.tournament_id)
        .of(registration)
        .select_related("round")
        .order_by("-round__number")
        .first()
    )
    if match is None:
        return None, None
    return match.round, match.table


@dataclass(frozen=True)
class CheckFinding:
    code: str
    sub_item: str
    text: str
    log_query: str


@dataclass(frozen=True)
class CheckRow:
    check: DeckCheck
    findings: list[CheckFinding]


def _checks(*, tournament: Tournament) -> QuerySet[DeckCheck]:
    """The tournament's deck checks, newest first (the model's order)."""
    return DeckCheck.objects.filter(tournament=tournament).select_related(
        "registration__player", "judge", "round"
    )


def _check_row(check: DeckCheck) -> CheckRow:
    return CheckRow(check=check, findings=[_check_finding(check, f) for f in check.findings])


def deck_checks(
    *, tournament: Tournament, registration: Registration | None = None
) -> list[CheckRow]:
    checks = _checks(tournament=tournament)
    if registration is not None:
        checks = checks.filter(registration=registration)
    return [_check_row(check) for check in checks]


def check_rows(*, tournament: Tournament) -> Window[CheckRow]:
    """The tournament's deck checks, newest first, read a page at a time."""
    checks = _checks(tournament=tournament)
    return Window(
        count=checks.count, rows=lambda start, stop: [_check_row(c) for c in checks[start:stop]]
    )


def _check_finding(check: DeckCheck, finding: dict[str, Any]) -> CheckFinding:
    text = describe(finding["kind"], finding.get("params", {}))
    where = _("Deck check")
    return CheckFinding(
        code=finding["code"],
        sub_item=finding["sub_item"],
        text=text,
        log_query=log_query(
            registration_id=check.registration_id,
            code=finding["code"],
            sub_item=finding["sub_item"],
            note=f"{where}: {text}",
        ),
    )


def checked_counts(*, tournament: Tournament) -> dict[int, int]:
    counts: dict[int, int] = {}
    for registration_id in DeckCheck.objects.filter(tournament=tournament).values_list(
        "registration_id", flat=True
    ):
        counts[registration_id] = counts.get(registration_id, 0) + 1
    return counts


class DeckPenaltyRow(TypedDict):
    """A penalty for a deck problem as the report's deck section shows it, in words: a dict,
    which a template reads without a failed attribute lookup (issue 29)."""

    pk: int
    player: str
    code: str
    sub_item: str
    # What the record does now, as its state words it (``RecordState``).
    penalty: str
    loss: str
    status: str
    note: str


DECK_PENALTY_VALUES = (
    "id",
    "sub_item",
    "note",
    "registration__player__name",
    "infraction__code",
    *STATE_VALUES,
)


def deck_penalties(*, tournament: Tournament) -> Window[DeckPenaltyRow]:
    """Penalties for deck problems (the guideline's section 1), in the order they were issued,
    read a page at a time as the values a row shows (no model instances, no infraction's texts);
    what each does now is its state (``state_from_values``)."""
    records = (
        PenaltyRecord.objects.filter(tournament=tournament, infraction__code__startswith="1.")
        .order_by("issued_at", "id")
        .values(*DECK_PENALTY_VALUES)
    )

    def rows(start: int, stop: int) -> list[DeckPenaltyRow]:
        found = []
        for value in records[start:stop]:
            state = state_from_values(value)
            found.append(
                DeckPenaltyRow(
                    pk=value["id"],
                    player=value["registration__player__name"],
                    code=value["infraction__code"],
                    sub_item=value["sub_item"],
                    penalty=state.rank_name,
                    loss=state.loss_text,
                    status=state.status_label,
                    note=value["note"],
                )
            )
        return found

    return Window(count=records.count, rows=rows)


@dataclass(frozen=True)
class ReadLine:
    count: int | None
    name: str
    known: bool


@dataclass(frozen=True)
class ListAsRead:
    """A list as the judges read it: what the player sees after sending it, and the printed
    registration sheet."""

    player_name: str
    deck_name: str
    hero: str
    main: list[ReadLine]
    extra: list[ReadLine]
    findings: list[tuple[str, str]]
    unmatched: list[Unmatched]
    notes: list[str]

    @property
    def main_total(self) -> int:
        return sum(line.count or 0 for line in self.main)

    @property
    def extra_total(self) -> int:
        return sum(line.count or 0 for line in self.extra)


def list_as_read(parse: ParseResult, findings: Sequence[FindingData]) -> ListAsRead:
    def lines(section: str) -> list[ReadLine]:
        return [
            ReadLine(
                line.count, line.card.name if line.card else line.written_name, bool(line.card)
            )
            for line in parse.lines
            if line.section == section
        ]

    hero = parse.hero
    return ListAsRead(
        player_name=parse.player_name,
        deck_name=parse.deck_name,
        hero=(hero.card.name if hero.card else hero.written_name) if hero else "",
        main=lines(MAIN),
        extra=lines(EXTRA),
        findings=[(f"{f.code} {f.sub_item}", describe(f.kind, f.params)) for f in findings],
        unmatched=parse.unmatched,
        notes=[note for _line, note in parse.notes],
    )


def saved_list_as_read(*, decklist: DeckList) -> ListAsRead:
    """A saved list read again against the tournament's current pool and rules."""
    rules = rules_for(tournament=decklist.tournament)
    index = pool_index(pool_id=rules.pool_id if rules else None)
    if rules is None:
        return list_as_read(parse_list(decklist.text, index), [])
    check = check_text(decklist.text, index, rule_set(rules))
    return list_as_read(check.parse, check.findings)


@dataclass(frozen=True)
class CodeSlip:
    name: str
    membership_id: str
    code: str


def code_slips(*, tournament: Tournament) -> list[CodeSlip]:
    """Each registered player with a personal code, by name."""
    return [
        CodeSlip(name, membership_id or "", code)
        for name, membership_id, code in SubmissionCode.objects.filter(
            registration__tournament=tournament
        )
        .order_by("registration__player__name", "pk")
        .values_list("registration__player__name", "registration__player__membership_id", "code")
    ]


def latest_recheck(*, tournament: Tournament) -> RecheckRun | None:
    return RecheckRun.objects.filter(tournament=tournament).first()
