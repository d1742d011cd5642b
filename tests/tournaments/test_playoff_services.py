"""The playoff (issue 32) through its services: the setting, the cut, the seeding, the rounds,
a winner for level games, and the penalties carried into it exactly as in the Swiss rounds."""

import pytest

from core.errors import DomainError
from judging import services as judging_services
from judging.models import PenaltyRecord
from tests.factories import Desk
from tournaments import playoff_selectors, selectors
from tournaments import services as tournament_services
from tournaments.models import (
    Match,
    MatchEnd,
    PlayoffSeed,
    Registration,
    RegistrationStatus,
    Round,
)


def play_swiss(desk: Desk, rounds: int) -> None:
    """Swiss rounds drafted with a fixed seed, the first-named player winning 2–0."""
    for _ in range(rounds):
        tournament_services.draft_next_round(tournament=desk.tournament, seed=7)
        round_ = tournament_services.publish_draft(tournament=desk.tournament)
        for match in Match.objects.filter(round=round_, player2__isnull=False):
            if not match.has_ended:
                tournament_services.enter_result(match=match, player1_wins=2, player2_wins=0)


def by_seed(desk: Desk) -> dict[int, Registration]:
    return {
        seed.seed: seed.registration
        for seed in PlayoffSeed.objects.filter(tournament=desk.tournament).select_related(
            "registration__player"
        )
    }


def match_of(registration: Registration) -> Match:
    match = selectors.current_match(registration=registration)
    assert match is not None
    return match


def win(match: Match, winner: Registration, score: tuple[int, int] = (2, 0)) -> None:
    first, second = score if winner.pk == match.player1_id else score[::-1]
    tournament_services.enter_result(match=match, player1_wins=first, player2_wins=second)


def first_playoff_round_won_by_the_higher_seeds(desk: Desk) -> dict[int, Registration]:
    """The cut published and each of its matches won 2–0 by the higher seed (named first)."""
    tournament_services.publish_cut(tournament=desk.tournament)
    for match in Match.objects.filter(round__playoff=True):
        win(match, match.player1)
    return by_seed(desk)


def refused(call, *args, **kwargs) -> str:
    """The code of the domain error ``call`` refuses with."""
    with pytest.raises(DomainError) as error:
        call(*args, **kwargs)
    return error.value.code


def issue(desk: Desk, registration: Registration, code: str, moment: str, **extra):
    import uuid

    return judging_services.issue_penalty(
        registration=registration,
        infraction_code=code,
        moment=moment,
        issued_by=desk.head,
        client_key=uuid.uuid4(),
        confirm_second=True,
        **extra,
    ).record


@pytest.fixture
def eight(db):
    """Eight players at the professional level after two Swiss rounds, a top 4 set."""
    desk = Desk.create(players=8, level="professional")
    play_swiss(desk, 2)
    tournament_services.set_playoff(
        tournament=desk.tournament, size="4", best_of=3, final_best_of=5
    )
    desk.tournament.refresh_from_db()
    return desk


def test_the_seeds_are_the_swiss_order_and_meet_as_late_as_possible():
    from tournaments import playoff

    assert playoff.seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert playoff.first_round(4) == [(1, 4), (2, 3)]
    assert playoff.cut_size("half", 24) == 8
    assert playoff.cut_size("half", 40) == 16
    assert playoff.cut_size("half", 2000) == 512
    assert playoff.cut_size("half", 3) == 0
    assert playoff.cut_size("none", 24) == 0


def test_the_cut_skips_dropped_and_disqualified_players_and_names_the_higher_seed_first(eight):
    desk = eight
    order = [row.registration for row in selectors.standings(tournament=desk.tournament)]
    tournament_services.drop_player(registration=order[0])
    issue(desk, order[2], "6.1", "between_matches")
    preview = playoff_selectors.cut_preview(tournament=desk.tournament, size=4)
    assert [(entry.registration_id, entry.seed) for entry in preview] == [
        (order[0].pk, None),
        (order[1].pk, 1),
        (order[2].pk, None),
        (order[3].pk, 2),
        (order[4].pk, 3),
        (order[5].pk, 4),
    ]
    round_ = tournament_services.publish_cut(tournament=desk.tournament)
    assert round_.playoff and round_.best_of == 3 and round_.number == 3
    pairs = list(
        Match.objects.filter(round=round_).order_by("table").values_list("player1", "player2")
    )
    assert pairs == [(order[1].pk, order[5].pk), (order[3].pk, order[4].pk)]
    assert [seed.swiss_position for seed in PlayoffSeed.objects.order_by("seed")] == [2, 4, 5, 6]


def test_bad_input_is_refused_and_changes_nothing(eight):
    desk = eight
    tournament = desk.tournament
    set_playoff = tournament_services.set_playoff
    for size, best_of, final_best_of, code in [
        ("16", 3, 3, "cut_too_large"),
        ("5", 3, 3, "bad_playoff"),
        ("4", 2, 3, "bad_best_of"),
    ]:
        assert (
            refused(
                set_playoff,
                tournament=tournament,
                size=size,
                best_of=best_of,
                final_best_of=final_best_of,
            )
            == code
        )
    tournament.refresh_from_db()
    assert (tournament.playoff, tournament.playoff_final_best_of) == ("4", 5)

    tournament_services.publish_cut(tournament=tournament)
    assert (
        refused(set_playoff, tournament=tournament, size="2", best_of=1, final_best_of=1)
        == "playoff_started"
    )
    assert refused(tournament_services.publish_cut, tournament=tournament) == "playoff_started"
    for match in Match.objects.filter(round__playoff=True):
        win(match, match.player1)
    assert (
        refused(tournament_services.draft_next_round, tournament=tournament, seed=1)
        == "swiss_after_cut"
    )
    assert refused(desk.pair, (0, 1)) == "swiss_after_cut"
    assert (
        refused(
            tournament_services.enter_slot_result,
            tournament=tournament,
            stage=1,
            slot=0,
            player1_wins=2,
            player2_wins=0,
        )
        == "players_not_known"
    )
    assert Round.objects.filter(tournament=tournament).count() == 3


def test_a_cut_larger_than_the_players_still_in_is_refused(eight):
    desk = eight
    for registration in [
        row.registration for row in selectors.standings(tournament=desk.tournament)
    ][:5]:
        tournament_services.drop_player(registration=registration)
    with pytest.raises(DomainError) as error:
        tournament_services.publish_cut(tournament=desk.tournament)
    assert error.value.code == "cut_too_large"
    assert "3" in str(error.value.message)
    assert not PlayoffSeed.objects.exists()


def test_a_playoff_match_always_has_a_winner(eight):
    desk = eight
    tournament_services.publish_cut(tournament=desk.tournament)
    seeds = by_seed(desk)
    semi = match_of(seeds[1])
    with pytest.raises(DomainError) as error:
        tournament_services.enter_result(match=semi, player1_wins=1, player2_wins=1)
    assert error.value.code == "playoff_draw"
    with pytest.raises(DomainError) as error:
        tournament_services.enter_result(
            match=semi, player1_wins=1, player2_wins=1, winner=seeds[4]
        )
    assert error.value.code == "decided_how_required"
    semi.refresh_from_db()
    assert not semi.has_ended and semi.games.count() == 0

    tournament_services.enter_result(
        match=semi, player1_wins=1, player2_wins=1, winner=seeds[4], decided_how="Партия до смерти"
    )
    semi.refresh_from_db()
    assert (semi.won_by, semi.decided_how, semi.end_reason) == (
        seeds[4].pk,
        "Партия до смерти",
        MatchEnd.TIME_CALLED,
    )
    # Time called with the games level: the same question.
    other = match_of(seeds[2])
    tournament_services.record_game(match=other, winner=other.player1)
    tournament_services.record_game(match=other, winner=other.player2)
    with pytest.raises(DomainError) as error:
        tournament_services.finish_match(match=other)
    assert error.value.code == "playoff_draw"
    tournament_services.finish_match(match=other, winner=seeds[2], decided_how="Жизни героя")
    other.refresh_from_db()
    assert other.won_by == seeds[2].pk

    final_round = tournament_services.publish_next_round(tournament=desk.tournament)
    assert final_round.best_of == 5
    final = Match.objects.get(round=final_round)
    # The higher seed is named first.
    assert (final.player1_id, final.player2_id) == (seeds[2].pk, seeds[4].pk)
    win(final, seeds[4], (3, 1))
    rows = playoff_selectors.final_standings(tournament=desk.tournament)
    assert [(row.registration.pk, row.champion, row.finalist) for row in rows[:2]] == [
        (seeds[4].pk, True, False),
        (seeds[2].pk, False, True),
    ]
    # The semi-final losers by their Swiss standing, then the rest of the field.
    assert [row.registration.pk for row in rows[2:4]] == [seeds[1].pk, seeds[3].pk]
    assert [row.in_cut for row in rows] == [True] * 4 + [False] * 4
    with pytest.raises(DomainError) as error:
        tournament_services.publish_next_round(tournament=desk.tournament)
    assert error.value.code == "playoff_over"


def test_all_games_played_level_waits_for_a_named_winner(eight):
    desk = eight
    desk.tournament.playoff_best_of = 1
    desk.tournament.save()
    tournament_services.publish_cut(tournament=desk.tournament)
    seeds = by_seed(desk)
    first = match_of(seeds[1])
    tournament_services.record_game(match=first, winner=None)
    first.refresh_from_db()
    assert first.has_ended and first.won_by is None
    win(match_of(seeds[2]), seeds[2], (1, 0))
    with pytest.raises(DomainError) as error:
        tournament_services.publish_next_round(tournament=desk.tournament)
    assert error.value.code == "winner_needed"
    tournament_services.decide_level_match(match=first, winner=seeds[1], how="Повторная партия")
    with pytest.raises(DomainError) as error:
        tournament_services.decide_level_match(match=first, winner=seeds[4], how="ещё раз")
    assert error.value.code == "winner_known"
    final = Match.objects.get(
        round=tournament_services.publish_next_round(tournament=desk.tournament)
    )
    assert (final.player1_id, final.player2_id) == (seeds[1].pk, seeds[2].pk)


# The penalties (issue 32, item 4) -------------------------------------------------------------


@pytest.fixture
def top8(db):
    """Sixteen players after three Swiss rounds at the professional level, a top 8 set."""
    desk = Desk.create(players=16, level="professional")
    play_swiss(desk, 3)
    tournament_services.set_playoff(
        tournament=desk.tournament, size="8", best_of=3, final_best_of=3
    )
    return desk


def test_a_game_loss_deferred_from_the_last_swiss_round_is_served_in_the_quarter_final(top8):
    desk = top8
    leader = selectors.standings(tournament=desk.tournament)[0].registration
    record = issue(desk, leader, "1.1", "between_matches")
    assert record.is_pending_loss
    tournament_services.publish_cut(tournament=desk.tournament)
    quarter = match_of(leader)
    record.refresh_from_db()
    game = record.served_game
    assert (game.match_id, game.number, game.winner_id) == (quarter.pk, 1, quarter.player2_id)
    assert (quarter.player1_wins, quarter.player2_wins) == (0, 1)


def test_a_game_loss_deferred_from_a_quarter_final_is_served_in_the_semi_final(top8):
    desk = top8
    seeds = first_playoff_round_won_by_the_higher_seeds(desk)
    record = issue(desk, seeds[1], "1.1", "between_matches")
    assert record.is_pending_loss
    semi_round = tournament_services.publish_next_round(tournament=desk.tournament)
    semi = Match.objects.get(round=semi_round, player1=seeds[1])
    record.refresh_from_db()
    assert record.served_game.match_id == semi.pk
    assert (semi.player1_wins, semi.player2_wins) == (0, 1)


def test_a_game_loss_in_game_two_of_a_semi_final_takes_that_game(top8):
    desk = top8
    seeds = first_playoff_round_won_by_the_higher_seeds(desk)
    tournament_services.publish_next_round(tournament=desk.tournament)
    semi = match_of(seeds[1])
    tournament_services.record_game(match=semi, winner=seeds[1])
    record = issue(desk, seeds[1], "1.1", "in_game")
    semi.refresh_from_db()
    assert (record.served_game.number, record.served_game.winner_id) == (2, seeds[4].pk)
    assert (semi.player1_wins, semi.player2_wins, semi.has_ended) == (1, 1, False)


def test_a_match_loss_eliminates_the_player_and_the_opponent_advances(top8):
    desk = top8
    tournament_services.publish_cut(tournament=desk.tournament)
    seeds = by_seed(desk)
    issue(desk, seeds[1], "1.1", "in_game")  # a game loss in the quarter-final
    issue(desk, seeds[1], "1.1", "in_game")  # repeated: a match loss, this match
    quarter = Match.objects.get(round__playoff=True, player1=seeds[1])
    assert (quarter.end_reason, quarter.won_by) == (MatchEnd.PENALTY, seeds[8].pk)
    for match in Match.objects.filter(round__playoff=True, ended_at__isnull=True):
        win(match, match.player1)
    semi_round = tournament_services.publish_next_round(tournament=desk.tournament)
    assert Match.objects.filter(round=semi_round, player2=seeds[8]).exists()
    assert not Match.objects.filter(round=semi_round).filter(player1=seeds[1]).exists()


def test_a_disqualification_in_a_semi_final_advances_the_opponent(top8):
    desk = top8
    seeds = first_playoff_round_won_by_the_higher_seeds(desk)
    tournament_services.publish_next_round(tournament=desk.tournament)
    issue(desk, seeds[2], "6.1", "in_game")
    semi = Match.objects.get(round__playoff=True, player1=seeds[2], round__best_of=3, table=2)
    assert semi.round.number == 5
    assert (semi.end_reason, semi.won_by) == (MatchEnd.PENALTY, seeds[3].pk)
    win(match_of(seeds[1]), seeds[1])
    final = Match.objects.get(
        round=tournament_services.publish_next_round(tournament=desk.tournament)
    )
    assert (final.player1_id, final.player2_id) == (seeds[1].pk, seeds[3].pk)
    win(final, seeds[3])
    rows = playoff_selectors.final_standings(tournament=desk.tournament)
    assert rows[0].registration.pk == seeds[3].pk and rows[0].champion
    disqualified = next(row for row in rows if row.registration.pk == seeds[2].pk)
    # Out in the semi-finals with seed 4; seed 2 stood higher in the Swiss rounds.
    assert (disqualified.place, disqualified.out_key, disqualified.without_prize) == (
        3,
        "semi",
        True,
    )


def test_a_disqualification_between_matches_is_a_walkover(top8):
    desk = top8
    seeds = first_playoff_round_won_by_the_higher_seeds(desk)
    issue(desk, seeds[4], "6.1", "between_matches")
    semi_round = tournament_services.publish_next_round(tournament=desk.tournament)
    walkover = Match.objects.get(round=semi_round, table=1)
    assert (walkover.player1_id, walkover.player2_id, walkover.end_reason) == (
        seeds[1].pk,
        seeds[4].pk,
        MatchEnd.WALKOVER,
    )
    assert walkover.won_by == seeds[1].pk


def test_stacking_happens_at_the_end_of_a_playoff_match(db):
    desk = Desk.create(players=4, level="professional")
    play_swiss(desk, 1)
    from judging.editions import put_infraction
    from judging.selectors import edition_for

    edition = edition_for(tournament=desk.tournament)
    for code in ("4.1", "4.2"):
        put_infraction(
            edition=edition,
            code=code,
            name=f"Пример {code}",
            penalties={"amateur": "caution", "professional": "caution", "highest": "warning"},
        )
    tournament_services.set_playoff(
        tournament=desk.tournament, size="4", best_of=3, final_best_of=3
    )
    tournament_services.publish_cut(tournament=desk.tournament)
    top = by_seed(desk)[1]
    for code in ("1.4", "4.1", "4.2"):
        issue(desk, top, code, "in_game")
    win(match_of(top), top)
    ranks = [
        record.rank
        for record in PenaltyRecord.objects.in_force().filter(registration=top).order_by("id")
    ]
    assert ranks == [1, 1, 1, 2]


def test_a_pending_loss_of_an_eliminated_player_is_reported_as_not_served(top8):
    desk = top8
    seeds = first_playoff_round_won_by_the_higher_seeds(desk)
    record = issue(desk, seeds[8], "1.1", "between_matches")
    tournament_services.publish_next_round(tournament=desk.tournament)
    record.refresh_from_db()
    assert record.is_pending_loss
    assert seeds[8].pk in playoff_selectors.unserved_losses_owner_ids(tournament=desk.tournament)
    assert seeds[1].pk not in playoff_selectors.unserved_losses_owner_ids(
        tournament=desk.tournament
    )
    assert Registration.objects.get(pk=seeds[8].pk).status == RegistrationStatus.PLAYING


def test_the_cut_and_the_next_round_say_why_they_cannot_be_published_yet(db):
    desk = Desk.create(players=4, level="professional")
    tournament = desk.tournament

    assert refused(tournament_services.publish_cut, tournament=tournament) == "no_playoff"
    assert (
        refused(
            tournament_services.set_playoff,
            tournament=tournament,
            size="2",
            best_of=3,
            final_best_of=3,
            first_player="loser_starts",
        )
        == "bad_first_player"
    )
    tournament_services.set_playoff(tournament=tournament, size="half", best_of=3, final_best_of=3)
    assert refused(tournament_services.publish_cut, tournament=tournament) == "no_swiss_rounds"
    assert (
        refused(tournament_services.publish_next_round, tournament=tournament)
        == "playoff_not_started"
    )
    play_swiss(desk, 1)
    tournament_services.drop_player(registration=desk.players[0])
    tournament_services.set_playoff(tournament=tournament, size="half", best_of=3, final_best_of=3)
    small = Desk.create(players=3, level="professional")
    play_swiss(small, 1)
    tournament_services.set_playoff(
        tournament=small.tournament, size="half", best_of=3, final_best_of=3
    )
    with pytest.raises(DomainError) as error:
        tournament_services.publish_cut(tournament=small.tournament)
    assert error.value.code == "field_too_small"
    swiss = Match.objects.filter(round__tournament=tournament).first()
    with pytest.raises(DomainError) as error:
        tournament_services.decide_level_match(match=swiss, winner=swiss.player1, how="жребий")
    assert error.value.code == "not_playoff"


def test_how_a_level_match_was_decided_is_bounded(eight):
    desk = eight
    tournament_services.publish_cut(tournament=desk.tournament)
    seeds = by_seed(desk)
    with pytest.raises(DomainError) as error:
        tournament_services.enter_result(
            match=match_of(seeds[1]),
            player1_wins=1,
            player2_wins=1,
            winner=seeds[1],
            decided_how="х" * 201,
        )
    assert error.value.code == "decided_how_too_long"


def test_a_correction_after_the_next_round_keeps_the_winner_who_advanced(eight):
    """Issue 32 follow-up: once the next playoff round is published, a correction of a match
    before it may change the score, never the winner (who already plays on); and no result is
    entered for a match of the round it superseded."""
    desk = eight
    semis = tournament_services.publish_cut(tournament=desk.tournament)
    seeds = by_seed(desk)
    first, second = Match.objects.filter(round=semis).order_by("table")
    win(first, seeds[1])
    win(second, seeds[2], (2, 1))
    tournament_services.publish_next_round(tournament=desk.tournament)

    with pytest.raises(DomainError) as error:
        tournament_services.correct_result(
            match=first,
            player1_wins=0,
            player2_wins=2,
            draws=0,
            reason="перепутали",
            corrected_by=desk.organiser,
        )
    assert error.value.code == "playoff_winner_advanced"
    assert str(error.value) == (
        f"{seeds[1].player.name} уже прошёл(-ла) в следующий раунд плей-офф, и он опубликован: "
        "исправление может изменить счёт этого матча, но не его победителя."
    )
    first.refresh_from_db()
    assert (first.player1_wins, first.player2_wins, first.corrections.count()) == (2, 0, 0)

    # The same winner with another score is a correction like any other.
    correction = tournament_services.correct_result(
        match=second,
        player1_wins=2,
        player2_wins=0,
        draws=0,
        reason="третья партия не игралась",
        corrected_by=desk.organiser,
    )
    second.refresh_from_db()
    assert (correction.before_score, second.player1_wins, second.player2_wins) == ("2–1", 2, 0)

    with pytest.raises(DomainError) as error:
        tournament_services.enter_slot_result(
            tournament=desk.tournament, stage=0, slot=0, player1_wins=2, player2_wins=0
        )
    assert error.value.code == "round_superseded"
    assert str(error.value) == (
        "Раунд 3 окончен: следующий раунд уже опубликован по его результатам, вносить "
        "результаты его матчей больше нельзя."
    )
    with pytest.raises(DomainError) as error:
        tournament_services.record_game(match=first, winner=seeds[1])
    assert error.value.code == "round_superseded"
    assert first.games.count() == 2


def test_a_correction_may_change_the_winner_while_the_next_round_waits(eight):
    desk = eight
    semis = tournament_services.publish_cut(tournament=desk.tournament)
    seeds = by_seed(desk)
    first = Match.objects.filter(round=semis).order_by("table").first()
    win(first, seeds[1])
    tournament_services.correct_result(
        match=first,
        player1_wins=1,
        player2_wins=2,
        draws=0,
        reason="перепутали игроков",
        corrected_by=desk.organiser,
    )
    first.refresh_from_db()
    assert first.won_by == seeds[4].pk
