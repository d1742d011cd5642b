import pytest

from decks.parsing import EXTRA, MAIN, MAX_LINES, CardInfo, PoolIndex, normalise, parse_list

POOL = PoolIndex.of(
    [
        CardInfo(1, "Вампир"),
        CardInfo(2, "Самоход"),
        CardInfo(3, "Шар смерти"),
        CardInfo(4, "Гоблин-налётчик", frozenset({"Орда"})),
        CardInfo(5, "Хищник"),
    ]
)


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("Вампир", "вампир"),
        ("  ВАМПИР ", "вампир"),
        ("Гоблин-налетчик", "гоблин налетчик"),
        ("Гоблин налётчик!", "гоблин налетчик"),
        ("шар  смерти.", "шар смерти"),
    ],
)
def test_names_are_compared_forgivingly(written, expected):
    assert normalise(written) == expected


@pytest.mark.parametrize(
    ("line", "count", "card"),
    [
        ("3 Вампир", 3, "Вампир"),
        ("3x Вампир", 3, "Вампир"),
        ("3 x вампир", 3, "Вампир"),
        ("3 х Вампир", 3, "Вампир"),  # Cyrillic х
        ("3× Вампир", 3, "Вампир"),
        ("Вампир x3", 3, "Вампир"),
        ("2 гоблин налетчик", 2, "Гоблин-налётчик"),
        ("3 Хищник", 3, "Хищник"),  # a name beginning with Х is not a multiplier
        ("Самоход", None, "Самоход"),  # no number: 1.1 г
    ],
)
def test_line_forms(line, count, card):
    result = parse_list(line, POOL)
    assert result.ok and not result.unmatched
    assert [(parsed.count, parsed.card.name) for parsed in result.lines] == [(count, card)]


def test_sections_switch_on_headers():
    text = "Основная колода (40):\n3 Вампир\n\nДоп. колода:\n2 Самоход\n# a comment\n"
    result = parse_list(text, POOL)
    assert [(line.section, line.card.name) for line in result.lines] == [
        (MAIN, "Вампир"),
        (EXTRA, "Самоход"),
    ]


def test_unknown_names_are_never_guessed_but_suggested():
    result = parse_list("3 Вампиры\n2 Шар смер", POOL)
    assert result.ok
    assert [(u.number, u.name, u.suggestions) for u in result.unmatched] == [
        (1, "Вампиры", ["Вампир"]),
        (2, "Шар смер", ["Шар смерти"]),
    ]
    assert [line.card for line in result.lines] == [None, None]


@pytest.mark.parametrize(
    ("text", "errors"),
    [
        ("-3 Вампир", [1]),
        ("0 Вампир", [1]),
        ("1000 Вампир", [1]),
        ("2.5 Вампир", [1]),
        ("3 Вампир\n!!!\n4", [2, 3]),
        ("3 Вампир\n" + "x" * 300, [2]),
        ("", [0]),
    ],
)
def test_bad_lines_are_named_one_by_one(text, errors):
    result = parse_list(text, POOL)
    assert not result.ok
    assert [line for line, _message in result.errors] == errors


def test_ten_thousand_lines_are_refused_at_once():
    result = parse_list("1 Вампир\n" * 10_000, POOL)
    assert [line for line, _message in result.errors] == [0]
    assert str(MAX_LINES) in result.errors[0][1]
    assert result.lines == []
