"""The floor judge's screens through the test client."""

import re
import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from judging.models import ChangeKind, PenaltyRecord, RecordStatus
from tests.factories import Desk


def url(name, desk, *args):
    return reverse(f"judging:{name}", args=[desk.tournament.slug, *args])


@pytest.fixture
def judge(client, desk):
    desk.pair((0, 1), (2, 3))
    client.force_login(desk.floor)
    return client


def form(desk, player=0, code="1.4", moment="in_game", **extra):
    return {
        "player": desk.players[player].pk,
        "client_key": str(extra.pop("client_key", uuid.uuid4())),
        "infraction": code,
        "moment": moment,
        **extra,
    }


def test_the_organiser_is_not_a_judge(client, desk):
    client.force_login(desk.organiser)

    assert client.get(url("judge-home", desk)).status_code == 403


def test_a_judge_of_another_tournament_sees_nothing(client, desk):
    client.force_login(Desk.create().floor)

    assert client.get(url("judge-home", desk)).status_code == 404


def test_find_a_player_by_table_or_name(judge, desk):
    desk.issue(1, "1.4")

    by_table = judge.get(
        url("judge-home", desk), {"q": "1"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    by_name = judge.get(
        url("judge-home", desk), {"q": desk.players[2].player.name.lower()}, HTTP_HX_REQUEST="true"
    ).content.decode()

    assert by_table.lstrip().startswith('<section id="player-results">')
    assert desk.players[0].player.name in by_table and desk.players[1].player.name in by_table
    assert desk.players[2].player.name not in by_table
    assert "Замечание · 1.4" in by_table
    assert desk.players[2].player.name in by_name


def test_the_log_page_offers_only_available_infractions(judge, desk):
    page = judge.get(url("log", desk), {"player": desk.players[0].pk}).content.decode()

    assert 'value="1.4"' in page and 'value="6.1"' in page
    assert 'value="1.3"' not in page  # deck lists are used in this tournament
    assert 'value="in_game" id="moment-in_game" checked' in page


def test_the_preview_shows_a_repeat_before_submitting(judge, desk):
    desk.issue(0, "1.4")

    response = judge.post(url("preview", desk), form(desk), HTTP_HX_REQUEST="true")

    body = response.content.decode()
    assert body.lstrip().startswith('<section id="penalty-preview"')
    assert "Предупреждение" in body
    assert "повтор 1.4 (уже было: Замечание, тур 1)" in body
    assert PenaltyRecord.objects.count() == 1


def test_the_preview_says_a_disqualification_goes_to_the_head_judge(judge, desk):
    body = judge.post(
        url("preview", desk), form(desk, code="6.1"), HTTP_HX_REQUEST="true"
    ).content.decode()

    assert "главному судье" in body


def test_the_preview_of_an_unavailable_infraction_explains_why(judge, desk):
    body = judge.post(
        url("preview", desk), form(desk, code="1.3"), HTTP_HX_REQUEST="true"
    ).content.decode()

    assert 'role="alert"' in body
    assert "1.3" in body


def test_issuing_shows_the_card_and_a_retry_records_once(judge, desk):
    data = form(desk, code="1.4", sub_item="1.4:б", note="неразборчиво")

    first = judge.post(url("issue", desk), data)
    again = judge.post(url("issue", desk), data)

    record = PenaltyRecord.objects.get()
    assert first.url == again.url == url("record", desk, record.pk)
    assert (record.sub_item, record.note, record.issued_by) == ("б", "неразборчиво", desk.floor)
    card = judge.get(first.url).content.decode()
    assert "Замечание" in card
    assert "Дек-лист приводится игроком в надлежащий вид" in card  # the remedy


def test_a_card_says_plainly_where_the_guidelines_text_is_not_available(judge, desk):
    data = form(desk, code="6.1")

    response = judge.post(url("issue", desk), data)

    card = judge.get(response.url).content.decode()
    assert "доказанное использование помеченных карт" in card  # what rules.md gives
    assert "Собственный текст уложения для этого нарушения" in card
    assert "Главный судья проводит расследование" not in card


def test_a_refused_infraction_is_shown_on_the_form_and_records_nothing(judge, desk):
    response = judge.post(url("issue", desk), form(desk, code="1.3"))

    assert response.status_code == 200
    assert 'role="alert"' in response.content.decode()
    assert PenaltyRecord.objects.count() == 0


def test_undo_asks_the_head_judge_and_deletes_nothing(judge, desk):
    record = desk.issue(0, "1.4", by="floor")

    judge.post(url("record-undo", desk, record.pk), {"reason": "не тот игрок"})

    record.refresh_from_db()
    assert (record.status, record.revocation_requested) == (RecordStatus.IN_FORCE, True)
    assert record.history.last().kind == ChangeKind.REVOCATION_REQUESTED


def test_my_penalties_newest_first(judge, desk):
    desk.issue(0, "1.4", by="floor")
    desk.issue(1, "1.1", by="floor")
    desk.issue(2, "1.4", by="head")

    page = judge.get(url("mine", desk)).content.decode()

    first, second = desk.players[1].player.name, desk.players[0].player.name
    assert page.index(first) < page.index(second)
    assert desk.players[2].player.name not in page


def test_log_page_and_preview_use_a_constant_number_of_queries(client, db):
    from judging.services import revoke_penalty

    counts = []
    for history in (1, 30):
        desk = Desk.create(players=2)
        for _ in range(history):
            desk.issue(0, "1.1", "between_matches")
            # Revoked, so that the next one is not a repeat that ends in a disqualification.
            revoke_penalty(record=PenaltyRecord.objects.last(), author=desk.head, reason="x")
        desk.issue(0, "1.1", "between_matches")
        desk.pair((0, 1))
        client.force_login(desk.floor)

        with CaptureQueriesContext(connection) as queries:
            client.get(url("log", desk), {"player": desk.players[0].pk})
            client.post(url("preview", desk), form(desk, code="1.1"), HTTP_HX_REQUEST="true")
        counts.append(len(queries))

    assert counts[0] == counts[1]


def _checked(page: str, name: str) -> list[str]:
    """The values of the radio buttons of that name that the page shows chosen."""
    return re.findall(rf'name="{name}" value="([^"]+)"\s+id="[^"]+"\s*checked', page)


def test_a_link_fills_in_the_infraction_sub_item_and_note_and_previews_it(judge, desk):
    page = judge.get(
        url("log", desk),
        {"player": desk.players[0].pk, "infraction": "1.1", "sub_item": "в", "note": "3× Вампир"},
    ).content.decode()

    assert _checked(page, "infraction") == ["1.1"]
    assert _checked(page, "sub_item") == ["1.1:в"]
    assert ">3× Вампир</textarea>" in page
    # The preview is already there (1.1's base penalty at this level), not the hint.
    preview = page.split('id="penalty-preview"', 1)[1].split("</section>", 1)[0]
    assert '<p class="big rank-warning">Предупреждение</p>' in preview


def test_a_link_with_a_letter_the_infraction_lacks_chooses_the_infraction_alone(judge, desk):
    page = judge.get(
        url("log", desk), {"player": desk.players[0].pk, "infraction": "1.1", "sub_item": "я"}
    ).content.decode()

    assert _checked(page, "infraction") == ["1.1"]
    assert _checked(page, "sub_item") == []


def test_a_link_with_an_infraction_the_tournament_lacks_chooses_nothing_and_says_so(judge, desk):
    page = judge.get(
        url("log", desk), {"player": desk.players[0].pk, "infraction": "9.99"}
    ).content.decode()

    assert _checked(page, "infraction") == []
    assert "Нарушение 9.99 нельзя выдать в этом турнире: выберите нарушение ниже." in page
    assert PenaltyRecord.objects.count() == 0


def test_a_link_with_an_oversized_note_is_refused_with_a_message(judge, desk):
    response = judge.get(url("log", desk), {"player": desk.players[0].pk, "note": "x" * 2001})

    assert response.status_code == 400
    assert PenaltyRecord.objects.count() == 0
