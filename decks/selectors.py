"""Reads of the decks app: rules, pools, lists, findings and deck checks."""

import datetime
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext as _

from decks.describe import describe
from decks.models import (
    Card,
    DeckCheck,
    DeckFormat,
    DeckList,
    DeckListLine,
    DeckRules,
    Finding,
    SubmissionCode,
)
from decks.parsing import CardInfo, ParsedLine, PoolIndex
from decks.rules import RuleSet
from judging.models import PenaltyRecord
from tournaments.models import Match, Registration, RegistrationStatus, Round, Tournament

RULE_FIELDS = (
    "main_min",
    "main_max",
    "extra_max",
    "copy_limit",
    "lifting_feature",
    "combine_sections",
    "check_legality",
)


def default_format(*, tournament: Tournament) -> DeckFormat | None:
    return (
        DeckFormat.objects.filter(slug=tournament.format).first()
        or DeckFormat.objects.filter(kind=tournament.format).first()
    )


def rules_for(*, tournament: Tournament) -> DeckRules | None:
    """The tournament's deck rules; unsaved defaults from its format when none were set."""
    rules = DeckRules.objects.select_related("format", "pool").filter(tournament=tournament).first()
    if rules is not None:
        return rules
    deck_format = default_format(tournament=tournament)
    if deck_format is None:
        return None
    return defaults_from(tournament=tournament, deck_format=deck_format)


def defaults_from(*, tournament: Tournament, deck_format: DeckFormat) -> DeckRules:
    rules = DeckRules(tournament=tournament, format=deck_format)
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
    )


def pool_index(*, pool_id: int | None) -> PoolIndex:
    if pool_id is None:
        return PoolIndex()
    cards = Card.objects.filter(pool_id=pool_id).only("id", "name", "features", "legal_in")
    return PoolIndex.of(card_info(card) for card in cards)


def parsed_lines(*, decklist: DeckList) -> list[ParsedLine]:
    """The saved lines of a list as the pure checks take them (``lines`` may be prefetched)."""
    return [
        ParsedLine(
            number=line.number,
            section=line.section,
            written_name=line.written_name,
            count=line.count,
            card=card_info(line.card) if line.card else None,
        )
        for line in decklist.lines.all()
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


def missing_lists(*, tournament: Tournament) -> list[FindingRow]:
    """1.1 а for every playing player without a list, once the deadline or first pairing came."""
    if not tournament.uses_decklists:
        return []
    since = missing_since(tournament=tournament, rules=rules_for(tournament=tournament))
    if since is None:
        return []
    without = (
        Registration.objects.filter(tournament=tournament, decklist__isnull=True)
        .exclude(status=RegistrationStatus.DROPPED)
        .select_related("player")
        .order_by("player__name")
    )
    return [
        FindingRow(
            registration=registration,
            code="1.1",
            sub_item="а",
            kind="missing",
            params={},
            found_at=since,
            text=describe("missing", {}),
        )
        for registration in without
    ]


def tournament_findings(*, tournament: Tournament) -> list[FindingRow]:
    """Every finding of the tournament, newest first; a missing list from when it became one."""
    saved = [
        _row(finding)
        for finding in Finding.objects.filter(tournament=tournament).select_related(
            "registration__player"
        )
    ]
    rows = saved + missing_lists(tournament=tournament)
    epoch = datetime.datetime.min.replace(tzinfo=datetime.UTC)
    rows.sort(key=lambda row: row.found_at or epoch, reverse=True)
    return rows


def player_findings(*, registration: Registration) -> list[FindingRow]:
    rows = [
        _row(finding)
        for finding in Finding.objects.filter(registration=registration)
        .select_related("registration__player")
        .order_by("id")
    ]
    if not rows:
        rows = [
            row
            for row in missing_lists(tournament=registration.tournament)
            if row.registration.pk == registration.pk
        ]
    return rows


def decklist_of(*, registration: Registration) -> DeckList | None:
    return (
        DeckList.objects.filter(registration=registration)
        .prefetch_related(
            Prefetch("lines", queryset=DeckListLine.objects.select_related("card")),
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


def player_rows(*, tournament: Tournament) -> list[PlayerListRow]:
    """Each player with their list's state and the number of its findings: three queries."""
    registrations = list(
        Registration.objects.filter(tournament=tournament).select_related("player")
    )
    lists = {d.registration_id: d for d in DeckList.objects.filter(tournament=tournament)}
    counts: dict[int, int] = {}
    for registration_id in Finding.objects.filter(tournament=tournament).values_list(
        "registration_id", flat=True
    ):
        counts[registration_id] = counts.get(registration_id, 0) + 1
    codes = dict(
        SubmissionCode.objects.filter(registration__tournament=tournament).values_list(
            "registration_id", "code"
        )
    )
    return [
        PlayerListRow(
            registration=r,
            decklist=lists.get(r.pk),
            findings=counts.get(r.pk, 0),
            code=codes.get(r.pk, ""),
        )
        for r in registrations
    ]


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


def deck_checks(
    *, tournament: Tournament, registration: Registration | None = None
) -> list[CheckRow]:
    checks = DeckCheck.objects.filter(tournament=tournament).select_related(
        "registration__player", "judge", "round"
    )
    if registration is not None:
        checks = checks.filter(registration=registration)
    return [
        CheckRow(
            check=check,
            findings=[_check_finding(check, f) for f in check.findings],
        )
        for check in checks
    ]


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


def deck_penalties(*, tournament: Tournament) -> list[PenaltyRecord]:
    """Penalties for deck problems (the guideline's section 1), in the order they were issued."""
    return list(
        PenaltyRecord.objects.filter(tournament=tournament, infraction__code__startswith="1.")
        .select_related("registration__player", "infraction", "issued_by", "round")
        .order_by("issued_at", "id")
    )
