"""Penalties a tablet kept while offline (issue 33), on the server: the moment of entry by the
tablet's clock checked against the server's, a skewed clock flagged, a replay of one intention
recorded once, a penalty from another round refused, and the worker's JSON answers."""

import datetime
import uuid

import pytest
from django.urls import reverse
from django.utils import timezone

from core.errors import DomainError
from judging.models import PenaltyRecord

pytestmark = pytest.mark.django_db


def url(name, desk):
    return reverse(f"judging:{name}", args=[desk.tournament.slug])


@pytest.fixture
def judge(client, desk):
    desk.pair((0, 1), (2, 3))
    client.force_login(desk.floor)
    return client


def form(desk, player=0, **extra):
    return {
        "player": desk.players[player].pk,
        "client_key": str(extra.pop("client_key", uuid.uuid4())),
        "infraction": "1.4",
        "moment": "in_game",
        "round_seen": desk.match_of(player).round_id,
        **extra,
    }


def test_a_penalty_kept_offline_keeps_the_moment_it_was_entered(desk):
    desk.pair((0, 1), (2, 3))
    now = timezone.now()
    # Entered 20 minutes ago, sent a second ago, on a tablet whose clock agrees with the server.
    record = desk.issue(
        0,
        "1.4",
        by="floor",
        entered_at=now - datetime.timedelta(minutes=20),
        sent_at=now - datetime.timedelta(seconds=1),
    )

    record.refresh_from_db()
    assert abs(record.tablet_clock_skew) <= 2
    assert abs(record.entered_at - (now - datetime.timedelta(minutes=20))).total_seconds() <= 2
    assert (record.entered_before_sent, record.tablet_clock_was_off) == (True, False)


def test_a_tablet_clock_far_off_is_flagged_and_the_moment_moved_to_the_servers_clock(desk):
    desk.pair((0, 1), (2, 3))
    now = timezone.now()
    # The tablet's clock is an hour behind: entered 10 minutes before it was sent.
    tablet_now = now - datetime.timedelta(hours=1)
    record = desk.issue(
        0,
        "1.4",
        by="floor",
        entered_at=tablet_now - datetime.timedelta(minutes=10),
        sent_at=tablet_now,
    )

    record.refresh_from_db()
    assert 3599 <= record.tablet_clock_skew <= 3601
    assert record.tablet_clock_was_off is True
    assert record.tablet_clock_skew_minutes == 60
    expected = now - datetime.timedelta(minutes=10)
    assert abs((record.entered_at - expected).total_seconds()) <= 2
    assert record.entered_on_tablet_at == tablet_now - datetime.timedelta(minutes=10)


def test_a_record_without_the_tablets_clock_has_no_moment_of_entry(desk):
    desk.pair((0, 1), (2, 3))
    record = desk.issue(0, "1.4", by="floor")
    assert (record.entered_at, record.tablet_clock_skew, record.tablet_clock_was_off) == (
        None,
        None,
        False,
    )


def test_a_penalty_sent_before_it_was_entered_is_refused(desk):
    desk.pair((0, 1), (2, 3))
    now = timezone.now()
    with pytest.raises(DomainError) as refused:
        desk.issue(0, "1.4", entered_at=now, sent_at=now - datetime.timedelta(minutes=1))
    assert refused.value.code == "entered_after_sent"
    assert not PenaltyRecord.objects.exists()


def test_a_penalty_entered_in_an_earlier_round_is_refused(desk):
    desk.pair((0, 1), (2, 3))
    first_round = desk.match_of(0).round_id
    for player in (0, 2):
        desk.win(player)
        desk.win(player)  # two wins of three decide the match
    desk.pair((0, 2), (1, 3))

    with pytest.raises(DomainError) as refused:
        desk.issue(0, "1.4", round_seen=first_round)
    assert refused.value.code == "round_changed"
    assert "сейчас: раунд 2" in str(refused.value.message)
    with pytest.raises(DomainError) as before_any:
        desk.issue(0, "1.4", round_seen=0)
    assert before_any.value.code == "round_changed"
    assert not PenaltyRecord.objects.exists()


def test_the_workers_replay_records_once_whatever_earlier_tries_did(judge, desk):
    now = timezone.now()
    data = form(
        desk,
        entered_at=(now - datetime.timedelta(minutes=5)).isoformat(),
        sent_at=now.isoformat(),
    )
    # The first try reached the server through the page; its answer was lost.
    judge.post(url("issue", desk), data)
    # The worker sends the same intention twice more (a stopped worker, a second sync).
    replays = [judge.post(url("issue-queued", desk), data) for _ in range(2)]

    record = PenaltyRecord.objects.get()
    assert [reply.status_code for reply in replays] == [200, 200]
    assert [reply.json() for reply in replays] == [
        {
            "status": "recorded",
            "created": False,
            "record": record.pk,
            "url": reverse("judging:record", args=[desk.tournament.slug, record.pk]),
            "clock_off": False,
        }
    ] * 2
    assert record.entered_at is not None


def test_the_worker_is_told_a_refusal_with_its_code_and_message(judge, desk):
    desk.issue(0, "6.1", "between_matches")  # the head judge disqualifies the player meanwhile

    reply = judge.post(url("issue-queued", desk), form(desk, moment="between_matches"))

    assert reply.status_code == 409
    assert reply.json()["code"] == "player_disqualified"
    assert "дисквалифицирован" in reply.json()["message"]
    assert PenaltyRecord.objects.filter(issued_by=desk.floor).count() == 0


def test_the_worker_is_told_a_malformed_entry_is_refused(judge, desk):
    reply = judge.post(url("issue-queued", desk), form(desk, infraction="", entered_at="вчера"))

    assert reply.status_code == 400
    assert reply.json()["code"] == "bad_form"
    assert not PenaltyRecord.objects.exists()


def test_the_card_shows_when_a_penalty_was_entered_and_a_clock_that_was_off(judge, desk):
    now = timezone.now()
    tablet_now = now + datetime.timedelta(minutes=30)
    judge.post(
        url("issue-queued", desk),
        form(
            desk,
            entered_at=(tablet_now - datetime.timedelta(minutes=15)).isoformat(),
            sent_at=tablet_now.isoformat(),
        ),
    )
    record = PenaltyRecord.objects.get()

    card = judge.get(reverse("judging:record", args=[desk.tournament.slug, record.pk]))

    page = card.content.decode()
    entered = timezone.localtime(record.entered_at).strftime("%H:%M")
    tablet = timezone.localtime(record.entered_on_tablet_at).strftime("%H:%M")
    assert f"Внесено на планшете в {entered}" in page
    assert (
        f"Часы планшета расходились с сервером на 30 мин: время внесения — {entered} по часам "
        f"сервера (на планшете было {tablet})."
    ) in page


def test_the_log_form_names_the_round_it_shows(judge, desk):
    page = judge.get(url("log", desk), {"player": desk.players[0].pk}).content.decode()
    assert f'name="round_seen" value="{desk.match_of(0).round_id}"' in page
    assert 'name="entered_at"' in page


def test_the_service_worker_is_served_at_the_root_uncached(client, db):
    reply = client.get("/sw.js")

    assert reply.status_code == 200
    assert reply["Content-Type"] == "text/javascript; charset=utf-8"
    assert "no-cache" in reply["Cache-Control"]
    body = reply.content.decode()
    assert "vendor/workbox-7.4.1/workbox-background-sync.prod.js" in body
    assert "js/desk_sw.js" in body
