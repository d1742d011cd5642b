"""Every refusal of the tournament services and screens: its code, and nothing written."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.urls import reverse

from core.errors import DomainError
from tests.factories import Desk
from tournaments import services
from tournaments.models import (
    Game,
    Match,
    Registration,
    ResultCorrection,
    Round,
    RoundDraft,
    Staff,
    StaffRole,
    Tournament,
)


def snapshot():
    return (
        get_user_model().objects.count(),
        list(Staff.objects.values_list("id", "role").order_by("id")),
        ResultCorrection.objects.count(),
        list(Tournament.objects.values_list("id", "level", "uses_decklists", "best_of", "status")),
        list(Registration.objects.values_list("id", "status").order_by("id")),
        list(Round.objects.values_list("id", flat=True).order_by("id")),
        list(Match.objects.values_list("id", "ended_at", "end_reason").order_by("id")),
        list(Game.objects.values_list("id", flat=True).order_by("id")),
        list(RoundDraft.objects.values_list("tournament_id", "pairings").order_by("tournament_id")),
    )


def refused(code, action, **kwargs):
    before = snapshot()
    with pytest.raises(DomainError) as caught:
        action(**kwargs)
    assert caught.value.code == code
    assert snapshot() == before


@pytest.mark.parametrize(
    ("field", "value", "code"),
    [("level", "professional", "level_fixed"), ("uses_decklists", False, "uses_decklists_fixed")],
)
def test_the_level_and_deck_lists_are_fixed_once_play_starts(desk, field, value, code):
    desk.pair((0, 1), (2, 3))

    refused(code, services.update_tournament, tournament=desk.tournament, **{field: value})


def test_a_player_drops_once(desk):
    services.drop_player(registration=desk.players[0])

    refused("not_playing", services.drop_player, registration=desk.players[0])


def test_a_dropped_player_is_not_paired(desk):
    services.drop_player(registration=desk.players[0])

    refused(
        "player_dropped",
        services.pair_round,
        tournament=desk.tournament,
        pairings=[(desk.players[0], desk.players[1])],
    )


@pytest.mark.parametrize(
    ("wins", "code"),
    [
        ((-1, 2, 0), "bad_result"),
        ((2, 2, 0), "both_players_won"),
        ((3, 0, 0), "too_many_wins"),
        ((2, 1, 1), "too_many_games"),
    ],
)
def test_a_result_that_cannot_be_is_refused(desk, wins, code):
    desk.pair((0, 1), (2, 3))
    first, second, draws = wins

    refused(
        code,
        services.enter_result,
        match=desk.match_of(0),
        player1_wins=first,
        player2_wins=second,
        draws=draws,
    )


def test_a_result_must_include_the_games_already_recorded(desk):
    desk.pair((0, 1), (2, 3))
    desk.win(1)

    refused(
        "result_contradicts_games",
        services.enter_result,
        match=desk.match_of(0),
        player1_wins=2,
        player2_wins=0,
    )


def test_a_draft_needs_two_players(db):
    desk = Desk.create(players=1)

    refused("too_few_players", services.draft_next_round, tournament=desk.tournament)


def test_no_draft_when_every_pairing_would_be_a_rematch(db):
    desk = Desk.create(players=2)
    desk.pair((0, 1))
    desk.finish(0)

    refused("pairing_impossible", services.draft_next_round, tournament=desk.tournament, seed=1)


@pytest.mark.parametrize("action", ["swap", "publish"])
def test_without_a_draft_there_is_nothing_to_swap_or_publish(desk, action):
    if action == "swap":
        first, second = desk.players[0].pk, desk.players[1].pk
        refused(
            "no_draft",
            services.swap_in_draft,
            tournament=desk.tournament,
            first=first,
            second=second,
        )
    else:
        refused("no_draft", services.publish_draft, tournament=desk.tournament)


def test_only_two_different_players_of_the_draft_are_swapped(desk):
    services.draft_next_round(tournament=desk.tournament, seed=1)

    refused(
        "not_in_draft",
        services.swap_in_draft,
        tournament=desk.tournament,
        first=desk.players[0].pk,
        second=desk.players[0].pk,
    )


def test_a_draft_whose_player_is_gone_is_not_published(desk):
    services.draft_next_round(tournament=desk.tournament, seed=1)
    desk.players[3].delete()

    refused("stale_draft", services.publish_draft, tournament=desk.tournament)


def test_a_waiting_game_loss_needs_the_result_game_by_game(desk):
    from judging.editions import assign_edition, derive_edition, put_infraction
    from judging.selectors import edition_for

    edition = derive_edition(base=edition_for(tournament=desk.tournament), slug="x", name="x")
    put_infraction(edition=edition, code="9.4", name="Тяжёлое", penalties={"amateur": "game_loss"})
    assign_edition(tournament=desk.tournament, edition=edition)
    desk.pair((0, 1), (2, 3))
    desk.issue(0, "9.4", "in_game", deferred=True)

    refused(
        "enter_games_one_by_one",
        services.enter_result,
        match=desk.match_of(0),
        player1_wins=0,
        player2_wins=2,
    )


def test_a_new_login_with_a_weak_password_is_refused(desk):
    refused(
        "weak_password",
        services.add_staff_member,
        tournament=desk.tournament,
        username="newjudge",
        role=StaffRole.FLOOR_JUDGE,
        password="12345678",  # long enough, but only digits and common
    )


# The screens: a form no screen of the app sends is refused with a message whose code rides along.


def url(name, desk, *args):
    return reverse(f"tournaments:{name}", args=[desk.tournament.slug, *args])


def refused_on_screen(client, code, path, data):
    before = snapshot()
    response = client.post(path, data)
    assert response.status_code == 302
    assert [message.extra_tags for message in get_messages(response.wsgi_request)] == [code]
    assert snapshot() == before


def test_a_registry_choice_that_is_no_player_is_refused(client, desk):
    client.force_login(desk.organiser)

    refused_on_screen(client, "unknown_player", url("registration-add", desk), {"player": "abc"})


def test_a_swap_of_what_is_no_player_is_refused(client, desk):
    services.draft_next_round(tournament=desk.tournament, seed=1)
    client.force_login(desk.organiser)

    refused_on_screen(client, "not_in_draft", url("round-swap", desk), {"first": "x", "second": ""})


def test_a_result_that_is_no_number_is_refused(client, desk):
    desk.pair((0, 1), (2, 3))
    client.force_login(desk.floor)
    path = url("match-result", desk, desk.match_of(0).pk)

    refused_on_screen(client, "bad_result", path, {"player1_wins": "two", "player2_wins": "0"})


def test_a_game_won_by_nobody_of_the_match_is_refused(client, desk):
    desk.pair((0, 1), (2, 3))
    client.force_login(desk.floor)

    refused_on_screen(
        client, "bad_game", url("match-game", desk, desk.match_of(0).pk), {"winner": "someone"}
    )


def test_a_correction_without_its_reason_is_refused(client, desk):
    desk.pair((0, 1), (2, 3))
    match = desk.match_of(0)
    desk.win(0)
    desk.win(0)
    client.force_login(desk.head)
    path = url("match-correct", desk, match.pk)

    refused_on_screen(
        client, "bad_correction", path, {"player1_wins": 1, "player2_wins": 2, "draws": 0}
    )
