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
