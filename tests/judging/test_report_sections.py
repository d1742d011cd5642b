"""Another app's part of the judge report: on the page, on paper and as CSV and XLSX."""

import csv
import io
from pathlib import Path

import openpyxl
import pytest
from django.urls import reverse

from judging.report import Column, ReportSection, Table, register_section
from judging.report import sections as report_sections


def read_seats(*, tournament, whole):
    rows = [[number, f"seat {number}"] for number in range(1, 121)]
    return {
        "tournament_name": tournament.name,
        "rows": rows if whole else rows[:50],
        "whole": whole,
    }


def seats_table(*, tournament):
    return Table(
        title="Seats",
        columns=[Column("#"), Column("Seat")],
        rows=iter(read_seats(tournament=tournament, whole=True)["rows"]),
    )


@pytest.fixture
def seats_section(settings, monkeypatch):
    settings.TEMPLATES = [
        {
            **settings.TEMPLATES[0],
            "DIRS": [*settings.TEMPLATES[0]["DIRS"], Path(__file__).parent.parent / "templates"],
        }
    ]
    monkeypatch.setattr(report_sections, "_sections", {})
    register_section(
        ReportSection(
            key="seats",
            title="Seats",
            template="tests/report_section.html",
            read=read_seats,
            table=seats_table,
        )
    )


def report_url(desk, *args):
    name = "judging:report-export" if args else "judging:report"
    return reverse(name, args=[desk.tournament.slug, *args])


def test_an_added_section_shows_a_page_of_it_on_screen_and_all_of_it_to_print(
    client, desk, seats_section
):
    client.force_login(desk.organiser)

    on_screen = b"".join(client.get(report_url(desk)).streaming_content).decode()
    printed = b"".join(client.get(report_url(desk), {"all": "1"}).streaming_content).decode()

    assert '<section id="report-seats"><h2>Seats</h2>' in on_screen
    assert f"{desk.tournament.name}: 50 seats" in on_screen
    assert f"{desk.tournament.name}: 120 seats" in printed
    assert f'href="{report_url(desk, "seats", "csv")}"' in on_screen


def test_an_added_section_with_a_table_is_exported_as_csv_and_xlsx(client, desk, seats_section):
    client.force_login(desk.organiser)

    as_csv = b"".join(client.get(report_url(desk, "seats", "csv")).streaming_content)
    as_xlsx = b"".join(client.get(report_url(desk, "seats", "xlsx")).streaming_content)

    rows = list(csv.reader(io.StringIO(as_csv.decode("utf-8-sig"))))
    assert rows[0] == ["#", "Seat"] and rows[1] == ["1", "seat 1"] and len(rows) == 121
    sheet = openpyxl.load_workbook(io.BytesIO(as_xlsx)).active
    assert sheet.max_row == 121 and sheet.cell(row=121, column=2).value == "seat 120"


def test_an_unknown_export_is_not_found_and_a_section_cannot_take_a_built_in_name(client, desk):
    client.force_login(desk.organiser)

    assert client.get(report_url(desk, "seats", "csv")).status_code == 404
    with pytest.raises(ValueError):
        register_section(
            ReportSection(key="penalties", title="x", template="x.html", read=read_seats)
        )


def test_the_report_is_read_by_the_organiser_and_head_judge_only(client, desk, seats_section):
    client.force_login(desk.floor)

    assert client.get(report_url(desk, "seats", "csv")).status_code == 403
