"""The table's result screen: games one by one, time called, and a finished result corrected."""

import pytest
from django.urls import reverse

from core.errors import DomainError
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
    with pytest.raises(DomainError) as too_many:
        services.correct_result(
            match=match, player1_wins=2, player2_wins=2, draws=0, reason="x", corrected_by=desk.head
        )

    assert (no_reason.value.code, same.value.code, too_many.value.code) == (
        "reason_required",
        "result_unchanged",
        "too_many_games",
    )
    assert ResultCorrection.objects.count() == 0


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


def test_lifting_a_match_loss_by_penalty(desk, db):
    desk.pair((0, 1), (2, 3))
    match = desk.match_of(0)
    services.end_match_by_penalty(match=Match.objects.get(pk=match.pk), losers={desk.players[0].pk})
    match.refresh_from_db()

    services.correct_result(
        match=match,
        player1_wins=2,
        player2_wins=1,
        draws=0,
        reason="Поражение отменено главным судьёй",
        corrected_by=desk.organiser,
        lift_penalty_loss=True,
    )

    match.refresh_from_db()
    assert (match.player1_wins, match.player2_wins, match.player1_lost_by_penalty) == (2, 1, False)
    assert PenaltyRecord.objects.count() == 0


def test_the_match_page_shows_games_and_history(client, desk):
    desk.pair((0, 1), (2, 3))
    match = desk.match_of(0)
    client.force_login(desk.organiser)

    body = client.get(url("match", desk, match.pk)).content.decode()

    assert body.count("<h1") == 1
    assert "Партия 1: кто выиграл?" in body
    assert desk.players[0].player.name in body
