"""Writes for playing a tournament: rounds and their pairings, games, results, the end of matches.

Every public function is keyword-only, atomic, locks the registrations it changes in primary-key
order (so two writers never deadlock), and raises ``DomainError`` before writing anything when the
action is not allowed. What the penalty rules do when a match starts, gets a game or ends is asked
of the registered ``lifecycle`` policy.
"""

import random
from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.errors import DomainError
from core.text import bounded_text
from tournaments import lifecycle, selectors
from tournaments.models import (
    Game,
    Match,
    MatchEnd,
    Registration,
    RegistrationStatus,
    ResultCorrection,
    Round,
    RoundDraft,
    Tournament,
    TournamentStatus,
)
from tournaments.services.locks import lock_registrations, lock_tournament
from tournaments.services.pages import announce_bracket_change, mark_public_change
from tournaments.services.playoff import (
    ensure_not_superseded,
    ensure_swiss_may_go_on,
    ensure_tiebreak,
    ensure_winner_stands,
    winner_after,
)
from tournaments.services.setup import ensure_not_finished, ensure_round_over

# The longest reason a correction keeps (its form allows as much).
CORRECTION_REASON_MAX_LENGTH = 1000


def pair_round(
    *, tournament: Tournament, pairings: Sequence[tuple[Registration, Registration | None]]
) -> Round:
    """Start the next round with the given matches; a pairing without a second player is a bye.

    Pending penalty losses are served as the matches are created (rules.md §6).
    """
    with transaction.atomic():
        # Exclusive: the judges' writes under way end first, and new ones wait for the round
        # (tournaments.services.locks says the order).
        tournament = lock_tournament(tournament.pk, exclusive=True)
        if tournament.status == TournamentStatus.FINISHED:
            raise DomainError("tournament_finished", _("The tournament has finished."))
        if not pairings:
            raise DomainError("no_pairings", _("A round needs at least one pairing."))
        ids = [reg.pk for pair in pairings for reg in pair if reg is not None]
        if len(ids) != len(set(ids)):
            raise DomainError("paired_twice", _("A player appears more than once in the pairings."))
        locked = lock_registrations(ids)
        for pk in ids:
            registration = locked.get(pk)
            if registration is None or registration.tournament_id != tournament.pk:
                raise DomainError(
                    "not_registered", _("A paired player is not registered in this tournament.")
                )
            if registration.status == RegistrationStatus.DISQUALIFIED:
                raise DomainError(
                    "player_disqualified",
                    _("%(player)s is disqualified and cannot be paired.")
                    % {"player": registration.player.name},
                )
            if registration.status == RegistrationStatus.DROPPED:
                raise DomainError(
                    "player_dropped",
                    _("%(player)s has dropped from the tournament and cannot be paired.")
                    % {"player": registration.player.name},
                )
        ensure_swiss_may_go_on(tournament)
        ensure_round_over(tournament)
        number = (tournament.rounds.aggregate(last=Max("number"))["last"] or 0) + 1
        new_round = Round.objects.create(tournament=tournament, number=number)
        if tournament.status == TournamentStatus.SETUP:
            tournament.status = TournamentStatus.RUNNING
            tournament.save(update_fields=["status"])
        now = timezone.now()
        matches: list[Match] = []
        table = 0
        for first, second in pairings:
            if second is None:
                # A bye counts as a match won 2–0 in the standings but serves no penalty.
                matches.append(
                    Match(
                        round=new_round,
                        player1=locked[first.pk],
                        player1_wins=tournament.wins_needed,
                        ended_at=now,
                        end_reason=MatchEnd.BYE,
                    )
                )
                continue
            table += 1
            matches.append(
                Match(
                    round=new_round,
                    table=table,
                    player1=locked[first.pk],
                    player2=locked[second.pk],
                )
            )
        # One insert for the round and one look-up for the losses waiting, whatever its size.
        created = Match.objects.bulk_create(matches)
        lifecycle.policy().settle_round([match for match in created if not match.has_ended])
        mark_public_change(tournament_id=tournament.pk)
        return new_round


def _lock_match(match: Match) -> Match:
    """Lock the match's players, then re-read the match, so its state is the committed one."""
    lock_registrations([pk for pk in (match.player1_id, match.player2_id) if pk])
    return Match.objects.select_related(
        "round__tournament", "player1__player", "player2__player"
    ).get(pk=match.pk)


def _ensure_playable(match: Match) -> None:
    if match.is_bye:
        raise DomainError("bye_has_no_games", _("A bye has no games."))
    if match.has_ended or match.round.playoff:
        # Every match of a round ends before the next is published; a playoff match is checked
        # even so, since the bracket's next round is paired from its winner.
        ensure_not_superseded(match)
    if match.has_ended:
        raise DomainError("match_ended", _("This match has already ended."))


def record_game(*, match: Match, winner: Registration | None) -> Game:
    """Record the next game of a match; ``winner`` None is a draw."""
    with transaction.atomic():
        match = _lock_match(match)
        _ensure_playable(match)
        if winner is not None and winner.pk not in (match.player1_id, match.player2_id):
            raise DomainError("not_in_match", _("The winner does not play in this match."))
        game = add_game(match=match, winner=winner, decided_by_penalty=False)
        reason = decided_end(match)
        if reason is not None:
            end_match(match=match, reason=reason)
        else:
            # The game after this one now exists: a loss waiting for it is served at once.
            lifecycle.policy().settle(match)
        return game


def finish_match(
    *, match: Match, winner: Registration | None = None, decided_how: str = ""
) -> Match:
    """Time is called: the match ends with the games recorded so far. A playoff match whose
    games are level needs its winner and how it was decided (issue 32)."""
    with transaction.atomic():
        match = _lock_match(match)
        _ensure_playable(match)
        tiebreak = _playoff_tiebreak(match, match.is_level, winner, decided_how)
        end_match(match=match, reason=MatchEnd.TIME_CALLED)
        _keep_tiebreak(match, tiebreak)
        return match


def _playoff_tiebreak(
    match: Match, level: bool, winner: Registration | None, decided_how: str
) -> tuple[int, str] | None:
    """A playoff match that would end with the games level: its named winner, checked (a draw
    is refused); None for any other match."""
    if not match.round.playoff or not level:
        return None
    return ensure_tiebreak(match, winner, decided_how)


def _keep_tiebreak(match: Match, tiebreak: tuple[int, str] | None) -> None:
    """Record the named winner, unless a penalty decided the match meanwhile (served as it
    ended): then the penalty's loss stands and the named winner is not needed."""
    if tiebreak is None or not match.is_level:
        return
    match.decided_winner_id, match.decided_how = tiebreak
    match.save(update_fields=["decided_winner", "decided_how"])


def add_game(*, match: Match, winner: Registration | None, decided_by_penalty: bool) -> Game:
    """Append a game to a locked match in progress; ``winner`` None is a draw.

    The match does not end here: the caller asks ``decided_end`` once everything that happens at
    this moment is in (a game served together with a match loss must not end the match first).
    """
    number = match.games.count() + 1
    game = Game.objects.create(
        match=match,
        number=number,
        winner=winner,
        decided_by_penalty=decided_by_penalty,
    )
    match.score_game(winner.pk if winner is not None else None)
    match.save(update_fields=["player1_wins", "player2_wins", "draws"])
    if match.round.playoff:
        # The bracket shows a playoff match's score as it is played.
        announce_bracket_change(tournament_id=match.round.tournament_id)
    return game


def save_served_matches(*, matches: list[Match], games: list[Game]) -> None:
    """Write what the penalty rules served at the start of a round, computed in memory by the
    rules of ``add_game``, ``end_match_by_penalty`` and ``close_match``: the new games in one
    insert, the matches' scores and ends in one update (called inside ``pair_round``)."""
    Game.objects.bulk_create(games)
    Match.objects.bulk_update(
        matches,
        [
            "player1_wins",
            "player2_wins",
            "draws",
            "player1_lost_by_penalty",
            "player2_lost_by_penalty",
            "ended_at",
            "end_reason",
        ],
    )


def decided_end(match: Match) -> str | None:
    """Why the games recorded so far end the match, or None while it goes on (rules.md §6)."""
    return match.decided_by_games(
        games_played=match.games.count(),
        best_of=match.round.games_best_of,
        wins_needed=match.round.wins_needed,
    )


def ensure_possible_result(
    tournament: Tournament,
    player1_wins: int,
    player2_wins: int,
    draws: int,
    *,
    best_of: int | None = None,
) -> None:
    """A result a best of N can end with (rules.md §9): no negative games, nobody above the wins
    needed, not both players at them, and no more games than the match has. ``best_of``: the
    match's round's own (a playoff round's), else the tournament's."""
    if min(player1_wins, player2_wins, draws) < 0:
        raise DomainError("bad_result", _("Games cannot be negative."))
    best_of = best_of or tournament.best_of
    wins_needed = best_of // 2 + 1
    if max(player1_wins, player2_wins) > wins_needed:
        raise DomainError(
            "too_many_wins",
            ngettext(
                "Too many wins: a player wins at most %(wins)s game in this match.",
                "Too many wins: a player wins at most %(wins)s games in this match.",
                wins_needed,
            )
            % {"wins": wins_needed},
        )
    if min(player1_wins, player2_wins) >= wins_needed:
        raise DomainError(
            "both_players_won",
            ngettext(
                "Only one player can win %(wins)s game: the match ends when the first does.",
                "Only one player can win %(wins)s games: the match ends when the first does.",
                wins_needed,
            )
            % {"wins": wins_needed},
        )
    if player1_wins + player2_wins + draws > best_of:
        raise DomainError(
            "too_many_games",
            _("A match has at most %(count)s games.") % {"count": best_of},
        )


def end_match_by_penalty(*, match: Match, losers: set[int]) -> None:
    """A match lost by penalty: 0 games to the wins needed, whatever was played before.

    Called by the penalty rules, which apply the end of the match themselves (``close_match``).
    """
    match.score_penalty_loss(losers, match.round.wins_needed)
    match.save(
        update_fields=[
            "player1_lost_by_penalty",
            "player2_lost_by_penalty",
            "player1_wins",
            "player2_wins",
        ]
    )
    close_match(match=match, reason=MatchEnd.PENALTY)


def end_match(*, match: Match, reason: str) -> None:
    """End a locked match and apply what the penalty rules do at its end (stacking)."""
    close_match(match=match, reason=reason)
    lifecycle.policy().match_ended(match)


def close_match(*, match: Match, reason: str) -> None:
    """Mark a locked match ended. The penalty rules, which end matches through this and then
    apply the end of the match themselves, never re-enter through the lifecycle policy."""
    match.ended_at = timezone.now()
    match.end_reason = reason
    match.save(update_fields=["ended_at", "end_reason"])
    # The standings the players' pages show count ended matches; the bracket shows a playoff
    # match's end at once.
    _changed(match)


def _changed(match: Match) -> None:
    if match.round.playoff:
        announce_bracket_change(tournament_id=match.round.tournament_id)
    else:
        mark_public_change(tournament_id=match.round.tournament_id)


def enter_result(
    *,
    match: Match,
    player1_wins: int,
    player2_wins: int,
    draws: int = 0,
    winner: Registration | None = None,
    decided_how: str = "",
) -> Match:
    """Record a whole match result at once; the match ends with it.

    Games already recorded (by play or by penalty) are kept: the result must include them, and it
    must fit the best-of rule. The missing games are added, then the match ends, so stacking runs.
    A playoff match with the games level needs ``winner`` and ``decided_how`` (issue 32).
    """
    with transaction.atomic():
        match = _lock_match(match)
        _ensure_playable(match)
        tournament = match.round.tournament
        wanted = (player1_wins, player2_wins, draws)
        ensure_possible_result(tournament, *wanted, best_of=match.round.games_best_of)
        have = (match.player1_wins, match.player2_wins, match.draws)
        if any(new < old for new, old in zip(wanted, have, strict=True)):
            raise DomainError(
                "result_contradicts_games",
                _(
                    "Games already recorded stand at %(first)s–%(second)s with %(draws)s drawn "
                    "(including games decided by penalties); the result must include them."
                )
                % {"first": have[0], "second": have[1], "draws": have[2]},
            )
        tiebreak = _playoff_tiebreak(match, player1_wins == player2_wins, winner, decided_how)
        if lifecycle.policy().has_waiting_game_loss(match):
            raise DomainError(
                "enter_games_one_by_one",
                _(
                    "A player of this match has a game loss waiting for the next game; record "
                    "this match game by game so that it lands on the right game."
                ),
            )
        first_games: list[Registration | None] = [match.player1] * (player1_wins - have[0])
        second_games: list[Registration | None] = [match.player2] * (player2_wins - have[1])
        decisive = sorted([first_games, second_games], key=len)
        additions: list[Registration | None] = [None] * (draws - have[2])
        additions += decisive[0] + decisive[1]
        for winner in additions:
            add_game(match=match, winner=winner, decided_by_penalty=False)
        end_match(match=match, reason=decided_end(match) or MatchEnd.TIME_CALLED)
        _keep_tiebreak(match, tiebreak)
        return match


def correct_result(
    *,
    match: Match,
    player1_wins: int,
    player2_wins: int,
    draws: int,
    reason: str,
    corrected_by: User,
) -> ResultCorrection:
    """Correct a finished match's result with a reason; the standings follow at once.

    The recorded games stay as they were played and the end of the match keeps its moment, so
    stacking that fired then stands (docs/decisions.md). A correction never lifts or adds a loss
    that a penalty in force decides (rules.md §4): while one does, the correction is refused; once
    the head judge has revoked or lowered it, the correction lifts the match loss it left.
    """
    with transaction.atomic():
        match = _lock_match(match)
        tournament = match.round.tournament
        ensure_not_finished(tournament)
        if match.is_bye:
            raise DomainError("bye_has_no_games", _("A bye has no games."))
        if not match.has_ended:
            raise DomainError(
                "match_not_ended",
                _("Only a finished match's result is corrected; record this one's games."),
            )
        reason = bounded_text(
            reason,
            max_length=CORRECTION_REASON_MAX_LENGTH,
            missing=DomainError("reason_required", _("Write the reason for the correction.")),
            too_long=DomainError(
                "reason_too_long",
                _("Keep the reason under %(count)s characters.")
                % {"count": CORRECTION_REASON_MAX_LENGTH},
            ),
        )
        ensure_possible_result(
            tournament, player1_wins, player2_wins, draws, best_of=match.round.games_best_of
        )
        # A loss a penalty in force decides is not the result's to change (rules.md §4): such a
        # correction is refused and names the penalty; a loss whose penalty was revoked or
        # lowered meanwhile is the correction's to lift.
        losers = lifecycle.policy().losses_decided_by_penalties(
            match, player1_wins=player1_wins, player2_wins=player2_wins, draws=draws
        )
        lost1, lost2 = match.player1_id in losers, match.player2_id in losers
        before = (
            match.player1_wins,
            match.player2_wins,
            match.draws,
            match.player1_lost_by_penalty,
            match.player2_lost_by_penalty,
        )
        if before == (player1_wins, player2_wins, draws, lost1, lost2):
            raise DomainError(
                "result_unchanged", _("This is the result already recorded; nothing to correct.")
            )
        ensure_winner_stands(
            match,
            winner_after(
                match,
                player1_wins=player1_wins,
                player2_wins=player2_wins,
                lost1=lost1,
                lost2=lost2,
            ),
        )
        correction = ResultCorrection.objects.create(
            match=match,
            round_id=match.round_id,
            corrected_by=corrected_by,
            reason=reason,
            before_player1_wins=before[0],
            before_player2_wins=before[1],
            before_draws=before[2],
            before_player1_lost_by_penalty=before[3],
            before_player2_lost_by_penalty=before[4],
            player1_wins=player1_wins,
            player2_wins=player2_wins,
            draws=draws,
            player1_lost_by_penalty=lost1,
            player2_lost_by_penalty=lost2,
        )
        match.player1_wins, match.player2_wins, match.draws = player1_wins, player2_wins, draws
        match.player1_lost_by_penalty, match.player2_lost_by_penalty = lost1, lost2
        match.save(
            update_fields=[
                "player1_wins",
                "player2_wins",
                "draws",
                "player1_lost_by_penalty",
                "player2_lost_by_penalty",
            ]
        )
        _changed(match)
        return correction


def draft_next_round(*, tournament: Tournament, seed: int | None = None) -> RoundDraft:
    """Generate Swiss pairings for the next round as a draft the organiser can still change."""
    from tournaments.pairing import Entrant, PairingImpossible, pair_swiss

    with transaction.atomic():
        tournament = lock_tournament(tournament.pk)
        _ensure_next_round_possible(tournament)
        number = (tournament.rounds.aggregate(last=Max("number"))["last"] or 0) + 1
        opponents: dict[int, set[int]] = {}
        byes: set[int] = set()
        for first, second in Match.objects.filter(round__tournament=tournament).values_list(
            "player1_id", "player2_id"
        ):
            if second is None:
                byes.add(first)
                continue
            opponents.setdefault(first, set()).add(second)
            opponents.setdefault(second, set()).add(first)
        entrants = [
            Entrant(
                id=row.registration.pk,
                points=row.standing.points,
                rank=row.standing.position,
                opponents=frozenset(opponents.get(row.registration.pk, ())),
                had_bye=row.registration.pk in byes,
            )
            for row in selectors.standings(tournament=tournament)
            if row.registration.status == RegistrationStatus.PLAYING
        ]
        if len(entrants) < 2:
            raise DomainError("too_few_players", _("At least two players are needed to pair."))
        seed = seed if seed is not None else random.SystemRandom().randrange(1, 2**31)
        try:
            pairings = pair_swiss(entrants=entrants, round_number=number, seed=seed)
        except PairingImpossible as error:
            raise DomainError(
                "pairing_impossible",
                _("No pairing without rematches exists; pair this round by hand."),
            ) from error
        draft, _created = RoundDraft.objects.update_or_create(
            tournament=tournament,
            defaults={
                "number": number,
                "seed": seed,
                "pairings": [[pairing.first, pairing.second] for pairing in pairings],
            },
        )
        return draft


def swap_in_draft(*, tournament: Tournament, first: int, second: int) -> RoundDraft:
    """Exchange two players' seats in the draft (a bye seat included)."""
    with transaction.atomic():
        draft = RoundDraft.objects.select_for_update().filter(tournament=tournament).first()
        if draft is None:
            raise DomainError("no_draft", _("There are no draft pairings to change."))
        seats = [list(pair) for pair in draft.pairings]
        places = {
            player: (table, seat)
            for table, pair in enumerate(seats)
            for seat, player in enumerate(pair)
            if player is not None
        }
        if first not in places or second not in places or first == second:
            raise DomainError("not_in_draft", _("Choose two different players of the draft."))
        (t1, s1), (t2, s2) = places[first], places[second]
        seats[t1][s1], seats[t2][s2] = second, first
        if any(pair[0] == pair[1] for pair in seats):
            raise DomainError("paired_twice", _("A player cannot play against themselves."))
        draft.pairings = seats
        draft.save(update_fields=["pairings"])
        return draft


def publish_draft(*, tournament: Tournament) -> Round:
    """Start the drafted round: matches are created and pending losses served."""
    with transaction.atomic():
        # The tournament before its draft, as drafting takes them (tournaments.services.locks).
        lock_tournament(tournament.pk, exclusive=True)
        draft = RoundDraft.objects.select_for_update().filter(tournament=tournament).first()
        if draft is None:
            raise DomainError("no_draft", _("There are no draft pairings to publish."))
        registrations = Registration.objects.in_bulk(
            [player for pair in draft.pairings for player in pair if player is not None]
        )
        pairings = []
        for first, second in draft.pairings:
            if first not in registrations or (second is not None and second not in registrations):
                raise DomainError("stale_draft", _("The draft is out of date; generate it again."))
            pairings.append(
                (registrations[first], registrations[second] if second is not None else None)
            )
        new_round = pair_round(tournament=tournament, pairings=pairings)
        # A draft is a working copy, not a judge's record: once published it has served.
        draft.delete()
        return new_round


def _ensure_next_round_possible(tournament: Tournament) -> None:
    ensure_not_finished(tournament)
    ensure_swiss_may_go_on(tournament)
    ensure_round_over(tournament)
