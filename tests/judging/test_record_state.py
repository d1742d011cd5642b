"""What a record does now (rules.md §8), decided by ``judging.record_state`` alone: every status
× every rank × a loss pending, served or cancelled, lowered and raised amendments, and the words
each screen shows."""

import pytest
from django.utils import translation

from judging.penalties import AppliesTo, Rank, RecordStatus
from judging.record_state import (
    STATE_VALUES,
    Amendment,
    Loss,
    record_state,
    state_from_values,
)

IN_FORCE = RecordStatus.IN_FORCE
AWAITING = RecordStatus.AWAITING_HEAD_JUDGE
DECLINED = RecordStatus.DECLINED
REVOKED = RecordStatus.REVOKED

TELL = {
    Rank.CAUTION: "This is an oral caution; it counts when penalties stack.",
    Rank.WARNING: "This warning is officially recorded.",
    Rank.DISQUALIFICATION: (
        "You are disqualified and leave the tournament now; your results so far stay, and so "
        "does the right to the prizes of your place."
    ),
    Rank.DISQUALIFICATION_WITHOUT_PRIZE: (
        "You are disqualified without prizes and leave the tournament now."
    ),
    Rank.SUSPENSION: (
        "You are disqualified without prizes and your membership is suspended; the game "
        "coordinator will set its length."
    ),
}

STATUS_LINE = {
    IN_FORCE: "In force.",
    AWAITING: ("Awaiting the head judge: not in force until confirmed; the game goes on as it is."),
    DECLINED: "Declined by the head judge: it never took effect.",
    REVOKED: "Revoked by the head judge: no longer in force.",
}


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def state(
    status=IN_FORCE,
    rank=Rank.WARNING,
    *,
    issued_rank=None,
    applies_to="",
    served_game=None,
    served_match=None,
    cancelled=False,
    revocation_requested=False,
    base_rank=None,
):
    """A record's state from its columns; ``served_game`` is the game's number, ``served_match``
    the match's round (0 for one whose number the reader did not load)."""
    return record_state(
        status=status,
        rank=rank,
        issued_rank=rank if issued_rank is None else issued_rank,
        applies_to=applies_to,
        served_game=served_game is not None,
        served_match=served_match is not None,
        loss_cancelled=cancelled,
        revocation_requested=revocation_requested,
        served_game_number=served_game or None,
        served_match_round=served_match or None,
        base_rank=base_rank,
    )


# Status × rank, with no loss.


@pytest.mark.parametrize("rank", [rank for rank in Rank if rank not in TELL])
@pytest.mark.parametrize("status", list(RecordStatus))
def test_a_loss_rank_without_a_loss_is_worded_by_its_status(status, rank):
    got = state(status, rank)

    assert got.status == status
    assert got.rank == rank
    assert got.loss == Loss.NONE
    assert got.loss_text == ""
    assert got.status_line == STATUS_LINE[status]
    assert got.tells_player is (status == IN_FORCE)
    assert got.tell == ("A warning is recorded." if status == IN_FORCE else "")


@pytest.mark.parametrize("rank", list(TELL))
@pytest.mark.parametrize("status", list(RecordStatus))
def test_the_player_is_told_only_what_stands(status, rank):
    got = state(status, rank)

    assert got.status_line == STATUS_LINE[status]
    assert got.tells_player is (status == IN_FORCE)
    assert got.tell == (TELL[rank] if status == IN_FORCE else "")


@pytest.mark.parametrize(
    ("status", "label"),
    [
        (IN_FORCE, "In force"),
        (AWAITING, "Awaiting the head judge"),
        (DECLINED, "Declined by the head judge"),
        (REVOKED, "Revoked"),
    ],
)
def test_a_list_shows_the_short_status(status, label):
    assert state(status).status_label == label


def test_a_revocation_asked_for_is_named_beside_the_status():
    got = state(IN_FORCE, revocation_requested=True)

    assert got.status_label == "In force · revocation requested"
    assert got.status_line == "In force. A judge asked the head judge to revoke it."
    assert got.tell == TELL[Rank.WARNING]


def test_the_status_predicates_follow_the_status():
    assert [
        (s.is_in_force, s.is_awaiting_head_judge, s.is_declined, s.is_revoked)
        for s in (state(IN_FORCE), state(AWAITING), state(DECLINED), state(REVOKED))
    ] == [
        (True, False, False, False),
        (False, True, False, False),
        (False, False, True, False),
        (False, False, False, True),
    ]


# The loss: every status × game loss and match loss × pending, served, cancelled.

PENDING_TEXT = {
    AppliesTo.NEXT_GAME: "The next game is lost: waiting for that game.",
    AppliesTo.NEXT_MATCH: "The next match is lost: waiting for the next round's pairings.",
}
CANCELLED_TEXT = {
    AppliesTo.NEXT_GAME: "Loss cancelled: no game is lost.",
    AppliesTo.NEXT_MATCH: "Loss cancelled: no match is lost.",
}
LOSSES = [(Rank.GAME_LOSS, AppliesTo.NEXT_GAME), (Rank.MATCH_LOSS, AppliesTo.NEXT_MATCH)]


@pytest.mark.parametrize(("rank", "applies_to"), LOSSES)
def test_a_pending_loss_in_force_waits_and_the_player_is_told_it(rank, applies_to):
    got = state(IN_FORCE, rank, applies_to=applies_to)

    assert got.loss == Loss.PENDING
    assert got.loss_is_pending
    assert got.loss_text == PENDING_TEXT[applies_to]
    kind = "game" if applies_to == AppliesTo.NEXT_GAME else "match"
    assert got.tell == f"A warning is recorded, and the next {kind} is lost."


@pytest.mark.parametrize(("rank", "applies_to"), LOSSES)
@pytest.mark.parametrize("status", [REVOKED, IN_FORCE])
def test_a_cancelled_loss_is_said_to_be_cancelled(status, rank, applies_to):
    # Revoked: the record's unserved loss never takes effect, whatever its flag says; in force:
    # the flag an amendment sets.
    got = state(status, rank, applies_to=applies_to, cancelled=status == IN_FORCE)

    assert got.loss == Loss.CANCELLED
    assert got.loss_is_cancelled
    assert got.loss_text == CANCELLED_TEXT[applies_to]
    expected = "A warning is recorded; no game or match is lost." if status == IN_FORCE else ""
    assert got.tell == expected


@pytest.mark.parametrize(("rank", "applies_to"), LOSSES)
@pytest.mark.parametrize("status", [AWAITING, DECLINED])
def test_a_request_takes_no_loss_until_confirmed_and_a_declined_one_never(status, rank, applies_to):
    got = state(status, rank, applies_to=applies_to)

    assert got.loss == Loss.NONE
    assert got.loss_text == ""
    assert got.tell == ""
    assert not got.tells_player


def test_a_game_lost_at_once_is_this_game():
    got = state(IN_FORCE, Rank.GAME_LOSS, applies_to=AppliesTo.CURRENT_GAME, served_game=2)

    assert got.loss == Loss.SERVED
    assert got.loss_is_served
    assert got.loss_text == "Game 2 is lost by this penalty."
    assert got.tell == "A warning is recorded, and this game is lost."


def test_a_next_game_served_later_names_its_game():
    got = state(IN_FORCE, Rank.GAME_LOSS, applies_to=AppliesTo.NEXT_GAME, served_game=3)

    assert got.loss_text == "Game 3 is lost by this penalty."
    assert got.tell == "A warning is recorded, and game 3 is lost."


def test_a_next_match_served_later_names_its_round():
    got = state(IN_FORCE, Rank.MATCH_LOSS, applies_to=AppliesTo.NEXT_MATCH, served_match=4)

    assert got.loss == Loss.SERVED
    assert got.loss_text == "The match of round 4 is lost by this penalty."
    assert got.tell == "A warning is recorded, and the match of round 4 is lost."


def test_a_match_lost_at_once_is_this_match():
    got = state(IN_FORCE, Rank.MATCH_LOSS, applies_to=AppliesTo.CURRENT_MATCH, served_match=1)

    assert got.loss_text == "The match of round 1 is lost by this penalty."
    assert got.tell == "A warning is recorded, and this match is lost."


def test_a_served_loss_without_its_number_loaded_is_still_served():
    game = state(IN_FORCE, Rank.GAME_LOSS, applies_to=AppliesTo.NEXT_GAME, served_game=0)
    match = state(IN_FORCE, Rank.MATCH_LOSS, applies_to=AppliesTo.NEXT_MATCH, served_match=0)

    assert (game.loss, game.loss_text) == (Loss.SERVED, "A game is lost by this penalty.")
    assert game.tell == "A warning is recorded, and the next game is lost."
    assert (match.loss, match.loss_text) == (Loss.SERVED, "A match is lost by this penalty.")


@pytest.mark.parametrize(
    ("rank", "applies_to", "served", "text"),
    [
        (Rank.GAME_LOSS, AppliesTo.CURRENT_GAME, {"served_game": 1}, "Game 1 is lost"),
        (
            Rank.MATCH_LOSS,
            AppliesTo.NEXT_MATCH,
            {"served_match": 2},
            "The match of round 2 is lost",
        ),
    ],
)
def test_a_revoked_record_s_served_loss_stays_in_the_results(rank, applies_to, served, text):
    got = state(REVOKED, rank, applies_to=applies_to, **served)

    assert got.loss == Loss.SERVED
    assert got.loss_text == (
        f"{text} by this penalty. It stays in the results until the head judge corrects them."
    )
    assert got.tell == ""


def test_a_disqualification_in_force_names_the_match_it_took():
    got = state(IN_FORCE, Rank.DISQUALIFICATION, applies_to=AppliesTo.CURRENT_MATCH, served_match=2)

    assert got.loss == Loss.SERVED
    assert got.loss_text == "The match of round 2 is lost by this penalty."
    assert got.tell == TELL[Rank.DISQUALIFICATION]


# The cases of issue 26.


def test_a_declined_disqualification_request_tells_the_player_nothing():
    got = state(DECLINED, Rank.DISQUALIFICATION_WITHOUT_PRIZE)

    assert got.tell == ""
    assert not got.tells_player
    assert got.status_line == "Declined by the head judge: it never took effect."
    assert got.rank_label == "Disqualification without prizes (with match loss)"
    assert not got.confirms_in_two_steps


def test_a_revoked_pending_game_loss_says_its_loss_is_cancelled():
    got = state(REVOKED, Rank.GAME_LOSS, applies_to=AppliesTo.NEXT_GAME, cancelled=True)

    assert got.loss == Loss.CANCELLED
    assert got.loss_text == "Loss cancelled: no game is lost."
    assert got.tell == ""
    assert got.status_line == "Revoked by the head judge: no longer in force."


def test_a_pending_match_loss_lowered_to_a_game_loss_and_cancelled_loses_nothing():
    # As the amendment writes it today: the match loss waiting is cancelled.
    got = state(
        IN_FORCE,
        Rank.GAME_LOSS,
        issued_rank=Rank.MATCH_LOSS,
        applies_to=AppliesTo.NEXT_MATCH,
        cancelled=True,
    )

    assert got.loss == Loss.CANCELLED
    assert got.loss_text == "Loss cancelled: no match is lost."
    assert got.tell == "A warning is recorded; no game or match is lost."
    assert "next match" not in got.tell
    assert got.amendment == Amendment.LOWERED
    assert got.amendment_text == "Issued as Match loss; the head judge lowered it to Game loss."


def test_a_pending_match_loss_lowered_to_a_game_loss_that_waits_as_a_game_loss():
    # As rules.md §6 has it since 2026-12-04: the record costs what its new rank costs.
    got = state(
        IN_FORCE, Rank.GAME_LOSS, issued_rank=Rank.MATCH_LOSS, applies_to=AppliesTo.NEXT_GAME
    )

    assert got.loss == Loss.PENDING
    assert got.loss_text == "The next game is lost: waiting for that game."
    assert got.tell == "A warning is recorded, and the next game is lost."


def test_a_pending_match_loss_lowered_to_a_caution_says_only_the_caution():
    got = state(
        IN_FORCE,
        Rank.CAUTION,
        issued_rank=Rank.MATCH_LOSS,
        applies_to=AppliesTo.NEXT_MATCH,
        cancelled=True,
    )

    assert got.loss == Loss.CANCELLED
    assert got.loss_text == "Loss cancelled: no match is lost."
    assert got.tell == TELL[Rank.CAUTION]
    assert got.rank_label == "Caution"
    assert got.amendment_text == "Issued as Match loss; the head judge lowered it to Caution."


def test_a_loss_left_scheduled_under_a_rank_that_takes_none_is_cancelled():
    # A warning never takes a game: a loss still scheduled on it is not pending.
    got = state(IN_FORCE, Rank.WARNING, issued_rank=Rank.GAME_LOSS, applies_to="next_game")

    assert got.loss == Loss.CANCELLED
    assert got.tell == TELL[Rank.WARNING]


def test_a_served_game_loss_lowered_to_a_warning_keeps_its_game_in_the_results():
    got = state(
        IN_FORCE,
        Rank.WARNING,
        issued_rank=Rank.GAME_LOSS,
        applies_to=AppliesTo.CURRENT_GAME,
        served_game=1,
    )

    assert got.loss == Loss.SERVED
    assert got.loss_text == (
        "Game 1 is lost by this penalty. It stays in the results until the head judge corrects "
        "them."
    )
    assert got.tell == TELL[Rank.WARNING]


def test_a_served_match_loss_lowered_to_a_game_loss_is_covered_by_its_match():
    got = state(
        IN_FORCE,
        Rank.GAME_LOSS,
        issued_rank=Rank.MATCH_LOSS,
        applies_to=AppliesTo.CURRENT_MATCH,
        served_match=2,
    )

    assert got.loss == Loss.SERVED
    assert got.loss_text == "The match of round 2 is lost by this penalty."
    assert got.tell == "A warning is recorded, and this match is lost."


def test_a_warning_raised_to_a_match_loss_waits_for_the_next_match():
    got = state(
        IN_FORCE, Rank.MATCH_LOSS, issued_rank=Rank.WARNING, applies_to=AppliesTo.NEXT_MATCH
    )

    assert got.amendment == Amendment.RAISED
    assert got.is_amended
    assert got.amendment_text == "Issued as Warning; the head judge raised it to Match loss."
    assert got.loss == Loss.PENDING
    assert got.tell == "A warning is recorded, and the next match is lost."


def test_a_served_game_loss_raised_to_a_match_loss_keeps_the_game_it_took():
    got = state(
        IN_FORCE,
        Rank.MATCH_LOSS,
        issued_rank=Rank.GAME_LOSS,
        applies_to=AppliesTo.NEXT_MATCH,
        served_game=2,
    )

    assert got.loss == Loss.PENDING
    assert got.loss_text == (
        "The next match is lost: waiting for the next round's pairings. "
        "Game 2 is lost by this penalty."
    )


def test_a_game_loss_after_a_match_it_took_names_both():
    got = state(
        IN_FORCE,
        Rank.GAME_LOSS,
        issued_rank=Rank.MATCH_LOSS,
        applies_to=AppliesTo.NEXT_GAME,
        served_match=1,
    )

    assert got.loss_text == (
        "The next game is lost: waiting for that game. "
        "The match of round 1 is lost by this penalty."
    )


def test_a_disqualification_raised_from_a_warning_tells_the_disqualification():
    got = state(IN_FORCE, Rank.DISQUALIFICATION, issued_rank=Rank.WARNING)

    assert got.amendment == Amendment.RAISED
    assert got.tell == TELL[Rank.DISQUALIFICATION]


def test_an_unamended_record_says_nothing_of_an_amendment():
    got = state(IN_FORCE, Rank.GAME_LOSS)

    assert got.amendment == Amendment.NONE
    assert not got.is_amended
    assert got.amendment_text == ""


# Rank words and the disqualification's deliberate confirmation.


def test_the_rank_is_named_with_what_it_includes_and_its_class():
    got = state(IN_FORCE, Rank.GAME_LOSS)

    assert got.rank_label == "Game loss (with warning)"
    assert got.rank_name == "Game loss"
    assert got.rank_key == "rank-game_loss"


@pytest.mark.parametrize("rank", list(Rank))
@pytest.mark.parametrize("status", list(RecordStatus))
def test_only_a_disqualification_request_is_confirmed_in_two_steps(status, rank):
    expected = status == AWAITING and rank >= Rank.DISQUALIFICATION

    assert state(status, rank).confirms_in_two_steps is expected


def test_the_base_is_shown_only_where_the_record_differs_from_it():
    assert state(IN_FORCE, Rank.WARNING, base_rank=Rank.CAUTION).base_differs
    assert state(IN_FORCE, Rank.WARNING, base_rank=Rank.CAUTION).base_name == "Caution"
    assert not state(IN_FORCE, Rank.WARNING, base_rank=Rank.WARNING).base_differs
    assert not state(IN_FORCE, Rank.WARNING).base_differs  # made by stacking: no base
    assert state(IN_FORCE, Rank.WARNING).base_name == ""


def test_the_words_follow_the_readers_language():
    with translation.override("ru"):
        got = state(IN_FORCE, Rank.GAME_LOSS, issued_rank=Rank.MATCH_LOSS, applies_to="next_game")
        assert got.tell == "Записано предупреждение, и следующая партия проиграна."
        assert got.loss_text == "Следующая партия проиграна: ждёт этой партии."
        assert got.amendment_text == (
            "Выдано как «Поражение в матче»; главный судья снизил его до «Поражение в партии»."
        )
        assert state(DECLINED, Rank.DISQUALIFICATION).status_line == (
            "Отклонено главным судьёй: не вступало в силу."
        )


def test_a_reports_values_give_the_same_state_as_the_columns():
    value = {
        "status": "in_force",
        "rank": 4,
        "issued_rank": 3,
        "applies_to": "next_match",
        "served_game_id": 17,
        "served_game__number": 2,
        "served_match_id": None,
        "served_match__round__number": None,
        "loss_cancelled": False,
        "revocation_requested": True,
        "base_rank": 3,
    }

    assert set(value) == set(STATE_VALUES)
    assert state_from_values(value) == state(
        IN_FORCE,
        Rank.MATCH_LOSS,
        issued_rank=Rank.GAME_LOSS,
        applies_to="next_match",
        served_game=2,
        revocation_requested=True,
        base_rank=Rank.GAME_LOSS,
    )


def test_a_number_of_something_not_served_is_ignored():
    got = record_state(
        status="in_force",
        rank=3,
        issued_rank=3,
        applies_to="next_game",
        served_game=False,
        served_match=False,
        loss_cancelled=False,
        served_game_number=5,
        served_match_round=2,
    )

    assert (got.served_game_number, got.served_match_round) == (None, None)
    assert got.loss == Loss.PENDING


# What confirming a disqualification does, said once for the deliberate step.

LEAVES = [
    "Ann leaves the tournament at once and is not paired again.",
    "A match of theirs in progress is lost; finished results and points stay.",
    "They receive no further penalties in this tournament.",
]


@pytest.mark.parametrize(
    ("rank", "rest"),
    [
        (Rank.DISQUALIFICATION, ["They keep the right to the prizes of the place they finish in."]),
        (Rank.DISQUALIFICATION_WITHOUT_PRIZE, ["They get no prizes; the judge report names it."]),
        (
            Rank.SUSPENSION,
            [
                "They get no prizes; the judge report names it.",
                "Their membership is suspended; the game coordinator sets its length later, and "
                "until then they cannot be registered for another official tournament.",
            ],
        ),
    ],
)
def test_confirming_a_disqualification_says_what_it_does(rank, rest):
    assert state(AWAITING, rank).confirmation_effects(player="Ann") == LEAVES + rest


@pytest.mark.parametrize("rank", [Rank.CAUTION, Rank.WARNING, Rank.GAME_LOSS, Rank.MATCH_LOSS])
def test_confirming_less_than_a_disqualification_has_no_effects_to_spell_out(rank):
    assert state(AWAITING, rank).confirmation_effects(player="Ann") == []


@pytest.mark.parametrize(
    ("got", "waits_for"),
    [
        (state(IN_FORCE, Rank.GAME_LOSS, applies_to="next_game"), "The next game"),
        (state(IN_FORCE, Rank.MATCH_LOSS, applies_to="next_match"), "The next match"),
        (state(IN_FORCE, Rank.GAME_LOSS, applies_to="next_game", served_game=2), ""),
        (state(IN_FORCE, Rank.GAME_LOSS, applies_to="next_game", cancelled=True), ""),
        (state(REVOKED, Rank.GAME_LOSS, applies_to="next_game"), ""),
        (state(IN_FORCE, Rank.WARNING), ""),
    ],
)
def test_only_a_pending_loss_waits_for_something(got, waits_for):
    assert got.waits_for == waits_for


def test_a_revoked_record_keeps_both_losses_it_took_in_the_results():
    got = state(
        REVOKED,
        Rank.MATCH_LOSS,
        issued_rank=Rank.GAME_LOSS,
        applies_to=AppliesTo.NEXT_MATCH,
        served_game=2,
        served_match=3,
    )

    stays = "It stays in the results until the head judge corrects them."
    assert got.loss == Loss.SERVED
    assert got.loss_text == (
        f"The match of round 3 is lost by this penalty. {stays} "
        f"Game 2 is lost by this penalty. {stays}"
    )
    assert got.tell == ""
