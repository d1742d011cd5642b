"""The stacking rules of the guideline as pure functions (rules.md §5).

Nothing here reads or writes the database: the service hands in the player's penalties in force in
this tournament, oldest first, and writes what comes back. That keeps every ruling testable in a
table of cases and the same for the web, the scenario runner and any later caller.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from judging.penalties import STACKING_CAP, Because, Rank


@dataclass(frozen=True)
class HeldPenalty:
    """A penalty the player holds: in force, neither revoked nor awaiting the head judge."""

    id: int
    rank: Rank
    reason: str
    round_number: int | None
    stacked: bool = False
    from_stacking: bool = False


@dataclass(frozen=True)
class IssueDecision:
    rank: Rank
    because: Because
    repeat_of: int | None = None
    explanation: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class StackDecision:
    """A penalty rule 5.2 gives; ``id`` is negative, so later decisions can name it as a source."""

    id: int
    rank: Rank
    sources: tuple[int, ...]
    explanation: dict[str, Any]


def decide_issue(*, base: Rank, reason: str, held: Sequence[HeldPenalty]) -> IssueDecision:
    """Rule 5.1: a repeat is one rank above the strongest held for that reason, capped by 5.3.

    ``applied = max(base, min(strongest + 1, cap))``: the cap limits only what the repeat adds, so a
    base penalty that is already above disqualification stays as it is.
    """
    same_reason = [penalty for penalty in held if penalty.reason == reason]
    if not same_reason:
        return IssueDecision(rank=base, because=Because.BASE)
    strongest = max(same_reason, key=lambda penalty: (penalty.rank, penalty.id))
    raised = Rank(min(strongest.rank + 1, STACKING_CAP))
    if raised <= base:
        return IssueDecision(rank=base, because=Because.BASE)
    return IssueDecision(
        rank=raised,
        because=Because.REPEAT,
        repeat_of=strongest.id,
        explanation={
            "kind": "repeat",
            "reason": reason,
            "held_rank": strongest.rank.key,
            "held_round": strongest.round_number,
        },
    )


def stack_at_match_end(*, held: Sequence[HeldPenalty], round_number: int) -> list[StackDecision]:
    """Rule 5.2 with its cascade and the cap of 5.3.

    At the end of a match, three unused penalties of one rank with three different reasons make one
    penalty a rank higher and become used; the oldest unused are taken first; the lowest rank is
    looked at first and the search starts again after every new penalty, because the new one may
    complete a three at its own rank. Ranks that would stack above the cap do not stack at all.
    """
    pool = [penalty for penalty in held if not penalty.stacked]
    decisions: list[StackDecision] = []
    while True:
        found = _oldest_three(pool)
        if found is None:
            return decisions
        rank, three = found
        new = StackDecision(
            id=-(len(decisions) + 1),
            rank=Rank(rank + 1),
            sources=tuple(penalty.id for penalty in three),
            explanation={
                "kind": "stacking",
                "rank": rank.key,
                "reasons": [penalty.reason for penalty in three if not penalty.from_stacking],
                "from_stacking": sum(1 for penalty in three if penalty.from_stacking),
                "round": round_number,
            },
        )
        decisions.append(new)
        used = {penalty.id for penalty in three}
        pool = [penalty for penalty in pool if penalty.id not in used]
        pool.append(
            HeldPenalty(
                id=new.id,
                rank=new.rank,
                reason=f"stacking:{new.id}",
                round_number=round_number,
                from_stacking=True,
            )
        )


def _oldest_three(pool: Sequence[HeldPenalty]) -> tuple[Rank, list[HeldPenalty]] | None:
    """The lowest rank that has three unused penalties with different reasons, oldest first."""
    for rank in sorted({penalty.rank for penalty in pool}):
        if rank >= STACKING_CAP:
            break
        chosen: list[HeldPenalty] = []
        reasons: set[str] = set()
        for penalty in pool:
            if penalty.rank == rank and penalty.reason not in reasons:
                chosen.append(penalty)
                reasons.add(penalty.reason)
                if len(chosen) == 3:
                    return rank, chosen
    return None
