"""The admin reads what the services wrote and changes none of it; accounts stay the operator's."""

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import RequestFactory
from django.urls import reverse

from judging.models import Infraction, PenaltyRecord
from tournaments.models import Registration, RegistrationStatus

APPS = {"players", "tournaments", "judging"}


@pytest.fixture
def operator(client, db):
    user = get_user_model().objects.create_superuser("operator", password="operator-pass-123")
    client.force_login(user)
    return user


def test_every_model_the_services_write_is_read_only(operator):
    request = RequestFactory().get("/admin/")
    request.user = operator
    registered = {
        model._meta.label: model_admin
        for model, model_admin in admin.site._registry.items()
        if model._meta.app_label in APPS
    }

    assert {
        "tournaments.Registration",
        "tournaments.Round",
        "tournaments.Match",
        "tournaments.Tournament",
        "judging.Infraction",
        "judging.PenaltyRecord",
    } <= set(registered)
    for label, model_admin in registered.items():
        assert model_admin.has_view_permission(request), label
        assert not model_admin.has_add_permission(request), label
        assert not model_admin.has_change_permission(request), label
        assert not model_admin.has_delete_permission(request), label
        for inline in model_admin.get_inline_instances(request):
            assert not inline.has_add_permission(request, None), label
            assert not inline.has_change_permission(request), label
            assert not inline.has_delete_permission(request), label


def test_a_disqualified_player_cannot_be_put_back_through_the_admin(client, operator, desk):
    desk.pair((0, 1), (2, 3))
    desk.issue(0, "6.1")
    registration = Registration.objects.get(pk=desk.players[0].pk)
    assert registration.status == RegistrationStatus.DISQUALIFIED
    url = reverse("admin:tournaments_registration_change", args=[registration.pk])

    page = client.get(url)
    response = client.post(
        url,
        {
            "player": registration.player_id,
            "tournament": registration.tournament_id,
            "status": RegistrationStatus.PLAYING,
            "prize_eligible": "on",
        },
    )

    registration.refresh_from_db()
    assert page.status_code == 200
    assert 'name="_save"' not in page.content.decode()
    assert response.status_code == 403
    assert registration.status == RegistrationStatus.DISQUALIFIED


def test_an_infraction_used_by_records_cannot_be_renamed_or_deleted(client, operator, desk):
    desk.pair((0, 1), (2, 3))
    record = desk.issue(0, "1.1")
    infraction = Infraction.objects.get(pk=record.infraction_id)
    name = infraction.name

    changed = client.post(
        reverse("admin:judging_infraction_change", args=[infraction.pk]),
        {"code": infraction.code, "name": "Другое", "availability": infraction.availability},
    )
    deleted = client.post(
        reverse("admin:judging_infraction_delete", args=[infraction.pk]), {"post": "yes"}
    )

    infraction.refresh_from_db()
    assert (changed.status_code, deleted.status_code) == (403, 403)
    assert infraction.name == name
    assert PenaltyRecord.objects.filter(pk=record.pk).exists()


def test_matches_cannot_be_added_or_edited_in_the_admin(client, operator, desk):
    desk.pair((0, 1), (2, 3))
    match = desk.match_of(0)

    assert client.get(reverse("admin:tournaments_match_add")).status_code == 403
    response = client.post(
        reverse("admin:tournaments_match_change", args=[match.pk]), {"player1_wins": 2}
    )

    match.refresh_from_db()
    assert response.status_code == 403
    assert match.player1_wins == 0


def test_the_operator_still_manages_accounts(client, operator):
    response = client.post(
        reverse("admin:auth_group_add"), {"name": "scorekeepers", "permissions": []}
    )

    assert response.status_code == 302
