"""The playoff in the whole report (issues 32 and the follow-up): the workbook of every section
and the printed report carry the final standings and the playoff's matches."""

import io

import openpyxl
import pytest
from django.urls import reverse

from tests.federation.events import playoff_event
from tests.judging.test_report import body
from tournaments.models import PlayoffSeed


@pytest.fixture
def regional(db):
    desk = playoff_event()
    names = {
        seed.seed: seed.registration.player.name
        for seed in PlayoffSeed.objects.filter(tournament=desk.tournament).select_related(
            "registration__player"
        )
    }
    return desk, names


def test_the_whole_workbook_holds_the_playoff_sheets(client, regional):
    desk, names = regional
    client.force_login(desk.organiser)
    response = client.get(
        reverse("judging:report-export", args=[desk.tournament.slug, "report", "xlsx"])
    )
    assert response.status_code == 200
    workbook = openpyxl.load_workbook(io.BytesIO(body(response)), read_only=True)
    assert {"Итоговая турнирная таблица", "Матчи плей-офф"} <= set(workbook.sheetnames)

    standings = [row for row in workbook["Итоговая турнирная таблица"].values]
    assert [(row[0], row[1], row[3], row[4]) for row in standings[1:3]] == [
        (1, names[3], 3, "Чемпион"),
        (2, names[1], 1, "Финалист"),
    ]
    assert len(standings) == 1 + 8  # the cut, then everyone else in the Swiss order
    # A row's empty last cell (no level games to decide) is not written.
    matches = [(*row, None)[:8] for row in workbook["Матчи плей-офф"].values][1:]
    assert [(row[0], row[2], row[3], row[4], row[5], row[7]) for row in matches] == [
        ("Полуфиналы", names[1], names[4], "2–0", names[1], None),
        ("Полуфиналы", names[2], names[3], "1–1", names[3], "дополнительная партия"),
        ("Финал", names[1], names[3], "1–2", names[3], None),
    ]


def test_the_printed_report_holds_the_playoff_sections_whole(client, regional):
    desk, names = regional
    client.force_login(desk.head)
    page = body(
        client.get(reverse("judging:report", args=[desk.tournament.slug]), {"all": "1"})
    ).decode()
    standings = page[page.index('id="report-final-standings"') :]
    standings = standings[: standings.index("</table>")]
    assert standings.count("<tr>") == 1 + 4
    assert f"<td>{names[3]}</td>" in standings and "Чемпион" in standings
    assert 'id="report-playoff-matches"' in page
    assert "дополнительная партия" in page
