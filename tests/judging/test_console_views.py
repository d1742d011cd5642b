"""The head judge's console through the test client: log, filters, requests, permissions."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from judging.models import ChangeKind, Infraction, PenaltyRecord, RecordStatus
from judging.selectors import infraction_sections
from judging.services import request_revocation
from tests.factories import Desk
from tournaments.models import Match


def url(name, desk, *args):
    return reverse(f"judging:{name}", args=[desk.tournament.slug, *args])


@pytest.fixture
def head(client, desk):
    desk.pair((0, 1), (2, 3))
    client.force_login(desk.head)
    return client


def test_the_log_lists_every_record_newest_first_with_its_explanation(head, desk):
    desk.issue(0, "1.4")
    desk.issue(0, "1.4", by="floor")
    desk.issue(2, "1.1")

    page = head.get(url("console", desk)).content.decode()

    log = page[page.index('id="penalty-log"') :]
    assert log.index(desk.players[2].player.name) < log.index(desk.players[0].player.name)
    assert "повтор 1.4 (уже было: Замечание, тур 1)" in page
    assert desk.floor.username in page


def test_filters_narrow_the_log_and_the_fragment_keeps_them(head, desk):
    desk.issue(0, "1.4")
    desk.issue(2, "1.1")

    fragment = head.get(
        url("console", desk),
        {"fragment": "penalty-log", "player": desk.players[2].pk},
        HTTP_HX_REQUEST="true",
    ).content.decode()

    assert fragment.lstrip().startswith('<section id="penalty-log"')
    assert desk.players[2].player.name in fragment
    assert f">{desk.players[0].player.name}<" not in fragment
    assert f"player={desk.players[2].pk}" in fragment  # the live re-fetch keeps the filter


def test_the_queue_shows_requests_and_revocation_requests(head, desk):
    request = desk.issue(0, "6.1", by="floor")
    record = desk.issue(2, "1.4", by="floor")
    request_revocation(record=record, judge=desk.floor, reason="не тот игрок")

    fragment = head.get(
        url("console", desk), {"fragment": "request-queue"}, HTTP_HX_REQUEST="true"
    ).content.decode()

    assert fragment.lstrip().startswith('<section id="request-queue"')
    assert desk.players[0].player.name in fragment and desk.players[2].player.name in fragment
    assert url("console-act", desk, request.pk, "confirm") in fragment


def test_confirming_a_disqualification_is_a_second_step_that_states_its_effects(head, desk):
    request = desk.issue(0, "6.1", by="floor")

    first = head.post(url("console-act", desk, request.pk, "confirm"), {"next": "console"})

    request.refresh_from_db()
    body = first.content.decode()
    assert first.status_code == 200
    assert request.status == RecordStatus.AWAITING_HEAD_JUDGE
    assert "покидает турнир сразу" in body
    assert "сохраняет право на призы" in body
    assert 'name="effects_seen" value="1"' in body
    assert body.count("<h1") == 1

    unreasoned = head.post(
        url("console-act", desk, request.pk, "confirm"), {"next": "console", "effects_seen": "1"}
    )

    request.refresh_from_db()
    assert unreasoned.status_code == 200
    assert request.status == RecordStatus.AWAITING_HEAD_JUDGE
    assert "Укажите причину решения." in unreasoned.content.decode()

    second = head.post(
        url("console-act", desk, request.pk, "confirm"),
        {"next": "console", "effects_seen": "1", "reason": "Видел сам: карта из рукава."},
    )

    request.refresh_from_db()
    assert second.url == url("console", desk)
    assert request.status == RecordStatus.IN_FORCE
    assert request.history.get(kind="confirmed").reason == "Видел сам: карта из рукава."


def test_a_record_page_has_no_duplicate_ids(head, desk):
    record = desk.issue(0, "1.4")
    request_revocation(record=record, judge=desk.floor, reason="не тот игрок")

    body = head.get(url("console-record", desk, record.pk)).content.decode()

    ids = re.findall(r'\sid="([^"]+)"', body)
    assert ids and len(ids) == len(set(ids))


def test_amend_names_the_later_records_and_keeps_history(head, desk):
    first = desk.issue(0, "1.4")
    desk.issue(0, "1.4")

    response = head.post(
        url("console-act", desk, first.pk, "amend"), {"to_rank": 2, "reason": "грубо"}, follow=True
    )

    first.refresh_from_db()
    later = PenaltyRecord.objects.get(repeat_of=first)
    body = response.content.decode()
    assert first.rank == 2
    assert f"#{later.pk}" in body
    assert "грубо" in body  # the history shows the reason


def test_revoke_needs_a_reason_and_keeps_the_record(head, desk):
    record = desk.issue(0, "1.4")

    head.post(url("console-act", desk, record.pk, "revoke"), {"reason": ""})
    record.refresh_from_db()
    assert record.status == RecordStatus.IN_FORCE

    head.post(url("console-act", desk, record.pk, "revoke"), {"reason": "ошибка"})
    record.refresh_from_db()
    assert record.status == RecordStatus.REVOKED
    assert record.history.last().kind == ChangeKind.REVOKED


def test_keep_a_record_a_judge_asked_to_revoke(head, desk):
    record = desk.issue(0, "1.4", by="floor")
    request_revocation(record=record, judge=desk.floor, reason="?")

    head.post(url("console-act", desk, record.pk, "keep"), {"reason": "верно выдано"})

    record.refresh_from_db()
    assert (record.status, record.revocation_requested) == (RecordStatus.IN_FORCE, False)


@pytest.mark.parametrize("action", ["confirm", "decline", "amend", "revoke", "keep"])
def test_a_floor_judge_cannot_act_as_head_judge(client, desk, action):
    desk.pair((0, 1), (2, 3))
    record = desk.issue(0, "6.1", by="floor")
    client.force_login(desk.floor)

    response = client.post(
        url("console-act", desk, record.pk, action), {"reason": "x", "to_rank": 1}
    )

    record.refresh_from_db()
    assert response.status_code == 403
    assert record.status == RecordStatus.AWAITING_HEAD_JUDGE
    assert client.get(url("console", desk)).status_code == 403


def test_the_player_page_shows_earlier_tournaments_to_the_official_head_judge_only(client, db):
    """Only an official representative as head judge (tournaments/permissions.py)."""
    from tournaments.permissions import make_official_representative
    from tournaments.services import register_player

    earlier = Desk.create()
    earlier.pair((0, 1), (2, 3))
    earlier.issue(0, "1.4")
    desk = Desk.create(players=0, head_judge_is_official=True)
    make_official_representative(desk.head)

    registration = register_player(tournament=desk.tournament, player=earlier.players[0].player)

    client.force_login(desk.head)
    page = client.get(url("player", desk, registration.pk)).content.decode()
    assert earlier.tournament.name in page
    client.force_login(desk.floor)
    page = client.get(url("player", desk, registration.pk)).content.decode()
    assert earlier.tournament.name not in page


def test_the_console_log_answers_in_a_constant_number_of_queries(client, db):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for records in (1, 3):
        desk = Desk.create()
        desk.pair((0, 1), (2, 3))
        for index in range(records):
            desk.issue(index % 4, "1.4")
        client.force_login(desk.head)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url("console", desk)).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_the_event_stream_is_for_staff_only(client, desk):
    client.force_login(Desk.create().head)

    assert client.get(url("events", desk)).status_code == 404


def test_an_amended_record_is_marked_on_the_player_page(head, desk):
    first = desk.issue(0, "1.4")
    head.post(url("console-act", desk, first.pk, "amend"), {"to_rank": 2, "reason": "грубо"})

    body = head.get(url("player", desk, desk.players[0].pk)).content.decode()

    assert "Выдано как «Замечание»; главный судья повысил его до «Предупреждение»." in body


def test_my_penalties_name_the_round_in_full(client, desk):
    desk.pair((0, 1), (2, 3))
    desk.issue(0, "1.4", by="floor")
    client.force_login(desk.floor)

    body = client.get(url("mine", desk)).content.decode()

    assert '<span class="round-no">Тур 1</span>' in body


def test_an_added_section_without_a_name_gets_a_title():
    added = Infraction(code="4.1", section="4", section_name="", name="Шум")
    shipped = Infraction(code="1.4", section="1", section_name="Проблемы с колодой", name="x")

    # Without a request the active language is whatever the last test left: Russian here.
    with translation.override("ru"):
        titles = [title for title, _items in infraction_sections(infractions=[shipped, added])]

    assert titles == ["1. Проблемы с колодой", "Раздел 4"]


def test_the_queue_offers_to_put_a_request_in_force_at_another_rank(head, desk):
    request = desk.issue(0, "6.1", by="floor")

    fragment = head.get(
        url("console", desk), {"fragment": "request-queue"}, HTTP_HX_REQUEST="true"
    ).content.decode()

    form = fragment[fragment.index(url("console-act", desk, request.pk, "amend")) :]
    form = form[: form.index("</form>")]
    assert 'name="to_rank"' in form and 'name="reason"' in form
    assert '<option value="4">Поражение в матче</option>' in form
    assert '<option value="5" disabled>Дисквалификация</option>' in form
    assert "Ввести в силу с этой силой" in form


def test_a_disqualification_request_put_in_force_as_a_match_loss_never_removes_the_player(
    head, desk
):
    request = desk.issue(0, "6.1", by="floor")

    response = head.post(
        url("console-act", desk, request.pk, "amend"),
        {"next": "console", "to_rank": 4, "reason": "Недостаточно доказательств"},
    )

    assert response.url == url("console", desk)
    request.refresh_from_db()
    desk.players[0].refresh_from_db()
    lost = Match.objects.get(player1=desk.players[0])
    assert (request.status, request.rank, request.served_match_id) == (
        RecordStatus.IN_FORCE,
        4,
        lost.pk,
    )
    assert (lost.player1_wins, lost.player2_wins, lost.player1_lost_by_penalty) == (0, 2, True)
    assert (desk.players[0].status, desk.players[0].prize_eligible) == ("playing", True)
    amended = request.history.get(kind=ChangeKind.AMENDED)
    assert (amended.from_status, amended.to_status, amended.reason) == (
        RecordStatus.AWAITING_HEAD_JUDGE,
        RecordStatus.IN_FORCE,
        "Недостаточно доказательств",
    )


def test_the_record_page_of_a_request_offers_another_rank(head, desk):
    request = desk.issue(0, "6.1", by="floor")

    body = head.get(url("console-record", desk, request.pk)).content.decode()

    assert url("console-act", desk, request.pk, "amend") in body
    assert "Ввести в силу с другой силой" in body


def test_revoking_a_served_match_loss_leads_to_that_matchs_correction(head, desk):
    record = desk.issue(0, "6.1")  # the disqualification's match loss takes the match
    match_id = record.served_match_id

    response = head.post(url("console-act", desk, record.pk, "revoke"), {"reason": "ошибка"})

    correction = reverse("tournaments:match", args=[desk.tournament.slug, match_id])
    assert response.url == f"{correction}#correction"
    page = head.get(correction).content.decode()
    assert "Отменено. Поражение, которое оно принесло, остаётся в результатах" in page
    assert 'id="correction"' in page


def test_revoking_a_penalty_without_a_served_loss_stays_on_the_record(head, desk):
    record = desk.issue(0, "1.4")

    response = head.post(url("console-act", desk, record.pk, "revoke"), {"reason": "ошибка"})

    assert response.url == url("console-record", desk, record.pk)


def test_lowering_a_served_game_loss_leads_to_that_matchs_correction(client, db):
    desk = Desk.create(level="professional")
    desk.pair((0, 1), (2, 3))
    record = desk.issue(0, "1.1")  # a game loss takes the current game
    client.force_login(desk.head)

    response = client.post(
        url("console-act", desk, record.pk, "amend"), {"to_rank": 2, "reason": "мягче"}
    )

    match = Match.objects.get(player1=desk.players[0])
    correction = reverse("tournaments:match", args=[desk.tournament.slug, match.pk])
    assert response.url == f"{correction}#correction"
    record.refresh_from_db()
    assert (record.rank, record.served_game.match_id) == (2, match.pk)


def test_raising_a_penalty_stays_on_the_record(head, desk):
    record = desk.issue(0, "1.4")

    response = head.post(
        url("console-act", desk, record.pk, "amend"), {"to_rank": 3, "reason": "строже"}
    )

    assert response.url == url("console-record", desk, record.pk)
