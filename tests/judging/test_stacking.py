"""The stacking rules without a database: one table of cases per rule."""

import pytest

from judging.penalties import Because, Rank
from judging.stacking import HeldPenalty, decide_issue, stack_at_match_end

C, W, GL, ML, DQ, DQWP, SUSP = (
    Rank.CAUTION,
    Rank.WARNING,
    Rank.GAME_LOSS,
    Rank.MATCH_LOSS,
    Rank.DISQUALIFICATION,
    Rank.DISQUALIFICATION_WITHOUT_PRIZE,
    Rank.SUSPENSION,
)


def held(*items, stacked=()):
    """``("1.4", C)`` pairs in age order; ids count from 1. A ``"stacking:…"`` reason stands for a
    penalty made by stacking, which has no reason of its own."""
    return [
        HeldPenalty(
            id=index,
            rank=rank,
            reason=None if reason.startswith("stacking") else reason,
            round_number=1,
            stacked=index in stacked,
        )
        for index, (reason, rank) in enumerate(items, start=1)
    ]


@pytest.mark.parametrize(
    ("base", "reason", "history", "rank", "because", "repeat_of"),
    [
        pytest.param(C, "1.4", [], C, Because.BASE, None, id="first offence is the base"),
        pytest.param(C, "1.4", [("1.4", C)], W, Because.REPEAT, 1, id="caution then warning"),
        pytest.param(
            C, "1.4", [("1.4", C), ("1.4", W)], GL, Because.REPEAT, 2, id="then a game loss"
        ),
        pytest.param(C, "1.4", [("1.1", W)], C, Because.BASE, None, id="other reasons ignored"),
        pytest.param(
            GL, "1.1", [("1.1", C)], GL, Because.BASE, None, id="never below its own base"
        ),
        pytest.param(
            W, "1.1", [("1.1", C)], W, Because.BASE, None, id="equal to the base is not a repeat"
        ),
        pytest.param(
            C, "1.4", [("1.4", ML)], DQ, Because.REPEAT, 1, id="a repeat may reach the cap"
        ),
        pytest.param(
            C, "1.4", [("1.4", DQ)], DQ, Because.REPEAT, 1, id="a repeat never passes the cap"
        ),
        pytest.param(
            DQWP, "6.1", [("6.1", DQ)], DQWP, Because.BASE, None, id="base above cap stays"
        ),
        pytest.param(
            C, "1.4", [("1.4", W), ("1.4", C)], GL, Because.REPEAT, 1, id="strongest, not latest"
        ),
    ],
)
def test_repeat_for_the_same_reason(base, reason, history, rank, because, repeat_of):
    decision = decide_issue(base=base, reason=reason, held=held(*history))

    assert (decision.rank, decision.because, decision.repeat_of) == (rank, because, repeat_of)


def test_a_repeat_explains_what_was_held():
    decision = decide_issue(base=C, reason="1.4", held=held(("1.4", C)))

    assert decision.explanation == {
        "kind": "repeat",
        "reason": "1.4",
        "held_rank": "caution",
        "held_round": 1,
    }


@pytest.mark.parametrize(
    ("history", "stacked", "made"),
    [
        pytest.param([], (), [], id="nothing held"),
        pytest.param([("a", C), ("b", C)], (), [], id="two are not three"),
        pytest.param([("a", C), ("a", C), ("b", C)], (), [], id="reasons must differ"),
        pytest.param(
            [("a", C), ("b", C), ("c", C)], (), [(W, (1, 2, 3))], id="three cautions a warning"
        ),
        pytest.param(
            [("a", C), ("a", C), ("b", C), ("c", C)],
            (),
            [(W, (1, 3, 4))],
            id="oldest first, skipping a repeated reason",
        ),
        pytest.param(
            [("a", C), ("b", C), ("c", C), ("d", C)],
            (1,),
            [(W, (2, 3, 4))],
            id="used ones are not used again",
        ),
        pytest.param(
            [("a", C), ("b", W), ("c", C), ("d", C)],
            (),
            [(W, (1, 3, 4))],
            id="ranks must be equal",
        ),
        pytest.param(
            [("x", W), ("y", W), ("a", C), ("b", C), ("c", C)],
            (),
            [(W, (3, 4, 5)), (GL, (1, 2, -1))],
            id="cascade: the new warning completes three warnings",
        ),
        pytest.param(
            [("a", C), ("b", C), ("c", C), ("d", C), ("e", C), ("f", C)],
            (),
            [(W, (1, 2, 3)), (W, (4, 5, 6))],
            id="six cautions make two warnings, not three",
        ),
        pytest.param(
            [("x", W), ("a", C), ("b", C), ("c", C), ("d", C), ("e", C), ("f", C)],
            (),
            [(W, (2, 3, 4)), (W, (5, 6, 7)), (GL, (1, -1, -2))],
            id="lowest rank first, then the warnings",
        ),
        pytest.param(
            [("a", ML), ("b", ML), ("c", ML)], (), [(DQ, (1, 2, 3))], id="three match losses"
        ),
        pytest.param([("a", DQ), ("b", DQ), ("c", DQ)], (), [], id="nothing stacks above the cap"),
        pytest.param(
            [("a", GL), ("b", GL), ("c", GL), ("x", ML), ("y", ML)],
            (),
            [(ML, (1, 2, 3)), (DQ, (4, 5, -1))],
            id="a cascade stops at disqualification",
        ),
        pytest.param(
            [("a", ML), ("b", ML), ("c", ML), ("d", ML), ("e", ML), ("f", ML)],
            (),
            [(DQ, (1, 2, 3))],
            id="six match losses make one disqualification, never two",
        ),
        pytest.param(
            [
                ("a", GL),
                ("b", GL),
                ("c", GL),
                ("x", ML),
                ("y", ML),
                ("p", ML),
                ("q", ML),
                ("r", ML),
            ],
            (),
            [(ML, (1, 2, 3)), (DQ, (4, 5, 6))],
            id="the cascade stops at the first disqualification it makes",
        ),
        pytest.param(
            [("z", DQ), ("a", C), ("b", C), ("c", C)],
            (),
            [],
            id="a disqualified player gets nothing from stacking",
        ),
    ],
)
def test_three_of_the_same_strength(history, stacked, made):
    decisions = stack_at_match_end(held=held(*history, stacked=stacked), round_number=3)

    assert [(decision.rank, decision.sources) for decision in decisions] == made


def test_a_stacked_penalty_explains_its_sources():
    decisions = stack_at_match_end(
        held=held(("1.2", W), ("1.4", W), ("stacking:1", W)), round_number=3
    )

    assert decisions[0].explanation == {
        "kind": "stacking",
        "rank": "warning",
        "reasons": ["1.2", "1.4"],
        "from_stacking": 1,
        "round": 3,
    }


def test_a_stacked_penalty_is_never_a_repeat_of_another():
    # Two stacked warnings have reasons of their own, so a third from an infraction does not
    # make them "the same reason", while three different ones do stack.
    decisions = stack_at_match_end(
        held=held(("stacking:1", W), ("stacking:2", W), ("1.4", W)), round_number=2
    )

    assert [decision.rank for decision in decisions] == [GL]
