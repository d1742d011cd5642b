"""Reads of the playoff (issue 32): the cut (before and after it is published), the bracket a
block at a time, and the final standings a page at a time. Each costs a fixed number of queries
whatever the size of the event."""

from dataclasses import dataclass, field

from django.db.models import Q
from django.utils.translation import gettext as _

from tournaments import playoff, selectors
from tournaments.models import (
    Match,
    MatchEnd,
    PlayoffSeed,
    Registration,
    RegistrationStatus,
    Round,
    Tournament,
)

# First-round matches a page of the bracket shows; later rounds show the matches they lead to.
BRACKET_BLOCK = 8


@dataclass(frozen=True)
class CutEntry:
    """A player of the cut (``seed``), or one skipped above it (``seed`` None: dropped or
    disqualified), with their place in the final Swiss standings."""

    registration_id: int
    seed: int | None
    swiss_position: int
    registration: Registration
    points: int


def playoff_cut(*, tournament: Tournament, size: int) -> list[CutEntry]:
    """The top ``size`` players of the final Swiss standings who are still in, seeded in order;
    two queries whatever the field."""
    return [entry for entry in cut_preview(tournament=tournament, size=size) if entry.seed]


def cut_preview(*, tournament: Tournament, size: int) -> list[CutEntry]:
    """The cut as it would be published now, with the players skipped above its last seed."""
    entries: list[CutEntry] = []
    seed = 0
    for row in selectors.standings_table(tournament=tournament):
        if seed == size:
            break
        playing = row.registration.status == RegistrationStatus.PLAYING
        if playing:
            seed += 1
        entries.append(
            CutEntry(
                registration_id=row.registration.pk,
                seed=seed if playing else None,
                swiss_position=row.standing.position,
                registration=row.registration,
                points=row.standing.points,
            )
        )
    return entries


@dataclass
class Slot:
    """A place in a round of the bracket: its match once its players are known."""

    index: int
    match: Match | None
    seeds: dict[int, int]

    @property
    def winner_id(self) -> int | None:
        return self.match.won_by if self.match is not None else None

    @property
    def winner_seed(self) -> int | None:
        winner = self.winner_id
        return self.seeds.get(winner) if winner is not None else None

    @property
    def seed1(self) -> int | None:
        return self.seeds.get(self.match.player1_id) if self.match is not None else None

    @property
    def seed2(self) -> int | None:
        if self.match is None or self.match.player2_id is None:
            return None
        return self.seeds.get(self.match.player2_id)

    @property
    def needs_winner(self) -> bool:
        """Ended with the games level and no winner named yet."""
        match = self.match
        return (
            match is not None
            and match.has_ended
            and match.player2_id is not None
            and match.won_by is None
            and match.is_level
        )


@dataclass
class BracketRound:
    index: int
    key: str
    round: Round | None
    slots: list[Slot]

    @property
    def is_final(self) -> bool:
        return self.key == "final"

    @property
    def label(self) -> str:
        return stage_label(self.key)


def stage_label(key: str) -> str:
    """A playoff round's name: final, semi-finals, quarter-finals, or top N."""
    names = {"final": _("Final"), "semi": _("Semi-finals"), "quarter": _("Quarter-finals")}
    if key in names:
        return names[key]
    return _("Top %(count)s") % {"count": key.removeprefix("top")} if key else ""


@dataclass
class Bracket:
    size: int
    rounds: list[BracketRound]
    seeds: dict[int, int] = field(default_factory=dict)
    block: int = 0
    blocks: int = 1

    @property
    def champion_id(self) -> int | None:
        final = self.rounds[-1] if self.rounds else None
        if final is None or not final.is_final or not final.slots:
            return None
        return final.slots[0].winner_id

    @property
    def published(self) -> bool:
        return bool(self.rounds) and self.rounds[0].round is not None

    @property
    def current(self) -> BracketRound | None:
        """The latest round published."""
        played = [stage for stage in self.rounds if stage.round is not None]
        return played[-1] if played else None

    @property
    def next_ready(self) -> bool:
        """The latest round is over (every match ended with a winner) and is not the final."""
        current = self.current
        if current is None or current.is_final:
            return False
        return all(
            slot.match is None or (slot.match.has_ended and not slot.needs_winner)
            for slot in current.slots
        )


def playoff_rounds(*, tournament: Tournament) -> list[Round]:
    return list(Round.objects.filter(tournament=tournament, playoff=True).order_by("number"))


def playoff_size(*, tournament: Tournament) -> int:
    return PlayoffSeed.objects.filter(tournament=tournament).count()


def playoff_bracket(
    *, tournament: Tournament, block: int | None = None, per_block: int = BRACKET_BLOCK
) -> Bracket:
    """The bracket with its matches; ``block`` a page of it (``per_block`` first-round matches,
    a power of two, and every match they lead to), None the whole of it. Four queries."""
    seeds = dict(
        PlayoffSeed.objects.filter(tournament=tournament).values_list("registration_id", "seed")
    )
    size = len(seeds)
    if size < 2:
        return Bracket(size=0, rounds=[])
    rounds = playoff_rounds(tournament=tournament)
    count = playoff.round_count(size)
    first_matches = playoff.matches_in_round(size, 0)
    blocks = max(1, -(-first_matches // per_block))
    ranges: list[tuple[int, int]] = []
    for index in range(count):
        total = playoff.matches_in_round(size, index)
        if block is None:
            ranges.append((0, total))
        else:
            start = (block * per_block) >> index
            stop = max(start + 1, ((block + 1) * per_block) >> index)
            ranges.append((start, min(stop, total)))
    wanted = Q()
    for index, round_ in enumerate(rounds):
        start, stop = ranges[index]
        wanted |= Q(round=round_, table__gt=start, table__lte=stop)
    matches: dict[tuple[int, int], Match] = {}
    if rounds:
        for match in Match.objects.filter(wanted).select_related(
            "round__tournament", "player1__player", "player2__player", "decided_winner__player"
        ):
            matches[(match.round_id, (match.table or 1) - 1)] = match
    stages = []
    for index in range(count):
        played = rounds[index] if index < len(rounds) else None
        start, stop = ranges[index]
        slots = [
            Slot(
                index=slot,
                match=matches.get((played.pk, slot)) if played is not None else None,
                seeds=seeds,
            )
            for slot in range(start, stop)
        ]
        key = playoff.stage_key(playoff.matches_in_round(size, index))
        stages.append(BracketRound(index=index, key=key, round=played, slots=slots))
    return Bracket(
        size=size,
        rounds=stages,
        seeds=seeds,
        block=block or 0,
        blocks=blocks if block is not None else 1,
    )


@dataclass(frozen=True)
class FinalRow:
    place: int
    registration: Registration
    seed: int | None
    swiss_position: int
    # The round they went out in (0 first), None for the champion or a player still in, and
    # for a player outside the cut.
    out_in: int | None
    out_key: str
    champion: bool
    finalist: bool
    in_cut: bool

    @property
    def without_prize(self) -> bool:
        """A disqualification without prize (or a suspension): the prize of the place is
        withheld (rules.md §7)."""
        return not self.registration.prize_eligible

    @property
    def disqualified(self) -> bool:
        return self.registration.status == RegistrationStatus.DISQUALIFIED

    @property
    def went_out(self) -> str:
        return stage_label(self.out_key)


def final_standings(*, tournament: Tournament) -> list[FinalRow]:
    """The final standings: the champion, the finalist, then the players of the cut by the round
    they went out in (the later the better), ties broken by the Swiss standings; then everyone
    outside the cut in their Swiss order. A fixed number of queries."""
    seeds = {
        row.registration_id: row
        for row in PlayoffSeed.objects.filter(tournament=tournament).select_related(
            "registration__player"
        )
    }
    size = len(seeds)
    rows: list[FinalRow] = []
    if size >= 2:
        count = playoff.round_count(size)
        out_in: dict[int, int] = {}
        champion: int | None = None
        for losers, winner, index in _decided(tournament):
            for loser in losers:
                out_in[loser] = index
            if index == count - 1 and winner is not None:
                champion = winner
        finishes = [
            playoff.Finish(pk, out_in.get(pk), seed.swiss_position) for pk, seed in seeds.items()
        ]
        for place, finish in enumerate(playoff.final_order(finishes, count), start=1):
            seed = seeds[finish.registration_id]
            key = (
                playoff.stage_key(playoff.matches_in_round(size, finish.out_in))
                if finish.out_in is not None
                else ""
            )
            rows.append(
                FinalRow(
                    place=place,
                    registration=seed.registration,
                    seed=seed.seed,
                    swiss_position=seed.swiss_position,
                    out_in=finish.out_in,
                    out_key=key,
                    champion=finish.registration_id == champion,
                    finalist=finish.out_in == count - 1,
                    in_cut=True,
                )
            )
    place = len(rows)
    for row in selectors.standings_table(tournament=tournament):
        if row.registration.pk in seeds:
            continue
        place += 1
        rows.append(
            FinalRow(
                place=place,
                registration=row.registration,
                seed=None,
                swiss_position=row.standing.position,
                out_in=None,
                out_key="",
                champion=False,
                finalist=False,
                in_cut=False,
            )
        )
    return rows


def _decided(tournament: Tournament) -> list[tuple[set[int], int | None, int]]:
    """Each ended playoff match as (its losers, its winner, its round's index), in two queries:
    a match that ended without a winner (both players left) puts both out."""
    numbers = list(
        Round.objects.filter(tournament=tournament, playoff=True)
        .order_by("number")
        .values_list("number", flat=True)
    )
    index = {number: position for position, number in enumerate(numbers)}
    decided = []
    for match in Match.objects.filter(
        round__tournament=tournament, round__playoff=True, ended_at__isnull=False
    ).select_related("round"):
        winner = match.won_by
        both_lost = match.player1_lost_by_penalty and match.player2_lost_by_penalty
        if winner is None and match.end_reason != MatchEnd.WALKOVER and not both_lost:
            continue  # The games are level: its winner is still to be named.
        players = {pk for pk in (match.player1_id, match.player2_id) if pk is not None}
        decided.append((players - {winner}, winner, index[match.round.number]))
    return decided


def unserved_losses_owner_ids(*, tournament: Tournament) -> set[int]:
    """The players of the cut who are out of the playoff (lost a match, or left): a loss still
    waiting for their next match is not served (issue 32, item 4)."""
    seeds = set(
        PlayoffSeed.objects.filter(tournament=tournament).values_list("registration_id", flat=True)
    )
    out = {loser for losers, _winner, _index in _decided(tournament) for loser in losers}
    left = set(
        Registration.objects.filter(pk__in=seeds)
        .exclude(status=RegistrationStatus.PLAYING)
        .values_list("pk", flat=True)
    )
    return (out | left) & seeds
