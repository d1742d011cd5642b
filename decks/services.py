"""The only writers of the decks app: the card pool, the deck rules, lists, checks and picks.

Keyword-only, typed, atomic; a refusal is a ``DomainError`` (or ``ListRefused`` with its
line-by-line messages) raised before anything is written.
"""

import datetime
import re
import secrets
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import DomainError
from decks import selectors
from decks.models import (
    Card,
    CardPool,
    CheckOutcome,
    DeckCheck,
    DeckCheckPick,
    DeckFormat,
    DeckList,
    DeckListLine,
    DeckListVersion,
    DeckRules,
    Finding,
    SubmissionCode,
)
from decks.parsing import MAX_COPIES, ParseResult, PoolIndex, Unmatched, normalise, parse_list
from decks.picking import choose_tables, pick_weights
from decks.rules import FindingData, check_list, compare_deck, listed_cards
from tournaments.models import Match, Registration, Round, Tournament
from tournaments.player_import import read_upload
from tournaments.services.setup import lock_registrations

MAX_POOL_ROWS = 20_000
MAX_TEXT = 20_000
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8
POOL_HEADER_WORDS = {"name", "название", "карта", "имя", "card"}
CHECKLIST_1_3 = {
    "а": "short_deck",
    "б": "illegal_card",
    "в": "construction",
    "г": "not_theirs",
}


# --- The card pool -----------------------------------------------------------------------------


@dataclass
class PoolReport:
    imported: int = 0
    errors: list[tuple[int, str]] = field(default_factory=list)
    pool: CardPool | None = None

    @property
    def ok(self) -> bool:
        return not self.errors


def _split(cell: str) -> list[str]:
    return [part.strip() for part in re.split(r"[;|,]", cell) if part.strip()]


def _format_slugs() -> dict[str, str]:
    """Each format by its slug and by its name, normalised, to its slug."""
    names: dict[str, str] = {}
    for slug, name in DeckFormat.objects.values_list("slug", "name"):
        names[normalise(slug)] = slug
        names[normalise(name)] = slug
    return names


def import_card_pool(
    *, tournament: Tournament, name: str, content: bytes, is_demo: bool = False
) -> PoolReport:
    """Check the whole CSV (name, set, features, legal formats); import it only when no row is
    bad, as a new pool the tournament then uses."""
    report = PoolReport()
    rows, unreadable = read_upload(content)
    if unreadable:
        report.errors.append((0, unreadable))
        return report
    if rows and {normalise(cell) for cell in rows[0][1]} & POOL_HEADER_WORDS:
        rows = rows[1:]
    if not rows:
        report.errors.append((0, _("The file has no cards.")))
        return report
    if len(rows) > MAX_POOL_ROWS:
        report.errors.append(
            (0, _("The file has more than %(limit)s cards.") % {"limit": MAX_POOL_ROWS})
        )
        return report
    formats = _format_slugs()
    seen: dict[str, int] = {}
    cards: list[Card] = []
    for number, cells in rows:
        card_name = cells[0] if cells else ""
        key = normalise(card_name)
        legal_cells = _split(cells[3]) if len(cells) > 3 else []
        unknown = [cell for cell in legal_cells if normalise(cell) not in formats]
        problem = ""
        if not key:
            problem = _("The card has no name.")
        elif len(card_name) > 200 or len(cells) > 4 or any(len(cell) > 300 for cell in cells):
            problem = _("The row is too long: name, set, features, legal formats.")
        elif key in seen:
            problem = _("%(name)s is already on line %(line)s.") % {
                "name": card_name,
                "line": seen[key],
            }
        elif unknown:
            problem = _("Unknown format: %(names)s.") % {"names": ", ".join(unknown)}
        if problem:
            report.errors.append((number, problem))
            continue
        seen[key] = number
        cards.append(
            Card(
                name=card_name,
                key=key,
                set_name=cells[1] if len(cells) > 1 else "",
                features=_split(cells[2]) if len(cells) > 2 else [],
                legal_in=sorted({formats[normalise(cell)] for cell in legal_cells}),
            )
        )
    if report.errors:
        return report
    with transaction.atomic():
        pool = CardPool.objects.create(name=name.strip()[:200] or tournament.name, is_demo=is_demo)
        for card in cards:
            card.pool = pool
        Card.objects.bulk_create(cards, batch_size=1000)
        rules = _rules_for_update(tournament)
        rules.pool = pool
        rules.save()
    report.imported, report.pool = len(cards), pool
    return report


# --- The rules ---------------------------------------------------------------------------------


def _rules_for_update(tournament: Tournament) -> DeckRules:
    rules = DeckRules.objects.select_for_update().filter(tournament=tournament).first()
    if rules is not None:
        return rules
    fresh = selectors.rules_for(tournament=tournament)
    if fresh is None:
        raise DomainError("no_format", _("No format is known for this tournament."))
    fresh.save()
    return fresh


def update_rules(
    *,
    tournament: Tournament,
    deck_format: DeckFormat,
    pool: CardPool | None,
    main_min: int | None,
    main_max: int | None,
    extra_max: int | None,
    copy_limit: int | None,
    lifting_feature: str,
    combine_sections: bool,
    check_legality: bool,
    self_submission: bool,
    deadline: datetime.datetime | None,
) -> DeckRules:
    """Change the tournament's deck rules; every saved list is checked again under them."""
    if main_min is not None and main_max is not None and main_min > main_max:
        raise DomainError(
            "sizes", _("The main deck's least size is above its largest."), field="main_min"
        )
    with transaction.atomic():
        rules = _rules_for_update(tournament)
        rules.format, rules.pool = deck_format, pool
        rules.main_min, rules.main_max, rules.extra_max = main_min, main_max, extra_max
        rules.copy_limit, rules.lifting_feature = copy_limit, lifting_feature.strip()
        rules.combine_sections, rules.check_legality = combine_sections, check_legality
        rules.self_submission, rules.deadline = self_submission, deadline
        rules.save()
        for decklist in DeckList.objects.filter(tournament=tournament).prefetch_related(
            "lines__card"
        ):
            _write_findings(
                decklist,
                check_list(selectors.parsed_lines(decklist=decklist), selectors.rule_set(rules)),
            )
    return rules


# --- Deck lists --------------------------------------------------------------------------------


class ListRefused(DomainError):
    """A list that cannot be saved: every problem with its line number; nothing was written."""

    def __init__(self, parse: ParseResult, message: str) -> None:
        super().__init__("list_refused", message)
        self.errors = parse.errors
        self.unmatched: list[Unmatched] = parse.unmatched


@dataclass(frozen=True)
class SavedList:
    decklist: DeckList
    findings: list[FindingData]


def lists_locked(*, tournament: Tournament, rules: DeckRules | None) -> bool:
    """Players' own lists lock at the deadline, or at the first pairing when none is set."""
    if rules is not None and rules.deadline is not None:
        return rules.deadline_passed
    return Round.objects.filter(tournament=tournament).exists()


def save_decklist(
    *,
    registration: Registration,
    text: str,
    by: User | None,
    accept_unmatched: bool = False,
    reason: str = "",
) -> SavedList:
    """Save a player's list typed or pasted by the staff (``by``) or by the player (``by`` None),
    check it at once, and keep the version before it in the history."""
    tournament = registration.tournament
    if not tournament.uses_decklists:
        raise DomainError("no_decklists", _("This tournament does not use deck lists."))
    if len(text) > MAX_TEXT:
        raise DomainError(
            "too_long", _("The list is longer than %(limit)s characters.") % {"limit": MAX_TEXT}
        )
    rules = selectors.rules_for(tournament=tournament)
    if rules is None:
        raise DomainError("no_format", _("No format is known for this tournament."))
    index = selectors.pool_index(pool_id=rules.pool_id)
    parse = parse_list(text, index)
    if not parse.ok:
        raise ListRefused(parse, _("The list was not saved: correct these lines."))
    if parse.unmatched and not accept_unmatched:
        raise ListRefused(
            parse,
            _(
                "The list was not saved: some names are not cards of the pool. Correct them, or "
                "save them as written for the judge's 1.4 decision."
            ),
        )
    if (
        by is not None
        and not reason.strip()
        and lists_locked(tournament=tournament, rules=rules)
        and DeckList.objects.filter(registration=registration).exists()
    ):
        raise DomainError(
            "reason_required",
            _("Lists are locked: write why this list is corrected."),
            field="reason",
        )
    findings = check_list(parse.lines, selectors.rule_set(rules))
    with transaction.atomic():
        lock_registrations([registration.pk])
        decklist = DeckList.objects.select_for_update().filter(registration=registration).first()
        now = timezone.now()
        if decklist is None:
            decklist = DeckList.objects.create(
                tournament=tournament, registration=registration, text=text, updated_at=now
            )
        else:
            decklist.version += 1
            decklist.text, decklist.updated_at = text, now
            decklist.save(update_fields=["version", "text", "updated_at"])
            decklist.lines.all().delete()
        DeckListVersion.objects.create(
            decklist=decklist,
            number=decklist.version,
            text=text,
            author=by,
            by_player=by is None,
            reason=reason.strip(),
            created_at=now,
        )
        DeckListLine.objects.bulk_create(
            DeckListLine(
                decklist=decklist,
                number=line.number,
                section=line.section,
                written_name=line.written_name[:200],
                card_id=line.card.id if line.card else None,
                count=line.count,
            )
            for line in parse.lines
        )
        _write_findings(decklist, findings, now=now)
    return SavedList(decklist=decklist, findings=findings)


def _write_findings(
    decklist: DeckList, findings: list[FindingData], now: datetime.datetime | None = None
) -> None:
    Finding.objects.filter(decklist=decklist).delete()
    moment = now or timezone.now()
    Finding.objects.bulk_create(
        Finding(
            tournament_id=decklist.tournament_id,
            registration_id=decklist.registration_id,
            decklist=decklist,
            code=f.code,
            sub_item=f.sub_item,
            kind=f.kind,
            params=f.params,
            created_at=moment,
        )
        for f in findings
    )


def issue_submission_codes(*, tournament: Tournament) -> int:
    """Give every player without one a personal code for submitting their own list."""
    with transaction.atomic():
        taken = set(
            SubmissionCode.objects.filter(registration__tournament=tournament).values_list(
                "code", flat=True
            )
        )
        missing = Registration.objects.filter(
            tournament=tournament, submission_code__isnull=True
        ).order_by("pk")
        made = []
        for registration in missing:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            while code in taken:
                code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            taken.add(code)
            made.append(SubmissionCode(registration=registration, code=code))
        SubmissionCode.objects.bulk_create(made)
    return len(made)


def submit_own_list(*, tournament: Tournament, code: str, text: str) -> SavedList:
    """A player's own list, with their personal code, before the lists lock."""
    rules = selectors.rules_for(tournament=tournament)
    if rules is None or not rules.self_submission or not tournament.uses_decklists:
        raise DomainError("closed", _("This tournament does not take lists from players."))
    if lists_locked(tournament=tournament, rules=rules):
        raise DomainError(
            "locked", _("The deadline has passed: lists are locked. Ask a judge."), field="text"
        )
    wanted = code.strip().upper().replace(" ", "")
    entry = (
        SubmissionCode.objects.filter(registration__tournament=tournament, code=wanted)
        .select_related("registration__tournament")
        .first()
        if wanted
        else None
    )
    if entry is None:
        raise DomainError("bad_code", _("This code is not known here."), field="code")
    return save_decklist(registration=entry.registration, text=text, by=None)


# --- Deck checks -------------------------------------------------------------------------------


def record_deck_check(
    *,
    registration: Registration,
    judge: User,
    counted: Mapping[str, tuple[int, int]] | None = None,
    not_on_list: str = "",
    checklist: list[str] | None = None,
    note: str = "",
    client_key: uuid.UUID | None = None,
) -> DeckCheck:
    """Log a deck check at the table and name what it found.

    With deck lists, ``counted`` holds the copies the judge counted per card of the list and
    ``not_on_list`` the cards found that the list does not name (lines like ``1 Богарт``): the
    app names the 1.2 sub-items. Without lists, ``checklist`` holds the 1.3 sub-items the judge
    ticked.
    """
    tournament = registration.tournament
    if client_key is not None:
        earlier = DeckCheck.objects.filter(client_key=client_key, tournament=tournament).first()
        if earlier is not None:
            return earlier
    findings: list[FindingData]
    if tournament.uses_decklists:
        decklist = selectors.decklist_of(registration=registration)
        if decklist is None:
            raise DomainError("no_list", _("This player has no deck list to check against."))
        extras = parse_list(not_on_list, PoolIndex()) if not_on_list.strip() else ParseResult()
        if extras.errors:
            line, message = extras.errors[0]
            raise DomainError(
                "bad_cards",
                _("Cards not on the list, line %(line)s: %(message)s")
                % {"line": line, "message": message},
                field="not_on_list",
            )
        for counts in (counted or {}).values():
            if any(value < 0 or value > MAX_COPIES for value in counts):
                raise DomainError(
                    "bad_count",
                    _("Count each card from 0 to %(limit)s.") % {"limit": MAX_COPIES},
                )
        findings = compare_deck(
            listed=listed_cards(selectors.parsed_lines(decklist=decklist)),
            found=counted or {},
            not_on_list=[(line.written_name, line.count or 1) for line in extras.lines],
        )
    else:
        letters = checklist or []
        unknown = [letter for letter in letters if letter not in CHECKLIST_1_3]
        if unknown:
            raise DomainError("bad_item", _("Choose sub-items from the checklist."))
        findings = [FindingData("1.3", letter, CHECKLIST_1_3[letter]) for letter in sorted(letters)]
    round_, table = selectors.current_seat(registration=registration)
    try:
        with transaction.atomic():
            lock_registrations([registration.pk])
            return DeckCheck.objects.create(
                tournament=tournament,
                registration=registration,
                round=round_,
                table=table,
                judge=judge,
                with_lists=tournament.uses_decklists,
                outcome=CheckOutcome.PROBLEMS if findings else CheckOutcome.CORRECT,
                findings=[
                    {"code": f.code, "sub_item": f.sub_item, "kind": f.kind, "params": f.params}
                    for f in findings
                ],
                note=note.strip(),
                client_key=client_key,
            )
    except IntegrityError:
        earlier = DeckCheck.objects.filter(client_key=client_key).first()
        if earlier is None:
            raise
        return earlier


# --- Picking tables at random ------------------------------------------------------------------


def pick_tables(
    *, tournament: Tournament, by: User, count: int, seed: int | None = None
) -> DeckCheckPick:
    """Pick tables of the latest round for deck checks, the seed recorded and shown."""
    round_ = Round.objects.filter(tournament=tournament).order_by("-number").first()
    if round_ is None:
        raise DomainError("no_round", _("No round has been paired yet."))
    if not 1 <= count <= 50:
        raise DomainError("count", _("Pick from 1 to 50 tables."), field="count")
    matches = Match.objects.filter(round=round_, player2__isnull=False, table__isnull=False)
    tables = [(m.table, [m.player1_id, m.player2_id]) for m in matches if m.table is not None]
    if not tables:
        raise DomainError("no_tables", _("The latest round has no tables to check."))
    used_seed = seed if seed is not None else secrets.randbelow(1_000_000)
    weights = pick_weights(
        [(table, [p for p in players if p is not None]) for table, players in tables],
        selectors.checked_counts(tournament=tournament),
    )
    with transaction.atomic():
        return DeckCheckPick.objects.create(
            tournament=tournament,
            round=round_,
            seed=used_seed,
            tables=choose_tables(weights, count, used_seed),
            picked_by=by,
        )
