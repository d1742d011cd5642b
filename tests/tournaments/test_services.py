"""Pairing, games and the end of matches through the tournament services."""

import pytest

from core.errors import DomainError
from tests.factories import Desk
from tournaments import services
from tournaments.models import Game, Match, MatchEnd, Round, TournamentStatus


def refused(code, action, **kwargs):
    counts = (Round.objects.count(), Match.objects.count(), Game.objects.count())
    with pytest.raises(DomainError) as caught:
        action(**kwargs)
    assert caught.value.code == code
    assert (Round.objects.count(), Match.objects.count(), Game.objects.count()) == counts


def test_pairing_starts_a_round_with_tables_and_a_bye(db):
    desk = Desk.create(players=5)

    desk.pair((0, 1), (2, 3), (4, None))

    desk.tournament.refresh_from_db()
    matches = list(Match.objects.order_by("id"))
    assert desk.tournament.status == TournamentStatus.RUNNING
    assert [(m.table, m.player1, m.player2) for m in matches] == [
        (1, desk.players[0], desk.players[1]),
        (2, desk.players[2], desk.players[3]),
        (None, desk.players[4], None),
    ]
    bye = matches[2]
    assert (bye.end_reason, bye.player1_wins, bye.has_ended) == (MatchEnd.BYE, 2, True)


def test_pairing_is_refused_while_a_match_is_in_progress(desk):
    desk.pair((0, 1), (2, 3))
    desk.finish(0)

    refused(
        "round_in_progress",
        services.pair_round,
        tournament=desk.tournament,
        pairings=[(desk.players[0], desk.players[2])],
    )


@pytest.mark.parametrize(
    ("pairs", "code"),
    [
        ([], "no_pairings"),
        ([(0, 1), (1, 2)], "paired_twice"),
    ],
)
def test_bad_pairings_are_refused(desk, pairs, code):
    pairings = [(desk.players[a], desk.players[b]) for a, b in pairs]

    refused(code, services.pair_round, tournament=desk.tournament, pairings=pairings)


def test_a_player_of_another_tournament_cannot_be_paired(desk):
    stranger = Desk.create(players=1).players[0]

    refused(
        "not_registered",
        services.pair_round,
        tournament=desk.tournament,
        pairings=[(desk.players[0], stranger)],
    )


def test_games_end_the_match_at_the_wins_needed(desk):
    desk.pair((0, 1), (2, 3))
    match = desk.match_of(0)

    services.record_game(match=match, winner=None)
    services.record_game(match=match, winner=desk.players[1])
    services.record_game(match=match, winner=desk.players[1])

    match.refresh_from_db()
    assert (match.player1_wins, match.player2_wins, match.draws) == (0, 2, 1)
    assert match.end_reason == MatchEnd.WINS_NEEDED
    refused("match_ended", services.record_game, match=match, winner=desk.players[0])


def test_a_best_of_three_with_draws_ends_after_three_games(desk):
    desk.pair((0, 1), (2, 3))
    match = desk.match_of(0)

    for winner in (desk.players[0], desk.players[1], None):
        services.record_game(match=match, winner=winner)

    match.refresh_from_db()
    assert (match.player1_wins, match.player2_wins, match.end_reason) == (1, 1, "all_games_played")


def test_a_winner_outside_the_match_is_refused(desk):
    desk.pair((0, 1), (2, 3))

    refused("not_in_match", services.record_game, match=desk.match_of(0), winner=desk.players[2])


def test_a_bye_has_no_games(db):
    desk = Desk.create(players=3)
    desk.pair((0, 1), (2, None))
    bye = Match.objects.get(player2__isnull=True)

    refused("bye_has_no_games", services.record_game, match=bye, winner=desk.players[2])
    refused("bye_has_no_games", services.finish_match, match=bye)


def test_time_called_ends_the_match_with_the_games_so_far(desk):
    desk.pair((0, 1), (2, 3))
    desk.win(0)

    desk.finish(0)

    match = Match.objects.get(player1=desk.players[0])
    assert (match.player1_wins, match.player2_wins, match.end_reason) == (1, 0, "time_called")


def test_the_highest_level_always_uses_decklists(db):
    with pytest.raises(DomainError) as caught:
        services.create_tournament(
            name="x", slug="x", date="2026-12-05", level="highest", uses_decklists=False
        )
    assert caught.value.code == "decklists_required"
    assert services.create_tournament(
        name="y", slug="y", date="2026-12-05", level="professional"
    ).uses_decklists
    assert not services.create_tournament(
        name="z", slug="z", date="2026-12-05", level="amateur"
    ).uses_decklists
