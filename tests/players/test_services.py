"""The registry and membership suspensions through the players' services."""

import datetime

import pytest

from core.errors import DomainError
from players import services
from players.models import MembershipSuspension, Player
from tests.factories import PlayerFactory

DAY = datetime.date(2026, 12, 5)


def refused(code, action, **kwargs):
    counts = (Player.objects.count(), MembershipSuspension.objects.count())
    with pytest.raises(DomainError) as caught:
        action(**kwargs)
    assert caught.value.code == code
    assert (Player.objects.count(), MembershipSuspension.objects.count()) == counts
    return caught.value


def test_creating_a_player_trims_what_was_typed(db):
    player = services.create_player(name="  Анна ", membership_id=" BH-1 ", city=" Тула ")

    player.refresh_from_db()
    assert (player.name, player.membership_id, player.city) == ("Анна", "BH-1", "Тула")


@pytest.mark.parametrize(("name", "membership_id"), [("", "BH-1"), ("Анна", "  ")])
def test_a_player_needs_a_name_and_a_membership_id(db, name, membership_id):
    refused("player_incomplete", services.create_player, name=name, membership_id=membership_id)


def test_a_membership_id_belongs_to_one_player(db):
    PlayerFactory(name="Пётр", membership_id="BH-1")

    error = refused(
        "membership_id_taken", services.create_player, name="Павел", membership_id="BH-1"
    )

    assert str(error.message) == "Членский номер BH-1 уже принадлежит игроку Пётр."


def test_a_suspended_membership_is_refused_with_its_end_and_reason(db):
    player = PlayerFactory(name="Анна")
    MembershipSuspension.objects.create(
        player=player, starts_on=DAY, ends_on=datetime.date(2027, 1, 31), reason="обман"
    )

    error = refused("membership_suspended", services.ensure_not_suspended, player=player, day=DAY)

    assert "31.01.2027" in str(error.message) and "обман" in str(error.message)
    services.ensure_not_suspended(player=player, day=datetime.date(2027, 2, 1))


def test_a_lifted_suspension_stays_in_the_history_and_no_longer_refuses(db):
    player = PlayerFactory()
    suspension = services.suspend_membership(player=player, starts_on=DAY, reason="обман")
    refused("membership_suspended", services.ensure_not_suspended, player=player, day=DAY)

    services.lift_suspension(suspension=suspension, reason="отменено", day=DAY)
    services.lift_suspension(suspension=suspension, reason="ещё раз", day=DAY)

    suspension.refresh_from_db()
    assert (suspension.lifted_on, suspension.lift_reason, suspension.ends_on) == (
        DAY,
        "отменено",
        None,
    )
    services.ensure_not_suspended(player=player, day=DAY)
