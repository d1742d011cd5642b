"""Corrections made before they kept their round (tournaments 0012) take their match's round."""

import pytest

from tests.factories import Desk
from tests.schema import matches_in_two_rounds, migrate_to, migrate_to_newest
from tournaments import services as tournament_services
from tournaments.models import ResultCorrection

BEFORE = [("tournaments", "0011_index_matches_playing_and_ended_by_table")]


@pytest.mark.django_db(transaction=True)
def test_corrections_made_earlier_take_their_matchs_round():
    desk = Desk.create()
    first, second = matches_in_two_rounds(desk)
    tournament_services.enter_result(match=second, player1_wins=2, player2_wins=1)
    try:
        old = migrate_to(BEFORE)
        OldCorrection = old.get_model("tournaments", "ResultCorrection")
        for match in (first, second):
            OldCorrection.objects.create(
                match_id=match.pk,
                corrected_by_id=desk.head.pk,
                reason="Ошибка в бланке",
                before_player1_wins=2,
                before_player2_wins=0,
                before_draws=0,
                player1_wins=0,
                player2_wins=2,
                draws=0,
            )
        migrate_to_newest()
        rounds = dict(ResultCorrection.objects.values_list("match_id", "round_id"))
        assert rounds == {first.pk: first.round_id, second.pk: second.round_id}
        assert first.round_id != second.round_id
    finally:
        # Every later test needs the whole schema: back to the newest migration of every app.
        migrate_to_newest()
