"""Golden tests of the report's parts that issue 17 added: the event's head judge and organiser,
the players' answers, the disqualifications' write-ups, the signatures and the "generated at"
line, on the page and in the whole-report workbook.

The expected text lives in ``tests/judging/golden/``; record ids, which differ between databases,
are written there as ``{name}``. ``UPDATE_GOLDEN=1 pytest tests/judging/test_report_rulings.py``
writes the files again from what the report renders now (then read the diff before committing).
"""

import datetime
import io
import os
import re
import uuid
from html.parser import HTMLParser
from pathlib import Path

import openpyxl
import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone

from judging import report, services
from judging.models import (
    InvestigationStatement,
    PenaltyAcknowledgement,
    PenaltyChange,
    PenaltyRecord,
)
from tests.factories import Desk
from tests.judging.test_report import body
from tournaments.models import Level

GOLDEN = Path(__file__).parent / "golden"
GENERATED_AT = timezone.make_aware(datetime.datetime(2026, 12, 5, 19, 30))


def at(hour, minute):
    return timezone.make_aware(datetime.datetime(2026, 12, 5, hour, minute))


class RulingsEvent:
    """A professional event with an acknowledged caution, a refused one, and a floor judge's
    disqualification request that gathered two statements and was confirmed with reasoning."""

    def __init__(self):
        desk = Desk.create(
            players=4,
            name="Кубок Онеги",
            slug="onega-cup",
            venue="Клуб «Причал»",
            level=Level.PROFESSIONAL,
            uses_decklists=True,
            head_judge_is_official=True,
            rounds_planned=3,
        )
        names = ["Анна Белова", "Богдан Рыков", "Варвара Зуева", "Григорий Лаптев"]
        for number, (registration, name) in enumerate(zip(desk.players, names, strict=True)):
            registration.player.name = name
            registration.player.membership_id = f"BH-7000{number + 1}"
            registration.player.save()
        for user, (first, last) in (
            (desk.head, ("Галина", "Главная")),
            (desk.floor, ("Фёдор", "Залов")),
            (desk.organiser, ("Ольга", "Орг")),
        ):
            user.first_name, user.last_name = first, last
            user.save()
        desk.pair((0, 1), (2, 3))
        self.desk = desk
        self.told = desk.issue(2, "1.4", by="floor")
        services.acknowledge_penalty(record=self.told, judge=desk.floor)
        self.refused = desk.issue(3, "1.4", by="floor")
        services.acknowledge_penalty(record=self.refused, judge=desk.floor, declined=True)
        self.dq = desk.issue(0, "6.1", by="floor", note="карта из рукава")
        for role, name, text in (
            ("opponent", "Богдан Рыков", "Он достал карту из рукава,\nпока я смотрел в блокнот."),
            ("player", "Анна Белова", "Это была моя карта из сброса."),
        ):
            services.add_statement(
                record=self.dq,
                judge=desk.floor,
                role=role,
                author_name=name,
                text=text,
                client_key=uuid.uuid4(),
            )
        services.confirm_request(
            record=self.dq,
            head_judge=desk.head,
            reason="Показания соперника совпадают с тем, что видел судья зала.",
        )
        # Fixed moments, so that the golden text holds dates and times.
        PenaltyRecord.objects.filter(pk=self.told.pk).update(issued_at=at(11, 5))
        PenaltyRecord.objects.filter(pk=self.refused.pk).update(issued_at=at(11, 20))
        PenaltyRecord.objects.filter(pk=self.dq.pk).update(issued_at=at(12, 0))
        PenaltyAcknowledgement.objects.filter(record=self.told).update(at=at(11, 6))
        PenaltyAcknowledgement.objects.filter(record=self.refused).update(at=at(11, 21))
        for minute, statement in enumerate(self.dq.statements.order_by("id"), start=10):
            InvestigationStatement.objects.filter(pk=statement.pk).update(at=at(12, minute))
        PenaltyChange.objects.filter(record=self.dq).update(at=at(12, 30))

    @property
    def ids(self):
        return {"told": self.told.pk, "refused": self.refused.pk, "dq": self.dq.pk}


@pytest.fixture
def event(db):
    return RulingsEvent()


def golden(name, actual, ids):
    """Compare with the golden file, ids put in; with UPDATE_GOLDEN=1 write it instead.

    A record id is found where the report puts one: at the start of a table row or after "#".
    """
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        names = {str(value): key for key, value in ids.items()}

        def placeholder(found):
            if found[2] not in names:
                return found[0]
            return found[1] + "{" + names[found[2]] + "}"

        text = re.sub(r"(^|#)(\d+)(?= [|·])", placeholder, actual, flags=re.MULTILINE)
        path.write_text(text + "\n", encoding="utf-8")
    assert actual == path.read_text(encoding="utf-8").rstrip("\n").format(**ids)


class _Lines(HTMLParser):
    """The text of one element, a line per block (row, paragraph, heading), cells split by |."""

    BLOCKS = {"tr", "p", "h1", "h2", "h3", "h4", "li", "div", "article", "section"}

    def __init__(self, element_id):
        super().__init__()
        self.element_id = element_id
        self.depth = 0
        self.lines = [""]

    def handle_starttag(self, tag, attrs):
        if tag == "br":
            if self.depth:
                self.lines.append("")
            return
        if self.depth or dict(attrs).get("id") == self.element_id:
            self.depth += 1
            if tag in self.BLOCKS or tag == "dt":
                self.lines.append("")
            elif tag in ("td", "th") and self.lines[-1].strip():
                self.lines[-1] += " | "
            elif tag == "dd":
                self.lines[-1] += ": "

    def handle_endtag(self, tag):
        if self.depth:
            self.depth -= 1
            if tag in self.BLOCKS:
                self.lines.append("")

    def handle_data(self, data):
        if self.depth:
            self.lines[-1] += data


def lines_of(html, element_id):
    parser = _Lines(element_id)
    parser.feed(html)
    lines = [re.sub(r"\s+", " ", line).strip() for line in parser.lines]
    return "\n".join(line for line in lines if line)


def page(event):
    head, rest = report.html_pieces(
        report=report.build_report(tournament=event.desk.tournament, now=GENERATED_AT),
        context={"tournament": event.desk.tournament, "standalone": True},
    )
    return head + "".join(rest)


def sections(html, *ids):
    return "\n".join(lines_of(html, element_id) for element_id in ids)


def test_the_event_section_names_the_head_judge_and_the_organiser(event):
    html = page(event)

    golden("report_event.txt", sections(html, "report-event", "report-generated"), event.ids)


def test_the_disqualification_has_its_write_up(event):
    html = page(event)

    golden("report_disqualifications.txt", sections(html, "report-disqualifications"), event.ids)


def test_the_penalties_carry_the_players_answers(event):
    html = page(event)

    golden("report_penalties.txt", sections(html, "report-penalties"), event.ids)


def test_the_report_ends_with_the_signature_lines(event):
    html = page(event)

    golden("report_signatures.txt", sections(html, "report-signatures"), event.ids)


def test_the_whole_report_workbook_has_a_sheet_per_part(event):
    buffer = io.BytesIO()
    report.write_workbook(
        report.report_workbook(tournament=event.desk.tournament, now=GENERATED_AT), buffer
    )
    workbook = openpyxl.load_workbook(io.BytesIO(buffer.getvalue()), read_only=True)

    lines = []
    for sheet in workbook.worksheets:
        if sheet.title in ("Сведения о турнире", "Дисквалификации"):
            lines.append(f"== {sheet.title}")
            for row in sheet.iter_rows(values_only=True):
                cells = ("" if value is None else str(value) for value in row)
                lines.append(" | ".join(cells).replace("\n", " / "))
    assert [sheet.title for sheet in workbook.worksheets] == [
        "Сведения о турнире",
        "Команда турнира",
        "Турнирная таблица",
        "Пенальти",
        "Изменения",
        "Исправления результатов",
        "Дисквалификации",
        "Неприменённые поражения",
    ]
    golden("report_workbook.txt", "\n".join(lines), event.ids)


def test_the_whole_report_downloads_as_xlsx_for_its_readers_only(client, event):
    target = reverse("judging:report-export", args=[event.desk.tournament.slug, "report", "xlsx"])
    client.force_login(event.desk.floor)
    assert client.get(target).status_code == 403

    client.force_login(event.desk.organiser)
    response = client.get(target)

    assert response.status_code == 200
    assert 'filename="onega-cup-report.xlsx"' in response["Content-Disposition"]
    workbook = openpyxl.load_workbook(io.BytesIO(body(response)), read_only=True)
    # The report's own eight sheets, then one for each section another app adds with a table.
    added = [section for section in report.registered_sections() if section.table is not None]
    assert len(workbook.worksheets) == 8 + len(added)
    assert workbook.sheetnames[0] == "Сведения о турнире"
    assert (
        client.get(
            reverse("judging:report-export", args=[event.desk.tournament.slug, "report", "csv"])
        ).status_code
        == 404
    )


def test_the_command_writes_the_whole_report_as_one_workbook(event, tmp_path):
    target = tmp_path / "report.xlsx"

    call_command(
        "export_report", "onega-cup", "--format", "xlsx", "--what", "report", "--output", target
    )

    workbook = openpyxl.load_workbook(target, read_only=True)
    assert workbook.sheetnames[0] == "Сведения о турнире"
    assert "Дисквалификации" in workbook.sheetnames
    with pytest.raises(CommandError, match="XLSX или HTML"):
        call_command(
            "export_report",
            "onega-cup",
            "--format",
            "csv",
            "--what",
            "report",
            "--output",
            tmp_path / "report.csv",
        )
    assert not (tmp_path / "report.csv").exists()
