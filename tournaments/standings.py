"""Standings (турнирная таблица): match points and tie-breakers computed from match results.

This module is pure: it knows nothing of the ORM, takes plain match results and returns plain
rows, so every rule below can be tested with tables of numbers and no database.

Match points
    A match won is 3 points, a drawn match 1 and a lost match 0. A match lost by penalty is lost
    by that player whatever its games say; when both players lost it by penalty, both get 0
    points and a loss. Otherwise the player with more games won wins the match, and equal games
    won (drawn games do not count either way) make a drawn match.

Byes
    A bye is a match won: 3 points, one match played, and it counts as two games won to none
    towards the player's game-win percentage, whatever the best-of (MTR Appendix C: a bye is a
    2–0 win). A bye is not an opponent: it adds nothing to the opponents' averages below.

Percentages
    match-win % (MW%) = match points / (3 × matches played, byes included);
    game-win % (GW%) = game points / (3 × games played), where a game won is 3 game points, a
    drawn game 1 and a game lost 0, and games played are games won + lost + drawn.

Tie-breakers, in this order, after match points:
    1. opponents' match-win % (OMW%): the mean of the MW% of the opponent of every non-bye
       match the player played, each opponent's MW% raised to 0.33 if lower;
    2. the player's own game-win % (GW%), raised to 0.33 if lower;
    3. opponents' game-win % (OGW%): the mean of the GW% of the opponent of every non-bye match,
       each raised to 0.33 if lower.
    The mean is taken over matches, not over distinct opponents, so an opponent met twice counts
    twice. The floor is 0.33 exactly as the Magic Tournament Rules print it (Appendix C), not
    1/3: the two rank players differently (opponents at 0.25, 2/3, 2/3 average 0.5544 with the
    floor 0.33, below opponents at 1/2, 1/2, 2/3; with 1/3 both would be 5/9). All arithmetic is
    done in exact fractions so that players who are really tied compare equal rather than by
    rounding noise; the rows carry the values as floats. The player's own MW% is neither shown
    nor compared: match points already order the players by it.

Players with no matches yet (or none up to ``through_round``)
    They have 0 points and show 0 for GW%, OMW% and OGW%: a floor would pretend they had played.
    A floor only matters once a player has played, so a player with at least one match shows a
    GW% of at least 0.33, even when no game was recorded in their matches (0/0 is read as 0 and
    then floored). Such players are never anyone's opponent, so they enter no one's averages.
    A player whose only matches are byes has no opponents and shows 0 for OMW% and OGW%.

Positions
    Rows come sorted by points, OMW%, GW%, OGW%, all descending, and then by registration id
    ascending as the last resort. Every row gets its own 1-based position even when all its
    tie-breakers equal the row above's: the table needs one order, and the registration id is an
    arbitrary but stable one. A position therefore never says whether a tie was real; a caller
    that needs to know compares the tie-breakers of neighbouring rows.

Dropped and disqualified players stay in the standings with the points they earned; marking
them is the caller's business.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

type Outcome = Literal["win", "draw", "loss"]

MATCH_WIN_POINTS = 3
MATCH_DRAW_POINTS = 1
GAME_WIN_POINTS = 3
GAME_DRAW_POINTS = 1
PERCENTAGE_FLOOR = Fraction(33, 100)
# A bye counts as a match won two games to none, whatever the best-of (MTR Appendix C).
BYE_GAMES_WON = 2


@dataclass(frozen=True)
class MatchResult:
    """One ended match as the standings see it; ``second`` None is a bye."""

    round_number: int
    first: int
    second: int | None
    first_games: int
    second_games: int
    draws: int
    first_lost_by_penalty: bool
    second_lost_by_penalty: bool

    @property
    def is_bye(self) -> bool:
        return self.second is None


@dataclass(frozen=True)
class Standing:
    """One row of the standings; percentages are fractions of one (0..1), not of a hundred.

    ``position`` is 1-based and distinct: players equal on every tie-breaker are ordered by
    registration id, the lower first. ``matches_played`` counts byes.
    """

    position: int
    registration_id: int
    points: int
    matches_played: int
    wins: int
    draws: int
    losses: int
    opponents_match_win: float
    game_win: float
    opponents_game_win: float


@dataclass
class _Record:
    """What one player has gathered so far; a mutable working row, never returned."""

    match_points: int = 0
    matches_played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    game_points: int = 0
    games_played: int = 0
    # One entry per non-bye match, so an opponent met twice is counted twice.
    opponents: list[int] = field(default_factory=list)

    def add(
        self, *, outcome: Outcome, won: int, lost: int, drawn: int, opponent: int | None
    ) -> None:
        self.matches_played += 1
        if outcome == "win":
            self.wins += 1
            self.match_points += MATCH_WIN_POINTS
        elif outcome == "draw":
            self.draws += 1
            self.match_points += MATCH_DRAW_POINTS
        else:
            self.losses += 1
        self.game_points += GAME_WIN_POINTS * won + GAME_DRAW_POINTS * drawn
        self.games_played += won + lost + drawn
        if opponent is not None:
            self.opponents.append(opponent)

    @property
    def has_played(self) -> bool:
        return self.matches_played > 0

    def match_win(self) -> Fraction:
        """MW% with the floor, as it enters an opponent's OMW%; only asked of players who played."""
        raw = Fraction(self.match_points, MATCH_WIN_POINTS * self.matches_played)
        return max(raw, PERCENTAGE_FLOOR)

    def game_win(self) -> Fraction:
        """GW% with the floor; 0 before any match, since the floor only applies once one played."""
        if not self.has_played:
            return Fraction(0)
        if self.games_played == 0:
            # Matches with no game recorded (time called at 0–0, or a double penalty loss) leave
            # the percentage undefined; it is read as 0 and then floored like any other low one.
            return PERCENTAGE_FLOOR
        raw = Fraction(self.game_points, GAME_WIN_POINTS * self.games_played)
        return max(raw, PERCENTAGE_FLOOR)


def _mean(values: list[Fraction]) -> Fraction:
    # An average over no opponents (no matches, or byes only) is shown as 0 rather than raised.
    # The start value Fraction(0) only names the type: sum() from the int 0 gives the same
    # Fraction, so mutmut's mutant dropping it survives as an equivalent one.
    return sum(values, Fraction(0)) / len(values) if values else Fraction(0)


def _outcomes(result: MatchResult) -> tuple[Outcome, Outcome]:
    """The first and second player's match outcome: "win", "draw" or "loss"."""
    if result.is_bye:
        return "win", "loss"
    if result.first_lost_by_penalty or result.second_lost_by_penalty:
        # A penalty decides the match whatever the games say; both flags set make two losses.
        first: Outcome = "loss" if result.first_lost_by_penalty else "win"
        second: Outcome = "loss" if result.second_lost_by_penalty else "win"
        return first, second
    if result.first_games > result.second_games:
        return "win", "loss"
    if result.first_games < result.second_games:
        return "loss", "win"
    return "draw", "draw"


def _check(result: MatchResult, *, known: set[int], seen: set[tuple[int, int]]) -> None:
    """Refuse results the app can never produce, rather than guess what they were meant to say."""
    if result.first == result.second:
        raise ValueError(f"Registration {result.first} cannot play against itself.")
    players = [result.first] if result.second is None else [result.first, result.second]
    for player in players:
        if player not in known:
            raise ValueError(f"Registration {player} is not among the registration ids.")
        if (result.round_number, player) in seen:
            raise ValueError(f"Registration {player} plays twice in round {result.round_number}.")
        seen.add((result.round_number, player))
    if min(result.first_games, result.second_games, result.draws) < 0:
        raise ValueError("Game counts cannot be negative.")
    if result.is_bye and (
        result.second_games
        or result.draws
        or result.first_lost_by_penalty
        or result.second_lost_by_penalty
    ):
        raise ValueError("A bye has no opponent's games, no drawn games and serves no penalty.")


def compute_standings(
    *,
    registration_ids: Sequence[int],
    results: Sequence[MatchResult],
    through_round: int | None = None,
) -> list[Standing]:
    """The standings of the given players after the given ended matches, best first.

    ``through_round`` keeps only the results of rounds up to and including it, so the table can
    be shown as it stood after any round. Every registration id gets a row, played or not.
    """
    if len(set(registration_ids)) != len(registration_ids):
        raise ValueError("A registration id appears more than once.")
    records = {pk: _Record() for pk in registration_ids}
    known = set(records)
    seen: set[tuple[int, int]] = set()
    for result in results:
        if through_round is not None and result.round_number > through_round:
            continue
        _check(result, known=known, seen=seen)
        first_outcome, second_outcome = _outcomes(result)
        records[result.first].add(
            outcome=first_outcome,
            won=BYE_GAMES_WON if result.is_bye else result.first_games,
            lost=result.second_games,
            drawn=result.draws,
            opponent=result.second,
        )
        if result.second is not None:
            records[result.second].add(
                outcome=second_outcome,
                won=result.second_games,
                lost=result.first_games,
                drawn=result.draws,
                opponent=result.first,
            )

    # Each player's floored percentages are computed once and shared by all their opponents.
    match_win = {pk: r.match_win() for pk, r in records.items() if r.has_played}
    game_win = {pk: r.game_win() for pk, r in records.items()}
    keys: dict[int, tuple[int, Fraction, Fraction, Fraction]] = {}
    for pk, record in records.items():
        keys[pk] = (
            record.match_points,
            _mean([match_win[o] for o in record.opponents]),
            game_win[pk],
            _mean([game_win[o] for o in record.opponents]),
        )

    # Higher points and percentages first, then the lower registration id as the last resort.
    def order(pk: int) -> tuple[int, Fraction, Fraction, Fraction, int]:
        points, omw, gw, ogw = keys[pk]
        return (-points, -omw, -gw, -ogw, pk)

    standings: list[Standing] = []
    for position, pk in enumerate(sorted(records, key=order), start=1):
        record = records[pk]
        points, omw, gw, ogw = keys[pk]
        standings.append(
            Standing(
                position=position,
                registration_id=pk,
                points=points,
                matches_played=record.matches_played,
                wins=record.wins,
                draws=record.draws,
                losses=record.losses,
                opponents_match_win=float(omw),
                game_win=float(gw),
                opponents_game_win=float(ogw),
            )
        )
    return standings
