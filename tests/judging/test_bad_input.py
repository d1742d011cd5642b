"""Bad input on the judges' screens gets a clear message and changes nothing."""

import uuid

from django.urls import reverse

from judging.models import Infraction, PenaltyRecord
from judging.selectors import edition_for
from tests.factories import Desk


def url(name, desk, *args):
    return reverse(f"judging:{name}", args=[desk.tournament.slug, *args])


def test_finding_a_superscript_table_number(client, desk):
    client.force_login(desk.floor)

    assert client.get(url("judge-home", desk), {"q": "²"}).status_code == 200


def test_adding_an_infraction_with_a_code_in_use_is_refused(client, desk):
    client.force_login(desk.organiser)

    response = client.post(
        url("guideline", desk),
        {"code": "6.1", "name": "Подмена", "availability": "any", "amateur": "caution"},
    )

    infraction = Infraction.objects.get(edition=edition_for(tournament=desk.tournament), code="6.1")
    assert "6.1" in response.content.decode()
    assert (infraction.name, infraction.penalty_amateur) == ("Мошенничество – нечистая игра", 5)


def test_a_sub_item_of_another_infraction_is_refused(client, desk):
    desk.pair((0, 1), (2, 3))
    client.force_login(desk.floor)

    response = client.post(
        url("issue", desk),
        {
            "player": desk.players[0].pk,
            "client_key": str(uuid.uuid4()),
            "infraction": "1.4",
            "sub_item": "1.1:а",
            "moment": "in_game",
        },
    )

    assert response.status_code == 200
    # The refusal is shown on the player's own log page.
    assert desk.players[0].player.name in response.content.decode()
    assert PenaltyRecord.objects.count() == 0


def submit_for(client, desk, player, **changes):
    return client.post(
        url("issue", desk),
        {
            "player": player,
            "client_key": str(uuid.uuid4()),
            "infraction": "1.4",
            "moment": "in_game",
            **changes,
        },
    )


def test_a_submit_for_a_player_of_another_tournament_finds_nothing(client, desk):
    other = Desk.create()
    other.pair((0, 1))
    desk.pair((0, 1))
    client.force_login(desk.floor)

    assert submit_for(client, desk, other.players[0].pk).status_code == 404
    assert submit_for(client, desk, other.players[0].pk, moment="").status_code == 404
    assert submit_for(client, desk, 10**6).status_code == 404
    assert submit_for(client, desk, "x").status_code == 404
    assert not PenaltyRecord.objects.exists()
    assert submit_for(client, desk, desk.players[0].pk).status_code == 302
    assert PenaltyRecord.objects.get().registration == desk.players[0]


def test_an_overlong_reason_is_refused(client, desk):
    desk.pair((0, 1), (2, 3))
    record = desk.issue(0, "1.4")
    client.force_login(desk.head)

    client.post(url("console-act", desk, record.pk, "revoke"), {"reason": "x" * 2001})

    record.refresh_from_db()
    assert record.status == "in_force"
