"""The words of a record (``judging/explanations.py``): the penalty with what it includes, why a
record is above its base, and what a loss takes; in both languages."""

import pytest
from django.utils import translation

from judging.explanations import explain, penalty_label, takes_text
from judging.penalties import Rank


@pytest.fixture
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def russian():
    with translation.override("ru"):
        yield


@pytest.mark.parametrize(
    ("rank", "label"),
    [
        (Rank.CAUTION, "Caution"),
        (Rank.WARNING, "Warning"),
        (Rank.GAME_LOSS, "Game loss (with warning)"),
        (Rank.MATCH_LOSS, "Match loss (with warning)"),
        (Rank.DISQUALIFICATION, "Disqualification (with match loss)"),
        (Rank.DISQUALIFICATION_WITHOUT_PRIZE, "Disqualification without prizes (with match loss)"),
        (Rank.SUSPENSION, "Membership suspension (with disqualification without prizes)"),
    ],
)
def test_a_penalty_is_named_with_the_one_it_includes(english, rank, label):
    assert penalty_label(rank) == label


@pytest.mark.parametrize(
    ("rank", "label"),
    [
        (Rank.CAUTION, "Замечание"),
        (Rank.GAME_LOSS, "Поражение в партии (включает: предупреждение)"),
        (Rank.SUSPENSION, "Приостановление членства (включает: дисквалификация без призов)"),
    ],
)
def test_the_russian_label_uses_the_guidelines_words(russian, rank, label):
    assert penalty_label(rank) == label


def test_a_label_takes_a_plain_number_too(english):
    assert penalty_label(3) == "Game loss (with warning)"


def test_no_explanation_says_nothing(english):
    assert explain(None) == ""
    assert explain({}) == ""  # type: ignore[arg-type]  # a record's empty JSON


def test_a_repeat_names_the_reason_the_penalty_held_and_its_round(english):
    explanation = {"kind": "repeat", "reason": "1.4", "held_rank": "caution", "held_round": 2}

    assert explain(explanation) == "repeat of 1.4 (held: Caution, round 2)"


def test_a_repeat_held_outside_a_round_names_no_round(english):
    explanation = {"kind": "repeat", "reason": "1.2", "held_rank": "warning", "held_round": None}

    assert explain(explanation) == "repeat of 1.2 (held: Warning)"


def test_a_repeat_in_russian(russian):
    explanation = {"kind": "repeat", "reason": "1.4", "held_rank": "caution", "held_round": 1}

    assert explain(explanation) == "повтор 1.4 (уже было: Замечание, тур 1)"


def stacking(reasons, from_stacking, rank="warning", round_number=3):
    return {
        "kind": "stacking",
        "rank": rank,
        "reasons": reasons,
        "from_stacking": from_stacking,
        "round": round_number,
    }


@pytest.mark.parametrize(
    ("reasons", "from_stacking", "text"),
    [
        (["1.1", "1.2", "1.4"], 0, "three “Warning” (1.1, 1.2 and 1.4) at the end of round 3"),
        (["1.2", "1.4"], 1, "three “Warning” (1.2, 1.4 and 1 from stacking) at the end of round 3"),
        (["1.4"], 2, "three “Warning” (1.4 and 2 from stacking) at the end of round 3"),
        ([], 3, "three “Warning” (3 from stacking) at the end of round 3"),
    ],
)
def test_three_of_a_strength_list_their_sources(english, reasons, from_stacking, text):
    assert explain(stacking(reasons, from_stacking)) == text


def test_three_of_a_strength_name_their_rank_and_round(english):
    explanation = stacking(["1.1", "1.2", "1.4"], 0, rank="caution", round_number=5)

    assert explain(explanation) == "three “Caution” (1.1, 1.2 and 1.4) at the end of round 5"


def test_three_of_a_strength_in_russian_count_the_stacked_ones(russian):
    explanation = stacking(["1.4"], 2)

    assert explain(explanation) == "три «Предупреждение» (1.4 и 2 от сложения) в конце тура 3"


@pytest.mark.parametrize(
    ("applies_to", "text"),
    [
        ("current_game", "this game is lost"),
        ("next_game", "the next game is lost"),
        ("current_match", "this match is lost"),
        ("next_match", "the next match is lost"),
        ("", ""),
    ],
)
def test_what_a_loss_takes(english, applies_to, text):
    assert takes_text(applies_to) == text


def test_what_a_loss_takes_in_russian(russian):
    assert takes_text("next_match") == "следующий матч проигран"
