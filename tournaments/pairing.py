"""Swiss pairing (швейцарская система): who plays whom in the next round of a tournament.

This module is pure: it knows nothing of the ORM and takes plain ``Entrant`` values, so it can be
tested and benchmarked without a database. The caller passes only the players who are still in
the tournament (dropped and disqualified players are left out) with their match points, their
position in the standings and the opponents they have already met.

Round 1 is a random draw from ``random.Random(seed)`` paired top-down. Every later round pairs
players with equal match points (a score group) where it can, from the top group down, and floats
the fewest players it can to the next group. A rematch is never made and no one gets a second
bye; the bye goes to the lowest-ranked player who has not had one and whose sitting out lets the
others be paired. When no pairing without a rematch exists, ``PairingImpossible`` is raised.

How it works
    Players are sorted best first. Each score group, together with the players who floated down
    into it, is a bracket. A bracket is paired by a depth-first search in which the top unpaired
    player takes the nearest-ranked player below whom they have not met, with backtracking, and
    where a player may be left over (floated) only when the bracket cannot be paired otherwise.
    When the last bracket cannot be paired completely it is merged with the brackets above and
    paired again, up to the whole field. The search has an explicit work limit; past it,
    Edmonds' blossom algorithm (maximum-cardinality matching in a general graph) on the graph of
    pairs who have not met yet decides, in polynomial time, how many players a bracket must float
    and whether the whole field can be paired at all, so the answer is always exact and quick.
    With an odd number of players the lowest-ranked player without a bye sits out; if the
    others then cannot be paired, the same matching shows at once which players can sit out.
    Finally a bounded local search re-pairs along short alternating cycles whenever that lowers
    the sum of squared point differences, which chooses better floaters when a bracket had
    several ways to float the same number of players.
"""

import random
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import pairwise
from math import isqrt

from django.utils.translation import gettext as _

from tournaments.matching import augment_from, maximum_matching


@dataclass(frozen=True)
class Entrant:
    """A player to be paired, as the standings see them before the round."""

    id: int  # The registration id.
    points: int  # Match points so far: win 3, draw 1, loss 0, bye 3.
    rank: int  # Current standing position, 1 = best, tie-breakers already applied by the caller.
    opponents: frozenset[int]  # Ids already played in this tournament; byes are not included.
    had_bye: bool


@dataclass(frozen=True)
class Pairing:
    """One table of the round; ``second`` None is a bye."""

    first: int
    second: int | None


class PairingImpossible(Exception):
    """No pairing of the given players avoids a rematch (or a second bye)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


# The depth-first search counts one unit of work per candidate opponent it looks at. A single
# bracket gives up after WORK_PER_SEARCH units and the whole call after TOTAL_WORK units; beyond
# that the blossom algorithm takes over, so a pathological round costs a bounded, small time.
WORK_PER_SEARCH = 20_000
TOTAL_WORK = 200_000
# The improvement pass looks for cycles of at most IMPROVE_DEPTH pairs, follows at most
# IMPROVE_ROTATIONS swaps inside a score group from each step, and stops after
# IMPROVE_WORK_PER_START candidate looks from one pair and IMPROVE_WORK in all, for the same
# reason.
IMPROVE_DEPTH = 4
IMPROVE_ROTATIONS = 4
IMPROVE_WORK = 30_000
IMPROVE_WORK_PER_START = 3_000


class _Status(Enum):
    FOUND = "found"
    NONE = "none"  # The search was exhaustive: no solution exists.
    GAVE_UP = "gave_up"  # The work limit was reached before an answer.


# Sentinels stored as a frame's choice in the depth-first search.
_NO_CHOICE = -1
_FLOAT = -2

type _Pairs = list[tuple[int, int]]


def pair_swiss(*, entrants: Sequence[Entrant], round_number: int, seed: int) -> list[Pairing]:
    """Pair the next round; pairings come in table order, strongest first, the bye last.

    ``seed`` only matters in round 1, whose order is random. Raises ``PairingImpossible`` when
    every possible pairing contains a rematch or would give someone a second bye.
    """
    if round_number < 1:
        raise ValueError("Rounds are numbered from 1.")
    ids = [entrant.id for entrant in entrants]
    if len(ids) != len(set(ids)):
        raise ValueError("An entrant appears more than once.")
    if not entrants:
        return []

    if round_number == 1:
        # The draw starts from a canonical order so that the result depends only on the seed and
        # the set of players, not on the order in which the caller happened to list them.
        order = sorted(entrants, key=lambda entrant: entrant.id)
        random.Random(seed).shuffle(order)
        # The first round ignores points: everyone is in one bracket, in the drawn order. (Only
        # the flag's truth is read, so mutmut's None for False is an equivalent mutant.)
        groups_by_points = False
    else:
        order = sorted(entrants, key=_strength)
        groups_by_points = True

    pairer = _Pairer(order, groups_by_points=groups_by_points)
    pairs, bye = pairer.pair(round_number)

    # Tables are listed by the better player of each pair, on points and then standing, and the
    # better player sits first, whatever order the search used (round 1 used a random one).
    pairings: list[Pairing] = []
    for a, b in pairs:
        first, second = sorted((order[a], order[b]), key=_strength)
        pairings.append(Pairing(first=first.id, second=second.id))
    by_id = {entrant.id: entrant for entrant in entrants}
    pairings.sort(key=lambda pairing: _strength(by_id[pairing.first]))
    if bye is not None:
        pairings.append(Pairing(first=order[bye].id, second=None))
    return pairings


def _strength(entrant: Entrant) -> tuple[int, int, int]:
    """Sort key, best first: more points, then a better standing, then the id for stability."""
    return (-entrant.points, entrant.rank, entrant.id)


class _Pairer:
    """The search over one round; players are referred to by their index in ``order``."""

    def __init__(self, order: Sequence[Entrant], *, groups_by_points: bool) -> None:
        self.order = order
        self.groups_by_points = groups_by_points
        index = {entrant.id: position for position, entrant in enumerate(order)}
        # A meeting recorded on only one side still counts for both, so an inconsistent input can
        # never produce a rematch.
        self.played: list[set[int]] = [set() for _entrant in order]
        for position, entrant in enumerate(order):
            for opponent in entrant.opponents:
                other = index.get(opponent)
                if other is not None and other != position:
                    self.played[position].add(other)
                    self.played[other].add(position)
        self.points = [entrant.points for entrant in order]
        self.work_left = TOTAL_WORK
        # What the latest improvement pass left of its IMPROVE_WORK (the tests read how much
        # work a pass spends and where it gives up).
        self.improve_work_left = IMPROVE_WORK

    def pair(self, round_number: int) -> tuple[_Pairs, int | None]:
        everyone = list(range(len(self.order)))
        if len(everyone) % 2 == 0:
            pairs = self._pair_field(everyone)
            if pairs is None:
                raise PairingImpossible(self._rematch_message(round_number))
            return pairs, None

        # Bye candidates are tried from the bottom of the order up, so the bye goes to the
        # lowest-ranked player who has not had one and whose absence still lets the rest pair.
        candidates = [p for p in reversed(everyone) if not self.order[p].had_bye]
        if not candidates:
            raise PairingImpossible(
                _(
                    "Every one of the %(count)d players has already had a bye, so an odd number "
                    "of players cannot be paired for round %(round)d."
                )
                % {"count": len(everyone), "round": round_number}
            )
        # The lowest-ranked candidate nearly always works. When it does not, one maximum matching
        # tells exactly who can sit out (see _possible_byes), so a hopeless candidate never costs
        # a full search, and a field where no bye works at all is recognised at once.
        pairs = self._pair_field([p for p in everyone if p != candidates[0]])
        if pairs is not None:
            return pairs, candidates[0]
        possible = self._possible_byes(everyone)
        for candidate in candidates[1:]:
            if candidate in possible:
                pairs = self._pair_field([p for p in everyone if p != candidate])
                if pairs is not None:
                    return pairs, candidate
        raise PairingImpossible(self._rematch_message(round_number))

    def _rematch_message(self, round_number: int) -> str:
        return _(
            "No pairing of the %(count)d players for round %(round)d avoids a rematch"
            " (or a second bye)."
        ) % {"count": len(self.order), "round": round_number}

    def _groups(self, players: list[int]) -> list[list[int]]:
        if not self.groups_by_points:
            return [players]
        groups: list[list[int]] = []
        for player in players:
            if groups and self.order[groups[-1][0]].points == self.order[player].points:
                groups[-1].append(player)
            else:
                groups.append([player])
        return groups

    def _pair_field(self, players: list[int]) -> _Pairs | None:
        """Pair an even number of players bracket by bracket; None when no pairing exists."""
        groups = self._groups(players)
        # incoming[i] are the players who floated into bracket i; results[i] its pairs.
        incoming: list[list[int]] = [[]]
        results: list[_Pairs] = []
        merge = 1
        i = 0
        while i < len(groups):
            bracket = incoming[i] + groups[i]
            last = i == len(groups) - 1
            outcome = self._pair_bracket(bracket, must_pair_all=last)
            if outcome is None:
                # Only the last bracket can fail: the brackets above float whoever they cannot
                # pair. Merging it with the brackets above lets their choices change; merged all
                # the way up it is the whole field, where failure is proven. The number of
                # brackets merged doubles at each failure, so a field that cannot be paired at
                # all costs a few exact checks rather than one per score group.
                if i == 0:
                    return None
                start = max(0, i - merge)
                # The failed bracket is the last, and so is the merged one: nothing after index i
                # exists or is read again, so mutmut's "i + 2" in these slices is equivalent.
                groups[start : i + 1] = [
                    [player for group in groups[start : i + 1] for player in group]
                ]
                i = start
                del incoming[i + 1 :]
                del results[i:]
                merge *= 2
                continue
            pairs, floaters = outcome
            results.append(pairs)
            incoming.append(floaters)
            i += 1
        pairs = [pair for bracket_pairs in results for pair in bracket_pairs]
        if self.groups_by_points:
            pairs = self._improve(players, pairs)
        return pairs

    def _improve(self, players: list[int], pairs: _Pairs) -> _Pairs:
        """Re-pair along alternating cycles that lower the sum of squared point differences.

        Pairing bracket by bracket decides how many players float but not always which ones
        float best: two players floated from the top bracket may be the two who have no one left
        to meet below. A cycle that drops some pairs and makes new ones among their players,
        with no rematch and a lower total cost, fixes that. Only strictly better cycles are
        taken, so pairings the brackets made well are never shuffled for nothing.
        """
        points = self.points
        played = self.played

        def cost(a: int, b: int) -> int:
            difference = points[a] - points[b]
            return difference * difference

        self.improve_work_left = IMPROVE_WORK
        total = sum(cost(a, b) for a, b in pairs)
        bound = _parity_bound([points[p] for p in players])
        if total == bound:
            # Nothing can do better, which is the usual case in a big field: skip the search.
            return pairs
        mate: dict[int, int] = {}
        for a, b in pairs:
            mate[a] = b
            mate[b] = a
        # Players are in order, best first, so their negated points ascend and bisect finds the
        # players whose points lie within a given distance of anyone's.
        negated = [-points[p] for p in players]
        # Each start sets its allowance here before extend reads it, so the starting value is
        # never read (mutmut's "[1]" is an equivalent mutant).
        budget = [0]

        def extend(anchor: int, tip: int, gain: int, visited: set[int], depth: int) -> _Pairs:
            # The cycle so far runs from ``anchor`` to ``tip``; ``gain`` is what it has saved.
            # A new pair (tip, x) costs less than the gain, so every prefix of the cycle saves.
            reach = isqrt(gain - 1)
            centre = points[tip]
            low = bisect_left(negated, -(centre + reach))
            high = bisect_right(negated, -(centre - reach))
            met = played[tip]
            rotations = 0
            for x in players[low:high]:
                budget[0] -= 1
                if budget[0] < 0:
                    return []
                if x in visited or x in met:
                    continue
                y = mate[x]
                # ``visited`` holds whole pairs (the start's and each one the cycle crossed), so y
                # is never in it when x is not, and mutmut's "break" here is equivalent.
                if y in visited:
                    continue
                added = cost(tip, x)
                removed = cost(x, y)
                saved = gain - added + removed
                if anchor not in played[y] and saved > cost(y, anchor):
                    return [(tip, x), (y, anchor)]
                if added == removed == 0:
                    # Swapping into another pair of the same score group saves nothing by itself;
                    # it only helps to get round a rematch, and a big group offers hundreds of
                    # such swaps that all look alike, so only the first few are followed.
                    rotations += 1
                    if rotations > IMPROVE_ROTATIONS:
                        continue
                if depth < IMPROVE_DEPTH:
                    visited.update((x, y))
                    rest = extend(anchor, y, saved, visited, depth + 1)
                    visited.difference_update((x, y))
                    if rest:
                        return [(tip, x), *rest]
            return []

        improved = True
        # With nothing left a start gets an allowance of 0 and spends nothing, so mutmut's
        # ">= 0" here is equivalent; so is its None for False below (only the truth is read).
        while improved and self.improve_work_left > 0 and total > bound:
            improved = False
            # The costliest pairs are the likeliest to be worth re-pairing, so they go first, and
            # each start has its own allowance so that one fruitless start cannot use up the rest.
            starts = sorted(
                ((a, b) for a, b in mate.items() if cost(a, b) > 0),
                key=lambda pair: (-cost(*pair), pair),
            )
            for a, b in starts:
                allowance = min(IMPROVE_WORK_PER_START, self.improve_work_left)
                budget[0] = allowance
                cycle = extend(a, b, cost(a, b), {a, b}, 1)
                self.improve_work_left -= allowance - max(budget[0], 0)
                if cycle:
                    for x, y in cycle:
                        mate[x] = y
                        mate[y] = x
                    # No one is their own mate, so mutmut's "x <= y" is equivalent.
                    total = sum(cost(x, y) for x, y in mate.items() if x < y)
                    improved = True
                    break
                # With nothing left the next start spends nothing and finds nothing, so mutmut's
                # "< 0" is equivalent (its "<= 1" is not: one look may find a cycle).
                if self.improve_work_left <= 0:
                    break
        # No player is their own partner, so mutmut's "a <= b" is an equivalent mutant.
        return [(a, b) for a, b in mate.items() if a < b]

    def _pair_bracket(
        self, bracket: list[int], *, must_pair_all: bool
    ) -> tuple[_Pairs, list[int]] | None:
        """Pair a bracket floating as few players as possible; None if it must but cannot pair."""
        fewest = len(bracket) % 2
        status, pairs, floaters = self._search(bracket, floats=fewest)
        if status is _Status.FOUND:
            return pairs, floaters
        if must_pair_all and status is _Status.NONE:
            return None
        # The search could not pair the bracket with the fewest floaters imaginable, or ran out
        # of work: a maximum matching says exactly how many players must float.
        mate = self._maximum_matching(bracket)
        unmatched = [bracket[k] for k, partner in enumerate(mate) if partner == -1]
        if must_pair_all and unmatched:
            return None
        if len(unmatched) > fewest:
            # The search prefers the strongest players paired and the nearest opponents, so it
            # gets another try with the right number of floaters before the raw matching is used.
            status, pairs, floaters = self._search(bracket, floats=len(unmatched))
            if status is _Status.FOUND:
                return pairs, floaters
        # A partner is never the player itself (and -1 is below every index), so mutmut's
        # "k <= partner" survives as an equivalent mutant.
        matched = [(bracket[k], bracket[partner]) for k, partner in enumerate(mate) if k < partner]
        return matched, unmatched

    def _search(self, bracket: list[int], *, floats: int) -> tuple[_Status, _Pairs, list[int]]:
        """Depth-first search: the top unpaired player takes the nearest opponent not yet met.

        A player may float instead of being paired, at most ``floats`` times; floating is each
        player's last option, so the first solution found pairs the strongest players first.
        """
        size = len(bracket)
        played = self.played
        used = [False] * size
        # Each frame is [player, next option to try, current choice]; options are the partners
        # below the player in bracket order, then (option index ``size``) floating.
        stack: list[list[int]] = []
        floats_left = floats
        limit = min(WORK_PER_SEARCH, self.work_left)
        work = 0
        status = _Status.FOUND
        while True:
            # Everyone above the last frame's player is already paired, so the scan starts there;
            # scanning from 0 (mutmut's "and False") only skips them again, uncounted, and
            # finds the same player.
            player = stack[-1][0] + 1 if stack else 0
            while player < size and used[player]:
                player += 1
            if player == size:
                break
            # A live frame's own player is never read from ``used`` (every scan starts below the
            # last frame's player), so mutmut's False and None here are equivalent; the flag is
            # kept so that ``used`` says who is taken.
            used[player] = True
            frame = [player, player + 1, _NO_CHOICE]
            while True:
                choice = frame[2]
                # ``used`` is only read for its truth, so mutmut's None for False here and below
                # is equivalent; so is its None for _NO_CHOICE, which is always overwritten, or
                # its frame dropped, before it is read again.
                if choice >= 0:
                    used[choice] = False
                elif choice == _FLOAT:
                    floats_left += 1
                frame[2] = _NO_CHOICE
                met = played[bracket[frame[0]]]
                option = frame[1]
                while option < size and (used[option] or bracket[option] in met):
                    option += 1
                work += option - frame[1] + 1
                if option < size:
                    used[option] = True
                    frame[1] = option + 1
                    frame[2] = option
                    break
                if option == size and floats_left > 0:
                    floats_left -= 1
                    # Past the last option: any value above ``size`` ends the frame when it is
                    # revised, so mutmut's "size + 2" is an equivalent mutant.
                    frame[1] = size + 1
                    frame[2] = _FLOAT
                    break
                # Every option of this player failed: undo it and revise the frame above.
                used[frame[0]] = False
                if not stack:
                    status = _Status.NONE
                    break
                frame = stack.pop()
                if work > limit:
                    status = _Status.GAVE_UP
                    break
            if status is not _Status.FOUND:
                break
            stack.append(frame)
            if work > limit:
                status = _Status.GAVE_UP
                break
        self.work_left -= work
        if status is not _Status.FOUND:
            return status, [], []
        # Player 0 always chooses first, so no one's choice is 0 and mutmut's "> 0" and ">= 1"
        # here and in the backtracking above survive as equivalent mutants.
        pairs = [(bracket[p], bracket[choice]) for p, _next, choice in stack if choice >= 0]
        floaters = [bracket[p] for p, _next, choice in stack if choice == _FLOAT]
        return status, pairs, floaters

    def _adjacency(self, players: list[int]) -> list[list[int]]:
        """The not-yet-met graph of ``players``, by index in the list, nearest first."""
        played = self.played
        size = len(players)
        adjacency: list[list[int]] = [[] for _player in range(size)]
        for a in range(size):
            met = played[players[a]]
            # Each pair is added once from its lower end; mutmut's wider ranges add duplicates
            # and a player's own index, which both matchers skip (``w != v``, same base), in the
            # same nearest-first order, so they are equivalent mutants.
            for b in range(a + 1, size):
                if players[b] not in met:
                    adjacency[a].append(b)
                    adjacency[b].append(a)
        return adjacency

    def _maximum_matching(self, bracket: list[int]) -> list[int]:
        """Partners in a maximum matching of the bracket's not-yet-met graph, -1 if unmatched."""
        return maximum_matching(self._adjacency(bracket))

    def _possible_byes(self, players: list[int]) -> set[int]:
        """The players whose bye leaves the others (an even number) a pairing without rematches.

        If a maximum matching leaves exactly one player unmatched, the players who can be left
        out instead are those an even alternating path leads to from that player, which is the
        set of outer vertices of the failed blossom search (Gallai–Edmonds decomposition). If it
        leaves more than one unmatched, no bye at all makes the rest pairable.
        """
        adjacency = self._adjacency(players)
        mate = maximum_matching(adjacency)
        unmatched = [k for k, partner in enumerate(mate) if partner == -1]
        if len(unmatched) != 1:
            return set()
        outer = augment_from(unmatched[0], adjacency, mate)
        if outer is None:  # Unreachable: the matching is maximum, so no path augments it.
            return set()
        return {players[k] for k, is_outer in enumerate(outer) if is_outer}


def _parity_bound(points: Sequence[int]) -> int:
    """A sum of squared point differences that no pairing of these players can go below.

    Between two adjacent score levels, a cut with an odd number of players above it must be
    crossed by some pair, and a pair crossing several cuts costs at least the squares of their
    gaps added up; so the squared gaps of the odd cuts add up to a lower bound.
    """
    seated = Counter(points)
    levels = sorted(seated, reverse=True)
    above = 0
    bound = 0
    for higher, lower in pairwise(levels):
        # Only the parity of ``above`` is read, and -n is odd when n is, so mutmut's "-=" is an
        # equivalent mutant.
        above += seated[higher]
        if above % 2:
            bound += (higher - lower) ** 2
    return bound
