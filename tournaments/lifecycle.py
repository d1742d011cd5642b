"""The hook through which penalty rules act on matches.

Matches belong to this app, but what happens when a match starts, gets a game or ends is partly
decided by the penalty guideline (pending losses, stacking), which lives in the judging app. The
judging app registers its policy here at start-up, so that dependencies keep running one way.
"""

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from tournaments.models import Match


class MatchPolicy(Protocol):
    def settle(self, match: "Match") -> None:
        """Serve what waits for this match while it is in progress (pending penalty losses)."""

    def settle_round(self, matches: "list[Match]") -> None:
        """``settle`` every match of a new round, reading what waits for all of them at once."""

    def match_ended(self, match: "Match") -> None:
        """Apply what the rules do at the end of a match (stacking)."""

    def has_waiting_game_loss(self, match: "Match") -> bool:
        """Whether a loss of this match waits for a game after the current one."""

    def losses_decided_by_penalties(
        self, match: "Match", *, player1_wins: int, player2_wins: int, draws: int
    ) -> set[int]:
        """The players whose match loss a penalty in force decides; refuses (``DomainError``) a
        corrected result that would lift or add a loss a penalty in force decides."""


class _NoPolicy:
    def settle(self, match: "Match") -> None:
        return None

    def settle_round(self, matches: "list[Match]") -> None:
        return None

    def match_ended(self, match: "Match") -> None:
        return None

    def has_waiting_game_loss(self, match: "Match") -> bool:
        return False

    def losses_decided_by_penalties(
        self, match: "Match", *, player1_wins: int, player2_wins: int, draws: int
    ) -> set[int]:
        return set()


_policy: MatchPolicy = _NoPolicy()


def register_policy(policy: MatchPolicy) -> None:
    global _policy
    _policy = policy


def policy() -> MatchPolicy:
    return _policy
