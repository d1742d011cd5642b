"""The table's result screen: games one by one, time called, and a finished result corrected."""

import pytest
from django.urls import reverse

from core.errors import DomainError
from judging import services as judging_services
from judging.models import PenaltyRecord
from tests.factories import Desk
from tournaments import selectors, services
from tournaments.models import Level, Match, ResultCorrection


def url(name, desk, *args):
    return reverse(f"tournaments:{name}", args=[desk.tournament.slug, *args])


@pytest.fixture
def pro_desk(db):
    return Desk.create(level=Level.PROFESSIONAL)


def test_a_deferred_game_loss_refuses_a_whole_result_and_links_to_the_games(client, pro_desk):
    desk = pro_desk
    desk.pair((0, 1), (2, 3))
    desk.issue(0, "1.2", deferred=True)  # the game after the current one is lost
    match = desk.match_of(0)
    client.force_login(desk.organiser)

    response = client.post(
        url("match-result", desk, match.pk),
        {"player1_wins": 2, "player2_wins": 0},
        HTTP_HX_REQUEST="true",
    )

    body = response.content.decode()
    assert "по партиям" in body
    assert f'href="{url("match", desk, match.pk)}"' in body
    match.refresh_from_db()
    assert match.ended_at is None

    plain = client.post(url("match-result", desk, match.pk), {"player1_wins": 2, "player2_wins": 0})
    assert plain.status_code == 302
    assert plain.url == url("match", desk, match.pk)


def test_games_one_by_one_serve_the_deferred_loss_and_end_the_match(client, pro_desk):
    desk = pro_desk
    desk.pair((0, 1), (2, 3))
    record = desk.issue(0, "1.2", deferred=True)
    match = desk.match_of(0)
    client.force_login(desk.floor)

    response = client.post(
        url("match-game", desk, match.pk), {"winner": "player1"}, HTTP_HX_REQUEST="true"
    )

    body = response.content.decode()
    assert body.lstrip().startswith('<section id="match-result"')
    assert "Партия 1 записана." in body
    match.refresh_from_db()
    # Game 1 won by player 1; game 2 at once lost by penalty to player 2.
    games = list(match.games.values_list("number", "winner_id", "decided_by_penalty"))
    assert games == [(1, desk.players[0].pk, False), (2, desk.players[1].pk, True)]
    record.refresh_from_db()
    assert record.is_pending_loss is False

    client.post(url("match-game", desk, match.pk), {"winner": "player2"}, HTTP_HX_REQUEST="true")

    match.refresh_from_db()
    assert (match.player1_wins, match.player2_wins, match.end_reason) == (1, 2, "wins_needed")
    desk.match_of(2)  # the other table
    services.enter_result(match=desk.match_of(2), player1_wins=2, player2_wins=0)
    services.draft_next_round(tournament=desk.tournament)
    assert services.publish_draft(tournament=desk.tournament).number == 2


def test_a_bad_game_choice_changes_nothing(client, desk):
    desk.pair((0, 1), (2, 3))
    match = desk.match_of(0)
    client.force_login(desk.floor)

    response = client.post(
        url("match-game", desk, match.pk), {"winner": "someone"}, HTTP_HX_REQUEST="true"
    )

    assert "Выберите, кто выиграл партию" in response.content.decode()
    assert match.games.count() == 0


def test_time_called_ends_the_match_with_the_games_so_far(client, desk):
    desk.pair((0, 1), (2, 3))
    match = desk.match_of(0)
    desk.win(0)
    client.force_login(desk.floor)

    client.post(url("match-time", desk, match.pk))

    match.refresh_from_db()
    assert (match.player1_wins, match.player2_wins, match.end_reason) == (1, 0, "time_called")


def test_the_head_judge_corrects_a_result_and_the_standings_follow(client, desk):
    desk.pair((0, 1), (2, 3))
    match = desk.match_of(0)
    services.enter_result(match=match, player1_wins=2, player2_wins=0)
    services.enter_result(match=desk.match_of(2), player1_wins=2, player2_wins=1)
    client.force_login(desk.head)

    response = client.post(
        url("match-correct", desk, match.pk),
        {"player1_wins": 0, "player2_wins": 2, "draws": 0, "reason": "Перепутали игроков"},
        HTTP_HX_REQUEST="true",
    )

    body = response.content.decode()
    assert "Результат исправлен." in body
    assert "2–0 → 0–2" in body
    assert "Перепутали игроков" in body
    match.refresh_from_db()
    assert (match.player1_wins, match.player2_wins) == (0, 2)
    correction = ResultCorrection.objects.get()
    assert (correction.before_score, correction.score, correction.corrected_by) == (
        "2–0",
        "0–2",
        desk.head,
    )
    rows = {
        row.registration.pk: row.standing for row in selectors.standings(tournament=desk.tournament)
    }
    assert rows[desk.players[1].pk].points == 3
    assert rows[desk.players[0].pk].points == 0
    response = client.get(reverse("judging:report", args=[desk.tournament.slug]))
    report = b"".join(response.streaming_content).decode()
    assert "Исправления результатов" in report
    assert "Перепутали игроков" in report


def test_a_correction_needs_a_reason_and_a_change(desk, db):
    desk.pair((0, 1), (2, 3))
    match = desk.match_of(0)
    services.enter_result(match=match, player1_wins=2, player2_wins=0)

    with pytest.raises(DomainError) as no_reason:
        services.correct_result(
            match=match, player1_wins=2, player2_wins=1, draws=0, reason=" ", corrected_by=desk.head
        )
    with pytest.raises(DomainError) as same:
        services.correct_result(
            match=match, player1_wins=2, player2_wins=0, draws=0, reason="x", corrected_by=desk.head
        )
    assert (no_reason.value.code, same.value.code) == ("reason_required", "result_unchanged")
    assert ResultCorrection.objects.count() == 0


@pytest.mark.parametrize(
    ("score", "code", "message"),
    [
        ((3, 0, 0), "too_many_wins", "в этом матче у игрока не больше 2 побед."),
        ((2, 2, 0), "both_players_won", "Выиграть 2 партии может только один игрок"),
        ((1, 1, 2), "too_many_games", "Максимум партий в матче: 3."),
        ((0, 0, -1), "bad_result", "Число партий не может быть отрицательным."),
    ],
)
def test_an_impossible_score_is_refused_by_result_entry_and_correction(desk, score, code, message):
    desk.pair((0, 1), (2, 3))
    match = desk.match_of(0)
    first, second, draws = score

    with pytest.raises(DomainError) as entered:
        services.enter_result(match=match, player1_wins=first, player2_wins=second, draws=draws)
    services.enter_result(match=match, player1_wins=2, player2_wins=0)
    with pytest.raises(DomainError) as corrected:
        services.correct_result(
            match=match,
            player1_wins=first,
            player2_wins=second,
            draws=draws,
            reason="x",
            corrected_by=desk.head,
        )

    assert (entered.value.code, corrected.value.code) == (code, code)
    assert message in str(corrected.value.message)
    match.refresh_from_db()
    assert (match.player1_wins, match.player2_wins, match.draws) == (2, 0, 0)
    assert ResultCorrection.objects.count() == 0


def test_best_of_five_takes_three_wins_and_refuses_four(db):
    desk = Desk.create(best_of=5)
    desk.pair((0, 1), (2, 3))
    match = desk.match_of(0)

    with pytest.raises(DomainError) as four:
        services.enter_result(match=match, player1_wins=4, player2_wins=0)
    services.enter_result(match=match, player1_wins=3, player2_wins=2)

    assert four.value.code == "too_many_wins"
    match.refresh_from_db()
    assert (match.player1_wins, match.player2_wins, match.end_reason) == (3, 2, "wins_needed")


def test_the_result_forms_refuse_seven_wins(client, desk):
    desk.pair((0, 1), (2, 3))
    match = desk.match_of(0)
    client.force_login(desk.organiser)

    response = client.post(
        url("match-result", desk, match.pk),
        {"player1_wins": 0, "player2_wins": 7, "draws": 0},
        HTTP_HX_REQUEST="true",
    )

    assert "Убедитесь, что это значение меньше либо равно 3." in response.content.decode()
    match.refresh_from_db()
    assert (match.player2_wins, match.ended_at) == (0, None)


def test_a_match_in_progress_is_not_corrected(desk, db):
    desk.pair((0, 1), (2, 3))

    with pytest.raises(DomainError) as refused:
        services.correct_result(
            match=desk.match_of(0),
            player1_wins=2,
            player2_wins=0,
            draws=0,
            reason="x",
            corrected_by=desk.head,
        )

    assert refused.value.code == "match_not_ended"


def test_a_floor_judge_may_not_correct(client, desk):
    desk.pair((0, 1), (2, 3))
    match = desk.match_of(0)
    services.enter_result(match=match, player1_wins=2, player2_wins=0)
    client.force_login(desk.floor)

    response = client.post(
        url("match-correct", desk, match.pk),
        {"player1_wins": 0, "player2_wins": 2, "draws": 0, "reason": "x"},
    )

    assert response.status_code == 403
    match.refresh_from_db()
    assert (match.player1_wins, match.player2_wins) == (2, 0)


def test_a_correction_never_lifts_a_match_loss_a_penalty_in_force_decides(client, pro_desk):
    desk = pro_desk
    desk.pair((0, 1), (2, 3))
    record = desk.issue(0, "6.1")  # a disqualification takes the match in progress
    match = Match.objects.get(player1=desk.players[0])
    client.force_login(desk.head)

    with pytest.raises(DomainError) as refused:
        services.correct_result(
            match=match,
            player1_wins=2,
            player2_wins=1,
            draws=0,
            reason="Неверно записали",
            corrected_by=desk.head,
        )
    response = client.post(
        url("match-correct", desk, match.pk),
        {
            "player1_wins": 2,
            "player2_wins": 0,
            "draws": 0,
            "reason": "x",
            "lift_penalty_loss": "on",
        },
        HTTP_HX_REQUEST="true",
    )

    assert refused.value.code == "result_decided_by_penalty"
    player = desk.players[0].player.name
    assert f"«Дисквалификация без призов» игрока {player} (запись {record.pk})" in str(
        refused.value.message
    )
    assert "сначала измените или отмените пенальти" in response.content.decode()
    match.refresh_from_db()
    assert (match.player1_wins, match.player2_wins, match.player1_lost_by_penalty) == (0, 2, True)
    assert ResultCorrection.objects.count() == 0


def test_once_the_penalty_is_revoked_the_correction_lifts_its_served_loss(desk, db):
    desk.pair((0, 1), (2, 3))
    record = desk.issue(0, "6.1")
    judging_services.revoke_penalty(record=record, author=desk.head, reason="Ошибка")
    match = Match.objects.get(player1=desk.players[0])

    services.correct_result(
        match=match,
        player1_wins=2,
        player2_wins=1,
        draws=0,
        reason="Поражение отменено главным судьёй",
        corrected_by=desk.head,
    )

    match.refresh_from_db()
    assert (match.player1_wins, match.player2_wins, match.player1_lost_by_penalty) == (2, 1, False)
    correction = ResultCorrection.objects.get()
    assert correction.lifts_penalty_loss


def test_a_correction_never_lifts_a_game_a_penalty_in_force_decides(pro_desk):
    desk = pro_desk
    desk.pair((0, 1), (2, 3))
    desk.issue(0, "1.1")  # a game loss in game 1: player 1 wins it
    desk.win(0)
    desk.win(0)
    match = Match.objects.get(player1=desk.players[0])

    with pytest.raises(DomainError) as refused:
        services.correct_result(
            match=match, player1_wins=2, player2_wins=0, draws=1, reason="x", corrected_by=desk.head
        )
    services.correct_result(
        match=match, player1_wins=1, player2_wins=1, draws=1, reason="x", corrected_by=desk.head
    )

    assert refused.value.code == "result_decided_by_penalty"
    match.refresh_from_db()
    assert (match.player1_wins, match.player2_wins, match.draws) == (1, 1, 1)


def test_a_loss_chosen_between_matches_never_blocks_the_whole_result(client, pro_desk):
    desk = pro_desk
    desk.pair((0, 1), (2, 3))
    desk.issue(0, "1.2", "between_matches")  # the players are filling in the slip
    match = desk.match_of(0)
    client.force_login(desk.organiser)

    response = client.post(
        url("match-result", desk, match.pk),
        {"player1_wins": 2, "player2_wins": 1},
        HTTP_HX_REQUEST="true",
    )

    assert response.status_code == 200
    match.refresh_from_db()
    assert (match.player1_wins, match.player2_wins, match.end_reason) == (2, 1, "wins_needed")
    assert [r.applies_to for r in PenaltyRecord.objects.pending_losses()] == ["next_game"]


def test_the_match_page_shows_games_and_history(client, desk):
    desk.pair((0, 1), (2, 3))
    match = desk.match_of(0)
    client.force_login(desk.organiser)

    body = client.get(url("match", desk, match.pk)).content.decode()

    assert body.count("<h1") == 1
    assert "Партия 1: кто выиграл?" in body
    assert desk.players[0].player.name in body


def test_a_correction_reason_longer_than_its_form_allows_is_refused(desk):
    desk.pair((0, 1), (2, 3))
    match = desk.match_of(0)
    services.enter_result(match=match, player1_wins=2, player2_wins=0)

    with pytest.raises(DomainError) as refused:
        services.correct_result(
            match=match,
            player1_wins=2,
            player2_wins=1,
            draws=0,
            reason="я" * 1001,
            corrected_by=desk.head,
        )

    assert refused.value.code == "reason_too_long"
    assert str(refused.value.message) == "Причина должна быть короче 1000 символов."
    assert ResultCorrection.objects.count() == 0
