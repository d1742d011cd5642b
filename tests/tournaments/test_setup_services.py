"""Set-up through the tournament services: creating a tournament, staff, registering players."""

import datetime

import pytest
from django.contrib.auth import get_user_model

from core.errors import DomainError
from players.models import Player
from tests.factories import UserFactory
from tournaments import services
from tournaments.models import Registration, Staff, StaffRole, Tournament


def refused(code, action, **kwargs):
    def counts():
        return (
            Tournament.objects.count(),
            Staff.objects.count(),
            get_user_model().objects.count(),
            Player.objects.count(),
            Registration.objects.count(),
        )

    before = counts()
    with pytest.raises(DomainError) as caught:
        action(**kwargs)
    assert caught.value.code == code
    assert counts() == before
    return caught.value


NEW = {"name": "Кубок", "slug": "cup", "date": datetime.date(2026, 12, 5), "level": "amateur"}


def test_creating_a_tournament_with_its_timing_and_organiser(db):
    user = UserFactory()

    tournament = services.create_tournament(
        **NEW, rounds_planned=5, round_minutes=50, organiser=user
    )

    tournament.refresh_from_db()
    assert (tournament.rounds_planned, tournament.round_minutes) == (5, 50)
    assert list(tournament.staff.values_list("user", "role")) == [(user.pk, StaffRole.ORGANISER)]


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"level": "galactic"}, "unknown_level"),
        ({"level": "highest", "uses_decklists": False}, "decklists_required"),
        ({"best_of": 0}, "bad_best_of"),
    ],
)
def test_a_tournament_set_up_against_the_rules_is_refused(db, fields, code):
    refused(code, services.create_tournament, **{**NEW, **fields}, organiser=UserFactory())


def test_a_bad_timing_refuses_the_whole_tournament_and_its_organiser(db):
    with pytest.raises(Exception):  # noqa: B017 the model's own validation refuses it
        services.create_tournament(**NEW, round_minutes=-5, organiser=UserFactory())

    assert (Tournament.objects.count(), Staff.objects.count()) == (0, 0)


def test_a_new_login_becomes_an_account_with_its_role(desk):
    staff = services.add_staff_member(
        tournament=desk.tournament,
        username=" new-judge ",
        role=StaffRole.FLOOR_JUDGE,
        full_name="Новый Судья",
        password="secret-123",
    )

    staff.refresh_from_db()
    assert (staff.user.username, staff.user.first_name, staff.role) == (
        "new-judge",
        "Новый Судья",
        StaffRole.FLOOR_JUDGE,
    )
    assert staff.user.check_password("secret-123")


def test_a_new_login_needs_a_password(desk):
    error = refused(
        "password_too_short",
        services.add_staff_member,
        tournament=desk.tournament,
        username="new-judge",
        role=StaffRole.FLOOR_JUDGE,
        password="short",
    )

    assert error.field == "password"


def test_an_existing_login_keeps_its_password_and_gets_another_role(desk):
    desk.tournament.staff.filter(role=StaffRole.HEAD_JUDGE).delete()

    staff = services.add_staff_member(
        tournament=desk.tournament, username=desk.floor.username, role=StaffRole.HEAD_JUDGE
    )

    assert (staff.user, staff.role) == (desk.floor, StaffRole.HEAD_JUDGE)


def test_the_same_role_twice_is_refused(desk):
    refused(
        "already_staff",
        services.add_staff_member,
        tournament=desk.tournament,
        username=desk.floor.username,
        role=StaffRole.FLOOR_JUDGE,
    )


def test_a_second_head_judge_is_refused(desk):
    refused(
        "head_judge_taken",
        services.add_staff_member,
        tournament=desk.tournament,
        username=desk.floor.username,
        role=StaffRole.HEAD_JUDGE,
    )


def test_an_organiser_cannot_remove_their_own_organiser_role(desk):
    own = Staff.objects.get(tournament=desk.tournament, user=desk.organiser)

    refused("own_organiser_role", services.remove_staff, staff=own, by=desk.organiser)


def test_removing_a_staff_member(desk):
    floor = Staff.objects.get(tournament=desk.tournament, user=desk.floor)

    services.remove_staff(staff=floor, by=desk.organiser)

    assert not Staff.objects.filter(pk=floor.pk).exists()
    assert get_user_model().objects.filter(pk=desk.floor.pk).exists()


def test_a_new_player_is_registered_with_the_registry_entry(desk):
    registration = services.register_new_player(
        tournament=desk.tournament, name="Анна", membership_id="BH-900", city="Тула"
    )

    registration.refresh_from_db()
    assert (registration.player.name, registration.tournament) == ("Анна", desk.tournament)


def test_a_new_player_refused_by_the_tournament_is_not_left_in_the_registry(desk):
    services.finish_tournament(tournament=desk.tournament)

    refused(
        "tournament_finished",
        services.register_new_player,
        tournament=desk.tournament,
        name="Анна",
        membership_id="BH-900",
    )


def test_a_player_is_registered_once(desk):
    refused(
        "already_registered",
        services.register_player,
        tournament=desk.tournament,
        player=desk.players[0].player,
    )
