"""Lines saved when they referenced a pool's card row name it by key after decks 0005, and
back."""

import pytest

from decks import selectors
from decks.models import DeckList, DeckListLine
from tests.decks.saving import save_with_a_new_card
from tests.schema import migrate_to, migrate_to_newest

BEFORE = [("decks", "0004_pool_owner_elements_heroes_bans_one_format")]


@pytest.mark.django_db(transaction=True)
def test_lines_keep_the_cards_they_read_across_the_migration_and_back(desk):
    save_with_a_new_card(desk)
    pool = selectors.rules_for(tournament=desk.tournament).pool
    keys = dict(DeckListLine.objects.values_list("written_name", "card_key"))
    assert keys["Вампир"] == "вампир" and keys["Новинка"] == ""
    try:
        old = migrate_to(BEFORE)
        OldLine = old.get_model("decks", "DeckListLine")
        cards = {
            line.written_name: (line.card.pool_id, line.card.key) if line.card else None
            for line in OldLine.objects.select_related("card")
        }
        assert cards["Вампир"] == (pool.pk, "вампир")
        assert cards["Новинка"] is None
        assert all(card is not None for name, card in cards.items() if name != "Новинка")
        migrate_to_newest()
        assert dict(DeckListLine.objects.values_list("written_name", "card_key")) == keys
        decklist = DeckList.objects.get(registration=desk.players[0])
        read = {line.written_name: line.card for line in selectors.saved_lines(decklist=decklist)}
        assert read["Вампир"].pool_id == pool.pk and read["Новинка"] is None
    finally:
        # Every later test needs the whole schema: back to the newest migration of every app.
        migrate_to_newest()
