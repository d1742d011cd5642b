"""The judge report's floor section: time extensions, and judge calls with response times."""

import datetime
import io
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from floor import services
from floor.models import JudgeCall
from judging.report import write_html

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(desk):
    desk.pair((0, 1), (2, 3))
    services.extend_time(
        match=desk.match_of(0),
        minutes=3,
        reason="deck_check",
        given_by=desk.floor,
        client_key=uuid.uuid4(),
    )
    call = services.call_judge(tournament=desk.tournament, table=2, caller="x")
    services.claim_call(call=call, judge=desk.floor)
    services.resolve_call(call=call, judge=desk.floor)
    # The judge took the call 95 seconds after it was made and resolved it 4 minutes later.
    made = call.created_at
    JudgeCall.objects.filter(pk=call.pk).update(
        created_at=made - datetime.timedelta(seconds=95),
        resolved_at=made + datetime.timedelta(minutes=4),
        claimed_at=made,
    )
    return desk


def test_the_report_page_lists_extensions_and_calls(event):
    client = Client()
    client.force_login(event.head)
    response = client.get(reverse("judging:report", args=[event.tournament.slug]))
    page = b"".join(response.streaming_content).decode()
    extensions = page[page.index('id="report-extensions"') :]
    assert "Дополнительное время" in extensions
    assert "+3" in extensions and "Проверка колоды" in extensions
    calls = page[page.index('id="report-calls"') :]
    assert "Вызовы судьи" in calls
    assert "1:35" in calls  # taken after
    assert "5:35" in calls  # resolved after
    assert "медиана" in calls
    # After the report's own sections, extensions first.
    assert page.index('id="report-counts"') < page.index('id="report-extensions"')
    assert page.index('id="report-extensions"') < page.index('id="report-calls"')


def test_extensions_and_calls_export_as_csv(event):
    client = Client()
    client.force_login(event.organiser)
    slug = event.tournament.slug
    response = client.get(reverse("judging:report-export", args=[slug, "extensions", "csv"]))
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    assert "Проверка колоды" in text and ",3," in text
    response = client.get(reverse("judging:report-export", args=[slug, "calls", "csv"]))
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    assert ",95,335," in text


def test_the_standalone_report_has_the_section_too(event):
    handle = io.BytesIO()
    write_html(tournament=event.tournament, handle=handle)
    assert 'id="report-extensions"' in handle.getvalue().decode()


def test_an_event_without_any_says_so(desk):
    handle = io.BytesIO()
    write_html(tournament=desk.tournament, handle=handle)
    text = handle.getvalue().decode()
    assert "Дополнительного времени не давали." in text
    assert "Судью со столов не вызывали." in text


def test_the_screen_shows_the_first_rows_and_says_how_many_there_are(event, monkeypatch):
    import floor.report

    monkeypatch.setattr(floor.report, "SCREEN_ROWS", 1)
    services.extend_time(
        match=event.match_of(2),
        minutes=2,
        reason="deck_check",
        given_by=event.floor,
        client_key=uuid.uuid4(),
    )
    services.call_judge(tournament=event.tournament, table=1, caller="y")
    client = Client()
    client.force_login(event.head)
    response = client.get(reverse("judging:report", args=[event.tournament.slug]))
    page = b"".join(response.streaming_content).decode()
    extensions = page[page.index('id="report-extensions"') : page.index('id="report-calls"')]
    calls = page[page.index('id="report-calls"') :]

    assert "Первые 1 из 2" in extensions
    assert "Первые 1 из 2" in calls
