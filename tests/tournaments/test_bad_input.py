"""Bad input gets a clear message and changes nothing; no request ends in a server error."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from core.errors import DomainError
from players.models import Player
from tests.factories import UserFactory
from tournaments import services
from tournaments.models import Tournament
from tournaments.permissions import make_organiser


def url(name, desk, *args):
    return reverse(f"tournaments:{name}", args=[desk.tournament.slug, *args])


@pytest.fixture
def organiser(client, desk):
    client.raise_request_exception = False
    client.force_login(desk.organiser)
    return client


def test_standings_with_a_superscript_round_number(organiser, desk):
    response = organiser.get(url("standings", desk), {"round": "²"})

    assert response.status_code == 400
    assert "Выберите тур из списка." in response.content.decode()


def test_registering_a_player_id_that_is_not_a_number(organiser, desk):
    response = organiser.post(url("registration-add", desk), {"player": "abc"}, follow=True)

    assert response.status_code == 200
    assert desk.tournament.registrations.count() == 4


def test_the_address_new_is_reserved(client, db):
    user = UserFactory()
    make_organiser(user)
    client.force_login(user)

    response = client.post(
        reverse("tournaments:create"),
        {
            "slug": "new",
            "name": "x",
            "date": "2026-12-12",
            "level": "amateur",
            "format": "constructed",
            "best_of": 3,
            "round_minutes": 50,
        },
    )

    assert response.status_code == 200
    assert not Tournament.objects.filter(slug="new").exists()


def test_the_games_in_a_match_cannot_change_during_a_round(organiser, desk):
    desk.pair((0, 1), (2, 3))

    with pytest.raises(DomainError) as caught:
        services.update_tournament(tournament=desk.tournament, best_of=1)

    desk.tournament.refresh_from_db()
    assert caught.value.code == "best_of_fixed"
    assert desk.tournament.best_of == 3


def test_a_finished_tournament_changes_no_more(organiser, desk):
    services.finish_tournament(tournament=desk.tournament)

    organiser.post(url("registration-add", desk), {"name": "Поздний", "membership_id": "LATE-1"})
    organiser.post(url("registration-drop", desk, desk.players[0].pk))
    for action in (
        lambda: services.update_tournament(tournament=desk.tournament, name="Другое"),
        lambda: services.finish_tournament(tournament=desk.tournament),
    ):
        with pytest.raises(DomainError):
            action()

    desk.players[0].refresh_from_db()
    assert desk.tournament.registrations.count() == 4
    assert desk.players[0].status == "playing"


def test_a_csv_with_control_characters_or_a_long_city_imports_nothing(organiser, desk):
    content = "Анна,BH-1,Москва\x00\nБорис,BH-2," + "Т" * 121 + "\n"

    response = organiser.post(
        url("registration-import", desk), {"file": SimpleUploadedFile("p.csv", content.encode())}
    )

    body = response.content.decode()
    # The whole file is refused at its first control character, with the line (core/uploads.py).
    assert "Строка 1 содержит управляющий символ (например, нулевой байт)" in body
    assert not Player.objects.filter(membership_id__in=["BH-1", "BH-2"]).exists()


def test_a_login_django_would_refuse_is_refused(organiser, desk):
    organiser.post(
        url("staff", desk),
        {"username": "new person", "role": "floor_judge", "password": "secret-123"},
    )

    assert not desk.tournament.staff.filter(user__username="new person").exists()
