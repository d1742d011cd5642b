"""Writes for tournaments (the only ones): ``setup`` (the tournament, staff, players, its end) and
``play`` (rounds, pairings, games, results, the end of matches), and ``locks`` (the one lock order
of every write on a round and its players). Callers use this package:
``from tournaments import services``."""

from tournaments.services.locks import (
    lock_registrations,
    lock_tournament,
    share_tournament,
)
from tournaments.services.pages import forget_public_stamp, mark_public_change
from tournaments.services.play import (
    add_game,
    close_match,
    correct_result,
    decided_end,
    draft_next_round,
    end_match,
    end_match_by_penalty,
    enter_result,
    finish_match,
    pair_round,
    publish_draft,
    record_game,
    save_served_matches,
    swap_in_draft,
)
from tournaments.services.playoff import (
    decide_level_match,
    enter_slot_result,
    publish_cut,
    publish_next_round,
    set_playoff,
)
from tournaments.services.setup import (
    add_staff,
    add_staff_member,
    create_account,
    create_organiser,
    create_tournament,
    drop_player,
    finish_tournament,
    register_new_player,
    register_player,
    register_players,
    remove_staff,
    suggested_rounds,
    update_tournament,
)

__all__ = [
    "add_game",
    "add_staff",
    "add_staff_member",
    "close_match",
    "correct_result",
    "create_account",
    "create_organiser",
    "create_tournament",
    "decide_level_match",
    "decided_end",
    "draft_next_round",
    "drop_player",
    "end_match",
    "end_match_by_penalty",
    "enter_result",
    "enter_slot_result",
    "finish_match",
    "finish_tournament",
    "forget_public_stamp",
    "lock_registrations",
    "lock_tournament",
    "mark_public_change",
    "pair_round",
    "publish_cut",
    "publish_draft",
    "publish_next_round",
    "record_game",
    "register_new_player",
    "register_player",
    "register_players",
    "remove_staff",
    "save_served_matches",
    "set_playoff",
    "share_tournament",
    "suggested_rounds",
    "swap_in_draft",
    "update_tournament",
]
