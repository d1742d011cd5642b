"""What a penalty does to games, matches, the tournament and the membership (rules.md §6, §7),
and stacking at the end of a match (§5.2).

The flow reads one way: serve what is due now (a game, the match), end the match when that decides
it, then stack at its end. These rules end matches through ``tournaments.services.close_match``
and stack by themselves, so they never re-enter through the lifecycle policy: the policy is only
how the tournaments app hands its own events (a match created, a game played, time called) to them.
"""

from collections import defaultdict

from django.utils import timezone
from django.utils.translation import gettext as _

from judging import stacking
from judging.models import ChangeKind, PenaltyRecord, RecordStatus
from judging.penalties import AppliesTo, Because, Moment, Rank
from judging.services.history import held_from, held_penalties, log
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
        """A deferred game loss issued in this match waits for the game after the current one."""
        return (
            PenaltyRecord.objects.pending_losses()
            .filter(issued_in_match=match, applies_to=AppliesTo.NEXT_GAME)
            .exists()
        )

    def match_ended(self, match: Match) -> None:
        """The tournaments app ended a match (games, time): stack at its end."""
        stack_at_match_end(match)


def take_effect(record: PenaltyRecord, match: Match | None) -> None:
    """Apply what an in-force record takes now: the tournament, the membership, a game or the
    match in progress; then, if that ended the match, stack at its end."""
    registration = record.registration
    penalty = Rank(record.rank)
    in_progress = match is not None and not match.has_ended
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
    """An amendment raised the record to a game or match loss: the loss is scheduled as if the
    record were issued now, between games while the player's match is in progress (so it is
    served at once), otherwise between matches (rules.md §6). A loss it had before stays where it
    was served; only the link of the kind now scheduled is taken over by the new loss."""
    moment = Moment.BETWEEN_MATCHES if match is None or match.has_ended else Moment.BETWEEN_GAMES
    record.applies_to = applies_to_for(Rank(record.rank), moment, deferred=False)
    record.loss_cancelled = False
    if record.applies_to == AppliesTo.NEXT_GAME:
        record.served_game = None
    else:
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
    """Serve the pending losses that wait for this match, game by game, and end the match when
    its games decide it (rules.md §6). Stacking at its end is the caller's next step."""
    while not match.has_ended:
        reason = tournament_services.decided_end(match)
        if reason is not None:
            tournament_services.close_match(match=match, reason=reason)
            return
        game_number = match.games.count() + 1
        # The next game and the match exist at the same moment, so every loss waiting for them
        # is served now, whatever order the losses were issued in: each player's oldest game loss
        # takes this game and their oldest match loss the whole match (rules.md §6).
        waiting: dict[str, dict[int, PenaltyRecord]] = {
            AppliesTo.NEXT_GAME: {},
            AppliesTo.NEXT_MATCH: {},
        }
        for record in (
            PenaltyRecord.objects.pending_losses()
            .filter(registration_id__in=[match.player1_id, match.player2_id])
            .order_by("id")
        ):
            if _may_serve(record, match, game_number):
                waiting[record.applies_to].setdefault(record.registration_id, record)
        game_losses = list(waiting[AppliesTo.NEXT_GAME].values())
        match_losses = list(waiting[AppliesTo.NEXT_MATCH].values())
        if not game_losses and not match_losses:
            return
        if game_losses:
            losers = {record.registration_id for record in game_losses}
            winner = None
            if len(losers) == 1:
                winner = match.player2 if match.player1_id in losers else match.player1
            game = tournament_services.add_game(match=match, winner=winner, decided_by_penalty=True)
            for record in game_losses:
                record.served_game = game
                record.save(update_fields=["served_game"])
        if match_losses:
            # The match loss decides the score, so the game served with it cannot end it first.
            tournament_services.end_match_by_penalty(
                match=match, losers={record.registration_id for record in match_losses}
            )
            for record in match_losses:
                record.served_match = match
                record.save(update_fields=["served_match"])
            return


def serve_at_round_start(matches: list[Match]) -> None:
    """Serve the losses waiting for a new round's matches, by the rules of ``serve_waiting``,
    then stack at the end of the matches that this ended; a fixed number of queries whatever the
    number of matches and losses (only a record that stacking makes is written on its own).

    The matches are new: no game played, and no loss was issued in them, so every loss waiting
    for their players may be served in them (``_may_serve``)."""
    ids = {pk for match in matches for pk in (match.player1_id, match.player2_id) if pk}
    waiting: dict[int, list[PenaltyRecord]] = defaultdict(list)
    for record in (
        PenaltyRecord.objects.pending_losses().filter(registration_id__in=ids).order_by("id")
    ):
        waiting[record.registration_id].append(record)
    if not waiting:
        return
    games: list[tuple[Game, list[PenaltyRecord]]] = []
    served_matches: list[PenaltyRecord] = []
    changed: list[Match] = []
    for match in matches:
        if match.player1_id in waiting or match.player2_id in waiting:
            played = _serve_in_memory(match, waiting, served_matches)
            games += played
            if played or match.has_ended:
                changed.append(match)
    tournament_services.save_served_matches(
        matches=changed, games=[game for game, _records in games]
    )
    served: list[PenaltyRecord] = served_matches
    for game, records in games:
        for record in records:
            record.served_game = game
        served += records
    PenaltyRecord.objects.bulk_update(served, ["served_game", "served_match"])
    ended = [match for match in changed if match.has_ended]
    if ended:
        _stack_at_ends(ended)


def _serve_in_memory(
    match: Match, waiting: dict[int, list[PenaltyRecord]], served_matches: list[PenaltyRecord]
) -> list[tuple[Game, list[PenaltyRecord]]]:
    """``serve_waiting`` for a new match, with nothing written: the games it gets, each with
    the game losses it serves; the match losses it serves go to ``served_matches``."""
    tournament = match.round.tournament
    players = [pk for pk in (match.player1_id, match.player2_id) if pk]
    games: list[tuple[Game, list[PenaltyRecord]]] = []
    now = timezone.now()
    while True:
        if max(match.player1_wins, match.player2_wins) >= tournament.wins_needed:
            match.ended_at, match.end_reason = now, MatchEnd.WINS_NEEDED
            break
        if len(games) >= tournament.best_of:
            match.ended_at, match.end_reason = now, MatchEnd.ALL_GAMES_PLAYED
            break
        game_losses = _oldest(waiting, players, AppliesTo.NEXT_GAME)
        match_losses = _oldest(waiting, players, AppliesTo.NEXT_MATCH)
        if not game_losses and not match_losses:
            break
        if game_losses:
            losers = {record.registration_id for record in game_losses}
            winner = None
            if len(losers) == 1:
                winner = match.player2 if match.player1_id in losers else match.player1
            if winner is None:
                match.draws += 1
            elif winner.pk == match.player1_id:
                match.player1_wins += 1
            else:
                match.player2_wins += 1
            game = Game(match=match, number=len(games) + 1, winner=winner, decided_by_penalty=True)
            games.append((game, game_losses))
        if match_losses:
            losers = {record.registration_id for record in match_losses}
            wins_needed = tournament.wins_needed
            match.player1_lost_by_penalty = match.player1_id in losers
            match.player2_lost_by_penalty = match.player2_id in losers
            match.player1_wins = 0 if match.player1_lost_by_penalty else wins_needed
            match.player2_wins = 0 if match.player2_lost_by_penalty else wins_needed
            match.ended_at, match.end_reason = now, MatchEnd.PENALTY
            for record in match_losses:
                record.served_match = match
            served_matches += match_losses
            break
    return games


def _oldest(
    waiting: dict[int, list[PenaltyRecord]], players: list[int], kind: str
) -> list[PenaltyRecord]:
    """Each player's oldest loss of that kind still waiting, taken off the waiting list."""
    taken = []
    for player in players:
        records = waiting.get(player, [])
        record = next((record for record in records if record.applies_to == kind), None)
        if record is not None:
            records.remove(record)
            taken.append(record)
    return taken


def _stack_at_ends(matches: list[Match]) -> None:
    """``stack_at_match_end`` for several ended matches (each player plays in one of them), with
    the players and their penalties read in one query each."""
    ids = [
        pk
        for match in matches
        if not match.is_bye
        for pk in (match.player1_id, match.player2_id)
        if pk is not None
    ]
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
        for registration_id in (match.player1_id, match.player2_id):
            if registration_id is None or match.is_bye:
                continue
            registration = registrations[registration_id]
            if registration.status == RegistrationStatus.DISQUALIFIED:
                continue
            _stack(registration, match, held=held_from(held[registration_id]))


def stack_at_match_end(match: Match) -> None:
    """Rule 5.2 for each player of the match, the first-listed player first."""
    if match.is_bye:
        return
    for registration_id in (match.player1_id, match.player2_id):
        if registration_id is None:
            continue
        registration = Registration.objects.select_related("tournament").get(pk=registration_id)
        if registration.status == RegistrationStatus.DISQUALIFIED:
            continue  # A disqualified player receives no further penalties.
        _stack(registration, match)


def _stack(
    registration: Registration, match: Match, held: list[stacking.HeldPenalty] | None = None
) -> None:
    decisions = stacking.stack_at_match_end(
        held=held_penalties(registration) if held is None else held,
        round_number=match.round.number,
    )
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


def loss_cancelled(record: PenaltyRecord) -> bool:
    """An amendment or revocation cancels a loss of the record that is still pending (§6)."""
    return record.loss_cancelled or record.is_pending_loss
