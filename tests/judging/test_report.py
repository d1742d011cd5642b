"""The judge report: the page's sections, the CSV and XLSX exports, the command, permissions."""

import asyncio
import csv
import io
import re
from concurrent.futures import ThreadPoolExecutor
from html.parser import HTMLParser

import openpyxl
import pytest
from django.core.management import CommandError, ManagementUtility, call_command
from django.db import connection
from django.test import AsyncClient
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from judging import services
from judging.models import ChangeKind, PenaltyChange, RecordStatus
from judging.penalties import Rank
from tests.factories import Desk
from tournaments import services as tournament_services
from tournaments.models import Level

PLAYERS = [
    ("Алиса Смирнова", "BH-90001"),
    ("Борис Иванов", "BH-90002"),
    ("Вера Кузнецова", "BH-90003"),
    ("Глеб Попов", "BH-90004"),
    ("Дмитрий Соколов", "BH-90005"),
    ("Елена Лебедева", "BH-90006"),
]


def url(name, desk, *args):
    return reverse(f"judging:{name}", args=[desk.tournament.slug, *args])


def export_url(desk, what, extension):
    return url("report-export", desk, what, extension)


def stamp(moment):
    """A moment as the report prints it: the date and the time at the venue."""
    return timezone.localtime(moment).strftime("%d.%m.%Y %H:%M")


class Event:
    """A finished professional tournament whose report has something in every section."""

    def __init__(self):
        desk = Desk.create(
            players=6,
            name="Кубок Ладоги",
            venue="Клуб «Берлога»",
            level=Level.PROFESSIONAL,
            uses_decklists=True,
            rounds_planned=3,
        )
        for registration, (player_name, membership_id) in zip(desk.players, PLAYERS, strict=True):
            registration.player.name = player_name
            registration.player.membership_id = membership_id
            registration.player.save()
        for user, (first, last) in (
            (desk.head, ("Галина", "Главная")),
            (desk.floor, ("Фёдор", "Залов")),
            (desk.organiser, ("Ольга", "Орг")),
        ):
            user.first_name, user.last_name = first, last
            user.save()
        desk.pair((0, 1), (2, 3), (4, 5))
        self.desk = desk
        self.caution = desk.issue(0, "1.4", by="floor")
        self.repeat = desk.issue(0, "1.4")
        self.amended = desk.issue(2, "1.4", by="floor")
        services.amend_penalty(
            record=self.amended, to_rank=Rank.WARNING, author=desk.head, reason="грубо, повторно"
        )
        self.revoked = desk.issue(3, "1.4", by="floor")
        services.revoke_penalty(
            record=self.revoked, author=desk.head, reason="выдано не тому игроку"
        )
        self.declined = desk.issue(1, "6.1", by="floor")
        services.decline_request(
            record=self.declined, head_judge=desk.head, reason="нет доказательств"
        )
        self.disqualified = desk.issue(4, "6.1", note="крапленые карты")
        # Between matches after the disqualification ended the match: it waits for a next match
        # that never comes.
        self.pending = desk.issue(5, "1.1", "between_matches", by="floor")
        desk.win(0)
        desk.win(0)
        desk.win(2)
        desk.win(2)
        tournament_services.finish_tournament(tournament=desk.tournament)
        for record in (
            self.caution,
            self.repeat,
            self.amended,
            self.revoked,
            self.declined,
            self.disqualified,
            self.pending,
        ):
            record.refresh_from_db()

    @property
    def in_force_ids(self):
        return [
            self.caution.pk,
            self.repeat.pk,
            self.amended.pk,
            self.disqualified.pk,
            self.pending.pk,
        ]


@pytest.fixture
def event(db):
    return Event()


@pytest.fixture
def organiser(client, event):
    client.force_login(event.desk.organiser)
    return client


def body(response):
    if response.streaming:
        return b"".join(response.streaming_content)
    return response.content


class _Text(HTMLParser):
    """The text of the element with the given id, tags dropped and whitespace collapsed."""

    def __init__(self, element_id):
        super().__init__()
        self.element_id = element_id
        self.depth = 0
        self.parts = []

    def handle_starttag(self, tag, attrs):
        if self.depth:
            self.depth += tag not in ("br", "input", "meta", "link")
        elif dict(attrs).get("id") == self.element_id:
            self.depth = 1
        if self.depth:
            self.parts.append(" ")

    def handle_endtag(self, tag):
        if self.depth:
            self.parts.append(" ")
            self.depth -= 1

    def handle_data(self, data):
        if self.depth:
            self.parts.append(data)


def text_of(html, element_id):
    parser = _Text(element_id)
    parser.feed(html)
    text = re.sub(r"\s+", " ", "".join(parser.parts)).strip()
    assert text, f"no element #{element_id}"
    return text


@pytest.fixture
def report_page(organiser, event):
    response = organiser.get(url("report", event.desk))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/html; charset=utf-8"
    return body(response).decode()


# --- The page ---------------------------------------------------------------------------------


def test_the_disqualification_section_names_the_disqualification_without_prize(report_page, event):
    record = event.disqualified

    assert text_of(report_page, "report-disqualifications") == (
        "Дисквалификации и приостановления членства "
        "# Тур Стол Игрок Членский номер Нарушение Пенальти Почему Судья Заметка "
        f"{record.pk} 1 3 Дмитрий Соколов BH-90005 6.1 Мошенничество – нечистая игра "
        "Дисквалификация без призов Галина Главная крапленые карты "
        f"#{record.pk} · Дмитрий Соколов · Дисквалификация без призов "
        "6.1 Мошенничество – нечистая игра · "
        f"выдал(а) Галина Главная, {stamp(record.issued_at)} "
        "Объяснения Объяснений не брали. Решение главного судьи "
        "Действует в том виде, как выдал(а) Галина Главная, без отдельного решения. "
        "крапленые карты "
        # The write-up's signature lines: the player, the judge, the head judge, the organiser.
        "Игрок: Дмитрий Соколов Судья: Галина Главная Главный судья: Галина Главная "
        "Организатор: Ольга Орг"
    )


def test_a_disqualification_keeps_the_prizes_and_a_suspension_has_its_length(client, db):
    desk = Desk.create(level=Level.PROFESSIONAL, head_judge_is_official=True)
    desk.pair((0, 1), (2, 3))
    amateur = Desk.create(level=Level.AMATEUR)
    amateur.pair((0, 1), (2, 3))
    suspended = desk.issue(0, "6.1")
    services.amend_penalty(
        record=suspended, to_rank=Rank.SUSPENSION, author=desk.head, reason="систематически"
    )
    keeps_prizes = amateur.issue(0, "6.1")

    client.force_login(desk.head)
    section = text_of(body(client.get(url("report", desk))).decode(), "report-disqualifications")
    client.force_login(amateur.head)
    amateur_section = text_of(
        body(client.get(url("report", amateur))).decode(), "report-disqualifications"
    )

    assert (
        f"{suspended.pk} 1 1 {desk.players[0].player.name} {desk.players[0].player.membership_id}"
        " 6.1 Мошенничество – нечистая игра Приостановление членства Дисквалификация без призов "
        f"срок: установит координатор игры {desk.head.username}"
    ) in section
    assert (
        f"{keeps_prizes.pk} 1 1 {amateur.players[0].player.name} "
        f"{amateur.players[0].player.membership_id} 6.1 Мошенничество – нечистая игра "
        f"Дисквалификация сохраняет право на призы занятого места {amateur.head.username}"
    ) in amateur_section
    assert "без призов" not in amateur_section


def test_counts_by_rank_and_by_infraction(report_page):
    assert text_of(report_page, "report-counts-rank") == (
        "Пенальти по силе Пенальти Число "
        "Замечание 1 Предупреждение 2 Поражение в партии 1 Поражение в матче 0 "
        "Дисквалификация 0 Дисквалификация без призов 1 Приостановление членства 0 Итого 5"
    )
    assert text_of(report_page, "report-counts-infraction") == (
        "Пенальти по нарушениям Нарушение Число "
        "1.1 Неверный дек-лист 1 1.4 Халатное заполнение дек-листа 3 "
        "6.1 Мошенничество – нечистая игра 1 Итого 5"
    )


def test_pending_losses_are_reported_as_not_served(report_page, event):
    record = event.pending

    assert text_of(report_page, "report-pending") == (
        "Неприменённые поражения "
        "Турнир закончился раньше, чем для этих поражений нашлась партия или матч. "
        "# Тур Стол Игрок Членский номер Нарушение Пенальти Ждёт Судья Дата и время "
        f"{record.pk} 1 — Елена Лебедева BH-90006 1.1 Неверный дек-лист "
        "Поражение в партии (включает: предупреждение) Следующая партия Фёдор Залов "
        f"{stamp(record.issued_at)}"
    )


def test_amendments_revocations_and_declined_requests_with_their_reasons(report_page, event):
    def at(record, kind):
        return stamp(PenaltyChange.objects.get(record=record, kind=kind).at)

    assert text_of(report_page, "report-changes") == (
        "Изменения, отмены и отклонённые запросы "
        "# Дата и время Изменение Игрок Членский номер Нарушение Пенальти Причина Кем "
        f"{event.amended.pk} {at(event.amended, ChangeKind.AMENDED)} Изменено Вера Кузнецова "
        "BH-90003 1.4 Замечание → Предупреждение грубо, повторно Галина Главная "
        f"{event.revoked.pk} {at(event.revoked, ChangeKind.REVOKED)} Отменено Глеб Попов "
        "BH-90004 1.4 Замечание выдано не тому игроку Галина Главная "
        f"{event.declined.pk} {at(event.declined, ChangeKind.DECLINED)} Отклонено Борис Иванов "
        "BH-90002 6.1 Дисквалификация без призов нет доказательств Галина Главная"
    )


def test_the_penalty_list_holds_the_records_in_force_only(report_page, event):
    def at(record):
        return stamp(record.issued_at)

    assert text_of(report_page, "report-penalties") == (
        "Действующие пенальти (5) # Тур Стол Игрок Членский номер Нарушение Подпункт "
        "Базовое пенальти Пенальти Почему Судья Дата и время Ответ игрока Заметка "
        f"{event.caution.pk} 1 1 Алиса Смирнова BH-90001 1.4 Халатное заполнение дек-листа — "
        f"Замечание Замечание Фёдор Залов {at(event.caution)} — "
        f"{event.repeat.pk} 1 1 Алиса Смирнова BH-90001 1.4 Халатное заполнение дек-листа — "
        "Замечание Предупреждение Повтор 1.4 (уже было: Замечание, тур 1) Галина Главная "
        f"{at(event.repeat)} — "
        f"{event.amended.pk} 1 2 Вера Кузнецова BH-90003 1.4 Халатное заполнение дек-листа — "
        "Замечание Предупреждение изменено; при выдаче: Замечание Фёдор Залов "
        f"{at(event.amended)} — "
        f"{event.disqualified.pk} 1 3 Дмитрий Соколов BH-90005 6.1 Мошенничество – нечистая игра "
        "— Дисквалификация без призов Дисквалификация без призов (включает: поражение в матче) "
        "Этим пенальти проигран матч тура 1. "
        f"Галина Главная {at(event.disqualified)} — крапленые карты "
        f"{event.pending.pk} 1 — Елена Лебедева BH-90006 1.1 Неверный дек-лист — "
        "Поражение в партии Поражение в партии (включает: предупреждение) "
        f"Следующая партия проиграна: ждёт этой партии. Фёдор Залов {at(event.pending)} — "
        "Ответы игроков на планшетах судей: подтвердили — 0, отказались подтвердить — 0, "
        "не записано — 5."
    )


def test_event_details_and_staff(report_page, event):
    assert text_of(report_page, "report-event") == (
        "Сведения о турнире Турнир Кубок Ладоги Дата 5 декабря 2026 "
        "Место проведения Клуб «Берлога» Уровень строгости правил Профессиональный "
        "Формат Констрактед · матчи до 3 партий · с дек-листами Игроки 6 "
        "Туры 1 (запланировано: 3) Редакция уложения Уложение о пенальти «Берсерк. Герои» "
        "Главный судья Галина Главная · не является официальным представителем "
        "ООО «Мир Хобби» Организатор Ольга Орг Статус Завершён"
    )
    assert text_of(report_page, "report-staff") == (
        "Команда турнира Роль Имя Выдал пенальти "
        "Главный судья Галина Главная 2 Судья Фёдор Залов 5 Организатор Ольга Орг 0"
    )


def test_the_final_standings_mark_the_disqualified_player(report_page):
    assert text_of(report_page, "report-standings") == (
        "Итоговая турнирная таблица # Игрок Членский номер Очки В–Н–П OMW% GW% OGW% Отметки "
        "1 Алиса Смирнова BH-90001 3 1–0–0 33.0% 100.0% 33.0% "
        "2 Вера Кузнецова BH-90003 3 1–0–0 33.0% 100.0% 33.0% "
        "3 Елена Лебедева BH-90006 3 1–0–0 33.0% 100.0% 33.0% "
        "4 Борис Иванов BH-90002 0 0–0–1 100.0% 33.0% 100.0% "
        "5 Глеб Попов BH-90004 0 0–0–1 100.0% 33.0% 100.0% "
        "6 Дмитрий Соколов BH-90005 0 0–0–1 100.0% 33.0% 100.0% дисквалифицирован · без призов"
    )


def test_the_page_prints_without_inline_script_or_style(report_page):
    assert "data-print" in report_page
    assert "<script>" not in report_page and "<style" not in report_page
    assert "style=" not in report_page
    assert "onclick" not in report_page


# --- Exports ----------------------------------------------------------------------------------


def read_csv(content):
    assert content.startswith(b"\xef\xbb\xbf")  # the byte-order mark
    return list(csv.reader(io.StringIO(content.decode("utf-8-sig"))))


def read_xlsx(content):
    workbook = openpyxl.load_workbook(io.BytesIO(content), read_only=True)
    (sheet,) = workbook.worksheets
    return [list(row) for row in sheet.iter_rows(values_only=True)]


PENALTY_HEADER = [
    "#",
    "Тур",
    "Стол",
    "Игрок",
    "Членский номер",
    "Код нарушения",
    "Нарушение",
    "Подпункт",
    "Базовое пенальти",
    "Пенальти при выдаче",
    "Действующее пенальти",
    "Почему",
    "Поражение",
    "Судья",
    "Выдано",
    "Заметка",
    "Ответ игрока",
    "Время ответа",
]


def test_the_penalties_csv_holds_exactly_the_records_in_force(organiser, event):
    response = organiser.get(export_url(event.desk, "penalties", "csv"))

    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == (
        f'attachment; filename="{event.desk.tournament.slug}-penalties.csv"'
    )
    header, *rows = read_csv(body(response))
    assert header == PENALTY_HEADER
    assert [int(row[0]) for row in rows] == event.in_force_ids
    assert (event.revoked.status, event.declined.status) == (
        RecordStatus.REVOKED,
        RecordStatus.DECLINED,
    )
    by_id = {int(row[0]): row for row in rows}
    amended = by_id[event.amended.pk]
    assert amended[8:11] == ["Замечание", "Замечание", "Предупреждение"]
    assert by_id[event.disqualified.pk][3:7] == [
        "Дмитрий Соколов",
        "BH-90005",
        "6.1",
        "Мошенничество – нечистая игра",
    ]
    assert by_id[event.disqualified.pk][10] == (
        "Дисквалификация без призов (включает: поражение в матче)"
    )
    assert by_id[event.disqualified.pk][12] == "Этим пенальти проигран матч тура 1."
    assert by_id[event.pending.pk][12] == "Следующая партия проиграна: ждёт этой партии."
    assert by_id[event.repeat.pk][11] == "повтор 1.4 (уже было: Замечание, тур 1)"
    assert by_id[event.disqualified.pk][14] == (
        timezone.localtime(event.disqualified.issued_at).strftime("%Y-%m-%d %H:%M")
    )


def test_the_penalties_xlsx_holds_exactly_the_records_in_force(client, event):
    client.force_login(event.desk.head)

    response = client.get(export_url(event.desk, "penalties", "xlsx"))

    assert response["Content-Type"] == (
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    )
    assert f"{event.desk.tournament.slug}-penalties.xlsx" in response["Content-Disposition"]
    header, *rows = read_xlsx(body(response))
    assert header == PENALTY_HEADER
    assert [row[0] for row in rows] == event.in_force_ids
    amended = next(row for row in rows if row[0] == event.amended.pk)
    assert amended[1:4] == [1, 2, "Вера Кузнецова"]
    assert amended[8:11] == ["Замечание", "Замечание", "Предупреждение"]
    issued = next(row for row in rows if row[0] == event.disqualified.pk)[14]
    # A real date and time at the venue (spreadsheets keep no zone), to the second.
    venue_time = timezone.localtime(event.disqualified.issued_at).replace(tzinfo=None)
    assert abs((issued - venue_time).total_seconds()) < 1


STANDINGS_HEADER = [
    "#",
    "Игрок",
    "Членский номер",
    "Очки",
    "Победы",
    "Ничьи",
    "Поражения",
    "Сыграно матчей",
    "OMW%",
    "GW%",
    "OGW%",
    "Статус",
    "Может получить приз",
]


def test_the_standings_exports_agree_with_the_standings(organiser, event):
    header, *csv_rows = read_csv(body(organiser.get(export_url(event.desk, "standings", "csv"))))
    xlsx_header, *xlsx_rows = read_xlsx(
        body(organiser.get(export_url(event.desk, "standings", "xlsx")))
    )

    assert header == xlsx_header == STANDINGS_HEADER
    assert [row[1] for row in csv_rows] == [row[1] for row in xlsx_rows]
    assert len(csv_rows) == 6
    winner = csv_rows[0]
    assert winner[3:8] == ["3", "1", "0", "0", "1"]
    disqualified = next(row for row in csv_rows if row[1] == "Дмитрий Соколов")
    assert disqualified[11:] == ["дисквалифицирован", "нет"]
    in_xlsx = next(row for row in xlsx_rows if row[1] == "Дмитрий Соколов")
    assert in_xlsx[3:8] == [0, 0, 0, 1, 1]
    assert isinstance(in_xlsx[9], float) and 0 <= in_xlsx[9] <= 1


def test_a_cell_that_looks_like_a_formula_stays_text(client, desk):
    desk.pair((0, 1), (2, 3))
    desk.players[0].player.name = '=HYPERLINK("http://x")'
    desk.players[0].player.save()
    desk.issue(0, "1.4", note="+7 999 000")
    client.force_login(desk.organiser)

    (row,) = read_csv(body(client.get(export_url(desk, "penalties", "csv"))))[1:]
    workbook = openpyxl.load_workbook(
        io.BytesIO(body(client.get(export_url(desk, "penalties", "xlsx"))))
    )
    cell = workbook.active["D2"]

    assert row[3] == '\'=HYPERLINK("http://x")' and row[15] == "'+7 999 000"
    assert (cell.value, cell.data_type) == ('=HYPERLINK("http://x")', "s")


def test_an_unknown_export_is_not_found(organiser, event):
    assert organiser.get(export_url(event.desk, "players", "csv")).status_code == 404
    assert organiser.get(export_url(event.desk, "penalties", "pdf")).status_code == 404


# The export runs on a thread (and a database connection) of its own: the data must be committed.
def test_under_asgi_the_export_is_streamed_as_it_is_read(transactional_db, event):
    async def fetch(path):
        client = AsyncClient()
        await client.aforce_login(event.desk.organiser)
        response = await client.get(path)
        chunks = [chunk async for chunk in response.streaming_content]
        return response, b"".join(chunks)

    def on_a_fresh_loop(path):
        # A thread of its own: browser tests earlier in the run leave an event loop in this one.
        with ThreadPoolExecutor(max_workers=1) as thread:
            return thread.submit(asyncio.run, fetch(path)).result()

    response, content = on_a_fresh_loop(export_url(event.desk, "penalties", "csv"))
    page_response, page = on_a_fresh_loop(url("report", event.desk))
    xlsx_response, xlsx = on_a_fresh_loop(export_url(event.desk, "penalties", "xlsx"))

    # An asynchronous iterator: Django would read a synchronous one whole before sending it.
    assert response.is_async and page_response.is_async and xlsx_response.is_async
    assert [int(row[0]) for row in read_csv(content)[1:]] == event.in_force_ids
    assert "Дисквалификация без призов" in text_of(page.decode(), "report-disqualifications")
    assert [row[0] for row in read_xlsx(xlsx)[1:]] == event.in_force_ids


# --- Who may see it ---------------------------------------------------------------------------


REPORT_URLS = [
    ("report",),
    ("report-export", "penalties", "csv"),
    ("report-export", "penalties", "xlsx"),
    ("report-export", "standings", "csv"),
    ("report-export", "standings", "xlsx"),
]


@pytest.mark.parametrize("target", REPORT_URLS)
@pytest.mark.parametrize(("who", "status"), [("organiser", 200), ("head", 200), ("floor", 403)])
def test_only_the_organiser_and_the_head_judge_read_the_report(client, desk, target, who, status):
    client.force_login(getattr(desk, who))

    response = client.get(url(target[0], desk, *target[1:]))

    assert response.status_code == status
    if response.streaming:
        body(response)  # Read it to the end, as a browser would, so the cursor closes.


@pytest.mark.parametrize("target", REPORT_URLS)
def test_a_stranger_finds_no_report(client, desk, target):
    client.force_login(Desk.create().organiser)

    assert client.get(url(target[0], desk, *target[1:])).status_code == 404


def test_the_nav_links_the_report_for_its_readers_only(client, desk):
    client.force_login(desk.organiser)
    organiser_page = client.get(reverse("tournaments:standings", args=[desk.tournament.slug]))
    client.force_login(desk.floor)
    floor_page = client.get(reverse("tournaments:standings", args=[desk.tournament.slug]))

    assert url("report", desk) in organiser_page.content.decode()
    assert url("report", desk) not in floor_page.content.decode()


def test_the_report_page_answers_in_a_constant_number_of_queries(client, db):
    counts = []
    for records in (1, 3):
        desk = Desk.create()
        desk.pair((0, 1), (2, 3))
        for index in range(records):
            record = desk.issue(index % 4, "1.4")
        services.amend_penalty(record=record, to_rank=Rank.WARNING, author=desk.head, reason="x")
        client.force_login(desk.organiser)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url("report", desk))
            page = body(response).decode()
        assert response.status_code == 200
        assert page.count('<span class="tag rank-') == records
        counts.append(len(queries))
    assert counts[0] == counts[1]


# --- The command ------------------------------------------------------------------------------


@pytest.mark.parametrize("by", ["slug", "id"])
def test_the_command_writes_the_penalties_as_csv(event, tmp_path, by):
    target = tmp_path / "penalties.csv"
    tournament = event.desk.tournament
    out = io.StringIO()

    call_command(
        "export_report",
        tournament.slug if by == "slug" else str(tournament.pk),
        "--format",
        "csv",
        "--output",
        str(target),
        stdout=out,
    )

    header, *rows = read_csv(target.read_bytes())
    assert header == PENALTY_HEADER
    assert [int(row[0]) for row in rows] == event.in_force_ids
    assert out.getvalue().strip() == f"Записано: {target}"
    assert list(tmp_path.iterdir()) == [target]  # no partial file left beside it


def test_the_command_writes_the_standings_as_xlsx(event, tmp_path):
    target = tmp_path / "standings.xlsx"

    call_command(
        "export_report",
        event.desk.tournament.slug,
        "--format",
        "xlsx",
        "--what",
        "standings",
        "--output",
        str(target),
        stdout=io.StringIO(),
    )

    header, *rows = read_xlsx(target.read_bytes())
    assert header == STANDINGS_HEADER
    assert len(rows) == 6


def test_the_command_writes_the_whole_report_as_html(event, tmp_path):
    target = tmp_path / "report.html"

    call_command(
        "export_report",
        event.desk.tournament.slug,
        "--format",
        "html",
        "--output",
        str(target),
        stdout=io.StringIO(),
    )

    page = target.read_text(encoding="utf-8")
    assert page.startswith("<!doctype html>")
    assert "@media print" in page  # the stylesheet travels with the file
    assert "size: A4 landscape" in page and '<link rel="stylesheet"' not in page
    assert 'class="subnav"' not in page and "data-print" not in page
    assert "Дисквалификация без призов" in text_of(page, "report-disqualifications")
    ids = re.findall(
        r"<tr><td>(\d+)</td>", page.split('id="report-penalties"')[1].split("</section>")[0]
    )
    assert [int(pk) for pk in ids] == event.in_force_ids


def test_an_unknown_tournament_is_a_clear_error(db, tmp_path):
    target = tmp_path / "x.csv"

    with pytest.raises(CommandError) as error:
        call_command("export_report", "no-such-cup", "--format", "csv", "--output", str(target))

    assert str(error.value) == "Турнир «no-such-cup» не найден: укажите его номер (id) или slug."
    assert not target.exists()


def test_an_unknown_tournament_exits_with_code_1_and_one_line(db, tmp_path, capsys):
    utility = ManagementUtility(
        ["manage.py", "export_report", "404", "--format", "xlsx", "--output", str(tmp_path / "x")]
    )

    with pytest.raises(SystemExit) as exit_:
        utility.execute()

    captured = capsys.readouterr()
    assert exit_.value.code == 1
    assert captured.err == (
        "CommandError: Турнир «404» не найден: укажите его номер (id) или slug.\n"
    )


def test_the_command_help_names_the_default(capsys):
    utility = ManagementUtility(["manage.py", "help", "export_report"])

    utility.execute()

    assert "(default: penalties)" in " ".join(capsys.readouterr().out.split())


def test_a_report_page_abandoned_half_way_closes_its_rows(desk):
    """The client went mid-page: closing the page's pieces closes the rows' cursor on the thread
    that read them, before the connection is handed to another request (core/pooled_sqlite3)."""
    from judging.report_views import _head_then

    closed = []

    def rows():
        try:
            yield "row 1"
            yield "row 2"
        finally:
            closed.append(True)

    from judging.report import in_language

    inner = rows()  # Held here, so that only an explicit close, not its last reference, ends it.
    page = _head_then("<head>", in_language("ru", inner))
    assert next(page) == "<head>"
    assert next(page) == "row 1"
    page.close()

    assert closed == [True]


def test_the_summary_counts_every_record_as_the_records_themselves_do(db):
    """The report's counts (one grouped read of the records) against the records counted one by
    one: in force or not, by stacking, asked of the head judge, revoked, answered or not."""
    from collections import Counter

    from core.people import display_name
    from judging.models import PenaltyRecord
    from judging.report import build_report

    desk = Desk.create()
    desk.pair((0, 1), (2, 3))
    for code in ("1.1", "1.2", "1.4", "1.4"):  # Three warnings: stacked at the match's end.
        desk.issue(0, code, "between_games", by="floor")
    desk.finish(0)
    told = desk.issue(2, "1.1", by="floor")
    refused = desk.issue(3, "1.4")
    desk.issue(3, "6.1", by="floor", confirm_second=False)  # Waits for the head judge.
    wrong = desk.issue(2, "1.2")
    services.acknowledge_penalty(record=told, judge=desk.floor)
    services.acknowledge_penalty(record=refused, judge=desk.floor, declined=True)
    services.revoke_penalty(record=wrong, author=desk.head, reason="не тот игрок")

    built = build_report(tournament=desk.tournament)

    records = list(
        PenaltyRecord.objects.filter(tournament=desk.tournament).select_related(
            "infraction", "issued_by"
        )
    )
    in_force = [record for record in records if record.status == RecordStatus.IN_FORCE]
    assert {record.status for record in records} > {RecordStatus.IN_FORCE}
    assert any(record.infraction is None for record in in_force)
    assert built.total_in_force == len(in_force)
    assert [(row.label, row.count) for row in built.by_rank] == [
        (str(rank.label), sum(record.rank == rank for record in in_force)) for rank in Rank
    ]
    stacking = "Три одинаковых пенальти"
    assert Counter({row.label: row.count for row in built.by_infraction}) == Counter(
        f"{record.infraction.code} {record.infraction.name}" if record.infraction else stacking
        for record in in_force
    )
    answers = Counter(
        record.acknowledgement_or_none.kind if record.acknowledgement_or_none else None
        for record in in_force
    )
    assert (
        built.acknowledgements.acknowledged,
        built.acknowledgements.declined,
        built.acknowledgements.not_recorded,
    ) == (answers["acknowledged"], answers["declined"], answers[None])
    issued = Counter(display_name(record.issued_by) for record in records if record.issued_by)
    assert {row.name: row.penalties_issued for row in built.staff} == {
        display_name(user): issued[display_name(user)]
        for user in (desk.head, desk.floor, desk.organiser)
    }
