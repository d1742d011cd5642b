"""An invalid form comes back with the error beside its field (status 200), nothing changed."""

import pytest
from django.urls import reverse

from judging.models import PenaltyChange, PenaltyRecord


@pytest.fixture
def judge(client, desk):
    client.force_login(desk.floor)
    return client


@pytest.mark.parametrize(
    ("reason", "message"),
    [
        ("  ", "Укажите причину решения."),
        ("я" * 2001, "Причина должна быть короче 2000 символов."),
    ],
)
def test_an_undo_without_a_fit_reason_shows_the_card_with_the_error(judge, desk, reason, message):
    record = desk.issue(0, "1.4", "between_matches", by="floor")
    changes = PenaltyChange.objects.count()

    response = judge.post(
        reverse("judging:record-undo", args=[desk.tournament.slug, record.pk]), {"reason": reason}
    )

    record.refresh_from_db()
    assert response.status_code == 200
    assert response.context["form"].errors == {"reason": [message]}
    assert message in response.content.decode()
    assert record.revocation_requested is False
    assert PenaltyChange.objects.count() == changes
    assert PenaltyRecord.objects.count() == 1


@pytest.fixture
def head(client, desk):
    client.force_login(desk.head)
    return client


def test_a_revocation_without_a_reason_shows_the_record_with_the_error(head, desk):
    record = desk.issue(0, "1.4", "between_matches")
    changes = PenaltyChange.objects.count()

    response = head.post(
        reverse("judging:console-act", args=[desk.tournament.slug, record.pk, "revoke"]),
        {"reason": ""},
    )

    record.refresh_from_db()
    assert response.status_code == 200
    assert response.context["reason_forms"]["revoke"].errors == {
        "reason": ["Укажите причину решения."]
    }
    assert response.context["reason_forms"]["amend"].errors == {}
    assert (record.status, PenaltyChange.objects.count()) == ("in_force", changes)


def test_an_amendment_without_a_penalty_shows_the_form_with_the_error(head, desk):
    record = desk.issue(0, "1.4", "between_matches")
    changes = PenaltyChange.objects.count()

    response = head.post(
        reverse("judging:console-act", args=[desk.tournament.slug, record.pk, "amend"]),
        {"to_rank": "", "reason": "ошибка"},
    )

    record.refresh_from_db()
    assert response.status_code == 200
    assert list(response.context["amend_form"].errors) == ["to_rank"]
    assert response.context["reason_forms"]["amend"].errors == {}
    assert (record.rank, PenaltyChange.objects.count()) == (record.issued_rank, changes)
