"""The only writer of penalties: issue, confirm, decline, amend and revoke (rules.md §4–§7).

Each public function loads and locks the player's registration (and the opponent's while they
play, since a loss can end their match and stack their penalties too), asks ``stacking`` for the
ruling, writes the record and its history entry, applies what the penalty takes, and returns.
Every refusal is a ``DomainError`` raised before anything is written, so a refused action changes
nothing. The package is split along its jobs:

- ``issuing``: what an infraction becomes for a player now, and recording it;
- ``decisions``: the head judge's confirmations, declines, amendments and revocations;
- ``effects``: what a penalty does to games, matches, the tournament and the membership, and
  stacking at the end of a match;
- ``history``: the record's append-only history and the penalties a player holds;
- ``rulings``: the player's acknowledgement and a disqualification's investigation statements;
- ``guards``: who may do what, and the locks every write takes first.
"""

from judging.services.decisions import (
    amend_penalty,
    confirm_request,
    decline_request,
    decline_revocation,
    request_revocation,
    revoke_penalty,
)
from judging.services.effects import JudgingMatchPolicy
from judging.services.history import PenaltyOutcome, dependents_of, held_penalties
from judging.services.issuing import (
    NEEDS_HEAD_JUDGE,
    Ruling,
    SecondPenaltyUnconfirmed,
    issue_penalty,
    preview_penalty,
)
from judging.services.rulings import acknowledge_penalty, add_statement

__all__ = [
    "NEEDS_HEAD_JUDGE",
    "JudgingMatchPolicy",
    "PenaltyOutcome",
    "Ruling",
    "SecondPenaltyUnconfirmed",
    "acknowledge_penalty",
    "add_statement",
    "amend_penalty",
    "confirm_request",
    "decline_request",
    "decline_revocation",
    "dependents_of",
    "held_penalties",
    "issue_penalty",
    "preview_penalty",
    "request_revocation",
    "revoke_penalty",
]
