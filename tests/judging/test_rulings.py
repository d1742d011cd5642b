"""Issue 17 on records: the player's acknowledgement and a disqualification's investigation
(services, permissions and the screens through the test client)."""

import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from core.errors import DomainError
from judging import services
from judging.models import (
    AcknowledgementKind,
    InvestigationStatement,
    PenaltyAcknowledgement,
    RecordStatus,
)
from judging.services.rulings import STATEMENT_MAX_LENGTH
from tests.factories import Desk, UserFactory


def url(name, desk, *args):
    return reverse(f"judging:{name}", args=[desk.tournament.slug, *args])


def refused(code, action, /, **kwargs):
    acknowledgements = list(PenaltyAcknowledgement.objects.values_list("record_id", "kind", "at"))
    statements = list(InvestigationStatement.objects.values_list("id", "text", "at"))
    with pytest.raises(DomainError) as caught:
        action(**kwargs)
    assert caught.value.code == code
    assert str(caught.value.message)
    assert (
        list(PenaltyAcknowledgement.objects.values_list("record_id", "kind", "at"))
        == acknowledgements
    )
    assert list(InvestigationStatement.objects.values_list("id", "text", "at")) == statements
    return caught.value


@pytest.fixture
def dq_desk(db):
    desk = Desk.create(uses_decklists=False)
    desk.pair((0, 1), (2, 3))
    return desk


def statement(record, judge, text="Он вытащил карту из рукава.", role="opponent", **extra):
    return services.add_statement(
        record=record,
        judge=judge,
        role=role,
        author_name=extra.pop("author_name", "Борис"),
        text=text,
        client_key=extra.pop("client_key", uuid.uuid4()),
    )


# --- Acknowledgement: services ---------------------------------------------------------------


def test_the_player_acknowledges_a_penalty_once_with_the_time(desk):
    desk.pair((0, 1), (2, 3))
    record = desk.issue(0, "1.4", by="floor")

    answer = services.acknowledge_penalty(record=record, judge=desk.floor)

    answer.refresh_from_db()
    assert (answer.record, answer.kind, answer.recorded_by) == (
        record,
        AcknowledgementKind.ACKNOWLEDGED,
        desk.floor,
    )
    assert answer.at is not None
    refused(
        "already_acknowledged",
        services.acknowledge_penalty,
        record=record,
        judge=desk.head,
        declined=True,
    )


def test_the_judge_marks_a_refusal_and_it_cannot_become_an_acknowledgement(desk):
    desk.pair((0, 1), (2, 3))
    record = desk.issue(0, "1.4")

    services.acknowledge_penalty(record=record, judge=desk.head, declined=True)

    refused("already_acknowledged", services.acknowledge_penalty, record=record, judge=desk.head)
    assert record.acknowledgement.kind == AcknowledgementKind.DECLINED


def test_only_a_judge_of_the_tournament_records_an_acknowledgement(desk):
    desk.pair((0, 1), (2, 3))
    record = desk.issue(0, "1.4")
    other = Desk.create()

    refused("not_a_judge", services.acknowledge_penalty, record=record, judge=desk.organiser)
    refused("not_a_judge", services.acknowledge_penalty, record=record, judge=other.head)


def test_a_request_waiting_for_the_head_judge_is_not_acknowledged_yet(dq_desk):
    request = dq_desk.issue(0, "6.1", by="floor")

    refused("not_in_force", services.acknowledge_penalty, record=request, judge=dq_desk.floor)


# --- Investigation: services -----------------------------------------------------------------


def test_statements_are_appended_to_a_disqualification_request_in_order(dq_desk):
    request = dq_desk.issue(0, "6.1", by="floor")

    first = statement(request, dq_desk.floor, "Я видел, как он взял карту.", role="opponent")
    second = statement(
        request, dq_desk.floor, "Я ничего не брал.", role="player", author_name="  Алиса "
    )

    assert [(s.role, s.author_name, s.text, s.taken_by) for s in request.statements.all()] == [
        ("opponent", "Борис", "Я видел, как он взял карту.", dq_desk.floor),
        ("player", "Алиса", "Я ничего не брал.", dq_desk.floor),
    ]
    assert first.at <= second.at


def test_a_resent_statement_is_recorded_once(dq_desk):
    request = dq_desk.issue(0, "6.1", by="floor")
    key = uuid.uuid4()

    first = statement(request, dq_desk.floor, client_key=key)
    again = statement(request, dq_desk.floor, client_key=key)

    assert again == first
    assert request.statements.count() == 1


@pytest.mark.parametrize(
    ("text", "name", "role", "code"),
    [
        ("", "Борис", "opponent", "statement_required"),
        ("   \n ", "Борис", "opponent", "statement_required"),
        ("я" * (STATEMENT_MAX_LENGTH + 1), "Борис", "opponent", "statement_too_long"),
        ("Видел.", "", "witness", "name_required"),
        ("Видел.", "Б" * 201, "witness", "name_too_long"),
        ("Видел.", "Борис", "judge_of_the_moon", "bad_role"),
    ],
)
def test_an_empty_or_oversized_statement_is_refused(dq_desk, text, name, role, code):
    request = dq_desk.issue(0, "6.1", by="floor")

    error = refused(
        code,
        services.add_statement,
        record=request,
        judge=dq_desk.floor,
        role=role,
        author_name=name,
        text=text,
        client_key=uuid.uuid4(),
    )
    assert error.field in ("text", "author_name", "role")


def test_statements_belong_only_to_disqualifications(desk):
    desk.pair((0, 1), (2, 3))
    record = desk.issue(0, "1.4")

    refused(
        "not_investigated",
        services.add_statement,
        record=record,
        judge=desk.head,
        role="player",
        author_name="Алиса",
        text="Я не знала.",
        client_key=uuid.uuid4(),
    )


def test_only_judges_of_the_tournament_take_statements(dq_desk):
    request = dq_desk.issue(0, "6.1", by="floor")

    for outsider in (dq_desk.organiser, UserFactory(username="passer-by")):
        refused(
            "not_a_judge",
            services.add_statement,
            record=request,
            judge=outsider,
            role="witness",
            author_name="Кто-то",
            text="Видел.",
            client_key=uuid.uuid4(),
        )


def test_a_head_judges_own_disqualification_and_a_confirmed_one_carry_statements(dq_desk):
    own = dq_desk.issue(0, "6.1")
    request = dq_desk.issue(2, "6.1", by="floor")
    services.confirm_request(record=request, head_judge=dq_desk.head, reason="Видел сам.")

    statement(own, dq_desk.head, role="judge", author_name="Главный судья")
    statement(request, dq_desk.head, "Уточнение: это была вторая карта.")

    assert own.statements.count() == request.statements.count() == 1


def test_a_disqualification_is_confirmed_only_with_reasoning(dq_desk):
    request = dq_desk.issue(0, "6.1", by="floor")

    with pytest.raises(DomainError) as caught:
        services.confirm_request(record=request, head_judge=dq_desk.head, reason="  ")
    assert caught.value.code == "reason_required"
    request.refresh_from_db()
    assert request.status == RecordStatus.AWAITING_HEAD_JUDGE

    services.confirm_request(record=request, head_judge=dq_desk.head, reason="Видел сам.")

    request.refresh_from_db()
    assert request.status == RecordStatus.IN_FORCE
    assert request.history.get(kind="confirmed").reason == "Видел сам."


# --- Screens and permissions -----------------------------------------------------------------


def test_the_card_offers_the_players_name_and_records_the_tap(client, desk):
    desk.pair((0, 1), (2, 3))
    record = desk.issue(0, "1.4", by="floor")
    client.force_login(desk.floor)
    name = desk.players[0].player.name

    card = client.get(url("record", desk, record.pk)).content.decode()
    assert f"Я, {name}, ознакомлен(а) с этим пенальти" in card

    response = client.post(url("record-acknowledge", desk, record.pk), {"answer": "acknowledged"})

    assert response.status_code == 302
    assert record.acknowledgement.kind == AcknowledgementKind.ACKNOWLEDGED
    card = client.get(url("record", desk, record.pk)).content.decode()
    assert "Игрок подтвердил, что ему объявлено пенальти" in card
    assert 'id="acknowledge-form"' not in card

    again = client.post(
        url("record-acknowledge", desk, record.pk), {"answer": "declined"}, follow=True
    )
    assert "уже записан" in again.content.decode()
    assert 'data-code="already_acknowledged"' in again.content.decode()
    record.acknowledgement.refresh_from_db()
    assert record.acknowledgement.kind == AcknowledgementKind.ACKNOWLEDGED


def test_the_console_record_shows_the_players_answer(client, desk):
    desk.pair((0, 1), (2, 3))
    record = desk.issue(0, "1.4", by="floor")
    client.force_login(desk.head)
    assert "не подтвердил" in client.get(url("console-record", desk, record.pk)).content.decode()

    services.acknowledge_penalty(record=record, judge=desk.floor, declined=True)

    page = client.get(url("console-record", desk, record.pk)).content.decode()
    assert "Игрок отказался подтвердить" in page


@pytest.mark.parametrize("answer", ["", "maybe", "\u200b"])
def test_a_bad_answer_is_refused_with_a_message(client, desk, answer):
    desk.pair((0, 1), (2, 3))
    record = desk.issue(0, "1.4", by="floor")
    client.force_login(desk.floor)

    response = client.post(
        url("record-acknowledge", desk, record.pk), {"answer": answer}, follow=True
    )

    assert response.status_code == 200
    assert not PenaltyAcknowledgement.objects.exists()
    assert 'data-code="bad_answer"' in response.content.decode()


def test_the_organiser_cannot_record_an_answer_or_a_statement(client, dq_desk):
    request = dq_desk.issue(0, "6.1", by="floor")
    client.force_login(dq_desk.organiser)

    statement_response = client.post(
        url("record-statement", dq_desk, request.pk),
        {"client_key": uuid.uuid4(), "role": "witness", "author_name": "Ольга", "text": "Видела."},
    )
    answer_response = client.post(
        url("record-acknowledge", dq_desk, request.pk), {"answer": "acknowledged"}
    )

    assert statement_response.status_code == answer_response.status_code == 403
    assert not InvestigationStatement.objects.exists()


def test_a_floor_judges_tablet_takes_the_players_statement(client, dq_desk):
    request = dq_desk.issue(0, "6.1", by="floor")
    client.force_login(dq_desk.floor)

    card = client.get(url("record", dq_desk, request.pk)).content.decode()
    assert 'id="statement-form"' in card

    response = client.post(
        url("record-statement", dq_desk, request.pk),
        {
            "client_key": uuid.uuid4(),
            "role": "player",
            "author_name": "Алиса",
            "text": "Карта упала\nсама.",
        },
    )

    assert response.status_code == 302
    card = client.get(url("record", dq_desk, request.pk)).content.decode()
    assert "Карта упала<br>сама." in card
    assert "Игрок: Алиса" in card


@pytest.mark.parametrize(
    ("text", "message"),
    [("", "Напишите объяснение."), ("я" * (STATEMENT_MAX_LENGTH + 1), "не длиннее")],
)
def test_a_refused_statement_is_shown_again_with_its_message(client, dq_desk, text, message):
    request = dq_desk.issue(0, "6.1", by="floor")
    client.force_login(dq_desk.floor)

    response = client.post(
        url("record-statement", dq_desk, request.pk),
        {"client_key": uuid.uuid4(), "role": "player", "author_name": "Алиса", "text": text},
    )

    assert response.status_code == 200
    assert message in response.content.decode()
    assert not InvestigationStatement.objects.exists()


def test_no_screen_changes_or_removes_a_statement(client, dq_desk):
    request = dq_desk.issue(0, "6.1", by="floor")
    saved = statement(request, dq_desk.floor)
    client.force_login(dq_desk.head)

    for method in (client.put, client.delete, client.patch):
        response = method(url("record-statement", dq_desk, request.pk))
        assert response.status_code == 405
    client.post(
        url("record-statement", dq_desk, request.pk),
        {"client_key": saved.client_key, "role": "player", "author_name": "Х", "text": "Иное."},
    )

    saved.refresh_from_db()
    assert (saved.text, InvestigationStatement.objects.count()) == (
        "Он вытащил карту из рукава.",
        1,
    )


def test_the_head_judges_record_page_shows_the_investigation_and_asks_for_reasoning(
    client, dq_desk
):
    request = dq_desk.issue(0, "6.1", by="floor")
    statement(request, dq_desk.floor, "Видел карту в рукаве.")
    client.force_login(dq_desk.head)

    page = client.get(url("console-record", dq_desk, request.pk)).content.decode()

    assert "Видел карту в рукаве." in page
    assert "Соперник: Борис" in page
    assert 'textarea name="reason" rows="4" required' in page

    step = client.post(url("console-act", dq_desk, request.pk, "confirm"), {}).content.decode()
    assert "Видел карту в рукаве." in step
    client.post(
        url("console-act", dq_desk, request.pk, "confirm"),
        {"effects_seen": "1", "reason": "Показания соперника и судьи совпадают."},
    )

    page = client.get(url("console-record", dq_desk, request.pk)).content.decode()
    assert "Решение главного судьи" in page
    assert "Показания соперника и судьи совпадают." in page


def test_the_console_log_marks_the_players_answers_in_a_constant_number_of_queries(client, desk):
    desk.pair((0, 1), (2, 3))
    told = desk.issue(0, "1.4", by="floor")
    services.acknowledge_penalty(record=told, judge=desk.floor)
    client.force_login(desk.head)
    with CaptureQueriesContext(connection) as one:
        page = client.get(url("console", desk)).content.decode()
    assert "игрок подтвердил" in page

    for player in (1, 2):
        refused_ = desk.issue(player, "1.4", by="floor")
        services.acknowledge_penalty(record=refused_, judge=desk.floor, declined=True)
    with CaptureQueriesContext(connection) as three:
        page = client.get(url("console", desk)).content.decode()

    assert page.count("игрок отказался подтвердить") == 2
    assert len(three.captured_queries) == len(one.captured_queries)
