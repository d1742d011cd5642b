"""The only writers of the decks app: the card pool, the deck rules, lists, checks and picks.

Keyword-only, typed, atomic; a refusal is a ``DomainError`` (or ``ListRefused`` with its
line-by-line messages) raised before anything is written.
"""

import datetime
import functools
import secrets
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import IntegrityError, connection, models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.errors import DomainError
from core.idle import in_idle_thread
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
    RecheckRun,
    SubmissionCode,
)
from decks.parsing import (
    MAX_COPIES,
    CardInfo,
    ParsedLine,
    ParseResult,
    PoolIndex,
    Unmatched,
    parse_list,
)
from decks.picking import choose_tables, pick_weights
from decks.pool_file import decode_pool_file, file_rows, read_pool
from decks.rules import FindingData, RuleSet, check_list, check_text, compare_deck, listed_cards
from tournaments.models import Match, Registration, Round, Tournament
from tournaments.services.setup import lock_registrations, update_tournament

MAX_TEXT = 20_000
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8
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


def import_card_pool(
    *,
    tournament: Tournament,
    name: str,
    content: bytes,
    owner: User | None = None,
    is_demo: bool = False,
) -> PoolReport:
    """Check the whole file (columns by their header names, see ``decks.pool_file``); import it
    only when no row is bad, as a new pool of ``owner`` that the tournament then uses. Every
    saved list is read again against the new pool."""
    report = PoolReport()
    text, unreadable = decode_pool_file(content)
    if unreadable:
        report.errors.append((0, unreadable))
        return report
    read = read_pool(file_rows(text), selectors.format_names())
    if not read.ok:
        report.errors = read.errors
        return report
    with transaction.atomic():
        pool = CardPool.objects.create(
            name=name.strip()[:200] or tournament.name, is_demo=is_demo, owner=owner
        )
        Card.objects.bulk_create(
            (
                Card(
                    pool=pool,
                    name=card.name,
                    key=card.key,
                    set_name=card.set_name,
                    features=list(card.features),
                    elements=list(card.elements),
                    is_hero=card.is_hero,
                    legal_in=list(card.legal_in),
                    banned_in=list(card.banned_in),
                )
                for card in read.cards
            ),
            batch_size=1000,
        )
        rules = _rules_for_update(tournament)
        rules.pool = pool
        rules.save()
        request_recheck(tournament=tournament)
    report.imported, report.pool = len(read.cards), pool
    return report


# --- The rules ---------------------------------------------------------------------------------


def _rules_for_update(tournament: Tournament) -> DeckRules:
    rules = DeckRules.objects.select_for_update().filter(tournament=tournament).first()
    if rules is not None:
        rules.tournament = tournament
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
    hero_rule: bool | None = None,
) -> DeckRules:
    """Change the tournament's deck rules; every saved list is read and checked again under them
    (``hero_rule`` None: as the format has it)."""
    if main_min is not None and main_max is not None and main_min > main_max:
        raise DomainError(
            "sizes", _("The main deck's least size is above its largest."), field="main_min"
        )
    with transaction.atomic():
        if tournament.format != deck_format.slug:
            # One setting: the deck rules' format is the tournament's (rules.md, issue 28).
            update_tournament(tournament=tournament, format=deck_format.slug)
            tournament.format = deck_format.slug
        rules = _rules_for_update(tournament)
        pool_changed = rules.pool_id != (pool.pk if pool else None)
        rules.tournament, rules.pool = tournament, pool
        rules.main_min, rules.main_max, rules.extra_max = main_min, main_max, extra_max
        rules.copy_limit, rules.lifting_feature = copy_limit, lifting_feature.strip()
        rules.combine_sections, rules.check_legality = combine_sections, check_legality
        rules.self_submission, rules.deadline = self_submission, deadline
        rules.hero_rule = deck_format.hero_rule if hero_rule is None else hero_rule
        rules.save()
        request_recheck(tournament=tournament, rewrite_lines=pool_changed)
    return rules


# Lists re-checked per step: each step's writes are one short transaction (on SQLite the only
# writer while it lasts). A writer that meanwhile waits for SQLite's lock (a judge's submit, a
# player's list) gets it between two of the worker's transactions: SQLite's busy handler tries
# again after 1, 3, 8, 18, 33... ms, so the gap must last that long. Reading and checking the
# next step's lists, which comes before any write of that step, is such a gap.
# Measured in benchmarks/decks.py --recheck.
RECHECK_STEP = 50


def request_recheck(*, tournament: Tournament, rewrite_lines: bool = True) -> RecheckRun:
    """Start a re-check of every list of the tournament once the current transaction commits,
    off the request (``decks.tasks``); the deck screens show its progress. ``rewrite_lines``:
    the pool changed, so the lines are read again too (and written where they now differ)."""
    run = _new_recheck_run(tournament, rewrite_lines)
    if run.total == 0:
        run.finished_at = run.created_at
        run.save(update_fields=["finished_at"])
        return run
    # Imported here: the task module imports this one.
    from decks.tasks import recheck_tournament_lists

    transaction.on_commit(lambda: recheck_tournament_lists.enqueue(run.pk))
    return run


def _new_recheck_run(tournament: Tournament, rewrite_lines: bool) -> RecheckRun:
    """A run that supersedes every earlier one of the tournament (``run_recheck`` stops an older
    run at its next step). It takes their unfinished work over: when one of them was to read the
    lines again against a new pool, so is this one, even if only the rules changed since;
    otherwise the lists that run had not reached would keep their lines as read against the old
    pool."""
    unfinished_pool_change = RecheckRun.objects.filter(
        tournament=tournament, finished_at__isnull=True, rewrite_lines=True
    ).exists()
    return RecheckRun.objects.create(
        tournament=tournament,
        total=DeckList.objects.filter(tournament=tournament).count(),
        rewrite_lines=rewrite_lines or unfinished_pool_change,
    )


def run_recheck(*, run_id: int) -> int:
    """Read every list of the run's tournament again against its current pool and rules, and
    write its lines and findings anew: a new pool, format, rule or ban reaches lists already in.

    In steps of ``RECHECK_STEP`` lists: each list is read and checked outside any transaction,
    then one short transaction writes what changed (only the lists whose findings or lines now
    differ; a finding found again keeps its row and its time) and moves the progress on, so a
    judge's or a player's save waits for one step at most. A list saved meanwhile (a new version)
    keeps its own, newer check. A run stops when a newer one for the same tournament has started.
    Returns the lists checked."""
    run = RecheckRun.objects.select_related("tournament").filter(pk=run_id).first()
    if run is None or run.finished_at is not None:
        return 0
    tournament = run.tournament
    rules = selectors.rules_for(tournament=tournament)
    if rules is None:
        RecheckRun.objects.filter(pk=run.pk).update(finished_at=timezone.now())
        return 0
    rule_set = selectors.rule_set(rules)
    index = selectors.pool_index(pool_id=rules.pool_id)
    ids = list(
        DeckList.objects.filter(tournament=tournament).order_by("pk").values_list("pk", flat=True)
    )
    steps = [ids[start : start + RECHECK_STEP] for start in range(0, len(ids), RECHECK_STEP)]

    checked = 0
    for number, step in enumerate(steps):
        # Read under the idle policy (``core.idle``), in a thread that has ended before the
        # step's transaction begins. The reading is most of the worker's time, and a judge's
        # request must never wait for it. Reading the next step while a step writes (as
        # PostgreSQL did until the lines named their cards by key) kept two of the database's
        # processes busy for the worker at once on a two-core machine, and the judge's submits
        # waited for them: p95 1.5-1.7× idle against 1.2-1.5× strictly in turn, at the same wall.
        # On SQLite a reading thread beside the write would share Python's interpreter lock with
        # the writer, which holds the one write lock every submit waits for.
        rows = in_idle_thread(
            functools.partial(_reread_step, step, index, rule_set, rewrite_lines=run.rewrite_lines),
            name="recheck-reader",
        )
        if RecheckRun.objects.filter(tournament=tournament, pk__gt=run.pk).exists():
            # The newer run takes this one's work over (``_new_recheck_run``).
            RecheckRun.objects.filter(pk=run.pk).update(finished_at=timezone.now())
            return checked
        checked += _write_step(rows, progress=(run.pk, number * RECHECK_STEP + len(step)))
    # Every list was checked: this run ends, and with it every older one of the tournament that
    # never did (a worker stopped mid-run), whose work this run has done; an unfinished pool
    # change left behind would make every later re-check rewrite the lines again.
    RecheckRun.objects.filter(
        tournament=tournament, pk__lte=run.pk, finished_at__isnull=True
    ).update(finished_at=timezone.now())
    return checked


def recheck_lists(*, tournament: Tournament, rewrite_lines: bool = True) -> int:
    """Re-check every list of the tournament now, in this process (the task's work, at once)."""
    run = _new_recheck_run(tournament, rewrite_lines)
    return run_recheck(run_id=run.pk)


LineRow = tuple[int, str, str, str, int | None]
FindingKey = tuple[str, str, str, object]


def _lines_as_saved(ids: list[int]) -> dict[int, list[LineRow]]:
    saved: dict[int, list[LineRow]] = {}
    for decklist_id, number, section, written_name, card_key, count in (
        DeckListLine.objects.filter(decklist_id__in=ids)
        .order_by("decklist_id", "number", "pk")
        .values_list("decklist_id", "number", "section", "written_name", "card_key", "count")
    ):
        saved.setdefault(decklist_id, []).append((number, section, written_name, card_key, count))
    return saved


def _findings_as_saved(ids: list[int]) -> dict[int, list[FindingKey]]:
    saved: dict[int, list[FindingKey]] = {}
    for decklist_id, *row in (
        Finding.objects.filter(decklist_id__in=ids)
        .order_by("decklist_id", "pk")
        .values_list("decklist_id", "code", "sub_item", "kind", "params")
    ):
        saved.setdefault(decklist_id, []).append(tuple(row))
    return saved


@dataclass
class _Reread:
    """One list read again: what it would be written as, and whether that differs."""

    decklist: DeckList
    parse: ParseResult
    findings: list[FindingData]
    lines_changed: bool = False
    findings_changed: bool = False


@dataclass
class _StepRows:
    """One step of lists read and checked again: the rows to write for the lists that now read
    or check differently, their values prepared for the database (``_column_values``)."""

    checked: int
    versions: dict[int, int]
    lines: dict[int, list[tuple[Any, ...]]]
    found: dict[int, list[tuple[Any, ...]]]


def _write_step(rows: _StepRows, *, progress: tuple[int, int]) -> int:
    """Write one step of lists as ``_reread_step`` read them, in one short transaction: the
    lines and findings of the lists that now read or check differently, unless saved since; and
    the progress. Returns the lists checked."""
    run_id, done = progress
    with transaction.atomic():
        stale: set[int] = set()
        if rows.versions:
            # The lists' rows are locked before their lines, in the order of their ids, as a
            # list's save locks its row before its lines: on PostgreSQL another order could
            # deadlock with a judge or a player saving a list of this step.
            current = dict(
                DeckList.objects.select_for_update()
                .filter(pk__in=rows.versions)
                .order_by("pk")
                .values_list("pk", "version")
            )
            stale = {pk for pk, version in rows.versions.items() if current.get(pk) != version}
            _write_rows(
                {pk: lines for pk, lines in rows.lines.items() if pk not in stale},
                {pk: found for pk, found in rows.found.items() if pk not in stale},
            )
        RecheckRun.objects.filter(pk=run_id).update(done=done)
    return rows.checked - len(stale)


def _reread_step(
    ids: list[int],
    index: PoolIndex,
    rule_set: RuleSet,
    *,
    rewrite_lines: bool,
) -> _StepRows:
    """Read and check the step's lists again and prepare the rows of those whose findings (or,
    with ``rewrite_lines``, lines) now differ from what is saved; reads only. A line names its
    card by key, so in a re-imported pool most lines read as saved; a pool taken away leaves
    every line without a card."""
    reread: list[_Reread] = []
    for decklist in DeckList.objects.filter(pk__in=ids).only(
        "id", "text", "version", "registration_id", "tournament_id"
    ):
        check = check_text(decklist.text, index, rule_set)
        if check.parse.ok:
            reread.append(_Reread(decklist, check.parse, check.findings))
        # A list saved before the reader changed and now unreadable keeps what it had.
    saved_findings = _findings_as_saved([r.decklist.pk for r in reread])
    for item in reread:
        now_found = [(f.code, f.sub_item, f.kind, f.params) for f in item.findings]
        item.findings_changed = saved_findings.get(item.decklist.pk, []) != now_found
    if rewrite_lines:
        saved_lines = _lines_as_saved([r.decklist.pk for r in reread])
        for item in reread:
            now_read = [
                (line.number, line.section, line.written_name[:200], _card_key(line), line.count)
                for line in item.parse.lines
            ]
            item.lines_changed = saved_lines.get(item.decklist.pk, []) != now_read
    changed = [r for r in reread if r.findings_changed or r.lines_changed]
    now = timezone.now()
    return _StepRows(
        checked=len(reread),
        versions={r.decklist.pk: r.decklist.version for r in changed},
        lines={
            r.decklist.pk: _column_values(_line_rows(r.decklist, r.parse))
            for r in changed
            if r.lines_changed
        },
        found={
            r.decklist.pk: _column_values(_finding_rows(r.decklist, r.findings, now))
            for r in changed
            if r.findings_changed
        },
    )


def _new_row_columns(model: type[models.Model]) -> list[tuple[models.Field[Any, Any], str]]:
    """The fields a new row of the model is written with, each with its column: every concrete
    field but the key, which the database gives."""
    return [
        (column, column.column)
        for column in model._meta.get_fields()
        if isinstance(column, models.Field) and column.column is not None and not column.primary_key
    ]


def _column_values(rows: Sequence[models.Model]) -> list[tuple[Any, ...]]:
    """New rows' values as the database takes them, each through its field's own ``pre_save``
    and ``get_db_prep_save`` (what ``bulk_create`` does with them). Done before the write
    transaction: for a step's 600 findings that preparation is most of ``bulk_create``'s time,
    and on SQLite every other writer waits for the transaction."""
    if not rows:
        return []
    fields = [column for column, _name in _new_row_columns(type(rows[0]))]
    return [
        tuple(column.get_db_prep_save(column.pre_save(row, True), connection) for column in fields)
        for row in rows
    ]


def _insert_values(model: type[models.Model], values: list[tuple[Any, ...]]) -> None:
    """Insert rows prepared by ``_column_values``: one statement, run for each row."""
    if not values:
        return
    quote = connection.ops.quote_name
    columns = [quote(name) for _column, name in _new_row_columns(model)]
    with connection.cursor() as cursor:
        cursor.executemany(
            f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(columns)}) "
            f"VALUES ({', '.join(['%s'] * len(columns))})",
            values,
        )


def _card_key(line: ParsedLine) -> str:
    return line.card.key if line.card else ""


def _write_rows(
    lines: dict[int, list[tuple[Any, ...]]], found: dict[int, list[tuple[Any, ...]]]
) -> None:
    """Write the lines and findings of lists that now read or check differently (in the step's
    transaction, their rows locked), their values prepared before it began."""
    if lines:
        DeckListLine.objects.filter(decklist_id__in=list(lines)).delete()
        _insert_values(DeckListLine, [row for rows in lines.values() for row in rows])
    if found:
        Finding.objects.filter(decklist_id__in=list(found)).delete()
        _insert_values(Finding, [row for rows in found.values() for row in rows])


def _hero(parse: ParseResult) -> CardInfo | None:
    return parse.hero.card if parse.hero is not None else None


def _line_rows(decklist: DeckList, parse: ParseResult) -> list[DeckListLine]:
    return [
        DeckListLine(
            decklist_id=decklist.pk,
            number=line.number,
            section=line.section,
            written_name=line.written_name[:200],
            card_key=_card_key(line),
            count=line.count,
        )
        for line in parse.lines
    ]


def _finding_rows(
    decklist: DeckList, findings: list[FindingData], now: datetime.datetime
) -> list[Finding]:
    return [
        Finding(
            tournament_id=decklist.tournament_id,
            registration_id=decklist.registration_id,
            decklist_id=decklist.pk,
            code=f.code,
            sub_item=f.sub_item,
            kind=f.kind,
            params=f.params,
            created_at=now,
        )
        for f in findings
    ]


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
    # The list as read: what the player is shown (hero, names, what was not a card).
    parse: ParseResult | None = None


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
    # One character a line break, as the player sees it in the box (a browser sends CRLF).
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if len(text) > MAX_TEXT:
        raise DomainError(
            "too_long",
            ngettext(
                "The list has %(count)s character; at most %(limit)s.",
                "The list has %(count)s characters; at most %(limit)s.",
                len(text),
            )
            % {"count": len(text), "limit": MAX_TEXT},
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
    findings = check_list(parse.lines, selectors.rule_set(rules), hero=_hero(parse))
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
        DeckListLine.objects.bulk_create(_line_rows(decklist, parse))
        Finding.objects.filter(decklist=decklist).delete()
        Finding.objects.bulk_create(_finding_rows(decklist, findings, now))
    return SavedList(decklist=decklist, findings=findings, parse=parse)


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


# Wrong personal codes allowed in a window, from one client and into one tournament, before the
# form answers only "wait": a code of 8 characters from 32 cannot be guessed in so few tries.
CODE_TRIES_PER_CLIENT = 10
CODE_TRIES_PER_TOURNAMENT = 100
CODE_WINDOW_SECONDS = 15 * 60


def _tries_keys(tournament: Tournament, client: str) -> tuple[str, str]:
    return f"decks:code-tries:{tournament.pk}:{client}", f"decks:code-tries:{tournament.pk}"


def _ensure_may_try_a_code(tournament: Tournament, client: str) -> None:
    """Refuse before the code is looked at, so the answer says nothing about any code."""
    by_client, by_tournament = _tries_keys(tournament, client)
    if (cache.get(by_client) or 0) >= CODE_TRIES_PER_CLIENT or (
        cache.get(by_tournament) or 0
    ) >= CODE_TRIES_PER_TOURNAMENT:
        raise DomainError(
            "code_throttled",
            _("Too many wrong codes. Wait %(minutes)s minutes, or ask the organiser for your code.")
            % {"minutes": CODE_WINDOW_SECONDS // 60},
            field="code",
        )


def _count_a_wrong_code(tournament: Tournament, client: str) -> None:
    for key in _tries_keys(tournament, client):
        # add() starts the window once; incr() keeps its expiry.
        if not cache.add(key, 1, CODE_WINDOW_SECONDS):
            try:
                cache.incr(key)
            except ValueError:
                cache.set(key, 1, CODE_WINDOW_SECONDS)


def submit_own_list(*, tournament: Tournament, code: str, text: str, client: str = "") -> SavedList:
    """A player's own list, with their personal code, before the lists lock. Wrong codes are
    counted per ``client`` (its address) and per tournament; past the limit every code is
    refused for a while without being looked at."""
    rules = selectors.rules_for(tournament=tournament)
    if rules is None or not rules.self_submission or not tournament.uses_decklists:
        raise DomainError("closed", _("This tournament does not take lists from players."))
    if lists_locked(tournament=tournament, rules=rules):
        raise DomainError(
            "locked", _("The deadline has passed: lists are locked. Ask a judge."), field="text"
        )
    _ensure_may_try_a_code(tournament, client)
    wanted = code.strip().upper().replace(" ", "")
    entry = (
        SubmissionCode.objects.filter(registration__tournament=tournament, code=wanted)
        .select_related("registration__tournament")
        .first()
        if wanted
        else None
    )
    if entry is None:
        _count_a_wrong_code(tournament, client)
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
        extras = (
            parse_list(not_on_list, PoolIndex(), titles=False)
            if not_on_list.strip()
            else ParseResult()
        )
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
