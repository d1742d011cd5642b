"""Creating tournaments, the player registry and a player's other tournaments are given by the
operator, not to every account."""

import logging

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from judging.models import PenaltyRecord
from players.models import Player
from tests.factories import Desk, PlayerFactory, TournamentFactory, UserFactory
from tournaments import services
from tournaments.models import StaffRole, Tournament
from tournaments.permissions import (
    ORGANISE,
    make_federation_staff,
    make_official_representative,
    make_organiser,
)

NEW_TOURNAMENT = {
    "slug": "cup-1",
    "name": "Кубок",
    "date": "2026-12-12",
    "level": "amateur",
    "format": "constructed",
    "best_of": 3,
    "round_minutes": 50,
}


def test_the_migration_makes_the_organisers_group_with_its_permission(db):
    group = Group.objects.get(name="organisers")

    assert [f"{p.content_type.app_label}.{p.codename}" for p in group.permissions.all()] == [
        ORGANISE
    ]


def test_an_account_outside_the_organisers_may_not_create_a_tournament(client, db):
    client.force_login(UserFactory())

    assert "Новый турнир" not in client.get(reverse("home")).content.decode()
    response = client.post(reverse("tournaments:create"), NEW_TOURNAMENT)

    assert response.status_code == 403
    assert "организатор" in response.content.decode()
    assert client.get(reverse("tournaments:create")).status_code == 403
    assert not Tournament.objects.exists()


def test_an_organiser_given_the_permission_creates_a_tournament(client, db):
    user = UserFactory()
    make_organiser(user)
    client.force_login(user)

    assert "Новый турнир" in client.get(reverse("home")).content.decode()
    response = client.post(reverse("tournaments:create"), NEW_TOURNAMENT)

    assert response.status_code == 302
    assert Tournament.objects.get().slug == "cup-1"


def test_anonymous_creation_goes_to_sign_in(client, db):
    response = client.post(reverse("tournaments:create"), NEW_TOURNAMENT)

    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))
    assert not Tournament.objects.exists()


@pytest.fixture
def staff_organiser(client, desk):
    """An organiser on the tournament's staff whom the operator did not make an organiser."""
    user = UserFactory()
    services.add_staff(tournament=desk.tournament, user=user, role="organiser")
    client.force_login(user)
    return client


def test_a_staff_organiser_without_the_permission_may_not_search_the_registry(
    staff_organiser, desk
):
    PlayerFactory(name="Чужой Игрок")
    url = reverse("tournaments:player-search", args=[desk.tournament.slug])

    response = staff_organiser.get(url, {"q": "Чужой"})

    assert response.status_code == 403
    assert "Чужой Игрок" not in response.content.decode()
    page = staff_organiser.get(reverse("tournaments:registrations", args=[desk.tournament.slug]))
    assert "player-search" not in page.content.decode()


def test_a_staff_organiser_without_the_permission_may_not_register_from_the_registry(
    staff_organiser, desk
):
    stranger = PlayerFactory()
    slug = desk.tournament.slug

    response = staff_organiser.post(
        reverse("tournaments:registration-add", args=[slug]), {"player": stranger.pk}
    )
    assert response.status_code == 403
    response = staff_organiser.post(
        reverse("tournaments:registration-add", args=[slug]),
        {"name": "Новый", "membership_id": "BH-99999", "city": ""},
    )
    assert response.status_code == 403

    assert desk.tournament.registrations.count() == 4
    assert not Player.objects.filter(membership_id="BH-99999").exists()


def test_an_organiser_with_the_permission_searches_and_registers(client, desk):
    stranger = PlayerFactory(name="Чужой Игрок")
    client.force_login(desk.organiser)
    slug = desk.tournament.slug

    found = client.get(reverse("tournaments:player-search", args=[slug]), {"q": "Чужой"})
    added = client.post(
        reverse("tournaments:registration-add", args=[slug]), {"player": stranger.pk}
    )

    assert "Чужой Игрок" in found.content.decode()
    assert added.status_code == 302
    assert desk.tournament.registrations.filter(player=stranger).exists()


@pytest.fixture
def elsewhere(desk):
    """The desk's first player, with a penalty at another tournament."""
    other = Desk.create(players=0)
    registration = services.register_player(
        tournament=other.tournament, player=desk.players[0].player
    )
    other.players.append(registration)
    record = other.issue(0, "1.1", "between_matches")
    return record


def _player_page(client, desk, index=0):
    return client.get(
        reverse("judging:player", args=[desk.tournament.slug, desk.players[index].pk])
    ).content.decode()


def test_an_official_head_judge_sees_the_players_other_tournaments_and_it_is_logged(
    client, desk, elsewhere, caplog
):
    desk.tournament.head_judge_is_official = True
    desk.tournament.save()
    make_official_representative(desk.head)
    client.force_login(desk.head)

    with caplog.at_level(logging.INFO, logger="desk.audit"):
        page = _player_page(client, desk)

    assert elsewhere.tournament.name in page
    audit = [r.getMessage() for r in caplog.records if r.name == "desk.audit"]
    assert [line for line in audit if line.startswith("Penalties")] == [
        f"Penalties from other events of player {desk.players[0].player_id} read by "
        f"{desk.head.username} at tournament {desk.tournament.slug} (1 records)"
    ]


def test_a_head_judge_who_is_no_official_representative_does_not_see_them(client, desk, elsewhere):
    """Ticking «the head judge is an official representative» on an event gives nothing."""
    desk.tournament.head_judge_is_official = True
    desk.tournament.save()
    client.force_login(desk.head)

    assert elsewhere.tournament.name not in _player_page(client, desk)


def test_an_official_representative_at_an_event_without_one_does_not_see_them(
    client, desk, elsewhere
):
    make_official_representative(desk.head)
    client.force_login(desk.head)

    assert elsewhere.tournament.name not in _player_page(client, desk)


def test_an_organiser_who_made_themselves_head_judge_does_not_see_them(client, db, elsewhere):
    """The review's attack: an organiser sets up an event, becomes its head judge, registers
    the player from the registry and opens the player's page."""
    organiser = UserFactory(username="ambitious")
    make_organiser(organiser)
    own = TournamentFactory(head_judge_is_official=True)
    for role in (StaffRole.ORGANISER, StaffRole.HEAD_JUDGE):
        services.add_staff(tournament=own, user=organiser, role=role)
    registration = services.register_player(tournament=own, player=elsewhere.registration.player)
    client.force_login(organiser)

    page = client.get(reverse("judging:player", args=[own.slug, registration.pk])).content.decode()

    assert elsewhere.tournament.name not in page


def test_federation_staff_see_them_at_any_event_they_serve(client, desk, elsewhere):
    make_federation_staff(desk.floor)
    client.force_login(desk.floor)

    assert elsewhere.tournament.name in _player_page(client, desk)


@pytest.mark.parametrize("role", ["floor", "organiser"])
def test_other_staff_do_not_see_the_players_other_tournaments(client, desk, elsewhere, role):
    client.force_login(getattr(desk, role))

    assert elsewhere.tournament.name not in _player_page(client, desk)


def test_a_head_judge_sees_no_history_of_a_player_outside_their_tournament(client, desk, elsewhere):
    """The other tournament's head judge reaches only its own players' pages."""
    outsider = PlayerFactory()
    other = Desk.create(players=0)
    services.register_player(tournament=other.tournament, player=outsider)
    client.force_login(other.head)

    response = client.get(
        reverse("judging:player", args=[desk.tournament.slug, desk.players[0].pk])
    )

    assert response.status_code == 404
    assert PenaltyRecord.objects.count() == 1
