"""The CSV import registers through the same services as a player entered by hand."""

from django.utils import timezone

from players.models import MembershipSuspension, Player
from tests.factories import PlayerFactory
from tournaments.player_import import import_players


def test_a_suspended_member_in_the_file_is_reported_and_nothing_is_imported(desk):
    player = PlayerFactory(name="Анна", membership_id="BH-700")
    MembershipSuspension.objects.create(
        player=player, starts_on=timezone.localdate(), ends_on=None, reason="обман"
    )
    before = (Player.objects.count(), desk.tournament.registrations.count())

    report = import_players(
        tournament=desk.tournament, content="Борис,BH-701,Тула\nАнна,BH-700,Москва\n".encode()
    )

    assert [line for line, _text in report.errors] == [2]
    assert report.errors[0][1] == (
        "Членство игрока Анна приостановлено до даты, которую ещё назначит координатор игры: обман"
    )
    assert (Player.objects.count(), desk.tournament.registrations.count()) == before


def test_known_and_new_players_are_registered(desk):
    PlayerFactory(name="Анна", membership_id="BH-700")

    report = import_players(
        tournament=desk.tournament, content="Анна,BH-700,Москва\nБорис,BH-701,Тула\n".encode()
    )

    assert (report.ok, report.imported) == (True, 2)
    assert set(
        desk.tournament.registrations.filter(
            player__membership_id__in=["BH-700", "BH-701"]
        ).values_list("player__name", flat=True)
    ) == {"Анна", "Борис"}
