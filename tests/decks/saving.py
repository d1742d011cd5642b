"""Saving a player's list as a floor judge does, for the deck tests."""

from decks import services
from decks.demo import correct_list


def save(desk, player, text, *, as_written=False):
    """Save ``text`` as player ``player``'s list; ``as_written`` keeps names the pool lacks (the
    judge's "save as written")."""
    return services.save_decklist(
        registration=desk.players[player], text=text, by=desk.floor, accept_unmatched=as_written
    )


def save_with_a_new_card(desk, player=0):
    """A correct list plus «Новинка», a card the demo pool does not have, saved as written."""
    return save(desk, player, correct_list("1 Новинка"), as_written=True)
