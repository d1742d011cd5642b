"""Every screen says what a record does now, as ``judging.record_state`` decides it (rules.md §8):
the judge's card (page and live fragment), the console's row, the record page, the player's page,
«Мои пенальти» and the judge report, for the records issue 26 found wrong: a declined
disqualification request, a revoked pending game loss, and a pending match loss lowered to a game
loss and to a caution. And every list that shows states costs the same for 1 and 3 records."""

import csv
import io
import re
from html import unescape

import openpyxl
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from judging import services
from judging.models import PenaltyRecord, RecordStatus
from judging.penalties import AppliesTo, Rank
from judging.record_state import Loss
from judging.selectors import STATE_RELATED
from tests.factories import Desk
from tournaments.models import Level

TELL = "Скажите игроку"
DISQUALIFIED = "Вы дисквалифицированы"
NEXT_GAME_LOST = "следующая партия проиграна"
NEXT_MATCH_LOST = "следующий матч проигран"


def url(name, desk, *args):
    return reverse(f"judging:{name}", args=[desk.tournament.slug, *args])


def text_of(html):
    """The readable text of a page: tags dropped, entities decoded, whitespace collapsed."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


def element(html, element_id):
    """The text of the element with this id (up to its own closing tag of the same name)."""
    match = re.search(rf'<(\w+)[^>]*\bid="{re.escape(element_id)}"', html)
    assert match, f"no element #{element_id}"
    tag = match.group(1)
    depth, position = 0, match.start()
    for found in re.finditer(rf"<(/?){tag}\b[^>]*>", html[match.start() :]):
        depth += -1 if found.group(1) else 1
        if depth == 0:
            position = match.start() + found.end()
            break
    return text_of(html[match.start() : position])


class Records:
    """Four records on four players, each issued by the floor judge between matches."""

    def __init__(self):
        desk = Desk.create(players=4, level=Level.PROFESSIONAL)
        self.desk = desk
        # A disqualification a floor judge asks for, which the head judge declines.
        self.declined = desk.issue(0, "6.1", "between_matches", by="floor")
        services.decline_request(record=self.declined, head_judge=desk.head, reason="нет улик")
        # A game loss waiting for the next game, revoked.
        self.revoked = desk.issue(1, "1.1", "between_matches", by="floor")
        services.revoke_penalty(record=self.revoked, author=desk.head, reason="не тот игрок")
        # A repeat makes a match loss that waits for the next match; then it is lowered.
        desk.issue(2, "1.1", "between_matches", by="floor")
        self.to_game_loss = desk.issue(2, "1.1", "between_matches", by="floor")
        desk.issue(3, "1.1", "between_matches", by="floor")
        self.to_caution = desk.issue(3, "1.1", "between_matches", by="floor")
        for record, rank in ((self.to_game_loss, Rank.GAME_LOSS), (self.to_caution, Rank.CAUTION)):
            assert (record.rank, record.applies_to) == (Rank.MATCH_LOSS, AppliesTo.NEXT_MATCH)
            services.amend_penalty(record=record, to_rank=rank, author=desk.head, reason="мягче")
        for record in (self.declined, self.revoked, self.to_game_loss, self.to_caution):
            record.refresh_from_db()

    def game_loss_tell_and_loss(self):
        """What the match loss lowered to a game loss says. An amendment that cancels the loss
        waiting (as the services did until rules.md §6 changed) and one that lets the record wait
        as a game loss (as §6 now says) are both read right; either way, never the next match."""
        record = self.to_game_loss
        if record.applies_to == AppliesTo.NEXT_GAME and not record.loss_cancelled:
            return (
                "Записано предупреждение, и следующая партия проиграна.",
                "Следующая партия проиграна: ждёт этой партии.",
            )
        assert record.loss_cancelled
        return (
            "Записано предупреждение; ни партия, ни матч не проиграны.",
            "Поражение отменено: матч не проигран.",
        )


@pytest.fixture
def records(db):
    return Records()


@pytest.fixture
def floor(client, records):
    client.force_login(records.desk.floor)
    return client


@pytest.fixture
def head(client, records):
    client.force_login(records.desk.head)
    return client


def card(client, records, record, *, fragment):
    headers = {"HX-Request": "true"} if fragment else {}
    response = client.get(url("record", records.desk, record.pk), headers=headers)
    assert response.status_code == 200
    html = response.content.decode()
    if fragment:
        assert html.lstrip().startswith('<article class="card penalty-card" id="record-card"')
    return html


# The judge's card, as first opened and as the live re-fetch renders it.


@pytest.mark.parametrize("fragment", [False, True])
def test_the_card_of_a_declined_disqualification_request_tells_nothing(floor, records, fragment):
    html = card(floor, records, records.declined, fragment=fragment)

    shown = element(html, "record-card")
    assert "Дисквалификация без призов (включает: поражение в матче)" in shown
    assert element(html, "record-status") == "Отклонено главным судьёй: не вступало в силу."
    assert TELL not in shown
    assert DISQUALIFIED not in shown
    assert 'id="record-loss"' not in html


@pytest.mark.parametrize("fragment", [False, True])
def test_the_card_of_a_revoked_pending_game_loss_says_the_loss_is_cancelled(
    floor, records, fragment
):
    html = card(floor, records, records.revoked, fragment=fragment)

    shown = element(html, "record-card")
    assert element(html, "record-status") == "Отменено главным судьёй: больше не действует."
    assert element(html, "record-loss") == "Поражение отменено: партия не проиграна."
    assert TELL not in shown
    assert NEXT_GAME_LOST not in shown.lower()


@pytest.mark.parametrize("fragment", [False, True])
def test_the_card_of_a_match_loss_lowered_to_a_game_loss_never_says_the_next_match(
    floor, records, fragment
):
    html = card(floor, records, records.to_game_loss, fragment=fragment)
    tell, loss = records.game_loss_tell_and_loss()

    shown = element(html, "record-card")
    assert "Поражение в партии (включает: предупреждение)" in shown
    assert element(html, "record-status") == "Действует."
    assert element(html, "record-loss") == loss
    assert f"{TELL} {tell}" in shown
    assert (
        "Выдано как «Поражение в матче»; главный судья снизил его до «Поражение в партии»." in shown
    )
    assert NEXT_MATCH_LOST not in shown.lower()


@pytest.mark.parametrize("fragment", [False, True])
def test_the_card_of_a_match_loss_lowered_to_a_caution_tells_only_the_caution(
    floor, records, fragment
):
    html = card(floor, records, records.to_caution, fragment=fragment)

    shown = element(html, "record-card")
    assert element(html, "record-loss") == "Поражение отменено: матч не проигран."
    assert f"{TELL} Это устное замечание; оно учитывается при сложении пенальти." in shown
    assert NEXT_MATCH_LOST not in shown.lower()
    assert "Записано предупреждение" not in shown


# The head judge's console: the log's rows and the record page.


def log_row(head, records, record):
    fragment = head.get(
        url("console", records.desk), {"fragment": "penalty-log"}, headers={"HX-Request": "true"}
    ).content.decode()
    return element(fragment, f"log-record-{record.pk}")


def test_the_console_rows_say_what_each_record_does_now(head, records):
    _tell, loss = records.game_loss_tell_and_loss()
    judge = records.desk.floor.username

    def row(record):
        return log_row(head, records, record).split(" ", 1)[1]  # after the time

    def player(record):
        return record.registration.player.name

    assert row(records.declined) == (
        f"{player(records.declined)} 6.1 Дисквалификация без призов {judge} "
        "Отклонено главным судьёй"
    )
    assert row(records.revoked) == (
        f"{player(records.revoked)} 1.1 Поражение в партии "
        f"Поражение отменено: партия не проиграна. {judge} Отменено"
    )
    assert row(records.to_game_loss) == (
        f"{player(records.to_game_loss)} 1.1 Поражение в партии "
        "Выдано как «Поражение в матче»; главный судья снизил его до «Поражение в партии». "
        f"{loss} повтор 1.1 (уже было: Поражение в партии) {judge} Действует"
    )
    assert row(records.to_caution) == (
        f"{player(records.to_caution)} 1.1 Замечание Базовое: Поражение в партии "
        "Выдано как «Поражение в матче»; главный судья снизил его до «Замечание». "
        f"Поражение отменено: матч не проигран. повтор 1.1 (уже было: Поражение в партии) {judge} "
        "Действует"
    )


def record_page(head, records, record):
    response = head.get(url("console-record", records.desk, record.pk))
    assert response.status_code == 200
    return element(response.content.decode(), "record-facts")


def test_the_record_page_says_what_each_record_does_now(head, records):
    tell, loss = records.game_loss_tell_and_loss()
    issued = "Когда Между матчами"
    repeat = "Почему Повтор 1.1 (уже было: Поражение в партии)"
    untold = "Игрок не подтвердил, что ему объявлено пенальти"

    assert record_page(head, records, records.declined) == (
        "Нарушение 6.1 Мошенничество – нечистая игра "
        "Базовое пенальти Дисквалификация без призов "
        f"Пенальти при выдаче Дисквалификация без призов {issued} "
        "Статус Отклонено главным судьёй: не вступало в силу."
    )
    assert record_page(head, records, records.revoked) == (
        "Нарушение 1.1 Неверный дек-лист Базовое пенальти Поражение в партии "
        f"Пенальти при выдаче Поражение в партии {issued} "
        "Последствие Поражение отменено: партия не проиграна. "
        "Статус Отменено главным судьёй: больше не действует."
    )
    assert record_page(head, records, records.to_game_loss) == (
        "Нарушение 1.1 Неверный дек-лист Базовое пенальти Поражение в партии "
        "Пенальти при выдаче Поражение в матче "
        "Выдано как «Поражение в матче»; главный судья снизил его до «Поражение в партии». "
        f"{repeat} {issued} Последствие {loss} Статус Действует. {TELL} {tell} {untold}"
    )
    assert record_page(head, records, records.to_caution) == (
        "Нарушение 1.1 Неверный дек-лист Базовое пенальти Поражение в партии "
        "Пенальти при выдаче Поражение в матче "
        "Выдано как «Поражение в матче»; главный судья снизил его до «Замечание». "
        f"{repeat} {issued} Последствие Поражение отменено: матч не проигран. Статус Действует. "
        f"{TELL} Это устное замечание; оно учитывается при сложении пенальти. {untold}"
    )


def test_a_disqualification_request_is_confirmed_in_two_steps_and_another_in_one(head, records):
    request = records.desk.issue(1, "6.1", "between_matches", by="floor")

    page = head.get(url("console-record", records.desk, request.pk)).content.decode()
    queue = head.get(url("console", records.desk)).content.decode()

    assert "Обоснование (обязательно для дисквалификации)" in page
    assert "Подтвердить…" in page
    assert "Подтвердить…" in element(queue, "request-queue")


# The player's page and «Мои пенальти».


def test_the_player_page_says_what_each_record_does_now(head, records):
    _tell, loss = records.game_loss_tell_and_loss()
    desk = records.desk
    repeat = "повтор 1.1 (уже было: Поражение в партии)"

    def row(index, record):
        html = head.get(url("player", desk, desk.players[index].pk)).content.decode()
        return element(html, f"player-record-{record.pk}")

    assert row(0, records.declined) == (
        "— 6.1 Мошенничество – нечистая игра Дисквалификация без призов Отклонено главным судьёй"
    )
    assert row(1, records.revoked) == (
        "— 1.1 Неверный дек-лист Поражение в партии Поражение отменено: партия не проиграна. "
        "Отменено"
    )
    assert row(2, records.to_game_loss) == (
        "— 1.1 Неверный дек-лист Поражение в партии "
        "Выдано как «Поражение в матче»; главный судья снизил его до «Поражение в партии». "
        f"{loss} {repeat} Действует"
    )
    assert row(3, records.to_caution) == (
        "— 1.1 Неверный дек-лист Замечание "
        "Выдано как «Поражение в матче»; главный судья снизил его до «Замечание». "
        f"Поражение отменено: матч не проигран. {repeat} Действует"
    )


def test_my_penalties_say_what_each_record_does_now(floor, records):
    _tell, loss = records.game_loss_tell_and_loss()
    html = floor.get(url("mine", records.desk)).content.decode()

    def row(record):
        shown = element(html, f"my-record-{record.pk}")
        name = record.registration.player.name
        assert shown.startswith(f"{name} ")
        return shown.removeprefix(f"{name} ").rsplit(" · ", 1)[0]  # before the time

    assert row(records.declined) == "6.1 Дисквалификация без призов Отклонено главным судьёй"
    assert row(records.revoked) == (
        "1.1 Поражение в партии Отменено · Поражение отменено: партия не проиграна."
    )
    assert row(records.to_game_loss) == f"1.1 Поражение в партии Действует · {loss}"
    assert row(records.to_caution) == (
        "1.1 Замечание Действует · Поражение отменено: матч не проигран."
    )


# The judge report: it lists the records in force only, each with its loss as it stands.


def row_ids(html, section_id):
    """The record numbers of a report section's rows, in order (each row starts with one)."""
    start = html.index(f'id="{section_id}"')
    end = html.index("</section>", start)
    return [int(found) for found in re.findall(r"<tr><td>(\d+)</td>", html[start:end])]


def test_the_report_lists_the_lowered_records_with_their_loss_and_not_the_others(head, records):
    _tell, loss = records.game_loss_tell_and_loss()
    response = head.get(url("report", records.desk), {"all": "1"})
    content = b"".join(response.streaming_content) if response.streaming else response.content
    html = content.decode()
    listed = row_ids(html, "report-penalties")
    pending = row_ids(html, "report-pending")

    assert records.to_game_loss.pk in listed and records.to_caution.pk in listed
    assert records.declined.pk not in listed and records.revoked.pk not in listed
    for record in (records.revoked, records.to_game_loss, records.to_caution):
        waits = record is records.to_game_loss and loss.startswith("Следующая")
        assert (record.pk in pending) is waits
    penalties = element(html, "report-penalties")
    amended = "изменено; при выдаче: Поражение в матче"
    assert f"Поражение в партии (включает: предупреждение) {amended} {loss}" in penalties
    assert f"Замечание {amended} Поражение отменено: матч не проигран." in penalties


def test_the_reports_deck_section_says_what_each_record_does_now(head, records):
    _tell, loss = records.game_loss_tell_and_loss()
    response = head.get(url("report", records.desk), {"all": "1"})
    content = b"".join(response.streaming_content) if response.streaming else response.content
    html = content.decode()
    start = html.index('id="report-decks"')
    section = html[start : html.index("</section>", start)]

    def row(record):
        found = re.search(rf"<tr><td>{record.pk}</td>(.*?)</tr>", section, re.S)
        assert found, f"record {record.pk} is not in the deck section"
        return text_of(found.group(1))

    def player(record):
        return record.registration.player.name

    assert row(records.revoked) == (
        f"{player(records.revoked)} 1.1 — Поражение в партии "
        "Поражение отменено: партия не проиграна. Отменено"
    )
    assert row(records.to_game_loss) == (
        f"{player(records.to_game_loss)} 1.1 — Поражение в партии {loss} Действует"
    )
    assert row(records.to_caution) == (
        f"{player(records.to_caution)} 1.1 — Замечание Поражение отменено: матч не проигран. "
        "Действует"
    )


def test_the_report_csv_gives_each_lowered_record_its_loss(head, records):
    _tell, loss = records.game_loss_tell_and_loss()
    response = head.get(
        reverse("judging:report-export", args=[records.desk.tournament.slug, "penalties", "csv"])
    )
    content = b"".join(response.streaming_content) if response.streaming else response.content
    header, *rows = list(csv.reader(io.StringIO(content.decode("utf-8-sig"))))
    by_id = {int(row[0]): dict(zip(header, row, strict=True)) for row in rows}

    assert records.declined.pk not in by_id and records.revoked.pk not in by_id
    assert by_id[records.to_game_loss.pk]["Поражение"] == loss
    assert by_id[records.to_caution.pk]["Поражение"] == "Поражение отменено: матч не проигран."
    assert by_id[records.to_caution.pk]["Действующее пенальти"] == "Замечание"


# Lists cost the same whatever the number of records: states are built from what they load.


def served_records(count):
    """``count`` records of player 0 by the floor judge, each with a loss it served: a game loss
    in game 1, then another in game 2, then a repeat that takes the match."""
    desk = Desk.create(players=4, level=Level.PROFESSIONAL, best_of=5)
    desk.pair((0, 1), (2, 3))
    made = [desk.issue(0, code, by="floor") for code in ("1.1", "1.2", "1.1")[:count]]
    states = [PenaltyRecord.objects.get(pk=record.pk).state for record in made]
    assert [(state.loss, state.loss_text) for state in states] == [
        (Loss.SERVED, "Этим пенальти проиграна партия 1."),
        (Loss.SERVED, "Этим пенальти проиграна партия 2."),
        (Loss.SERVED, "Этим пенальти проигран матч тура 1."),
    ][:count]
    return desk


def queries_for(client, desk, user, path, **headers):
    client.force_login(getattr(desk, user))
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path, headers=headers)
        if response.streaming:
            b"".join(response.streaming_content)
    assert response.status_code == 200
    return len(queries)


LISTS = {
    "console log": ("head", lambda d: url("console", d) + "?fragment=penalty-log", True),
    "console page": ("head", lambda d: url("console", d), False),
    "player page": ("head", lambda d: url("player", d, d.players[0].pk), False),
    "my penalties": ("floor", lambda d: url("mine", d), False),
    "report": ("head", lambda d: url("report", d) + "?all=1", False),
    "report csv": (
        "head",
        lambda d: reverse("judging:report-export", args=[d.tournament.slug, "penalties", "csv"]),
        False,
    ),
    "report xlsx": (
        "head",
        lambda d: reverse("judging:report-export", args=[d.tournament.slug, "penalties", "xlsx"]),
        False,
    ),
}


@pytest.mark.parametrize("screen", list(LISTS))
def test_a_list_of_states_costs_the_same_for_one_record_and_three(client, db, screen):
    user, path, htmx = LISTS[screen]
    headers = {"HX-Request": "true"} if htmx else {}
    one, three = served_records(1), served_records(3)
    assert PenaltyRecord.objects.filter(tournament=three.tournament).count() == 3

    assert queries_for(client, one, user, path(one), **headers) == queries_for(
        client, three, user, path(three), **headers
    )


def test_the_request_queue_costs_the_same_for_one_request_and_three(client, db):
    def with_requests(count):
        desk = Desk.create(players=4)
        for index in range(count):
            desk.issue(index, "6.1", "between_matches", by="floor")
        assert (
            PenaltyRecord.objects.filter(
                tournament=desk.tournament, status=RecordStatus.AWAITING_HEAD_JUDGE
            ).count()
            == count
        )
        return desk

    one, three = with_requests(1), with_requests(3)
    path = lambda d: url("console", d) + "?fragment=request-queue"  # noqa: E731

    assert queries_for(client, one, "head", path(one), **{"HX-Request": "true"}) == queries_for(
        client, three, "head", path(three), **{"HX-Request": "true"}
    )


def test_the_report_xlsx_gives_each_lowered_record_its_loss(head, records):
    _tell, loss = records.game_loss_tell_and_loss()
    response = head.get(
        reverse("judging:report-export", args=[records.desk.tournament.slug, "penalties", "xlsx"])
    )
    content = b"".join(response.streaming_content) if response.streaming else response.content
    (sheet,) = openpyxl.load_workbook(io.BytesIO(content), read_only=True).worksheets
    header, *rows = [list(row) for row in sheet.iter_rows(values_only=True)]
    # A sheet read back drops a row's empty cells at its end: pad them to the header.
    by_id = {
        row[0]: dict(zip(header, row + [None] * (len(header) - len(row)), strict=True))
        for row in rows
    }

    assert records.declined.pk not in by_id and records.revoked.pk not in by_id
    assert by_id[records.to_game_loss.pk]["Поражение"] == loss
    assert by_id[records.to_caution.pk]["Поражение"] == "Поражение отменено: матч не проигран."
    assert by_id[records.to_caution.pk]["Действующее пенальти"] == "Замечание"


def test_the_state_and_the_databases_pending_loss_agree(records):
    """The database keeps ``is_pending_loss`` for the queries that serve losses; the state the
    screens show must say the same of every record."""
    desk = records.desk
    desk.issue(0, "1.4", "between_matches")  # a caution: no loss
    for record in PenaltyRecord.objects.filter(tournament=desk.tournament).select_related(
        *STATE_RELATED
    ):
        assert record.state.loss_is_pending is record.is_pending_loss, record.pk
    assert PenaltyRecord.objects.filter(tournament=desk.tournament, is_pending_loss=True).exists()


def test_the_player_pages_earlier_tournaments_cost_the_same_for_one_record_and_three(client, db):
    """The head judge sees the player's records in other tournaments too, each with its state."""

    def with_elsewhere(count):
        earlier = served_records(count)
        player = earlier.players[0].player
        # Only the federation's staff read a player's other events (issue 30): the head judge is.
        from tournaments.permissions import make_federation_staff

        desk = Desk.create(players=2)
        make_federation_staff(desk.head)
        registration = desk.players[0]
        registration.player = player
        registration.save(update_fields=["player"])
        return desk

    one, three = with_elsewhere(1), with_elsewhere(3)
    path = lambda d: url("player", d, d.players[0].pk)  # noqa: E731

    assert queries_for(client, one, "head", path(one)) == queries_for(
        client, three, "head", path(three)
    )
    html = client.get(path(three)).content.decode()
    assert "Поражение в матче" in html
