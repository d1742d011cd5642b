"""Extensions given before they kept their round (floor 0003) take their match's round."""

import uuid

import pytest

from floor.models import TimeExtension
from tests.factories import Desk
from tests.schema import migrate_to, migrate_to_newest
from tournaments import services as tournament_services

BEFORE = [("floor", "0002_self_reported_results_and_check_in")]


@pytest.mark.django_db(transaction=True)
def test_extensions_given_earlier_take_their_matchs_round():
    desk = Desk.create()
    desk.pair((0, 1), (2, 3))
    first = desk.match_of(0)
    for player in (0, 2):
        tournament_services.enter_result(
            match=desk.match_of(player), player1_wins=2, player2_wins=0
        )
    desk.pair((0, 2), (1, 3))
    second = desk.match_of(0)
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
