"""The stacking rules of the guideline as pure functions (rules.md §5).

Nothing here reads or writes the database: the service hands in the player's penalties in force in
this tournament, oldest first, and writes what comes back. That keeps every ruling testable in a
table of cases and the same for the web, the scenario runner and any later caller.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, TypedDict

from judging.penalties import STACKING_CAP, Because, Rank


class RepeatExplanation(TypedDict):
    """Why rule 5.1 raised a record: the reason repeated and the strongest penalty held for it."""

    kind: Literal["repeat"]
    reason: str
    held_rank: str  # a ``Rank.key``
    held_round: int | None


class StackingExplanation(TypedDict):
    """Why rule 5.2 made a record: the rank of the three, their reasons, the round it ended."""

    kind: Literal["stacking"]
    rank: str  # a ``Rank.key``
    reasons: list[str]  # the infraction codes of the three, without the stacked ones
    from_stacking: int  # how many of the three were made by stacking themselves
    round: int


# What a record stores in ``PenaltyRecord.explanation`` and ``explanations.explain`` reads back.
Explanation = RepeatExplanation | StackingExplanation


@dataclass(frozen=True)
class HeldPenalty:
    """A penalty the player holds: in force, neither revoked nor awaiting the head judge.

    ``reason`` is the infraction code; a penalty made by stacking has none (None), because its
    reason is its own and never equals another's (rules.md §5.2).
    """

    id: int
    rank: Rank
    reason: str | None
    round_number: int | None
    stacked: bool = False

    @property
    def from_stacking(self) -> bool:
        return self.reason is None

    @property
    def distinct_reason(self) -> tuple[str, str | int]:
        """What "different reasons" compares: the code, or a stacked penalty's own identity."""
        return ("code", self.reason) if self.reason is not None else ("stacked", self.id)


@dataclass(frozen=True)
class IssueDecision:
    rank: Rank
    because: Because
    repeat_of: int | None = None
    explanation: RepeatExplanation | None = None

    @property
    def is_repeat(self) -> bool:
        return self.because == Because.REPEAT


@dataclass(frozen=True)
class StackDecision:
    """A penalty rule 5.2 gives; ``id`` is negative, so later decisions can name it as a source."""

    id: int
    rank: Rank
    sources: tuple[int, ...]
    explanation: StackingExplanation


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
    A player is never disqualified twice: a disqualified player gets nothing from stacking, and
    the cascade stops at the first disqualification it makes.
    """
    if any(penalty.rank.disqualifies for penalty in held):
        return []
    pool = [penalty for penalty in held if not penalty.stacked]
    decisions: list[StackDecision] = []
    while not decisions or not decisions[-1].rank.disqualifies:
        found = _oldest_three(pool)
        if found is None:
            break
        rank, three = found
        new = StackDecision(
            id=-(len(decisions) + 1),
            rank=Rank(rank + 1),
            sources=tuple(penalty.id for penalty in three),
            explanation={
                "kind": "stacking",
                "rank": rank.key,
                "reasons": [penalty.reason for penalty in three if penalty.reason is not None],
                "from_stacking": sum(1 for penalty in three if penalty.from_stacking),
                "round": round_number,
            },
        )
        decisions.append(new)
        used = {penalty.id for penalty in three}
        pool = [penalty for penalty in pool if penalty.id not in used]
        # Only the rank and the identity of a pooled penalty are read again (_oldest_three), so
        # mutmut's mutant giving it no round survives as an equivalent one.
        pool.append(HeldPenalty(id=new.id, rank=new.rank, reason=None, round_number=round_number))
    return decisions


def _oldest_three(pool: Sequence[HeldPenalty]) -> tuple[Rank, list[HeldPenalty]] | None:
    """The lowest rank that has three unused penalties with different reasons, oldest first."""
    for rank in sorted({penalty.rank for penalty in pool}):
        # No penalty at or above the cap is ever in the pool (a disqualified player gets
        # nothing, and the cascade stops at its first disqualification), so mutmut's "> cap" and
        # "return" for "break" survive as equivalent mutants; the test keeps the rule explicit.
        if rank >= STACKING_CAP:
            break
        chosen: list[HeldPenalty] = []
        reasons: set[tuple[str, str | int]] = set()
        for penalty in pool:
            if penalty.rank == rank and penalty.distinct_reason not in reasons:
                chosen.append(penalty)
                reasons.add(penalty.distinct_reason)
                if len(chosen) == 3:
                    return rank, chosen
    return None
