"""Extensions given before they kept their round (floor 0003) take their match's round."""

import uuid

import pytest

from floor.models import TimeExtension
from tests.factories import Desk
from tests.schema import matches_in_two_rounds, migrate_to, migrate_to_newest

BEFORE = [("floor", "0002_self_reported_results_and_check_in")]


@pytest.mark.django_db(transaction=True)
def test_extensions_given_earlier_take_their_matchs_round():
    desk = Desk.create()
    first, second = matches_in_two_rounds(desk)
    try:
        old = migrate_to(BEFORE)
        OldExtension = old.get_model("floor", "TimeExtension")
        for match in (first, second):
            OldExtension.objects.create(
                match_id=match.pk,
                minutes=3,
                reason="ruling",
                given_by_id=desk.floor.pk,
                client_key=uuid.uuid4(),
            )
        migrate_to_newest()
        rounds = dict(TimeExtension.objects.values_list("match_id", "round_id"))
        assert rounds == {first.pk: first.round_id, second.pk: second.round_id}
        assert first.round_id != second.round_id
    finally:
        # Every later test needs the whole schema: back to the newest migration of every app.
        migrate_to_newest()
