"""Writes for tournaments: set-up, registration, pairing, games and the end of matches.

Every public function is keyword-only, atomic, locks the registrations it changes in primary-key
order (so two writers never deadlock), and raises ``DomainError`` before writing anything when the
action is not allowed. What the penalty rules do when a match starts, gets a game or ends is asked
of the registered ``lifecycle`` policy.
"""

import datetime
from collections.abc import Iterable, Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from players.models import Player
from players.selectors import suspension_in_force
from tournaments import lifecycle
from tournaments.errors import DomainError
from tournaments.models import (
    Game,
    Level,
    Match,
    MatchEnd,
    Registration,
    RegistrationStatus,
    Round,
    Staff,
    StaffRole,
    Tournament,
    TournamentStatus,
    decklists_default,
)


def lock_registrations(ids: Iterable[int]) -> dict[int, Registration]:
    """Lock the rows in a fixed order and return them fresh."""
    rows = (
        Registration.objects.select_for_update()
        .filter(pk__in=sorted(set(ids)))
        .order_by("pk")
        .select_related("player", "tournament")
    )
    return {row.pk: row for row in rows}


def create_tournament(
    *,
    name: str,
    slug: str,
    date: datetime.date,
    level: str,
    uses_decklists: bool | None = None,
    best_of: int = 3,
    head_judge_is_official: bool = False,
    venue: str = "",
    format: str = "constructed",
) -> Tournament:
    if level not in Level.values:
        raise DomainError("unknown_level", _("Unknown rules-enforcement level."))
    if uses_decklists is None:
        uses_decklists = decklists_default(level)
    if level == Level.HIGHEST and not uses_decklists:
        raise DomainError(
            "decklists_required", _("Deck lists are always used at the highest level.")
        )
    if best_of < 1:
        raise DomainError("bad_best_of", _("A match has at least one game."))
    return Tournament.objects.create(
        name=name,
        slug=slug,
        date=date,
        level=level,
        uses_decklists=uses_decklists,
        best_of=best_of,
        head_judge_is_official=head_judge_is_official,
        venue=venue,
        format=format,
    )


def add_staff(*, tournament: Tournament, user: AbstractBaseUser, role: str) -> Staff:
    with transaction.atomic():
        if role == StaffRole.HEAD_JUDGE and (
            Staff.objects.filter(tournament=tournament, role=role).exclude(user=user).exists()
        ):
            raise DomainError("head_judge_taken", _("The tournament already has a head judge."))
        staff, _created = Staff.objects.get_or_create(tournament=tournament, user=user, role=role)
        return staff


def register_player(*, tournament: Tournament, player: Player) -> Registration:
    """Register a player; a suspended membership is refused with its reason and end date."""
    with transaction.atomic():
        suspension = suspension_in_force(player=player, day=timezone.localdate())
        if suspension is not None:
            until = (
                suspension.ends_on.strftime("%d.%m.%Y")
                if suspension.ends_on
                else _("a date the game coordinator has yet to set")
            )
            raise DomainError(
                "membership_suspended",
                _("%(player)s's membership is suspended until %(until)s: %(reason)s")
                % {"player": player.name, "until": until, "reason": suspension.reason or "—"},
            )
        registration, created = Registration.objects.get_or_create(
            tournament=tournament, player=player
        )
        if not created:
            raise DomainError(
                "already_registered",
                _("%(player)s is already registered.") % {"player": player.name},
            )
        return registration


def pair_round(
    *, tournament: Tournament, pairings: Sequence[tuple[Registration, Registration | None]]
) -> Round:
    """Start the next round with the given matches; a pairing without a second player is a bye.

    Pending penalty losses are served as the matches are created (rules.md §6).
    """
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
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
        if Match.objects.filter(round__tournament=tournament).in_progress().exists():
            raise DomainError(
                "round_in_progress",
                _("A match of the current round has not ended yet."),
            )
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
                Match.objects.create(
                    round=new_round,
                    player1=locked[first.pk],
                    player1_wins=tournament.wins_needed,
                    ended_at=now,
                    end_reason=MatchEnd.BYE,
                )
                continue
            table += 1
            matches.append(
                Match.objects.create(
                    round=new_round,
                    table=table,
                    player1=locked[first.pk],
                    player2=locked[second.pk],
                )
            )
        for match in matches:
            lifecycle.policy().settle(match)
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
        if not match.has_ended:
            # The game after this one now exists: a loss waiting for it is served at once.
            lifecycle.policy().settle(match)
        return game


def finish_match(*, match: Match) -> Match:
    """Time is called: the match ends with the games recorded so far."""
    with transaction.atomic():
        match = _lock_match(match)
        _ensure_playable(match)
        end_match(match=match, reason=MatchEnd.TIME_CALLED)
        return match


def add_game(*, match: Match, winner: Registration | None, decided_by_penalty: bool) -> Game:
    """Append a game to a locked match in progress and end the match when it is decided."""
    number = match.games.count() + 1
    game = Game.objects.create(
        match=match,
        number=number,
        winner=winner,
        decided_by_penalty=decided_by_penalty,
    )
    if winner is None:
        match.draws += 1
    elif winner.pk == match.player1_id:
        match.player1_wins += 1
    else:
        match.player2_wins += 1
    match.save(update_fields=["player1_wins", "player2_wins", "draws"])
    wins_needed = match.round.tournament.wins_needed
    if max(match.player1_wins, match.player2_wins) >= wins_needed:
        end_match(match=match, reason=MatchEnd.WINS_NEEDED)
    elif number >= match.round.tournament.best_of:
        # Draws can leave both short of the wins needed after the last game of a best of N.
        end_match(match=match, reason=MatchEnd.ALL_GAMES_PLAYED)
    return game


def end_match_by_penalty(*, match: Match, losers: set[int]) -> None:
    """A match lost by penalty: 0 games to the wins needed, whatever was played before."""
    wins_needed = match.round.tournament.wins_needed
    match.player1_lost_by_penalty = match.player1_id in losers
    match.player2_lost_by_penalty = match.player2_id in losers
    match.player1_wins = 0 if match.player1_lost_by_penalty else wins_needed
    match.player2_wins = 0 if match.player2_lost_by_penalty else wins_needed
    match.save(
        update_fields=[
            "player1_lost_by_penalty",
            "player2_lost_by_penalty",
            "player1_wins",
            "player2_wins",
        ]
    )
    end_match(match=match, reason=MatchEnd.PENALTY)


def end_match(*, match: Match, reason: str) -> None:
    match.ended_at = timezone.now()
    match.end_reason = reason
    match.save(update_fields=["ended_at", "end_reason"])
    lifecycle.policy().match_ended(match)
