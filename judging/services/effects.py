"""What a penalty does to games, matches, the tournament and the membership (rules.md §6, §7),
and stacking at the end of a match (§5.2).

The flow reads one way: serve what is due now (a game, the match), end the match when that decides
it, then stack at its end. These rules end matches through ``tournaments.services.close_match``
and stack by themselves, so they never re-enter through the lifecycle policy: the policy is only
how the tournaments app hands its own events (a match created, a game played, time called) to them.
"""

from collections import defaultdict

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import DomainError
from judging import stacking
from judging.models import ChangeKind, PenaltyRecord, RecordStatus
from judging.penalties import AppliesTo, Because, Moment, Rank
from judging.services.history import held_from, log
from players import services as player_services
from tournaments import services as tournament_services
from tournaments.models import Game, Match, MatchEnd, Registration, RegistrationStatus


class JudgingMatchPolicy:
    """What the penalty rules do to a match; registered with ``tournaments.lifecycle``."""

    def settle(self, match: Match) -> None:
        """A match was created, or got a game and goes on: serve the losses waiting for it."""
        serve_waiting(match)
        if match.has_ended:
            stack_at_match_end(match)

    def settle_round(self, matches: list[Match]) -> None:
        """Settle a new round's matches: the losses waiting for them are served all at once."""
        serve_at_round_start(matches)

    def has_waiting_game_loss(self, match: Match) -> bool:
        """A deferred game loss issued in this match waits for the game after the current one.
        One issued between matches while the match was still shown in progress waits for the
        next match, so it never lands here and never blocks the whole result (rules.md §6)."""
        return (
            PenaltyRecord.objects.pending_losses()
            .filter(issued_in_match=match, applies_to=AppliesTo.NEXT_GAME)
            .exclude(moment=Moment.BETWEEN_MATCHES)
            .exists()
        )

    def losses_decided_by_penalties(
        self, match: Match, *, player1_wins: int, player2_wins: int, draws: int
    ) -> set[int]:
        """The players whose match loss a penalty in force decides; a corrected result that
        would lift or add a loss a penalty in force decides is refused, naming the penalty
        (rules.md §4): the head judge amends or revokes the penalty first."""
        in_force = (
            PenaltyRecord.objects.in_force()
            .filter(Q(served_match=match) | Q(served_game__match=match))
            .select_related("registration__player", "infraction", "served_game")
            .order_by("id")
        )
        losers: set[int] = set()
        deciding: list[PenaltyRecord] = []
        games_won: dict[int | None, int] = defaultdict(int)
        for record in in_force:
            if record.served_match_id == match.pk and record.applies_to in MATCH_TAKEN:
                losers.add(record.registration_id)
                deciding.append(record)
            elif record.served_game is not None:
                games_won[record.served_game.winner_id] += 1
                deciding.append(record)
        if losers:
            wanted = Match(player1_id=match.player1_id, player2_id=match.player2_id)
            wanted.score_penalty_loss(losers, match.round.wins_needed)
            if (player1_wins, player2_wins) != (wanted.player1_wins, wanted.player2_wins):
                raise _decided_by_penalty(deciding[0])
        have = {match.player1_id: player1_wins, match.player2_id: player2_wins, None: draws}
        for winner, count in games_won.items():
            if not losers and have[winner] < count:
                raise _decided_by_penalty(deciding[0])
        return losers

    def match_ended(self, match: Match) -> None:
        """The tournaments app ended a match (games, time): stack at its end."""
        stack_at_match_end(match)


# The kinds of loss that take a whole match.
MATCH_TAKEN = (AppliesTo.CURRENT_MATCH, AppliesTo.NEXT_MATCH)


def _decided_by_penalty(record: PenaltyRecord) -> DomainError:
    return DomainError(
        "result_decided_by_penalty",
        _(
            "A penalty in force decides this result: «%(penalty)s» of %(player)s (record "
            "%(id)s). A correction cannot lift or add its loss: amend or revoke the penalty "
            "first, then correct the result."
        )
        % {
            "penalty": Rank(record.rank).label,
            "player": record.registration.player.name,
            "id": record.pk,
        },
    )


def take_effect(record: PenaltyRecord, match: Match | None, *, amended: bool = False) -> None:
    """Apply what an in-force record takes now: the tournament, the membership, a game or the
    match in progress; then, if that ended the match, stack at its end.

    A disqualification issued between matches while the app still shows the player's match in
    progress (the players are filling in the slip) leaves that match to its result: its included
    match loss waits for a next match the player never gets (rules.md §6). An amendment raising a
    record to a disqualification takes the match in progress at once (§7)."""
    registration = record.registration
    penalty = Rank(record.rank)
    in_progress = match is not None and not match.has_ended
    if penalty.disqualifies and not amended and record.moment == Moment.BETWEEN_MATCHES:
        in_progress = False
    if penalty.disqualifies:
        refresh_standing(registration)
        suspension = record.membership_suspension
        if penalty == Rank.SUSPENSION and (suspension is None or suspension.lifted_on is not None):
            # A suspension lifted by an earlier amendment stays lifted in the membership's history;
            # raising the record again suspends anew.
            record.membership_suspension = player_services.suspend_membership(
                player=registration.player,
                starts_on=timezone.localdate(),
                reason=_("Membership suspension in %(tournament)s")
                % {"tournament": registration.tournament.name},
            )
            record.save(update_fields=["membership_suspension"])
        if match is not None and in_progress:
            # The included match loss: the match in progress is lost at once (rules.md §7).
            record.applies_to = AppliesTo.CURRENT_MATCH
            record.served_match = match
            record.save(update_fields=["applies_to", "served_match"])
            tournament_services.end_match_by_penalty(match=match, losers={registration.pk})
    elif match is not None and in_progress:
        if record.applies_to == AppliesTo.CURRENT_MATCH:
            record.served_match = match
            record.save(update_fields=["served_match"])
            tournament_services.end_match_by_penalty(match=match, losers={registration.pk})
        elif record.applies_to == AppliesTo.CURRENT_GAME:
            record.served_game = tournament_services.add_game(
                match=match, winner=match.opponent_of(registration), decided_by_penalty=True
            )
            record.save(update_fields=["served_game"])
        if record.applies_to:
            # A loss for the next game of this match may be due at once (issued between games),
            # or the game just lost lets one wait no longer. A penalty that takes no game
            # changes nothing a waiting loss waits for.
            serve_waiting(match)
    if match is not None and in_progress and match.has_ended:
        stack_at_match_end(match)


def schedule_amended_loss(record: PenaltyRecord, match: Match | None) -> None:
    """An amendment made the record a game or match loss it has not yet cost (``loss_owed``):
    the loss is scheduled as if the record were issued now, between games while the player's
    match is in progress (so it is served at once), otherwise between matches (rules.md §6). A
    game it lost before stays where it was served."""
    moment = Moment.BETWEEN_MATCHES if match is None or match.has_ended else Moment.BETWEEN_GAMES
    record.applies_to = applies_to_for(Rank(record.rank), moment, deferred=False)
    record.loss_cancelled = False
    # The loss is owed (``loss_owed``): a game loss has served nothing, and a match loss's link to
    # a match is at most that of a game loss served by another record's match loss.
    record.served_match = None
    record.save(update_fields=["applies_to", "loss_cancelled", "served_game", "served_match"])
    if match is None or moment == Moment.BETWEEN_MATCHES:
        return  # Pending: served when the player's next match is paired.
    if record.applies_to == AppliesTo.NEXT_GAME:
        # "The next game of the current match at once": it exists as the game after the last one.
        record.served_game = tournament_services.add_game(
            match=match, winner=match.opponent_of(record.registration), decided_by_penalty=True
        )
        record.save(update_fields=["served_game"])
    take_effect(record, match)


def serve_waiting(match: Match) -> None:
    """Serve the pending losses that wait for this match in progress, and end the match when
    that or its games decide it (rules.md §6). Stacking at its end is the caller's next step."""
    if match.has_ended:
        return
    players = [pk for pk in (match.player1_id, match.player2_id) if pk is not None]
    waiting = list(
        PenaltyRecord.objects.pending_losses().filter(registration_id__in=players).order_by("id")
    )
    games_played = match.games.count()
    games, served = _serve_in_memory(match, waiting, games_played=games_played)
    if games or match.has_ended:
        tournament_services.save_served_matches(
            matches=[match], games=[game for game, _records in games]
        )
    _link_served(games, served)


def serve_at_round_start(matches: list[Match]) -> None:
    """Serve the losses waiting for a new round's matches, by the rules of ``serve_waiting``,
    then stack at the end of the matches that this ended; a fixed number of queries whatever the
    number of matches and losses (only a record that stacking makes is written on its own)."""
    ids = {pk for match in matches for pk in (match.player1_id, match.player2_id) if pk}
    waiting: dict[int, list[PenaltyRecord]] = defaultdict(list)
    for record in (
        PenaltyRecord.objects.pending_losses().filter(registration_id__in=ids).order_by("id")
    ):
        waiting[record.registration_id].append(record)
    if not waiting:
        return
    games: list[tuple[Game, list[PenaltyRecord]]] = []
    served: list[PenaltyRecord] = []
    changed: list[Match] = []
    for match in matches:
        if match.player1_id in waiting or match.player2_id in waiting:
            theirs = [r for pk in (match.player1_id, match.player2_id) if pk for r in waiting[pk]]
            played, by_match = _serve_in_memory(match, theirs, games_played=0)
            games += played
            served += by_match
            if played or match.has_ended:
                changed.append(match)
    tournament_services.save_served_matches(
        matches=changed, games=[game for game, _records in games]
    )
    _link_served(games, served)
    ended = [match for match in changed if match.has_ended]
    if ended:
        _stack_at_ends(ended)


def _serve_in_memory(
    match: Match, waiting: list[PenaltyRecord], *, games_played: int
) -> tuple[list[tuple[Game, list[PenaltyRecord]]], list[PenaltyRecord]]:
    """How the losses waiting (oldest first, either player's) are served in a match in progress
    with ``games_played`` games, written once for a new round and a match under way; nothing
    is written. Returns the games it adds, each with the game losses it serves, and the records
    the match itself serves; the match's score and end are set in memory.

    The next game and the match exist at the same moment, so every loss waiting for them is
    served then, whatever order the losses were issued in (rules.md §6): a pending match loss
    (one per player) decides the match and serves every game loss waiting for it; otherwise each
    player's oldest game loss takes the next game (both players' at once: a draw) until the match
    ends, and what is left waits for the player's next match."""
    # A playoff round has its own best of (tournaments.models.Round.games_best_of).
    round_ = match.round
    games: list[tuple[Game, list[PenaltyRecord]]] = []
    by_match: list[PenaltyRecord] = []
    left = list(waiting)
    while True:
        reason = match.decided_by_games(
            games_played=games_played + len(games),
            best_of=round_.games_best_of,
            wins_needed=round_.wins_needed,
        )
        if reason is not None:
            match.ended_at, match.end_reason = timezone.now(), reason
            break
        number = games_played + len(games) + 1
        due = [record for record in left if _may_serve(record, match, number)]
        match_losses = _oldest_of_each(due, AppliesTo.NEXT_MATCH)
        if match_losses:
            served = match_losses + [r for r in due if r.applies_to == AppliesTo.NEXT_GAME]
            match.score_penalty_loss(
                {record.registration_id for record in match_losses}, round_.wins_needed
            )
            match.ended_at, match.end_reason = timezone.now(), MatchEnd.PENALTY
            for record in served:
                record.served_match = match
            by_match += served
            break
        game_losses = _oldest_of_each(due, AppliesTo.NEXT_GAME)
        if not game_losses:
            break
        losers = {record.registration_id for record in game_losses}
        winner_id = None
        if len(losers) == 1:
            winner_id = match.player2_id if match.player1_id in losers else match.player1_id
        match.score_game(winner_id)
        game = Game(match=match, number=number, winner_id=winner_id, decided_by_penalty=True)
        games.append((game, game_losses))
        left = [record for record in left if record not in game_losses]
    return games, by_match


def _oldest_of_each(records: list[PenaltyRecord], kind: str) -> list[PenaltyRecord]:
    """Each player's oldest record of that kind among ``records`` (which are oldest first)."""
    taken: dict[int, PenaltyRecord] = {}
    for record in records:
        if record.applies_to == kind:
            taken.setdefault(record.registration_id, record)
    return list(taken.values())


def _link_served(
    games: list[tuple[Game, list[PenaltyRecord]]], by_match: list[PenaltyRecord]
) -> None:
    """Link each served loss to the game or the match that served it, in one update."""
    served = list(by_match)
    for game, records in games:
        for record in records:
            record.served_game = game
        served += records
    if served:
        PenaltyRecord.objects.bulk_update(served, ["served_game", "served_match"])


def _stack_at_ends(matches: list[Match]) -> None:
    """Rule 5.2 at the end of each of these matches (each player plays in one of them), the
    first-listed player first, with the players and their penalties read in one query each.
    Who stacks is decided here once: the players of a match, not of a bye, not disqualified
    (a disqualified player receives no further penalties, rules.md §5.3)."""
    ids = [
        pk
        for match in matches
        if not match.is_bye
        for pk in (match.player1_id, match.player2_id)
        if pk is not None
    ]
    if not ids:
        return
    registrations = Registration.objects.select_related("tournament").in_bulk(ids)
    held: dict[int, list[PenaltyRecord]] = defaultdict(list)
    for record in (
        PenaltyRecord.objects.in_force()
        .filter(registration_id__in=ids)
        .select_related("round")
        .order_by("id")
    ):
        held[record.registration_id].append(record)
    for match in matches:
        if match.is_bye:
            continue
        for registration_id in (match.player1_id, match.player2_id):
            if registration_id is None:
                continue
            registration = registrations[registration_id]
            if registration.status == RegistrationStatus.DISQUALIFIED:
                continue
            _stack(registration, match, held=held_from(held[registration_id]))


def stack_at_match_end(match: Match) -> None:
    """Rule 5.2 for each player of the match, the first-listed player first."""
    _stack_at_ends([match])


def _stack(registration: Registration, match: Match, held: list[stacking.HeldPenalty]) -> None:
    decisions = stacking.stack_at_match_end(held=held, round_number=match.round.number)
    made: dict[int, PenaltyRecord] = {}
    for decision in decisions:
        record = PenaltyRecord.objects.create(
            tournament_id=registration.tournament_id,
            registration=registration,
            reason=None,  # Its reason is its own: it never equals another record's (§5.2).
            moment=Moment.BETWEEN_MATCHES,
            round=match.round,
            issued_in_match=match,
            issued_rank=decision.rank,
            rank=decision.rank,
            because=Because.STACKING,
            explanation=decision.explanation,
            applies_to=applies_to_for(decision.rank, Moment.BETWEEN_MATCHES, deferred=False),
            status=RecordStatus.IN_FORCE,
        )
        made[decision.id] = record
        sources = [source for source in decision.sources if source > 0]
        PenaltyRecord.objects.filter(pk__in=sources).update(stacked_into=record)
        for source in decision.sources:
            if source < 0:
                made[source].stacked_into = record
                made[source].save(update_fields=["stacked_into"])
        log(record, ChangeKind.ISSUED, author=None, from_rank=None, from_status="")
        if decision.rank.disqualifies:
            refresh_standing(registration)


def _may_serve(record: PenaltyRecord, match: Match, game_number: int) -> bool:
    """Whether a pending loss may be served by this game of this match."""
    if record.issued_in_match_id != match.pk:
        return True
    if record.applies_to != AppliesTo.NEXT_GAME:
        return False  # "The next match" is never the match the loss was issued in.
    if record.moment == Moment.BETWEEN_GAMES:
        return True
    if record.moment == Moment.IN_GAME:
        return game_number > (record.issued_in_game or 0)
    return False  # Issued between matches while a match was in progress: it waits for the next.


def applies_to_for(rank: Rank, moment: str, deferred: bool) -> str:
    """What a game or match loss takes (rules.md §6); a disqualification's match loss is set
    when it takes effect, since a request may be confirmed after its match has ended."""
    if rank == Rank.GAME_LOSS:
        if moment == Moment.IN_GAME and not deferred:
            return AppliesTo.CURRENT_GAME
        return AppliesTo.NEXT_GAME
    if rank == Rank.MATCH_LOSS:
        if moment != Moment.BETWEEN_MATCHES and not deferred:
            return AppliesTo.CURRENT_MATCH
        return AppliesTo.NEXT_MATCH
    return ""


def refresh_standing(registration: Registration) -> None:
    """Derive the player's status and prize eligibility from the records in force (§7)."""
    ranks = set(
        PenaltyRecord.objects.in_force()
        .filter(registration=registration, rank__gte=Rank.DISQUALIFICATION)
        .values_list("rank", flat=True)
    )
    if ranks:
        status = RegistrationStatus.DISQUALIFIED
    elif registration.dropped_at is not None:
        status = RegistrationStatus.DROPPED
    else:
        status = RegistrationStatus.PLAYING
    prize_eligible = not any(Rank(rank).takes_prize for rank in ranks)
    if (status, prize_eligible) != (registration.status, registration.prize_eligible):
        registration.status = status
        registration.prize_eligible = prize_eligible
        registration.save(update_fields=["status", "prize_eligible"])


def lift_suspension(record: PenaltyRecord, reason: str) -> None:
    if record.membership_suspension is not None:
        player_services.lift_suspension(
            suspension=record.membership_suspension, reason=reason, day=timezone.localdate()
        )


def loss_owed(record: PenaltyRecord, to_rank: Rank) -> bool:
    """Whether a record amended to ``to_rank`` still owes the loss that rank costs: a game loss
    one game, a match loss one match, and a match already lost by this record covers a game
    (rules.md §6). What it has cost is read from what it served; a request never served."""
    cost_match = record.served_match_id is not None and record.applies_to in MATCH_TAKEN
    cost_game = record.served_game_id is not None or record.served_match_id is not None
    if to_rank == Rank.GAME_LOSS:
        return not cost_game
    if to_rank == Rank.MATCH_LOSS:
        return not cost_match
    return False


def loss_cancelled(record: PenaltyRecord) -> bool:
    """An amendment or revocation cancels a loss of the record that is still pending (§6)."""
    return record.loss_cancelled or record.is_pending_loss
