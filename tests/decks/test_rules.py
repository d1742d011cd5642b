"""Lists against each 1.1 sub-item (the guideline's six examples among them), decks at the table
against each 1.2 sub-item."""

import pytest

from decks.demo import DEMO_CARDS, correct_list
from decks.parsing import CardInfo, PoolIndex, parse_list
from decks.rules import (
    FindingData,
    ListedCard,
    RuleSet,
    check_list,
    check_text,
    compare_deck,
    listed_cards,
)

POOL = PoolIndex.of(
    CardInfo(
        number,
        name,
        frozenset(f for f in [features] if f),
        frozenset(legal for legal in [legal] if legal),
    )
    for number, (name, _set, features, legal) in enumerate(DEMO_CARDS, start=1)
)
CONSTRUCTED = RuleSet(
    format_slug="constructed",
    format_name="Констрактед",
    main_min=40,
    extra_max=10,
    copy_limit=3,
    lifting_feature="Орда",
    combine_sections=True,
    check_legality=True,
)
STANDARD = RuleSet(**{**CONSTRUCTED.__dict__, "format_slug": "standard", "format_name": "Стандарт"})


def findings(text, rules=CONSTRUCTED):
    parsed = parse_list(text, POOL)
    assert parsed.ok, parsed.errors
    return [(f.code, f.sub_item, f.kind, f.params) for f in check_list(parsed.lines, rules)]


def test_a_correct_list_has_no_finding():
    assert findings(correct_list(extra="3 Гоблин-налётчик\n2 Феникс")) == []


# The guideline's six examples of 1.1, each with its sub-item.
GUIDELINE_EXAMPLES = [
    pytest.param(
        correct_list().replace("1 Вайл\n", ""),
        CONSTRUCTED,
        [("1.1", "б", "main_short", {"count": 39, "limit": 40})],
        id="1) 39 cards in the main deck (б)",
    ),
    pytest.param(
        correct_list().replace("3 Вампир", "4 Вампир").replace("1 Вайл\n", ""),
        CONSTRUCTED,
        [
            (
                "1.1",
                "д",
                "copies_over",
                {"card": "Вампир", "count": 4, "section": "main", "limit": 3},
            )
        ],
        id="2) four Вампир (д)",
    ),
    pytest.param(
        correct_list(extra="3 Гоблин-налётчик\n3 Тень\n3 Голем\n2 Феникс"),
        CONSTRUCTED,
        [("1.1", "б", "extra_over", {"count": 11, "limit": 10})],
        id="3) 11 cards in the extra deck (б)",
    ),
    pytest.param(
        correct_list("Самоход").replace("3 Самоход\n", ""),
        CONSTRUCTED,
        [("1.1", "г", "no_count", {"line": 15, "card": "Самоход"})],
        id="4) Самоход without a number (г)",
    ),
    pytest.param(
        correct_list(extra="1 Вайл").replace("1 Вайл\n", "3 Вайл\n", 1),
        CONSTRUCTED,
        [
            (
                "1.1",
                "е",
                "combined_over",
                {"card": "Вайл", "main": 3, "extra": 1, "total": 4, "limit": 3},
            )
        ],
        id="5) 3 Вайл in the main deck and 1 in the extra (е)",
    ),
    pytest.param(
        correct_list("3 Шар смерти"),
        STANDARD,
        [("1.1", "в", "not_legal", {"card": "Шар смерти", "format": "Стандарт"})],
        id="6) Шар смерти in Стандарт (в)",
    ),
]


@pytest.mark.parametrize(("text", "rules", "expected"), GUIDELINE_EXAMPLES)
def test_the_guidelines_examples(text, rules, expected):
    assert findings(text, rules) == expected


def test_шар_смерти_is_legal_in_constructed():
    assert findings(correct_list("3 Шар смерти")) == []


def test_horde_lifts_the_copy_limit():
    assert findings(correct_list("7 Гоблин-налётчик")) == []


def test_copies_on_two_lines_are_added():
    text = correct_list("1 Вампир")
    assert [f[:3] for f in findings(text)] == [("1.1", "д", "copies_over")]


def test_main_deck_over_its_largest_size():
    rules = RuleSet(**{**CONSTRUCTED.__dict__, "main_max": 40})
    assert [f[:3] for f in findings(correct_list("1 Вайл"), rules)] == [("1.1", "б", "main_over")]


def test_without_combining_the_sections_3_plus_1_is_allowed():
    rules = RuleSet(**{**CONSTRUCTED.__dict__, "combine_sections": False})
    assert findings(correct_list(extra="1 Вайл").replace("1 Вайл\n", "3 Вайл\n", 1), rules) == []


def test_an_unreadable_name_points_to_the_judges_14_decision():
    parsed = parse_list(correct_list("3 Вмп"), POOL)
    result = check_list(parsed.lines, CONSTRUCTED)
    assert [(f.code, f.sub_item, f.kind) for f in result] == [("1.4", "а", "unreadable")]


def test_limited_formats_check_nothing_they_do_not_set():
    draft = RuleSet(format_slug="draft", format_name="Драфт")
    assert findings("5 Вампир\n5 Шар смерти", draft) == []


# --- 1.2 at the table ---------------------------------------------------------------------------

LISTED = listed_cards(parse_list(correct_list(extra="2 Феникс"), POOL).lines)


def deck(changes=None, not_on_list=()):
    return [
        (f.code, f.sub_item, f.kind, f.params)
        for f in compare_deck(listed=LISTED, found=changes or {}, not_on_list=list(not_on_list))
    ]


def test_a_deck_like_its_list_is_correct():
    assert deck() == []


def test_1_2_a_one_card_short():
    # The guideline's example 2: 39 cards in the deck, 40 on the list.
    assert deck({"гном": (2, 0)}) == [("1.2", "а", "deck_short", {"found": 39, "listed": 40})]


def test_1_2_a_more_in_the_extra_deck():
    assert deck({"феникс": (0, 3)}) == [
        ("1.2", "а", "extra_more", {"found": 3, "listed": 2}),
        (
            "1.2",
            "в",
            "count_differs",
            {"card": "Феникс", "found": 3, "listed": 2, "section": "extra"},
        ),
    ]


def test_1_2_б_a_card_not_on_the_list():
    # The guideline's example 3: a Богарт played that the list does not name.
    assert deck(not_on_list=[("Богарт", 1)]) == [
        ("1.2", "б", "not_on_list", {"card": "Богарт", "count": 1})
    ]


def test_1_2_в_four_gnomes_where_the_list_has_three():
    # The guideline's example 4.
    assert deck({"гном": (4, 0)}) == [
        ("1.2", "в", "count_differs", {"card": "Гном", "found": 4, "listed": 3, "section": "main"})
    ]


def test_1_2_в_swapped_copies_of_the_same_size():
    result = deck({"гном": (2, 0), "богарт": (4, 0)})
    assert [(code, item) for code, item, _kind, _params in result] == [
        ("1.2", "в"),
        ("1.2", "в"),
    ]


def test_listed_cards_add_lines_and_sections():
    lines = parse_list("3 Вайл\nДоп. колода:\n1 Вайл", POOL).lines
    assert listed_cards(lines) == [ListedCard("вайл", "Вайл", 3, 1)]


# --- The hero and element rule (issue 28 item 2) -------------------------------------------------

HERO_POOL = PoolIndex.of(
    [
        CardInfo(1, "Хакодар", elements=frozenset({"Тьма"}), is_hero=True),
        CardInfo(2, "Вампир", elements=frozenset({"тьма"})),
        CardInfo(3, "Вайл", elements=frozenset({"Лес"})),
        CardInfo(4, "Самоход", elements=frozenset({"Нейтральная"})),
        CardInfo(5, "Гном", elements=frozenset({"Горы"})),
        CardInfo(6, "Богарт"),
        CardInfo(7, "Оборотень", elements=frozenset({"Лес", "Тьма"})),
        CardInfo(8, "Странник", is_hero=True),
        CardInfo(9, "Шар смерти", banned_in=frozenset({"standard"})),
        CardInfo(10, "Страж", features=frozenset({"Защитник"})),
        CardInfo(11, "Пророк", elements=frozenset({"Тьма"}), is_hero=True, banned_in={"standard"}),
        CardInfo(12, "Друид", elements=frozenset({"Лес", "Тьма"}), is_hero=True),
    ]
)
HERO_RULES = RuleSet(**{**STANDARD.__dict__, "main_min": None, "hero_rule": True})


def hero_findings(text, rules=HERO_RULES):
    parsed = parse_list(text, HERO_POOL)
    assert parsed.ok, parsed.errors
    hero = parsed.hero.card if parsed.hero else None
    return [(f.sub_item, f.kind, f.params) for f in check_list(parsed.lines, rules, hero=hero)]


def test_cards_of_another_element_are_one_1_1_d_naming_each_once_in_list_order():
    text = "Герой: Хакодар\n2 Гном\n2 Вампир\n1 Вайл\n1 Гном\n2 Самоход\n1 Богарт\n1 Оборотень"
    assert hero_findings(text) == [
        ("д", "off_element", {"hero": "Хакодар", "element": "Тьма", "cards": ["Гном", "Вайл"]})
    ]


@pytest.mark.parametrize(
    ("text", "rules"),
    [
        ("Герой: Хакодар\n3 Вампир\n2 Самоход\n1 Богарт", HERO_RULES),
        ("Герой: Хакодар\n3 Гном", RuleSet(**{**HERO_RULES.__dict__, "hero_rule": False})),
        ("3 Гном\n3 Вампир", HERO_RULES),  # no hero: nothing to measure against
        ("Герой: Странник\n3 Гном", HERO_RULES),  # a hero whose element the pool does not say
    ],
)
def test_no_element_finding_without_a_reason(text, rules):
    assert hero_findings(text, rules) == []


def test_a_card_banned_in_the_format_is_not_legal_there_only():
    assert hero_findings("1 Шар смерти") == [
        ("в", "not_legal", {"card": "Шар смерти", "format": "Стандарт"})
    ]
    constructed = RuleSet(**{**HERO_RULES.__dict__, "format_slug": "constructed"})
    assert hero_findings("1 Шар смерти", constructed) == []


@pytest.mark.parametrize(
    ("line", "kind", "params"),
    [
        ("Самоход", "no_count", {"line": 1, "card": "Самоход"}),
        ("1. Самоход", "numbered_no_count", {"line": 1, "card": "Самоход"}),
        ("два Самохода", "count_in_words", {"line": 1, "card": "Самоход", "words": "два"}),
    ],
)
def test_a_line_without_a_count_is_1_1_g_saying_how_it_was_written(line, kind, params):
    parsed = parse_list(line, HERO_POOL)
    assert check_list(parsed.lines, HERO_RULES) == [FindingData("1.1", "г", kind, params)]


# --- Each finding exactly, at and around its limits (issue 27 item 5) ----------------------------

SIZED = RuleSet(**{**CONSTRUCTED.__dict__, "main_max": 41})


@pytest.mark.parametrize(
    ("text", "rules", "expected"),
    [
        pytest.param(correct_list("1 Вайл"), SIZED, [], id="main deck at its largest size"),
        pytest.param(
            correct_list("2 Вайл"),
            SIZED,
            [("1.1", "б", "main_over", {"count": 42, "limit": 41})],
            id="main deck one over its largest size",
        ),
        pytest.param(
            correct_list(extra="3 Гоблин-налётчик\n3 Тень\n3 Голем\n1 Феникс"),
            CONSTRUCTED,
            [],
            id="extra deck at exactly its limit",
        ),
        pytest.param(
            correct_list("3 Вмп\n1 Вампир"),
            CONSTRUCTED,
            [
                ("1.4", "а", "unreadable", {"line": 16, "name": "Вмп"}),
                (
                    "1.1",
                    "д",
                    "copies_over",
                    {"card": "Вампир", "count": 4, "section": "main", "limit": 3},
                ),
            ],
            id="an unknown name before an over-limit card",
        ),
        pytest.param(
            correct_list("Самоход\n1 Вампир").replace("3 Самоход\n", ""),
            CONSTRUCTED,
            [
                ("1.1", "г", "no_count", {"line": 15, "card": "Самоход"}),
                (
                    "1.1",
                    "д",
                    "copies_over",
                    {"card": "Вампир", "count": 4, "section": "main", "limit": 3},
                ),
            ],
            id="a line without a number before an over-limit card",
        ),
        pytest.param(
            correct_list("1 Шар смерти\n1 Шар смерти"),
            STANDARD,
            [("1.1", "в", "not_legal", {"card": "Шар смерти", "format": "Стандарт"})],
            id="an illegal card on two lines is one finding",
        ),
    ],
)
def test_findings_at_their_limits(text, rules, expected):
    assert findings(text, rules) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "4 Страж",
            [
                FindingData(
                    "1.1",
                    "д",
                    "copies_over",
                    {"card": "Страж", "count": 4, "section": "main", "limit": 3},
                )
            ],
            id="a card with a feature other than Орда keeps the copy limit",
        ),
        pytest.param(
            "Герой: Пророк\n1 Вампир",
            [FindingData("1.1", "в", "not_legal", {"card": "Пророк", "format": "Стандарт"})],
            id="a hero banned in the format",
        ),
        pytest.param(
            "Герой: Друид\n1 Вампир\n1 Гном",
            [
                FindingData(
                    "1.1",
                    "д",
                    "off_element",
                    {"hero": "Друид", "element": "Лес, Тьма", "cards": ["Гном"]},
                )
            ],
            id="a hero of two elements",
        ),
        pytest.param(
            "Герой: Хакодар\n1 Богарт\n1 Вмп\n2 Гном",
            [
                FindingData("1.4", "а", "unreadable", {"line": 3, "name": "Вмп"}),
                FindingData(
                    "1.1",
                    "д",
                    "off_element",
                    {"hero": "Хакодар", "element": "Тьма", "cards": ["Гном"]},
                ),
            ],
            id="a card without an element and an unknown one before an off-element card",
        ),
        pytest.param(
            "Герой: Хакодар\n1 Гном\n1 Гном\n1 Самоход\n1 Вайл",
            [
                FindingData(
                    "1.1",
                    "д",
                    "off_element",
                    {"hero": "Хакодар", "element": "Тьма", "cards": ["Гном", "Вайл"]},
                )
            ],
            id="a repeated and a neutral card before an off-element card",
        ),
    ],
)
def test_exact_findings_with_a_hero(text, expected):
    parsed = parse_list(text, HERO_POOL)
    assert parsed.ok, parsed.errors
    hero = parsed.hero.card if parsed.hero else None
    assert check_list(parsed.lines, HERO_RULES, hero=hero) == expected


def test_a_hero_legal_in_the_format_has_no_finding():
    constructed = RuleSet(**{**HERO_RULES.__dict__, "format_slug": "constructed"})
    assert hero_findings("Герой: Пророк\n1 Вампир", constructed) == []


def test_check_text_reads_then_checks_a_list():
    checked = check_text(correct_list("1 Вампир"), POOL, CONSTRUCTED)

    assert checked.parse.ok
    assert [line.card.name for line in checked.parse.lines if line.card][-1] == "Вампир"
    assert checked.findings == [
        FindingData(
            "1.1", "д", "copies_over", {"card": "Вампир", "count": 4, "section": "main", "limit": 3}
        )
    ]


def test_check_text_with_a_hero_checks_against_the_hero():
    checked = check_text("Герой: Хакодар\n1 Гном", HERO_POOL, HERO_RULES)

    assert checked.findings == [
        FindingData(
            "1.1", "д", "off_element", {"hero": "Хакодар", "element": "Тьма", "cards": ["Гном"]}
        )
    ]


def test_check_text_finds_nothing_while_the_reader_refuses_a_line():
    checked = check_text("0 Вампир\n5 Вампир", POOL, CONSTRUCTED)

    assert not checked.parse.ok
    assert checked.findings == []


def test_listed_cards_name_the_card_and_count_a_line_without_a_number_as_none():
    lines = parse_list("3 вампир\n2 Вмп\nСамоход", POOL).lines
    assert listed_cards(lines) == [
        ListedCard("вампир", "Вампир", 3, 0),
        ListedCard("вмп", "Вмп", 2, 0),
        ListedCard("самоход", "Самоход", 0, 0),
    ]
