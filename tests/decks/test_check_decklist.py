"""``check_decklist``: one list against a pool file, through the app's reader and checks, with
the exact JSON organisers' scripts read. One row per form of issue 28."""

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

# A deck builder's export: extra columns (Класс, Стоимость) are ignored, columns in any order.
POOL = """Стоимость;Название;Стихия;Класс;Тип;Особенности;Выпуск;Запрещена в
3;Вампир;Тьма;Воин;Существо;;Демо;
2;Самоход;Нейтральная;;Существо;;Демо;
4;Шар смерти;Тьма;;Заклинание;;Демо;Стандарт
2;Вайл;Лес;;Существо;;Демо;
1;Гоблин-налётчик;Тьма;;Существо;Орда;Демо;
0;Хакодар;Тьма;;Герой;;Демо;
""" + "".join(f"1;Тень {n};Тьма;;Существо;;Демо;\n" for n in range(1, 13))
FILLER = "".join(f"3 Тень {n}\n" for n in range(1, 13))  # 36 cards


def check(tmp_path, text, fmt="Констрактед", *, encoding="utf-8", pool=POOL):
    (tmp_path / "pool.csv").write_text(pool, encoding="utf-8")
    (tmp_path / "list.txt").write_bytes(text.encode(encoding))
    out = StringIO()
    call_command(
        "check_decklist",
        str(tmp_path / "list.txt"),
        pool=str(tmp_path / "pool.csv"),
        format=fmt,
        json=True,
        stdout=out,
    )
    return json.loads(out.getvalue())


CLEAN = {"findings": [], "unmatched": [], "refused": None}


@pytest.mark.parametrize(
    "line",
    [
        "3 Вампир",
        "Вампир - 3",
        "Вампир — 3",
        "Вампир: 3",
        "Вампир (3)",
        "Вампир 3",
        "Вампир\t3",
        "3 шт. Вампир",
        "Вампир 3 шт.",
        "3x Вампир",
        "3х Вампир",
        "3 Вампира",
        "1. Вампир 3",
        "1) 3x Вампир",
        "3 Вампир (14-29)",
        "\u200b3 Вампир\u200b",
    ],
)
def test_every_form_of_a_card_line_reads_as_a_judge_would(db, tmp_path, line):
    assert check(tmp_path, f"{FILLER}{line}\n1 Самоход\n") == CLEAN


@pytest.mark.parametrize(
    "layout",
    [
        "{main}Сайд:\n{extra}",
        "{main}Сайдборд (3)\n{extra}",
        "Основа (40)\n{main}Сайдборд (3)\n{extra}",
        "Main deck:\n{main}Sideboard:\n{extra}",
        "Основная колода: 40 карт\n{main}Дополнительная колода:\n{extra}",
        "Иванов Иван\nВампиры ночи\n{main}Сайд:\n{extra}Итого: 43\n",
        "# мой список\n// черновик\n{main}\nСайд:\n{extra}",
        "\ufeffИгрок: Иванов Иван\n{main}Сайд:\n{extra}",
    ],
)
def test_headers_titles_totals_and_comments_are_not_cards(db, tmp_path, layout):
    text = layout.format(main=f"{FILLER}3 Вампир\n1 Самоход\n", extra="3 Гоблин-налётчик\n")
    assert check(tmp_path, text) == CLEAN


def test_a_list_saved_by_a_word_processor_in_utf16(db, tmp_path):
    assert check(tmp_path, f"{FILLER}3 Вампир\r\n1 Самоход\r\n", encoding="utf-16") == CLEAN


def test_the_extra_deck_is_not_merged_into_the_main_deck(db, tmp_path):
    # Before issue 28, «Сайд» was an unknown card and its lines went to the main deck (43 cards).
    result = check(tmp_path, f"{FILLER}3 Вампир\n1 Самоход\nСайд:\n3 Шар смерти\n")
    assert result == CLEAN


def test_an_eleven_card_extra_deck_is_1_1_b(db, tmp_path):
    extra = "6 Гоблин-налётчик\n3 Шар смерти\n2 Самоход\n"
    result = check(tmp_path, f"{FILLER}3 Вампир\n1 Самоход\nСайд:\n{extra}")
    assert result["findings"] == [
        {
            "sub_item": "1.1 б",
            "text": "В дополнительной колоде по дек-листу 11 карт; допускается не больше 10.",
        },
    ]


def test_copies_over_the_limit_across_main_and_extra_deck_are_1_1_e_not_d(db, tmp_path):
    result = check(tmp_path, f"{FILLER}3 Вампир\n1 Самоход\nСайд:\n1 Вампир\n")
    assert result == {
        "findings": [
            {
                "sub_item": "1.1 е",
                "text": "Вампир: 3 в основной и 1 в дополнительной колоде, вместе 4 копии; "
                "допускается не больше 3.",
            }
        ],
        "unmatched": [],
        "refused": None,
    }


@pytest.mark.parametrize(
    ("count", "words"),
    [(4, "4 копии"), (5, "5 копий"), (11, "11 копий"), (21, "21 копия"), (22, "22 копии")],
)
def test_copies_over_the_limit_in_one_deck_are_1_1_d_in_russian_plurals(db, tmp_path, count, words):
    result = check(tmp_path, f"{FILLER}{count} Вампир\n1 Самоход\n")
    assert result["findings"][-1] == {
        "sub_item": "1.1 д",
        "text": f"Вампир: {words} в основной колоде; допускается не больше 3.",
    }


def test_a_list_number_is_not_a_count_but_1_1_g(db, tmp_path):
    result = check(tmp_path, f"{FILLER}3 Вампир\n1. Самоход\n")
    assert result["findings"] == [
        {
            "sub_item": "1.1 г",
            "text": "Строка 14: Самоход — у строки есть номер по списку, но не указано количество "
            "копий; номер строки — не количество.",
        }
    ]
    assert result["unmatched"] == []


def test_numbers_written_as_words_are_1_1_g(db, tmp_path):
    result = check(tmp_path, f"{FILLER}три Вампира\n1 Самоход\n")
    assert result["findings"] == [
        {
            "sub_item": "1.1 г",
            "text": "Строка 13: количество копий карты Вампир написано словами («три»), а не "
            "цифрами.",
        }
    ]


def test_a_hero_s_list_with_a_card_of_another_element_is_1_1_d(db, tmp_path):
    result = check(tmp_path, f"Герой: Хакодар\n{FILLER}3 Вампир\n1 Вайл\nСайд:\n2 Самоход\n")
    assert result["findings"] == [
        {
            "sub_item": "1.1 д",
            "text": "Карты не стихии героя (Хакодар: Тьма) и не нейтральные: Вайл.",
        }
    ]


def test_the_draft_format_has_no_hero_rule(db, tmp_path):
    result = check(tmp_path, f"Герой: Хакодар\n{FILLER}3 Вампир\n1 Вайл\n", fmt="draft")
    assert result == CLEAN


def test_a_card_banned_in_the_format_is_1_1_v(db, tmp_path):
    result = check(tmp_path, f"{FILLER}3 Шара смерти\n1 Самоход\n", fmt="standard")
    assert result["findings"] == [
        {"sub_item": "1.1 в", "text": "Шар смерти: карта недопустима в формате Стандарт."}
    ]


def test_names_not_in_the_pool_are_listed_never_guessed(db, tmp_path):
    result = check(tmp_path, f"{FILLER}3 Вампирр\n1 Самоход\nГерой: Хакадар\n")
    assert result["unmatched"] == ["Вампирр", "Хакадар"]
    assert [f["sub_item"] for f in result["findings"]] == ["1.4 а"]


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        ("", "Дек-лист не прочитать: В дек-листе нет карт."),
        (
            f"{FILLER}-3 Вампир\n",
            "Дек-лист не прочитать: строка 13: количество копий не может быть отрицательным",
        ),
    ],
)
def test_a_list_that_cannot_be_read_is_refused_with_why(db, tmp_path, text, refused):
    result = check(tmp_path, text)
    assert result == {"findings": [], "unmatched": [], "refused": refused}


def test_a_binary_file_is_refused(db, tmp_path):
    (tmp_path / "pool.csv").write_text(POOL, encoding="utf-8")
    (tmp_path / "list.bin").write_bytes(b"\x00\x01\x02")
    out = StringIO()
    call_command(
        "check_decklist",
        str(tmp_path / "list.bin"),
        pool=str(tmp_path / "pool.csv"),
        format="constructed",
        json=True,
        stdout=out,
    )
    assert json.loads(out.getvalue())["refused"] == "Это не текстовый файл."


def test_an_unknown_format_or_a_bad_pool_stops_the_command(db, tmp_path):
    with pytest.raises(CommandError, match="Неизвестный формат «Модерн»"):
        check(tmp_path, "3 Вампир", fmt="Модерн")
    with pytest.raises(CommandError, match="Файл пула, строка 3: Неизвестный формат"):
        check(tmp_path, "3 Вампир", pool="название;запрещена в\nВампир;\nВайл;Модерн\n")


def test_without_json_the_findings_are_lines_of_text(db, tmp_path):
    (tmp_path / "pool.csv").write_text(POOL, encoding="utf-8")
    (tmp_path / "list.txt").write_text(f"{FILLER}3 Вампир\n1 Самоход\n", encoding="utf-8")
    out = StringIO()
    call_command(
        "check_decklist",
        str(tmp_path / "list.txt"),
        pool=str(tmp_path / "pool.csv"),
        format="Констрактед",
        stdout=out,
    )
    assert out.getvalue() == "Дек-лист верный.\n"


@pytest.mark.parametrize("name", ["standard", "Стандарт", "СТАНДАРТ", "Констрактед: Стандарт"])
def test_the_format_is_found_by_slug_or_name_in_any_case(db, tmp_path, name):
    result = check(tmp_path, f"{FILLER}3 Шар смерти\n1 Самоход\n", fmt=name)
    assert [f["sub_item"] for f in result["findings"]] == ["1.1 в"]
