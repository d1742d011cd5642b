"""The report's reads: the event, the staff, the standings, the counts, the changes, and the
penalties in force read in chunks as ``PenaltyRow`` objects, never held whole."""

import datetime
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from django.db.models import Count, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from core.people import display_name
from core.rows import moment_text
from judging.explanations import explain, penalty_label
from judging.models import (
    AcknowledgementKind,
    ChangeKind,
    InvestigationStatement,
    PenaltyChange,
    PenaltyRecord,
    RecordStatus,
    StatementRole,
)
from judging.penalties import Rank
from judging.record_state import STATE_VALUES, state_from_values
from judging.selectors import DECISION_KINDS, edition_for
from tournaments import selectors as tournament_selectors
from tournaments.models import (
    Format,
    Level,
    Registration,
    ResultCorrection,
    Round,
    Staff,
    StaffRole,
    Tournament,
    TournamentStatus,
)
from tournaments.selectors import StandingLine

# Rows read from the database per round trip: large enough that 20,000 records take ten fetches,
# small enough that a chunk of decoded rows stays well under a megabyte.
CHUNK_SIZE = 2000
# Rows written to the CSV buffer before it is handed to the response as one piece.
CSV_ROWS_PER_PIECE = 500
# Rows rendered by one pass of the HTML row template.
HTML_ROWS_PER_PIECE = 500


# The columns every penalty query reads; ``.values()`` keeps model instances out of the loop.
PENALTY_FIELDS = (
    "id",
    "round__number",
    "issued_in_match__table",
    "registration__player__name",
    "registration__player__membership_id",
    "infraction__code",
    "infraction__name",
    "sub_item",
    "base_rank",
    "issued_rank",
    "rank",
    "explanation",
    "issued_by__username",
    "issued_by__first_name",
    "issued_by__last_name",
    "issued_at",
    "note",
    "membership_suspension__ends_on",
    "acknowledgement__kind",
    "acknowledgement__at",
    # What the record does now is decided by ``judging.record_state`` from these.
    *STATE_VALUES,
)


@dataclass(frozen=True, slots=True)
class PenaltyRow:
    """One penalty record as the report shows it, with every word already in the reader's
    language."""

    record_id: int
    round: int | None
    table: int | None
    player: str
    membership_id: str
    code: str
    infraction: str
    sub_item: str
    base: str
    issued_as: str
    penalty: str
    rank: int
    rank_key: str
    amended: bool
    explanation: str
    judge: str
    issued_at: datetime.datetime
    # «05.12.2026 14:30» in the event's time zone, as ``|date:"d.m.Y H:i"`` wrote it: written once
    # per row here, where the filter cost 35 µs a cell (1.7 ms of a 50-row page; issue 29).
    issued_at_text: str
    note: str
    # What a pending loss waits for ("" when the loss does not wait); ``loss`` says it in full.
    takes: str
    loss: str
    suspension_ends: datetime.date | None
    # The player's answer on the judge's tablet: "" when none was recorded.
    acknowledgement: str = ""
    acknowledged_at: datetime.datetime | None = None
    acknowledged_at_text: str = ""

    @property
    def loses_prize(self) -> bool:
        return Rank(self.rank).takes_prize

    @property
    def is_suspension(self) -> bool:
        return self.rank == Rank.SUSPENSION


@dataclass(frozen=True)
class EventDetails:
    name: str
    date: datetime.date
    venue: str
    level: str
    format: str
    best_of: int
    uses_decklists: bool
    players: int
    rounds_played: int
    rounds_planned: int | None
    status: str
    finished: bool
    head_judge_is_official: bool
    edition: str
    head_judges: list[str] = field(default_factory=list)
    # The infractions this tournament replaced, each as "code name: reason" (rules.md §3).
    replaced_infractions: list[str] = field(default_factory=list)
    organisers: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class StaffRow:
    role: str
    name: str
    penalties_issued: int


@dataclass(frozen=True)
class ChangeRow:
    """An amendment, a revocation or a declined request, with the head judge's reason."""

    record_id: int
    kind: str
    at: datetime.datetime
    author: str
    player: str
    membership_id: str
    code: str
    from_penalty: str
    to_penalty: str
    reason: str


@dataclass(frozen=True)
class StatementRow:
    role: str
    author: str
    at: datetime.datetime
    taken_by: str
    text: str


@dataclass(frozen=True)
class Investigation:
    """A disqualification's write-up: the statements taken and the head judge's decision."""

    statements: list[StatementRow]
    decision: str = ""
    decided_at: datetime.datetime | None = None
    decided_by: str = ""
    reasoning: str = ""


@dataclass(frozen=True)
class AcknowledgementCounts:
    """How the players answered on the judges' tablets, over the penalties in force."""

    acknowledged: int
    declined: int
    not_recorded: int


@dataclass(frozen=True)
class CountRow:
    label: str
    count: int


@dataclass(frozen=True)
class Report:
    """Everything on the report page except the list of penalties, which is streamed."""

    tournament: Tournament
    event: EventDetails
    staff: list[StaffRow]
    standings: Sequence[StandingLine]
    disqualifications: list[PenaltyRow]
    changes: list[ChangeRow]
    pending_losses: list[PenaltyRow]
    by_infraction: list[CountRow]
    by_rank: list[CountRow]
    total_in_force: int
    result_corrections: list[ResultCorrection] = field(default_factory=list)
    investigations: dict[int, Investigation] = field(default_factory=dict)
    acknowledgements: AcknowledgementCounts = AcknowledgementCounts(0, 0, 0)
    generated_at: datetime.datetime | None = None

    @property
    def write_ups(self) -> list[tuple[PenaltyRow, Investigation]]:
        """Each disqualification on this page with its investigation, in the report's order."""
        empty = Investigation(statements=[])
        return [
            (row, self.investigations.get(row.record_id, empty)) for row in self.disqualifications
        ]


def person_name(*, username: str | None, first_name: str = "", last_name: str = "") -> str:
    """The name a judge is known by: the full name when set, else the login; "" for nobody."""
    if username is None:
        return ""
    return f"{first_name} {last_name}".strip() or username


def build_report(*, tournament: Tournament, now: datetime.datetime | None = None) -> Report:
    """Read the report's bounded parts; a fixed number of queries whatever the event's size."""
    disqualifications = list(
        penalty_rows(records=_in_force(tournament).filter(rank__gte=Rank.DISQUALIFICATION))
    )
    counts = record_counts(tournament=tournament)
    return Report(
        tournament=tournament,
        generated_at=now or timezone.now(),
        event=event_details(tournament=tournament),
        staff=staff_rows(tournament=tournament, counts=counts),
        # The rows as the report shows them, a page's players read when the page is cut.
        standings=tournament_selectors.standing_lines(tournament=tournament, through_round=None),
        disqualifications=disqualifications,
        investigations=investigations(record_ids=[row.record_id for row in disqualifications]),
        acknowledgements=acknowledgement_counts(counts=counts),
        changes=change_rows(tournament=tournament),
        pending_losses=list(
            penalty_rows(
                records=PenaltyRecord.objects.filter(tournament=tournament).pending_losses()
            )
        ),
        by_infraction=counts_by_infraction(counts=counts),
        by_rank=counts_by_rank(counts=counts),
        total_in_force=sum(group.count for group in counts if group.in_force),
        result_corrections=tournament_selectors.result_corrections(tournament=tournament),
    )


@dataclass(frozen=True, slots=True)
class RecordGroup:
    """How many of the tournament's records share these columns: the report's every count
    (by judge, by infraction, by rank, by the player's answer, the total) adds these up."""

    in_force: bool
    rank: int
    code: str | None
    name: str | None
    answer: str | None
    judge: int | None
    count: int


def record_counts(*, tournament: Tournament) -> list[RecordGroup]:
    """The tournament's records counted in one pass over them, grouped by what the report's
    counts tell apart; the groups are few (a handful of judges, infractions, ranks and answers)
    however many records there are, where one query per count would read every record each."""
    grouped = (
        PenaltyRecord.objects.filter(tournament=tournament)
        .values_list(
            "status",
            "rank",
            "infraction__code",
            "infraction__name",
            "acknowledgement__kind",
            "issued_by_id",
        )
        .annotate(count=Count("id"))
        .order_by()
    )
    return [
        RecordGroup(
            in_force=status == RecordStatus.IN_FORCE,
            rank=rank,
            code=code,
            name=name,
            answer=answer,
            judge=judge,
            count=count,
        )
        for status, rank, code, name, answer, judge, count in grouped
    ]


def _counted[K](groups: list[RecordGroup], key: Callable[[RecordGroup], K]) -> dict[K, int]:
    counted: dict[K, int] = {}
    for group in groups:
        counted[key(group)] = counted.get(key(group), 0) + group.count
    return counted


def _groups_in_force(groups: list[RecordGroup]) -> list[RecordGroup]:
    return [group for group in groups if group.in_force]


def event_details(*, tournament: Tournament) -> EventDetails:
    edition = edition_for(tournament=tournament)
    return EventDetails(
        name=tournament.name,
        date=tournament.date,
        venue=tournament.venue,
        level=str(Level(tournament.level).label),
        format=str(Format(tournament.format).label),
        best_of=tournament.best_of,
        uses_decklists=tournament.uses_decklists,
        players=Registration.objects.filter(tournament=tournament).count(),
        rounds_played=Round.objects.filter(tournament=tournament).count(),
        rounds_planned=tournament.rounds_planned,
        status=str(TournamentStatus(tournament.status).label),
        finished=tournament.status == TournamentStatus.FINISHED,
        head_judge_is_official=tournament.head_judge_is_official,
        edition=edition.name,
        replaced_infractions=[
            f"{infraction.code} {infraction.name}: {infraction.replaced_because}"
            for infraction in sorted(
                edition.infractions.exclude(replaced_because=""), key=lambda i: i.sort_key
            )
        ],
        head_judges=_staff_names(tournament, StaffRole.HEAD_JUDGE),
        organisers=_staff_names(tournament, StaffRole.ORGANISER),
    )


def _staff_names(tournament: Tournament, role: str) -> list[str]:
    members = Staff.objects.filter(tournament=tournament, role=role).select_related("user")
    return sorted(display_name(member.user) for member in members)


def investigations(*, record_ids: list[int]) -> dict[int, Investigation]:
    """The write-ups of the given disqualifications: two queries whatever their number."""
    statements: dict[int, list[StatementRow]] = {pk: [] for pk in record_ids}
    for statement in (
        InvestigationStatement.objects.filter(record_id__in=record_ids)
        .select_related("taken_by")
        .order_by("at", "id")
    ):
        statements[statement.record_id].append(
            StatementRow(
                role=str(StatementRole(statement.role).label),
                author=statement.author_name,
                at=statement.at,
                taken_by=display_name(statement.taken_by),
                text=statement.text,
            )
        )
    decisions: dict[int, PenaltyChange] = {}
    for change in (
        PenaltyChange.objects.filter(record_id__in=record_ids, kind__in=DECISION_KINDS)
        .select_related("author")
        .order_by("at", "id")
    ):
        decisions[change.record_id] = change  # the latest one wins
    written = {}
    for pk in record_ids:
        decision = decisions.get(pk)
        written[pk] = Investigation(
            statements=statements[pk],
            decision=str(ChangeKind(decision.kind).label) if decision else "",
            decided_at=decision.at if decision else None,
            decided_by=display_name(decision.author) if decision else "",
            reasoning=decision.reason if decision else "",
        )
    return written


def acknowledgement_counts(*, counts: list[RecordGroup]) -> AcknowledgementCounts:
    """The players' answers to the penalties in force."""
    answers = _counted(_groups_in_force(counts), lambda group: group.answer)
    return AcknowledgementCounts(
        acknowledged=answers.get(AcknowledgementKind.ACKNOWLEDGED, 0),
        declined=answers.get(AcknowledgementKind.DECLINED, 0),
        not_recorded=answers.get(None, 0),
    )


# The order the staff is listed in: the head judge first, as the report is theirs.
ROLE_ORDER = {StaffRole.HEAD_JUDGE: 0, StaffRole.FLOOR_JUDGE: 1, StaffRole.ORGANISER: 2}


def staff_rows(*, tournament: Tournament, counts: list[RecordGroup]) -> list[StaffRow]:
    """Who judged and organised, with how many records each of them issued (in any status)."""
    issued = _counted(counts, lambda group: group.judge)
    members = Staff.objects.filter(tournament=tournament).select_related("user")
    rows = sorted(
        members,
        key=lambda member: (
            ROLE_ORDER.get(StaffRole(member.role), 9),
            display_name(member.user),
        ),
    )
    return [
        StaffRow(
            role=str(StaffRole(member.role).label),
            name=display_name(member.user),
            penalties_issued=issued.get(member.user_id, 0),
        )
        for member in rows
    ]


def _in_force(tournament: Tournament) -> QuerySet[PenaltyRecord]:
    return PenaltyRecord.objects.filter(tournament=tournament, status=RecordStatus.IN_FORCE)


def penalties_in_force(*, tournament: Tournament) -> QuerySet[PenaltyRecord]:
    """The records the report lists: in force, in the order they were issued."""
    return _in_force(tournament).order_by("issued_at", "id")


def penalty_rows(
    *, records: QuerySet[PenaltyRecord], chunk_size: int = CHUNK_SIZE, rows: slice | None = None
) -> Iterator[PenaltyRow]:
    """The records as report rows, read in chunks: memory stays flat however many there are.
    ``rows`` keeps one page of them, in the report's order."""
    labels = {rank: penalty_label(rank) for rank in Rank}
    names = {rank: str(rank.label) for rank in Rank}
    automatic = _("automatic")
    stacking = _("Three penalties of the same strength")
    answers = {
        AcknowledgementKind.ACKNOWLEDGED: _("confirmed by the player"),
        AcknowledgementKind.DECLINED: _("the player declined to confirm"),
    }
    values = records.order_by("issued_at", "id").values(*PENALTY_FIELDS)
    if rows is not None:
        values = values[rows]
    for value in values.iterator(chunk_size=chunk_size):
        state = state_from_values(value)
        rank = state.rank
        code = value["infraction__code"] or ""
        yield PenaltyRow(
            record_id=value["id"],
            round=value["round__number"],
            table=value["issued_in_match__table"],
            player=value["registration__player__name"],
            membership_id=value["registration__player__membership_id"],
            code=code,
            infraction=value["infraction__name"] or stacking,
            sub_item=value["sub_item"],
            base=names[Rank(value["base_rank"])] if value["base_rank"] else "",
            issued_as=names[Rank(value["issued_rank"])],
            penalty=labels[rank],
            rank=int(rank),
            rank_key=f"rank-{rank.key}",
            amended=state.is_amended,
            explanation=explain(value["explanation"] or None),
            judge=person_name(
                username=value["issued_by__username"],
                first_name=value["issued_by__first_name"] or "",
                last_name=value["issued_by__last_name"] or "",
            )
            or automatic,
            issued_at=value["issued_at"],
            issued_at_text=moment_text(value["issued_at"]),
            note=value["note"],
            takes=state.waits_for,
            loss=state.loss_text,
            suspension_ends=value["membership_suspension__ends_on"],
            acknowledgement=answers.get(value["acknowledgement__kind"], ""),
            acknowledged_at=value["acknowledgement__at"],
            acknowledged_at_text=moment_text(value["acknowledgement__at"]),
        )


# Changes the report lists with their reasons; confirmations and the floor judges' requests to
# revoke are steps towards these and would only repeat them.
REPORTED_CHANGES = (ChangeKind.AMENDED, ChangeKind.REVOKED, ChangeKind.DECLINED)


def change_rows(*, tournament: Tournament) -> list[ChangeRow]:
    changes = (
        PenaltyChange.objects.filter(record__tournament=tournament, kind__in=REPORTED_CHANGES)
        .select_related("record__registration__player", "record__infraction", "author")
        .order_by("at", "id")
    )
    rows = []
    for change in changes:
        record = change.record
        rows.append(
            ChangeRow(
                record_id=record.pk,
                kind=str(ChangeKind(change.kind).label),
                at=change.at,
                author=(
                    person_name(
                        username=change.author.get_username(),
                        first_name=change.author.first_name,
                        last_name=change.author.last_name,
                    )
                    if change.author
                    else _("automatic")
                ),
                player=record.registration.player.name,
                membership_id=record.registration.player.membership_id,
                code=record.infraction.code if record.infraction else "",
                from_penalty=str(Rank(change.from_rank).label) if change.from_rank else "",
                to_penalty=str(Rank(change.to_rank).label),
                reason=change.reason,
            )
        )
    return rows


def counts_by_infraction(*, counts: list[RecordGroup]) -> list[CountRow]:
    """Penalties in force per infraction in guideline order; stacking's own records last."""
    by_infraction = _counted(_groups_in_force(counts), lambda group: (group.code, group.name))
    rows = [(code, name, count) for (code, name), count in by_infraction.items()]

    def order(row: tuple[str | None, str | None, int]) -> tuple[int, tuple[int | str, ...]]:
        code = row[0]
        if code is None:
            return (1, ())
        return (0, tuple(int(part) if part.isdecimal() else part for part in code.split(".")))

    counted = []
    for code, name, count in sorted(rows, key=order):
        label = f"{code} {name}" if code else _("Three penalties of the same strength")
        counted.append(CountRow(label=label, count=count))
    return counted


def counts_by_rank(*, counts: list[RecordGroup]) -> list[CountRow]:
    """Penalties in force per rank, every rank of the ladder listed, the weakest first."""
    by_rank = _counted(_groups_in_force(counts), lambda group: group.rank)
    return [CountRow(label=str(rank.label), count=by_rank.get(rank, 0)) for rank in Rank]
