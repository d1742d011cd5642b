"""A record's append-only history, and the penalties a player holds as stacking sees them."""

from collections.abc import Iterable
from dataclasses import dataclass, field

from django.contrib.auth.models import User

from judging import live, stacking
from judging.models import PenaltyChange, PenaltyRecord
from judging.penalties import Rank
from judging.selectors import penalties_held
from tournaments.models import Registration


@dataclass
class PenaltyOutcome:
    record: PenaltyRecord
    # False when a retry with the same client key found the record made the first time.
    created: bool = True
    # Later records that were repeats of, or stacked from, a changed record (rules.md §6).
    dependents: list[PenaltyRecord] = field(default_factory=list)


def log(
    record: PenaltyRecord,
    kind: str,
    *,
    author: User | None,
    from_rank: int | None,
    from_status: str,
    reason: str = "",
) -> PenaltyChange:
    """Append a history entry that leads from the given state to the record's current one,
    and announce it to the tournament's open pages once the transaction commits."""
    change = PenaltyChange.objects.create(
        record=record,
        kind=kind,
        author=author,
        from_rank=from_rank,
        to_rank=record.rank,
        from_status=from_status,
        to_status=record.status,
        reason=reason.strip(),
    )
    live.publish(tournament_id=record.tournament_id, version=change.pk)
    return change


def change(
    record: PenaltyRecord,
    kind: str,
    *,
    author: User,
    reason: str,
    **fields: object,
) -> None:
    """Change the record's current state and append the change to its history."""
    from_rank, from_status = record.rank, record.status
    for name, value in fields.items():
        setattr(record, name, value)
    record.save(update_fields=list(fields))
    log(record, kind, author=author, from_rank=from_rank, from_status=from_status, reason=reason)


def dependents_of(record: PenaltyRecord) -> list[PenaltyRecord]:
    """Records issued later that a change of this one may call into question."""
    later = list(PenaltyRecord.objects.filter(repeat_of=record).order_by("id"))
    if record.stacked_into_id is not None:
        later.append(PenaltyRecord.objects.get(pk=record.stacked_into_id))
    return later


def held_penalties(registration: Registration) -> list[stacking.HeldPenalty]:
    """The player's penalties in force in this tournament, oldest first, as stacking sees them."""
    return penalties_held(registration=registration)


def held_from(records: Iterable[PenaltyRecord]) -> list[stacking.HeldPenalty]:
    """Records in force (their rounds loaded), oldest first, as stacking sees them."""
    return [
        stacking.HeldPenalty(
            id=record.pk,
            rank=Rank(record.rank),
            reason=record.reason,
            round_number=record.round.number if record.round else None,
            stacked=record.stacked_into_id is not None,
        )
        for record in records
    ]
