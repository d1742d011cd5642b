"""Writes for the playoff (issue 32): its setting, the cut and its first round, the next rounds,
and the winner of a playoff match whose games are level.

A playoff round is an ordinary ``Round`` marked ``playoff`` with its own best of, and its matches
are ordinary matches: results, games, time and every penalty go through the same services as in
the Swiss rounds, so the penalty rules apply unchanged (rules.md). The bracket's position of a
match is its table: slot ``i`` of a round is table ``i + 1``.
"""

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import DomainError
from core.text import bounded_text
from tournaments import lifecycle, playoff, playoff_selectors, selectors
from tournaments.models import (
    FirstPlayer,
    Match,
    MatchEnd,
    PlayoffSeed,
    PlayoffSize,
    Registration,
    RegistrationStatus,
    Round,
    Tournament,
    TournamentStatus,
)
from tournaments.services.locks import lock_registrations, lock_tournament
from tournaments.services.pages import announce_bracket_change
from tournaments.services.setup import ensure_best_of, ensure_not_finished, ensure_round_over

# The longest "how the winner was decided" a match keeps (its field allows as much).
DECIDED_HOW_MAX_LENGTH = 200


def ensure_playoff_not_started(tournament: Tournament) -> None:
    """The playoff's setting and the Swiss rounds are fixed once its first round is published."""
    if tournament.rounds.filter(playoff=True).exists():
        raise DomainError(
            "playoff_started",
            _("The playoff has started: its setting and the Swiss rounds can no longer change."),
        )


def players_still_in(tournament: Tournament) -> int:
    return Registration.objects.filter(
        tournament=tournament, status=RegistrationStatus.PLAYING
    ).count()


def planned_cut(tournament: Tournament) -> int:
    """How many players the tournament's setting takes (0 without a playoff)."""
    field = Registration.objects.filter(tournament=tournament).count()
    return playoff.cut_size(tournament.playoff, field)


def ensure_cut_fits(tournament: Tournament, size: int) -> None:
    still_in = players_still_in(tournament)
    if size > still_in:
        raise DomainError(
            "cut_too_large",
            _(
                "The playoff takes %(size)s players, but only %(count)s are still in the "
                "tournament: choose a smaller playoff."
            )
            % {"size": size, "count": still_in},
            field="playoff",
        )


def set_playoff(
    *,
    tournament: Tournament,
    size: str,
    best_of: int,
    final_best_of: int,
    first_player: str = FirstPlayer.NOT_USED,
) -> Tournament:
    """Set the playoff: none, a fixed top N or half the field; its best of and the final's; who
    starts a match. Refused once its first round is published; a fixed cut larger than the
    players still in is refused once the Swiss rounds have started (before, players may still
    register)."""
    if size not in PlayoffSize.values:
        raise DomainError("bad_playoff", _("Choose the playoff from the list."), field="playoff")
    if first_player not in FirstPlayer.values:
        raise DomainError(
            "bad_first_player",
            _("Choose who starts a playoff match from the list."),
            field="playoff_first_player",
        )
    ensure_best_of(best_of)
    ensure_best_of(final_best_of)
    with transaction.atomic():
        tournament = lock_tournament(tournament.pk)
        ensure_not_finished(tournament)
        ensure_playoff_not_started(tournament)
        if tournament.rounds.exists():
            ensure_cut_fits(
                tournament,
                playoff.cut_size(size, Registration.objects.filter(tournament=tournament).count()),
            )
        tournament.playoff = size
        tournament.playoff_best_of = best_of
        tournament.playoff_final_best_of = final_best_of
        tournament.playoff_first_player = first_player
        tournament.save(
            update_fields=[
                "playoff",
                "playoff_best_of",
                "playoff_final_best_of",
                "playoff_first_player",
            ]
        )
        return tournament


def ensure_cut_possible(tournament: Tournament) -> int:
    """The size of the cut the tournament may publish now, or a refusal that says why not."""
    ensure_not_finished(tournament)
    if tournament.playoff == PlayoffSize.NONE:
        raise DomainError("no_playoff", _("This tournament has no playoff: set one first."))
    ensure_playoff_not_started(tournament)
    if not tournament.rounds.exists():
        raise DomainError(
            "no_swiss_rounds", _("The cut is made from the Swiss standings: play them first.")
        )
    ensure_round_over(tournament)
    size = planned_cut(tournament)
    if size < 2:
        raise DomainError("field_too_small", _("Too few players for a playoff."))
    ensure_cut_fits(tournament, size)
    return size


def publish_cut(*, tournament: Tournament) -> Round:
    """Publish the cut and the playoff's first round in one step: the top players of the final
    Swiss standings who are still in (a dropped or disqualified player is skipped and the next
    moves up), seeded 1–N, paired so that the higher seeds meet as late as possible, the higher
    seed named first. No byes. Losses waiting for the players' next match are served at once
    (rules.md §6). A fixed number of queries whatever the size of the event."""
    with transaction.atomic():
        tournament = lock_tournament(tournament.pk, exclusive=True)
        size = ensure_cut_possible(tournament)
        cut = playoff_selectors.playoff_cut(tournament=tournament, size=size)
        seeds = PlayoffSeed.objects.bulk_create(
            [
                PlayoffSeed(
                    tournament=tournament,
                    registration_id=entry.registration_id,
                    seed=entry.seed or 0,
                    swiss_position=entry.swiss_position,
                )
                for entry in cut
            ]
        )
        by_seed = {seed.seed: seed.registration_id for seed in seeds}
        pairs: list[tuple[int | None, int | None]] = [
            (by_seed[first], by_seed[second]) for first, second in playoff.first_round(size)
        ]
        return _open_round(tournament, pairs, final=size == 2)


def _open_round(
    tournament: Tournament, pairs: list[tuple[int | None, int | None]], *, final: bool
) -> Round:
    """Create a playoff round of these pairs in slot order (the higher seed first) and serve the
    losses waiting for its matches. A pair whose other player has left the tournament meanwhile
    (dropped, disqualified) is a walkover: the one still in advances without playing."""
    ids = [pk for pair in pairs for pk in pair if pk is not None]
    locked = lock_registrations(ids)
    number = (tournament.rounds.aggregate(last=Max("number"))["last"] or 0) + 1
    round_ = Round.objects.create(
        tournament=tournament,
        number=number,
        playoff=True,
        best_of=tournament.playoff_final_best_of if final else tournament.playoff_best_of,
    )
    now = timezone.now()
    matches: list[Match] = []
    for slot, (first, second) in enumerate(pairs):
        in_game = [pk for pk in (first, second) if pk is not None and locked[pk].is_playing]
        match = Match(round=round_, table=slot + 1)
        if len(in_game) == 2:
            match.player1_id, match.player2_id = in_game
        else:
            # A walkover: whoever is still in wins without a game; nobody, when both left.
            present = [pk for pk in (first, second) if pk is not None]
            if not present:
                continue
            first_id = in_game[0] if in_game else present[0]
            others = [pk for pk in present if pk != first_id]
            match.player1_id = first_id
            match.player2_id = others[0] if others else None
            match.player1_wins = round_.wins_needed if in_game else 0
            match.ended_at, match.end_reason = now, MatchEnd.WALKOVER
        matches.append(match)
    created = Match.objects.bulk_create(matches)
    for match in created:
        match.round = round_
    lifecycle.policy().settle_round([match for match in created if not match.has_ended])
    announce_bracket_change(tournament_id=tournament.pk)
    return round_


def publish_next_round(*, tournament: Tournament) -> Round:
    """Publish the playoff's next round from the winners of the round just played."""
    with transaction.atomic():
        tournament = lock_tournament(tournament.pk, exclusive=True)
        ensure_not_finished(tournament)
        latest = selectors.latest_round(tournament=tournament)
        if latest is None or not latest.playoff:
            raise DomainError(
                "playoff_not_started", _("The playoff has not started: publish the cut first.")
            )
        ensure_round_over(tournament)
        bracket = playoff_selectors.playoff_bracket(tournament=tournament)
        current = bracket.current
        if current is None or current.is_final:
            raise DomainError("playoff_over", _("The final has been played: the playoff is over."))
        for slot in current.slots:
            if slot.needs_winner and slot.match is not None:
                raise DomainError(
                    "winner_needed",
                    _(
                        "Table %(table)s ended with the games level: name its winner and how "
                        "it was decided first."
                    )
                    % {"table": slot.match.table},
                )
        winners = [
            playoff.Advancer(slot.winner_id, slot.winner_seed or 0) for slot in current.slots
        ]
        pairs: list[tuple[int | None, int | None]] = [
            (first.registration_id, second.registration_id)
            for first, second in playoff.next_pairs(winners)
        ]
        return _open_round(tournament, pairs, final=len(pairs) == 1)


def decide_level_match(*, match: Match, winner: Registration, how: str) -> Match:
    """Name the winner of an ended playoff match whose games are level, and how it was decided
    (the event's own procedure, in the organiser's words)."""
    with transaction.atomic():
        lock_registrations([pk for pk in (match.player1_id, match.player2_id) if pk])
        match = Match.objects.select_related("round__tournament").get(pk=match.pk)
        ensure_not_finished(match.round.tournament)
        if not match.round.playoff:
            raise DomainError(
                "not_playoff", _("Only a playoff match needs a winner when the games are level.")
            )
        if not match.has_ended:
            raise DomainError(
                "match_not_ended",
                _("Only a finished match's result is corrected; record this one's games."),
            )
        if not match.is_level or match.decided_winner_id is not None:
            raise DomainError("winner_known", _("This match already has its winner."))
        ensure_not_superseded(match)
        match.decided_winner_id, match.decided_how = ensure_tiebreak(match, winner, how)
        match.save(update_fields=["decided_winner", "decided_how"])
        announce_bracket_change(tournament_id=match.round.tournament_id)
        return match


def ensure_tiebreak(match: Match, winner: Registration | None, how: str) -> tuple[int, str]:
    """A playoff match whose games are level needs its winner and how it was decided: a draw
    is refused. Returns the winner's id and the words, checked."""
    if winner is None:
        raise DomainError(
            "playoff_draw",
            _(
                "A playoff match cannot end in a draw: choose the winner and say how it was "
                "decided."
            ),
            field="winner",
        )
    if winner.pk not in (match.player1_id, match.player2_id):
        raise DomainError("not_in_match", _("The winner does not play in this match."))
    how = bounded_text(
        how,
        max_length=DECIDED_HOW_MAX_LENGTH,
        missing=DomainError(
            "decided_how_required",
            _("Say how the winner was decided (the event's own procedure)."),
            field="decided_how",
        ),
        too_long=DomainError(
            "decided_how_too_long",
            _("Keep it under %(count)s characters.") % {"count": DECIDED_HOW_MAX_LENGTH},
            field="decided_how",
        ),
    )
    return winner.pk, how


def round_superseded(round_: Round) -> bool:
    """Whether a later round of the tournament has been published (one query)."""
    return Round.objects.filter(
        tournament_id=round_.tournament_id, number__gt=round_.number
    ).exists()


def ensure_not_superseded(match: Match) -> None:
    """A result is entered only for a match of the latest round: once the next round is
    published, its players are paired from this round's results."""
    if round_superseded(match.round):
        raise DomainError(
            "round_superseded",
            _(
                "Round %(number)s is over: the next round has been published from its results, "
                "so no result can be entered for its matches any more."
            )
            % {"number": match.round.number},
        )


def winner_after(
    match: Match, *, player1_wins: int, player2_wins: int, lost1: bool, lost2: bool
) -> int | None:
    """Who would win ``match`` with this result (the rules of ``Match.won_by``)."""
    if lost1 or lost2:
        if lost1 and lost2:
            return None
        return match.player2_id if lost1 else match.player1_id
    if player1_wins != player2_wins:
        return match.player1_id if player1_wins > player2_wins else match.player2_id
    return match.decided_winner_id


def ensure_winner_stands(match: Match, winner: int | None) -> None:
    """A correction of a playoff match whose winner already plays in the next playoff round
    (published) may change the score but not the winner: the bracket has moved on with them."""
    if not match.round.playoff or winner == match.won_by or not round_superseded(match.round):
        return
    advanced = match.player1 if match.won_by == match.player1_id else match.player2
    raise DomainError(
        "playoff_winner_advanced",
        _(
            "%(name)s has already advanced to the next playoff round, which is published: a "
            "correction may change this match's score but not its winner."
        )
        % {"name": advanced.player.name if advanced is not None else "—"},
    )


def ensure_swiss_may_go_on(tournament: Tournament) -> None:
    """Another Swiss round is refused once the playoff has started (issue 32, item 8)."""
    if (
        tournament.status != TournamentStatus.FINISHED
        and tournament.rounds.filter(playoff=True).exists()
    ):
        raise DomainError(
            "swiss_after_cut",
            _("The playoff has started: no more Swiss rounds can be paired."),
        )


def slot_match(*, tournament: Tournament, stage: int, slot: int) -> Match:
    """The match in that place of the bracket (``stage`` 0 first); refused while its players
    are not known (the matches before it are still being played)."""
    rounds = list(
        Round.objects.filter(tournament=tournament, playoff=True)
        .order_by("number")
        .values_list("pk", flat=True)
    )
    match = None
    if 0 <= stage < len(rounds):
        match = (
            Match.objects.filter(round_id=rounds[stage], table=slot + 1)
            .select_related("round__tournament", "player1__player", "player2__player")
            .first()
        )
    if match is None:
        raise DomainError(
            "players_not_known",
            _("The players of this match are not known yet: it waits for the matches before it."),
        )
    return match


def enter_slot_result(
    *,
    tournament: Tournament,
    stage: int,
    slot: int,
    player1_wins: int,
    player2_wins: int,
    draws: int = 0,
    winner_id: int | None = None,
    decided_how: str = "",
) -> Match:
    """Enter the result of the match in that place of the bracket; with the games level, the
    winner named and how it was decided (a draw is refused)."""
    # Imported here: the play services import this module's checks.
    from tournaments.services import play

    match = slot_match(tournament=tournament, stage=stage, slot=slot)
    winner = {match.player1_id: match.player1, match.player2_id: match.player2}.get(winner_id)
    return play.enter_result(
        match=match,
        player1_wins=player1_wins,
        player2_wins=player2_wins,
        draws=draws,
        winner=winner,
        decided_how=decided_how,
    )
