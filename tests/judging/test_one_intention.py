"""One intention, one record (issue 26 item 2): a key sent again returns its record, and the same
infraction for the same player by the same judge within a few minutes under a new key needs an
explicit confirmation that names the first record."""

import datetime
import re
import uuid

import pytest
from django.urls import reverse
from django.utils import timezone

from judging import services
from judging.models import PenaltyRecord, RecordStatus
from judging.services.issuing import SECOND_PENALTY_WINDOW


def url(name, desk, *args):
    return reverse(f"judging:{name}", args=[desk.tournament.slug, *args])


def form(desk, player=0, code="1.4", **extra):
    return {
        "player": desk.players[player].pk,
        "client_key": str(extra.pop("client_key", uuid.uuid4())),
        "infraction": code,
        "moment": "in_game",
        **extra,
    }


@pytest.fixture
def judge(client, desk):
    desk.pair((0, 1), (2, 3))
    client.force_login(desk.floor)
    return client


def issue(desk, *, by=None, code="1.4", player=0, **extra):
    return services.issue_penalty(
        registration=desk.players[player],
        infraction_code=code,
        moment="between_matches",
        issued_by=by or desk.floor,
        client_key=extra.pop("client_key", uuid.uuid4()),
        **extra,
    )


def test_the_same_infraction_again_by_the_same_judge_is_refused_naming_the_first(desk):
    first = issue(desk).record

    with pytest.raises(services.SecondPenaltyUnconfirmed) as refused:
        issue(desk)

    assert refused.value.code == "second_penalty_unconfirmed"
    assert refused.value.first.pk == first.pk
    name = desk.players[0].player.name
    assert f"Вы уже записали 1.4 игроку {name} в " in refused.value.message
    assert "Замечание" in refused.value.message
    assert list(PenaltyRecord.objects.values_list("pk", flat=True)) == [first.pk]


def test_confirmed_it_is_recorded_as_a_second_infraction(desk):
    first = issue(desk).record

    second = issue(desk, confirm_second=True)

    assert second.created
    assert second.record.repeat_of_id == first.pk
    assert [r.rank for r in PenaltyRecord.objects.order_by("id")] == [1, 2]


def test_the_key_sent_again_returns_the_record_rather_than_asking(desk):
    key = uuid.uuid4()
    first = issue(desk, client_key=key).record

    again = issue(desk, client_key=key)

    assert (again.created, again.record.pk) == (False, first.pk)
    assert PenaltyRecord.objects.count() == 1


@pytest.mark.parametrize(
    "change",
    ["another judge", "another infraction", "another player", "after the window", "revoked"],
)
def test_no_confirmation_is_asked_for_what_is_not_a_repeated_tap(desk, change):
    first = issue(desk).record
    if change == "after the window":
        PenaltyRecord.objects.filter(pk=first.pk).update(
            issued_at=timezone.now() - SECOND_PENALTY_WINDOW - datetime.timedelta(seconds=1)
        )
    if change == "revoked":
        PenaltyRecord.objects.filter(pk=first.pk).update(status=RecordStatus.REVOKED)

    outcome = issue(
        desk,
        by=desk.head if change == "another judge" else desk.floor,
        code="1.1" if change == "another infraction" else "1.4",
        player=1 if change == "another player" else 0,
    )

    assert outcome.created
    assert PenaltyRecord.objects.count() == 2


def test_a_request_to_the_head_judge_counts_as_the_first(desk):
    first = issue(desk, code="6.1").record
    assert first.status == RecordStatus.AWAITING_HEAD_JUDGE

    with pytest.raises(services.SecondPenaltyUnconfirmed) as refused:
        issue(desk, code="6.1")

    assert refused.value.first.pk == first.pk
    assert PenaltyRecord.objects.count() == 1


def test_the_form_stops_with_a_separate_confirmation_and_then_records(judge, desk):
    first = judge.post(url("issue", desk), form(desk, note="первое"))
    record = PenaltyRecord.objects.get()
    data = form(desk, note="второе")

    refused = judge.post(url("issue", desk), data)

    assert first.status_code == 302
    assert refused.status_code == 200
    page = refused.content.decode()
    assert 'data-code="second_penalty_unconfirmed"' in page
    assert f"Вы уже записали 1.4 игроку {desk.players[0].player.name}" in page
    assert f'href="{url("record", desk, record.pk)}"' in page  # the first, named and linked
    assert 'name="confirm_second" value="on"' in page
    assert "Да, это второе нарушение" in page
    assert "Записать пенальти" not in page  # the only way on is the explicit confirmation
    assert f'value="{data["client_key"]}"' in page  # the same intention, the same key
    assert "второе</textarea>" in page
    assert PenaltyRecord.objects.count() == 1

    confirmed = judge.post(url("issue", desk), {**data, "confirm_second": "on"})

    second = PenaltyRecord.objects.exclude(pk=record.pk).get()
    assert confirmed.url == url("record", desk, second.pk)
    assert (second.rank, second.note, second.repeat_of_id) == (2, "второе", record.pk)


def test_a_submit_that_came_back_through_the_sign_in_page_opens_the_form_again(judge, desk):
    player = desk.players[0].pk

    back = judge.get(url("issue", desk), {"player": player})
    unknown = judge.get(url("issue", desk), {"player": 999999})

    assert back.status_code == 302
    assert back.url == f"{url('log', desk)}?player={player}"
    assert unknown.url == url("judge-home", desk)
    assert PenaltyRecord.objects.count() == 0


def test_the_form_names_its_player_in_its_action_and_its_tablet_state(judge, desk):
    page = judge.get(url("log", desk), {"player": desk.players[0].pk}).content.decode()

    player = desk.players[0].pk
    assert f'action="{url("issue", desk)}?player={player}"' in page
    assert f'data-form-state="{desk.tournament.slug}:{desk.floor.pk}:{player}"' in page
    assert '<p class="notice" id="form-restored" role="status" hidden>' in page
    assert "Восстановлено то, что вы ввели." in page
    assert "js/log_form.js" in page


def test_the_preview_follows_the_players_new_records(judge, desk):
    # The test client is not an ASGI server, so the page polls (as the console does there).
    page = judge.get(url("log", desk), {"player": desk.players[0].pk}).content.decode()
    preview = judge.post(url("preview", desk), form(desk), HTTP_HX_REQUEST="true")

    poll = f'hx-post="{url("preview", desk)}" hx-trigger="every 3s'
    assert poll in page
    assert poll in preview.content.decode()
    assert "Замечание" in preview.content.decode()

    desk.issue(0, "1.4", by="head")  # another tablet records one meanwhile

    again = judge.post(url("preview", desk), form(desk), HTTP_HX_REQUEST="true")
    body = again.content.decode()
    assert "Предупреждение" in body
    # The header's list of the player's penalties follows, out of band.
    assert '<div id="player-penalties" hx-swap-oob="true">' in body
    assert re.search(r'<span class="tag rank-caution"\s*>Замечание · 1\.4</span>', body)
    assert "в этом турнире пенальти нет" in preview.content.decode()


def test_the_record_card_tells_the_tablet_its_key_is_recorded(judge, desk):
    data = form(desk)
    response = judge.post(url("issue", desk), data)

    card = judge.get(response.url).content.decode()

    assert f'data-recorded-key="{data["client_key"]}"' in card


def test_a_link_that_fills_the_form_says_so_to_the_tablet(judge, desk):
    player = desk.players[0].pk

    linked = judge.get(url("log", desk), {"player": player, "infraction": "1.1", "note": "находка"})
    plain = judge.get(url("log", desk), {"player": player})

    assert 'data-prefilled="1"' in linked.content.decode()
    assert "data-prefilled" not in plain.content.decode()
