import pytest
from django.utils import translation

from decks import parsing
from decks.parsing import (
    EXTRA,
    MAIN,
    MAX_LINES,
    CardInfo,
    PoolIndex,
    clean_text,
    lemma_keys,
    looks_like_person,
    normalise,
    parse_list,
)

POOL = PoolIndex.of(
    [
        CardInfo(1, "Вампир"),
        CardInfo(2, "Самоход"),
        CardInfo(3, "Шар смерти"),
        CardInfo(4, "Гоблин-налётчик", frozenset({"Орда"})),
        CardInfo(5, "Хищник"),
        CardInfo(6, "Вайл"),
        CardInfo(7, "Лесная фея"),
        CardInfo(8, "Хакодар", is_hero=True),
        CardInfo(9, "Три богатыря"),
    ]
)


# The parts of reading a line that are cached by the line's text. mutmut runs the tests once
# unmutated and then forks a process per mutant, which inherits the filled caches: a mutant of a
# function called only through them would never run. Each test reads its lines afresh.
LINE_CACHES = (
    parsing._card_text,
    parsing._cards_stated,
    parsing._prepared,
    parsing._label_parts,
    parsing._header_parts,
    parsing._number_without_name,
)


@pytest.fixture(autouse=True)
def _lines_read_afresh():
    for cache in LINE_CACHES:
        cache.cache_clear()


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
    result = parse_list("3 Вампирр\n2 Шар смер", POOL)
    assert result.ok
    assert [(u.number, u.name, u.suggestions) for u in result.unmatched] == [
        (1, "Вампирр", ["Вампир"]),
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


# --- Lists as players really write them (issue 28): one row per form ---------------------------


def read(text):
    """The lines as a judge would read them: (section, card or written name, count)."""
    result = parse_list(text, POOL)
    assert result.ok, result.errors
    return [
        (line.section, line.card.name if line.card else f"?{line.written_name}", line.count)
        for line in result.lines
    ]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # The count after the name.
        ("Вампир - 3", ("Вампир", 3)),
        ("Вампир — 3", ("Вампир", 3)),
        ("Вампир – 3", ("Вампир", 3)),
        ("Вампир: 3", ("Вампир", 3)),
        ("Вампир (3)", ("Вампир", 3)),
        ("Вампир [3]", ("Вампир", 3)),
        ("Вампир 3", ("Вампир", 3)),
        ("Вампир\t3", ("Вампир", 3)),
        ("3\tВампир", ("Вампир", 3)),
        ("Вампир;3", ("Вампир", 3)),
        ("Вампир x3", ("Вампир", 3)),
        ("Вампир х3", ("Вампир", 3)),
        ("Вампир 3x", ("Вампир", 3)),
        ("Вампир (x3)", ("Вампир", 3)),
        ("Вампир 3 шт.", ("Вампир", 3)),
        ("Вампир - 3 шт", ("Вампир", 3)),
        ("Вампир 3 копии", ("Вампир", 3)),
        # The count before the name.
        ("3 шт. Вампир", ("Вампир", 3)),
        ("3шт Вампир", ("Вампир", 3)),
        ("3x Вампир", ("Вампир", 3)),
        ("3х Вампир", ("Вампир", 3)),
        ("x3 Вампир", ("Вампир", 3)),
        ("3 - Вампир", ("Вампир", 3)),
        # Russian plurals and cases of the pool's names.
        ("3 Вампира", ("Вампир", 3)),
        ("2 Шара смерти", ("Шар смерти", 2)),
        ("3 Вайла", ("Вайл", 3)),
        ("2 Лесных феи", ("Лесная фея", 2)),
        ("5 Гоблинов-налётчиков", ("Гоблин-налётчик", 5)),
        ("Вампиры - 2", ("Вампир", 2)),
        # Numbered lists: the list number is never the count.
        ("1. Вампир 3", ("Вампир", 3)),
        ("1) 3x Вампир", ("Вампир", 3)),
        ("12. Шар смерти - 2", ("Шар смерти", 2)),
        ("1. Вампир", ("Вампир", None)),
        ("2. Самоход", ("Самоход", None)),
        # Set and collector numbers are set aside.
        ("3 Вампир (14-29)", ("Вампир", 3)),
        ("3 Вампир [ЛГ 14]", ("Вампир", 3)),
        ("Вампир 3 (14-29)", ("Вампир", 3)),
        ("Вампир (14-29)", ("Вампир", None)),
        # Bullets, invisible characters, odd spaces.
        ("- 3 Вампир", ("Вампир", 3)),
        ("• Вампир - 3", ("Вампир", 3)),
        ("\ufeff3 Вампир", ("Вампир", 3)),
        ("3\u00a0Вампир\u200b", ("Вампир", 3)),
        ("3 Вам\u00adпир", ("Вампир", 3)),
        # Numbers written as words: a line without a number of copies (1.1 г).
        ("три Вампира", ("Вампир", None)),
        ("Вампир - три", ("Вампир", None)),
        # Dot leaders, quotes, inline comments, a Latin letter typed in a Cyrillic word.
        ("Вампир....3", ("Вампир", 3)),
        ("Вампир . . . 3", ("Вампир", 3)),
        ("«Вампир» 3", ("Вампир", 3)),
        ('3 "Вампир"', ("Вампир", 3)),
        ("3 Вампир // топ карта", ("Вампир", 3)),
        ("3 Вампир # комментарий", ("Вампир", 3)),
        ("3 Самоходa", ("Самоход", 3)),
        ("3 × Вампир", ("Вампир", 3)),
        ("3* Вампир", ("Вампир", 3)),
        # A card whose name begins with a number word is that card.
        ("2 Три богатыря", ("Три богатыря", 2)),
        ("Три богатыря", ("Три богатыря", None)),
    ],
)
def test_every_form_of_a_card_line(line, expected):
    assert read("3 Самоход\n" + line)[1:] == [(MAIN, *expected)]


@pytest.mark.parametrize(
    ("line", "word", "numbered"),
    [("три Вампира", "три", False), ("Вампир - три", "три", False), ("1. Вампир", "", True)],
)
def test_how_a_line_without_a_count_was_written_is_kept(line, word, numbered):
    (parsed,) = parse_list(line, POOL).lines
    assert (parsed.count, parsed.count_word, parsed.numbered) == (None, word, numbered)


@pytest.mark.parametrize(
    ("header", "section", "stated"),
    [
        ("Сайд:", EXTRA, None),
        ("Сайд", EXTRA, None),
        ("Сайдборд (10)", EXTRA, 10),
        ("Сайдборд: 10", EXTRA, 10),
        ("Sideboard:", EXTRA, None),
        ("Доп. колода - 10 карт", EXTRA, 10),
        ("Дополнительная колода:", EXTRA, None),
        ("Main deck:", MAIN, None),
        ("Основа (40)", MAIN, 40),
        ("Основная колода: 40 карт", MAIN, 40),
        ("ОСНОВНАЯ КОЛОДА", MAIN, None),
        ("Колода:", MAIN, None),
        ("Основная колода (40 карт):", MAIN, 40),
        ("Сайд (10):", EXTRA, 10),
        ("Side (5):", EXTRA, 5),
        ("Доп:", EXTRA, None),
    ],
)
def test_headers_start_the_main_or_the_extra_deck(header, section, stated):
    # The list opens in the other section, so the header must switch it.
    opening = "Сайд:" if section == MAIN else "Main deck:"
    result = parse_list(f"{opening}\n3 Вампир\n{header}\n2 Самоход", POOL)
    assert result.ok
    assert [(line.section, line.card.name) for line in result.lines][-1] == (section, "Самоход")
    assert result.stated.get(section) == stated


def test_a_whole_list_as_players_paste_it():
    text = (
        "\ufeffИванов Иван\n"
        "Вампиры ночи\n"
        "Герой: Хакодар\n"
        "\n"
        "Основная колода: 40 карт\n"
        "1. Вампир - 3\n"
        "2. 2 Шара смерти\n"
        "// взял у друга\n"
        "# ещё комментарий\n"
        "Комментарий: без Вайлов\n"
        "Сайд:\n"
        "3x Вайл\n"
        "Итого: 50\n"
    )
    result = parse_list(text, POOL)
    assert result.ok and not result.unmatched
    assert (result.player_name, result.deck_name) == ("Иванов Иван", "Вампиры ночи")
    assert (result.hero.number, result.hero.card.name) == (3, "Хакодар")
    assert result.stated == {MAIN: 40, "total": 50}
    assert [(ln.number, ln.section, ln.card.name, ln.count) for ln in result.lines] == [
        (6, MAIN, "Вампир", 3),
        (7, MAIN, "Шар смерти", 2),
        (12, EXTRA, "Вайл", 3),
    ]


@pytest.mark.parametrize(
    ("line", "name"),
    [
        ("Игрок: Петрова Анна", "Петрова Анна"),
        ("Имя - Петрова Анна", "Петрова Анна"),
        ("Player: Anna Petrova", "Anna Petrova"),
    ],
)
def test_a_labelled_player_name(line, name):
    assert parse_list(f"{line}\n3 Вампир", POOL).player_name == name
    assert read(f"{line}\n3 Вампир") == [(MAIN, "Вампир", 3)]


@pytest.mark.parametrize("line", ["Герой: Хакодар", "Герой - Хакодара", "Hero: хакодар"])
def test_a_hero_line_names_the_hero(line):
    result = parse_list(f"{line}\n3 Вампир", POOL)
    assert (result.hero.card.name, result.lines[0].card.name) == ("Хакодар", "Вампир")


def test_a_hero_among_the_cards_leads_the_deck_and_is_not_counted():
    result = parse_list("1 Хакодар\n3 Вампир", POOL)
    assert result.hero.card.name == "Хакодар"
    assert [line.card.name for line in result.lines] == ["Вампир"]


def test_an_unknown_hero_is_pointed_out_with_suggestions():
    result = parse_list("Герой: Хакадар\n3 Вампир", POOL)
    assert result.hero.card is None
    assert [(u.number, u.name, u.suggestions) for u in result.unmatched] == [
        (1, "Хакадар", ["Хакодар"])
    ]


def test_a_misspelt_card_at_the_top_is_a_card_not_a_title():
    result = parse_list("Вампирр\n3 Самоход", POOL)
    assert result.player_name == result.deck_name == ""
    assert [(u.number, u.name, u.suggestions) for u in result.unmatched] == [
        (1, "Вампирр", ["Вампир"])
    ]


def test_a_line_below_the_cards_is_never_a_title():
    result = parse_list("3 Самоход\nКакая-то строка", POOL)
    assert result.deck_name == ""
    assert [u.name for u in result.unmatched] == ["Какая-то строка"]


def test_a_third_line_above_the_cards_is_not_swallowed():
    result = parse_list("Иванов Иван\nКолода мечты\nЧто-то ещё\n3 Самоход", POOL)
    assert (result.player_name, result.deck_name) == ("Иванов Иван", "Колода мечты")
    assert [u.name for u in result.unmatched] == ["Что-то ещё"]


def test_a_card_named_like_a_header_is_a_card():
    pool = PoolIndex.of([CardInfo(1, "Основа")])
    result = parse_list("3 Основа\nОснова - 2\nОснова (1)", pool)
    assert [(line.section, line.card.name, line.count) for line in result.lines] == [
        (MAIN, "Основа", 3),
        (MAIN, "Основа", 2),
        (MAIN, "Основа", 1),
    ]


def test_two_cards_a_word_form_could_be_are_never_chosen_between():
    pool = PoolIndex.of([CardInfo(1, "Страж"), CardInfo(2, "Стража")])
    result = parse_list("2 Стражи", pool)
    assert result.lines[0].card is None
    assert sorted(result.unmatched[0].suggestions) == ["Страж", "Стража"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("3 Вампир 2", "two numbers on one line: which is the count?"),
        ("Вампир\t3\t2", "two numbers on one line: which is the count?"),
        ("Итого: много", "a total needs a number: “много”"),
        ("Герой:", "the hero line names no hero"),
        ("40", "a number of copies needs a card name after it"),
    ],
)
def test_what_cannot_be_read_is_said_with_its_line(text, message):
    with translation.override("en"):
        result = parse_list("3 Самоход\n" + text, POOL)
    assert result.errors == [(2, message)]


def test_invisible_characters_are_removed():
    assert clean_text("\ufeffВам\u200bпир\u00a03") == "Вампир 3"


def test_word_forms_come_from_the_dictionary():
    assert "шар смерть" in lemma_keys("шара смерти")
    assert lemma_keys("a b c d e f g") == frozenset({"a b c d e f g"})


@pytest.mark.parametrize(
    ("line", "person"),
    [("Иванов Иван", True), ("Петрова А.", True), ("Вампиры ночи", False), ("", False)],
)
def test_a_person_is_told_by_the_dictionary(line, person):
    assert looks_like_person(line) is person


def test_a_spreadsheet_s_column_titles_are_not_a_card():
    assert read("Карта\tКоличество\nВампир\t3") == [(MAIN, "Вампир", 3)]
    # One word alone is not a row of titles: a card may bear the name.
    assert read("3 Самоход\nКарта")[1:] == [(MAIN, "?Карта", None)]


def test_a_stated_size_the_lines_do_not_add_up_to_is_noted():
    with translation.override("en"):
        result = parse_list("Основа (40)\n3 Вампир\nСайд:\n2 Самоход\nИтого: 5", POOL)
    assert result.notes == [(0, "The list says 40 in the main deck; its lines add up to 3.")]


@pytest.mark.parametrize("title", ["Dimon228", "12.12.2026", "Петров П. 2026"])
def test_a_nickname_or_a_date_above_the_cards_is_a_title_not_an_error(title):
    result = parse_list(f"{title}\n3 Вампир", POOL)
    assert result.ok, result.errors
    assert title in (result.player_name, result.deck_name)
    assert read(f"{title}\n3 Вампир") == [(MAIN, "Вампир", 3)]


def test_a_bad_count_of_a_known_card_above_the_others_stays_an_error():
    assert [line for line, _m in parse_list("1000 Вампир\n3 Самоход", POOL).errors] == [1]


# --- Whole lists, read field by field (issue 27 item 5) -----------------------------------------


def outcome(text):
    """Everything the reader makes of a list, in English, as plain values."""
    with translation.override("en"):
        result = parse_list(text, POOL)
    return {
        "lines": [
            (
                line.number,
                line.count,
                line.card.name if line.card else line.written_name,
                line.section,
            )
            for line in result.lines
        ],
        "errors": result.errors,
        "unmatched": [(u.number, u.name, u.suggestions) for u in result.unmatched],
        "hero": result.hero
        and (
            result.hero.number,
            result.hero.written_name,
            result.hero.card and result.hero.card.name,
        ),
        "player": result.player_name,
        "deck": result.deck_name,
        "stated": result.stated,
        "notes": result.notes,
    }


WHOLE_LISTS = [
    pytest.param(
        "-1 Вампир",
        {
            "lines": [],
            "errors": [(1, "a number of copies cannot be negative")],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {},
            "notes": [],
        },
        id="a negative count",
    ),
    pytest.param(
        "1.5 Вампир",
        {
            "lines": [],
            "errors": [(1, "the number of copies must be a whole number")],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {},
            "notes": [],
        },
        id="a fractional count",
    ),
    pytest.param(
        "1,5 Вампир",
        {
            "lines": [],
            "errors": [(1, "the number of copies must be a whole number")],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {},
            "notes": [],
        },
        id="a fractional count with a comma",
    ),
    pytest.param(
        "0 Вампир",
        {
            "lines": [],
            "errors": [(1, "a line of 0 copies: leave the card out")],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {},
            "notes": [],
        },
        id="zero copies",
    ),
    pytest.param(
        "60 Вампир",
        {
            "lines": [(1, 60, "Вампир", "main")],
            "errors": [],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {},
            "notes": [],
        },
        id="the most copies a line may hold",
    ),
    pytest.param(
        "61 Вампир",
        {
            "lines": [],
            "errors": [(1, "61 copies is more than any deck holds (at most 60)")],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {},
            "notes": [],
        },
        id="one copy too many",
    ),
    pytest.param(
        "3 Вампир\n-- a comment\n% another",
        {
            "lines": [(1, 3, "Вампир", "main")],
            "errors": [],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {},
            "notes": [],
        },
        id="comment lines",
    ),
    pytest.param(
        "Кол-во;Название\n3;Вампир",
        {
            "lines": [(2, 3, "Вампир", "main")],
            "errors": [],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {},
            "notes": [],
        },
        id="a spreadsheet's two column titles",
    ),
    pytest.param(
        "Колода: Ночные охотники\n3 Вампир",
        {
            "lines": [(2, 3, "Вампир", "main")],
            "errors": [],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "Ночные охотники",
            "stated": {},
            "notes": [],
        },
        id="a deck name in Russian",
    ),
    pytest.param(
        "Deck: Night hunters\n3 Вампир",
        {
            "lines": [(2, 3, "Вампир", "main")],
            "errors": [],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "Night hunters",
            "stated": {},
            "notes": [],
        },
        id="a deck name in English",
    ),
    pytest.param(
        "Основа\n40 карт\n3 Вампир",
        {
            "lines": [(3, 3, "Вампир", "main")],
            "errors": [],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {"main": 40},
            "notes": [(0, "The list says 40 in the main deck; its lines add up to 3.")],
        },
        id="a stated size under a header",
    ),
    pytest.param(
        "Основа\n3 CARDS\n3 Вампир\nДоп. колода\n2 cards\n2 Вайл",
        {
            "lines": [(3, 3, "Вампир", "main"), (6, 2, "Вайл", "extra")],
            "errors": [],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {"main": 3, "extra": 2},
            "notes": [],
        },
        id="stated sizes in English capitals",
    ),
    pytest.param(
        "3 Вампир\nИтого: 5",
        {
            "lines": [(1, 3, "Вампир", "main")],
            "errors": [],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {"total": 5},
            "notes": [(0, "The list says 5 in all; its lines add up to 3.")],
        },
        id="a stated total",
    ),
    pytest.param(
        "Основа (4)\n3 Вампир\nСайд (2)\n1 Вайл\nИтого: 5",
        {
            "lines": [(2, 3, "Вампир", "main"), (4, 1, "Вайл", "extra")],
            "errors": [],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {"main": 4, "extra": 2, "total": 5},
            "notes": [
                (0, "The list says 4 in the main deck; its lines add up to 3."),
                (0, "The list says 2 in the extra deck; its lines add up to 1."),
                (0, "The list says 5 in all; its lines add up to 4."),
            ],
        },
        id="every stated size wrong",
    ),
    pytest.param(
        "3 Вампир\nДоп. колода (3)\n2 Вайл",
        {
            "lines": [(1, 3, "Вампир", "main"), (3, 2, "Вайл", "extra")],
            "errors": [],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {"extra": 3},
            "notes": [(0, "The list says 3 in the extra deck; its lines add up to 2.")],
        },
        id="a wrong extra deck size",
    ),
    pytest.param(
        "Герой:\n3 Вампир",
        {
            "lines": [(2, 3, "Вампир", "main")],
            "errors": [(1, "the hero line names no hero")],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {},
            "notes": [],
        },
        id="an empty hero line",
    ),
    pytest.param(
        "Герой: 12\n3 Вампир",
        {
            "lines": [(2, 3, "Вампир", "main")],
            "errors": [(1, "the hero line names no hero")],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {},
            "notes": [],
        },
        id="a hero line without letters",
    ),
    pytest.param(
        "Герой: Хакодар\n3 Вампир",
        {
            "lines": [(2, 3, "Вампир", "main")],
            "errors": [],
            "unmatched": [],
            "hero": (1, "Хакодар", "Хакодар"),
            "player": "",
            "deck": "",
            "stated": {},
            "notes": [],
        },
        id="a hero line",
    ),
    pytest.param(
        "3 Вампир\n7 ###",
        {
            "lines": [(1, 3, "Вампир", "main")],
            "errors": [(2, "a number of copies needs a card name after it")],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {},
            "notes": [],
        },
        id="a count without a name",
    ),
    pytest.param(
        "3 Вампир\nВмпр",
        {
            "lines": [(1, 3, "Вампир", "main"), (2, None, "Вмпр", "main")],
            "errors": [],
            "unmatched": [(2, "Вмпр", ["Вампир"])],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {},
            "notes": [],
        },
        id="an unknown name below the cards",
    ),
    pytest.param(
        "1 Хакодар\n3 Вампир",
        {
            "lines": [(2, 3, "Вампир", "main")],
            "errors": [],
            "unmatched": [],
            "hero": (1, "Хакодар", "Хакодар"),
            "player": "",
            "deck": "",
            "stated": {},
            "notes": [],
        },
        id="one copy of a hero",
    ),
    pytest.param(
        "2 Хакодар\n3 Вампир",
        {
            "lines": [(1, 2, "Хакодар", "main"), (2, 3, "Вампир", "main")],
            "errors": [],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {},
            "notes": [],
        },
        id="two copies of a hero are cards",
    ),
    pytest.param(
        "Хакодар\n3 Вампир",
        {
            "lines": [(2, 3, "Вампир", "main")],
            "errors": [],
            "unmatched": [],
            "hero": (1, "Хакодар", "Хакодар"),
            "player": "",
            "deck": "",
            "stated": {},
            "notes": [],
        },
        id="a hero without a count",
    ),
    pytest.param(
        "Иванов Иван\nНочные охотники\n3 Вампир",
        {
            "lines": [(3, 3, "Вампир", "main")],
            "errors": [],
            "unmatched": [],
            "hero": None,
            "player": "Иванов Иван",
            "deck": "Ночные охотники",
            "stated": {},
            "notes": [],
        },
        id="a player then a deck name",
    ),
    pytest.param(
        "Ночные охотники\nИванов Иван\n3 Вампир",
        {
            "lines": [(3, 3, "Вампир", "main")],
            "errors": [],
            "unmatched": [],
            "hero": None,
            "player": "Иванов Иван",
            "deck": "Ночные охотники",
            "stated": {},
            "notes": [],
        },
        id="a deck then a player name",
    ),
    pytest.param(
        "Турнир\nНочь\nИванов Иван\n3 Вампир",
        {
            "lines": [(3, None, "Иванов Иван", "main"), (4, 3, "Вампир", "main")],
            "errors": [],
            "unmatched": [(3, "Иванов Иван", [])],
            "hero": None,
            "player": "Ночь",
            "deck": "Турнир",
            "stated": {},
            "notes": [],
        },
        id="a third line above the cards",
    ),
    pytest.param(
        "# only a comment",
        {
            "lines": [],
            "errors": [(0, "The list has no cards.")],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {},
            "notes": [],
        },
        id="no cards",
    ),
    pytest.param(
        "3; Вампир; 12",
        {
            "lines": [],
            "errors": [(1, "two numbers on one line: which is the count?")],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {},
            "notes": [],
        },
        id="two numbers in cells",
    ),
    pytest.param(
        "Вампир;3",
        {
            "lines": [(1, 3, "Вампир", "main")],
            "errors": [],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {},
            "notes": [],
        },
        id="the count in the second cell",
    ),
    pytest.param(
        "3 Вампира\n2 Самохода",
        {
            "lines": [(1, 3, "Вампир", "main"), (2, 2, "Самоход", "main")],
            "errors": [],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {},
            "notes": [],
        },
        id="word forms",
    ),
    pytest.param(
        "3 Вмп",
        {
            "lines": [(1, 3, "Вмп", "main")],
            "errors": [],
            "unmatched": [(1, "Вмп", ["Вампир"])],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {},
            "notes": [],
        },
        id="a short unknown name",
    ),
    pytest.param(
        "3 Вай",
        {
            "lines": [(1, 3, "Вай", "main")],
            "errors": [],
            "unmatched": [(1, "Вай", ["Вайл"])],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {},
            "notes": [],
        },
        id="a three-letter unknown name",
    ),
    pytest.param(
        "3 Вайлл",
        {
            "lines": [(1, 3, "Вайлл", "main")],
            "errors": [],
            "unmatched": [(1, "Вайлл", ["Вайл"])],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {},
            "notes": [],
        },
        id="a misspelt name",
    ),
    pytest.param(
        "3 Вампир\n@@@",
        {
            "lines": [(1, 3, "Вампир", "main")],
            "errors": [(2, "this is not a card line: “@@@”")],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {},
            "notes": [],
        },
        id="a line without letters below the cards",
    ),
    pytest.param(
        "@@@\n3 Вампир",
        {
            "lines": [(2, 3, "Вампир", "main")],
            "errors": [],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "@@@",
            "stated": {},
            "notes": [],
        },
        id="a line without letters above the cards",
    ),
    pytest.param(
        "3; Слон; 12\n3 Вампир",
        {
            "lines": [(2, 3, "Вампир", "main")],
            "errors": [],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "3; Слон; 12",
            "stated": {},
            "notes": [],
        },
        id="two numbers above the cards",
    ),
    pytest.param(
        "-1 Слон\n3 Вампир",
        {
            "lines": [(2, 3, "Вампир", "main")],
            "errors": [],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "-1 Слон",
            "stated": {},
            "notes": [],
        },
        id="a bad count of an unknown name above the cards",
    ),
    pytest.param(
        "3 Вампир\nИтого 3",
        {
            "lines": [(1, 3, "Вампир", "main")],
            "errors": [],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {"total": 3},
            "notes": [],
        },
        id="a total without a colon",
    ),
    pytest.param(
        "3 Вампир\nTotal (3)",
        {
            "lines": [(1, 3, "Вампир", "main")],
            "errors": [],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {"total": 3},
            "notes": [],
        },
        id="a total in English brackets",
    ),
    pytest.param(
        "Игрок: Иванов Иван\nКолода: Ночь\nЗелёный слон\n3 Вампир",
        {
            "lines": [(3, None, "Зелёный слон", "main"), (4, 3, "Вампир", "main")],
            "errors": [],
            "unmatched": [(3, "Зелёный слон", [])],
            "hero": None,
            "player": "Иванов Иван",
            "deck": "Ночь",
            "stated": {},
            "notes": [],
        },
        id="a line above the cards once both names are given",
    ),
    pytest.param(
        "3 Вампир\n40 КАРТ",
        {
            "lines": [(1, 3, "Вампир", "main")],
            "errors": [],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {"main": 40},
            "notes": [(0, "The list says 40 in the main deck; its lines add up to 3.")],
        },
        id="a stated size in capitals",
    ),
    pytest.param(
        "3;Вампир;Демо",
        {
            "lines": [(1, 3, "Вампир Демо", "main")],
            "errors": [],
            "unmatched": [(1, "Вампир Демо", ["Вампир"])],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {},
            "notes": [],
        },
        id="three cells",
    ),
    pytest.param(
        "3;Шар;смерти",
        {
            "lines": [(1, 3, "Шар смерти", "main")],
            "errors": [],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {},
            "notes": [],
        },
        id="a name over two cells",
    ),
    pytest.param(
        "Вампир (12-29)",
        {
            "lines": [(1, None, "Вампир", "main")],
            "errors": [],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {},
            "notes": [],
        },
        id="a collector number",
    ),
    pytest.param(
        "3 Вампир (12-29)",
        {
            "lines": [(1, 3, "Вампир", "main")],
            "errors": [],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {},
            "notes": [],
        },
        id="a count and a collector number",
    ),
    pytest.param(
        "Вампир (3)",
        {
            "lines": [(1, 3, "Вампир", "main")],
            "errors": [],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {},
            "notes": [],
        },
        id="a count in brackets",
    ),
    pytest.param(
        "3 Вампир - ",
        {
            "lines": [(1, 3, "Вампир", "main")],
            "errors": [],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {},
            "notes": [],
        },
        id="a trailing dash",
    ),
    pytest.param(
        "- 3 Вампир",
        {
            "lines": [(1, 3, "Вампир", "main")],
            "errors": [],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {},
            "notes": [],
        },
        id="a bullet",
    ),
    pytest.param(
        "Основа: 40 карт\n3 Вампир",
        {
            "lines": [(2, 3, "Вампир", "main")],
            "errors": [],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {"main": 40},
            "notes": [(0, "The list says 40 in the main deck; its lines add up to 3.")],
        },
        id="a labelled header",
    ),
    pytest.param(
        "3 Вампир\n3 Xenon",
        {
            "lines": [(1, 3, "Вампир", "main"), (2, 3, "Xenon", "main")],
            "errors": [],
            "unmatched": [(2, "Xenon", [])],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {},
            "notes": [],
        },
        id="a Latin name",
    ),
    pytest.param(
        "3 Вампир\nXenon 3",
        {
            "lines": [(1, 3, "Вампир", "main"), (2, 3, "Xenon", "main")],
            "errors": [],
            "unmatched": [(2, "Xenon", [])],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {},
            "notes": [],
        },
        id="a Latin name before its count",
    ),
    pytest.param(
        "7 ###\n3 Вампир",
        {
            "lines": [(2, 3, "Вампир", "main")],
            "errors": [],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "7",
            "stated": {},
            "notes": [],
        },
        id="a count without a name above the cards",
    ),
    pytest.param(
        "Название: Ночь\n3 Вампир",
        {
            "lines": [(2, 3, "Вампир", "main")],
            "errors": [],
            "unmatched": [],
            "hero": None,
            "player": "",
            "deck": "Ночь",
            "stated": {},
            "notes": [],
        },
        id="a labelled deck name",
    ),
    pytest.param(
        "3 Вампир\n3 Вампир X",
        {
            "lines": [(1, 3, "Вампир", "main"), (2, 3, "Вампир X", "main")],
            "errors": [],
            "unmatched": [(2, "Вампир X", ["Вампир"])],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {},
            "notes": [],
        },
        id="a name ending in a Latin letter",
    ),
    pytest.param(
        "3 Вампир\n2 XX-Вампир",
        {
            "lines": [(1, 3, "Вампир", "main"), (2, 2, "XX-Вампир", "main")],
            "errors": [],
            "unmatched": [(2, "XX-Вампир", ["Вампир"])],
            "hero": None,
            "player": "",
            "deck": "",
            "stated": {},
            "notes": [],
        },
        id="a name starting with Latin letters",
    ),
]


@pytest.mark.parametrize(("text", "expected"), WHOLE_LISTS)
def test_whole_lists_field_by_field(text, expected):
    assert outcome(text) == expected


def test_a_line_of_exactly_the_longest_length_is_read():
    name = "я" * 198
    assert outcome("3 " + name)["errors"] == []
    assert outcome("3 " + name)["unmatched"] == [(1, name, [])]


def test_a_line_one_character_too_long_is_refused():
    assert outcome("3 " + "я" * 199)["errors"] == [(1, "The line is longer than 200 characters.")]


def test_the_most_lines_a_list_may_have_are_read():
    assert outcome("1 Вампир\n" * MAX_LINES)["errors"] == []


def test_one_line_too_many_is_refused_with_its_count():
    assert outcome("1 Вампир\n" * (MAX_LINES + 1))["errors"] == [
        (0, f"The list has {MAX_LINES + 1} lines; a deck list has at most {MAX_LINES}.")
    ]


def test_an_empty_feature_is_no_feature():
    assert not CardInfo(1, "Гоблин", frozenset({"Орда"})).has_feature("")
    assert CardInfo(1, "Гоблин", frozenset({"Орда"})).has_feature("орда")


def test_a_list_found_at_a_deck_check_has_no_titles():
    with translation.override("en"):
        result = parse_list("Иванов Иван\n3 Вампир", POOL, titles=False)

    assert (result.player_name, result.deck_name) == ("", "")
    assert [(u.number, u.name) for u in result.unmatched] == [(1, "Иванов Иван")]
    assert [line.written_name for line in result.lines] == ["Иванов Иван", "Вампир"]


@pytest.mark.parametrize(
    ("name", "suggestions"), [("", []), ("в", []), ("ва", ["Вайл"]), ("вай", ["Вайл"])]
)
def test_suggestions_for_short_names(name, suggestions):
    assert POOL.suggest(name) == suggestions


def test_a_name_written_as_a_card_is_that_card_even_when_another_card_shares_its_word_forms():
    # «Вампиры» reads as «вампир» too, so only the exact name tells the two cards apart; a form
    # that could be either («Вампира») is never chosen between.
    pool = PoolIndex.of([CardInfo(1, "Вампир"), CardInfo(2, "Вампиры")])
    result = parse_list("3 Вампир\n2 Вампиры\n1 Вампира", pool)
    assert [(line.written_name, line.card and line.card.name) for line in result.lines] == [
        ("Вампир", "Вампир"),
        ("Вампиры", "Вампиры"),
        ("Вампира", None),
    ]
    assert [(u.number, u.name, u.suggestions) for u in result.unmatched] == [
        (3, "Вампира", ["Вампир", "Вампиры"])
    ]


def test_cards_a_word_form_reads_as_are_suggested_even_when_spelt_nothing_alike():
    # «Людей» is a form of «человек», so both cards that read so are suggested, «Человек» though
    # it shares no letters with what was written.
    pool = PoolIndex.of([CardInfo(1, "Человек"), CardInfo(2, "Люди")])
    assert [(u.number, u.name, u.suggestions) for u in parse_list("2 Людей", pool).unmatched] == [
        (1, "Людей", ["Люди", "Человек"])
    ]


def test_a_name_of_three_letters_is_suggested_the_cards_it_begins():
    # «Гоб» is too short for difflib to find «Гоблин-налётчик»; three letters are enough to
    # suggest the cards it begins.
    assert outcome("3 Самоход\n2 Гоб")["unmatched"] == [(2, "Гоб", ["Гоблин-налётчик"])]


@pytest.mark.parametrize(
    ("row", "line", "errors"),
    [
        # Two cells of text: one name split across the cells, without a count.
        ("Лесная\tфея", (2, None, "Лесная фея", MAIN), []),
        # A count cell with its unit.
        ("Вампир\t3 шт", (2, 3, "Вампир", MAIN), []),
        ("Вампир;3 шт.", (2, 3, "Вампир", MAIN), []),
        # A cell holding a negative number is that number, not a dash before a count.
        ("Вампир\t-3", None, [(2, "a number of copies cannot be negative")]),
    ],
)
def test_a_spreadsheet_row_of_two_cells(row, line, errors):
    result = outcome("3 Самоход\n" + row)
    assert result["lines"][1:] == ([line] if line else [])
    assert result["errors"] == errors
    assert result["unmatched"] == []


def test_a_name_is_kept_without_the_dashes_and_dots_around_it():
    result = parse_list("3 Вампир.\n2 — Хищник —\nСамоход - 2.", POOL)
    assert [(line.written_name, line.count) for line in result.lines] == [
        ("Вампир", 3),
        ("Хищник", 2),
        ("Самоход", 2),
    ]


def test_a_bracketed_number_after_a_count_and_a_name_is_a_collector_number():
    assert read("3 Самоход\n3 Вампир (14)")[1:] == [(MAIN, "Вампир", 3)]
