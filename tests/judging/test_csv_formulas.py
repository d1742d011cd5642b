"""No cell of the CSV export starts with a formula character, whether a spreadsheet splits it on
commas or on semicolons (Russian Excel's default)."""

import csv
import io

import pytest
from django.urls import reverse

from judging.report import Column, Table, csv_pieces, neutralise_formulas
from players.models import Player

FORMULA = ("=", "+", "-", "@", "\t", "\r")
NASTY = [
    "=1+1",
    "Иван;=1+1",
    'Иван,=HYPERLINK("http://x")',
    "Иван; =1+1",
    'Иван;"=1+1',
    "Иван;'=1+1",
    "a\n=1+1",
    "a\r\n@SUM(A1)",
    "+7 999",
    "-2",
    "\t=1",
    "Иван;;;-1",
    "x,y;z",
    "Пётр Иванов",
]


def cells(text: str, separator: str) -> list[str]:
    """Every cell as a spreadsheet reading with this separator sees it: with the CSV quoting
    rules, and also split naively (a program that ignores quotes)."""
    found = [cell for row in csv.reader(io.StringIO(text), delimiter=separator) for cell in row]
    for line in text.splitlines():
        found += line.split(separator)
    return found


def starts_a_formula(cell: str) -> bool:
    text = cell.lstrip('\ufeff"')
    if text.startswith("'"):
        return False  # an apostrophe makes the cell text
    try:
        float(text)
    except ValueError:
        return text[:1] in ("\t", "\r") or text.lstrip(" ")[:1] in ("=", "+", "-", "@")
    return False  # a number is a number, not a formula


@pytest.mark.parametrize("separator", [",", ";"])
def test_no_cell_starts_with_a_formula_character(separator):
    table = Table(
        title="t",
        columns=[Column("name"), Column("note"), Column("count")],
        rows=[[value, value, -3] for value in NASTY],
    )
    text = b"".join(csv_pieces(table)).decode("utf-8")

    bad = [cell for cell in cells(text, separator) if starts_a_formula(cell)]

    assert bad == []


def test_the_text_is_kept_with_an_apostrophe_before_each_formula_start():
    assert neutralise_formulas("Иван;=1+1") == "Иван;'=1+1"
    assert neutralise_formulas("=1+1") == "'=1+1"
    assert neutralise_formulas("Иван; =1") == "Иван;' =1"
    assert neutralise_formulas('Иван;"=1') == "Иван;\"'=1"
    assert neutralise_formulas("\t=1") == "'\t=1"
    assert neutralise_formulas("Пётр Иванов-Петров") == "Пётр Иванов-Петров"
    assert neutralise_formulas("x,y;z") == "x,y;z"


def test_the_penalties_export_guards_a_players_name(client, desk):
    Player.objects.filter(pk=desk.players[0].player_id).update(name="Иван;=1+1")
    desk.pair((0, 1), (2, 3))
    desk.issue(0, "1.1")
    client.force_login(desk.head)

    response = client.get(
        reverse("judging:report-export", args=[desk.tournament.slug, "penalties", "csv"])
    )
    text = b"".join(response.streaming_content).decode("utf-8")

    assert "Иван;'=1+1" in text
    for separator in (",", ";"):
        assert not [cell for cell in cells(text, separator) if starts_a_formula(cell)]
