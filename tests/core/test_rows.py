"""What a list's rows repeat, made once per page (``core.rows``): a row's link made from the URL
reversed once is the link ``reverse()`` makes, a row's form carries a CSRF field that the
middleware accepts, on every screen that makes its rows so, and a row's moment is the text the
template filters wrote."""

import datetime
import re
from html import unescape

import pytest
from django.template.defaultfilters import date as date_filter
from django.template.defaultfilters import time as time_filter
from django.test import Client
from django.urls import reverse
from django.utils.timezone import template_localtime

from core.rows import IdLink, clock_text, moment_text
from judging.models import PenaltyRecord
from tests.factories import Desk
from tournaments.models import Match, RegistrationStatus

URLS = [
    ("judging:record", "record_id"),
    ("tournaments:match", "match_id"),
    ("tournaments:match-result", "match_id"),
    ("tournaments:registration-drop", "registration_id"),
]


@pytest.mark.parametrize(("viewname", "argument"), URLS)
@pytest.mark.parametrize("slug", ["spring-open", "cup-2026", "98765432109-x", "1"])
@pytest.mark.parametrize("pk", [1, 7, 10, 987, 2_147_483_647])
def test_a_row_link_is_the_reversed_url(viewname, argument, slug, pk):
    assert IdLink(viewname, slug)(pk) == reverse(viewname, kwargs={"slug": slug, argument: pk})


MOMENTS = [
    datetime.datetime(2026, 12, 5, 21, 5, tzinfo=datetime.UTC),  # the next day in Moscow
    datetime.datetime(2026, 1, 9, 7, 0, tzinfo=datetime.UTC),
    datetime.datetime(2026, 6, 30, 23, 59, 59, tzinfo=datetime.UTC),
    datetime.datetime(1, 1, 1, 3, 0, tzinfo=datetime.UTC),  # year 1, three hours from its start
]


@pytest.mark.parametrize("moment", MOMENTS)
def test_a_rows_moment_is_written_as_the_filters_wrote_it(moment):
    # The judge report's rows (``moment_text``), as ``|date:"d.m.Y H:i"`` wrote each cell.
    assert moment_text(moment) == date_filter(template_localtime(moment), "d.m.Y H:i")
    # «My penalties» and the deck findings (``clock_text``), as ``|time:"H:i"`` wrote them.
    assert clock_text(moment) == time_filter(template_localtime(moment), "H:i")
    assert moment_text(None) == clock_text(None) == ""


@pytest.fixture
def desk(db):
    desk = Desk.create(players=6)
    desk.pair((0, 1), (2, 3), (4, 5))
    for player in (0, 2, 5):
        desk.issue(player, "1.4", "between_matches", by="floor")
    return desk


def page(client: Client, user: object, name: str, desk: Desk, *args: object) -> str:
    client.force_login(user)
    response = client.get(reverse(name, args=[desk.tournament.slug, *args]))
    assert response.status_code == 200
    return response.content.decode()


def test_my_penalties_link_each_record_to_its_page(client, desk):
    html = page(client, desk.floor, "judging:mine", desk)

    found = re.findall(r'id="my-record-(\d+)"><a class="player-target" href="([^"]*)"', html)
    records = PenaltyRecord.objects.filter(tournament=desk.tournament, issued_by=desk.floor)
    assert sorted(int(pk) for pk, _link in found) == sorted(records.values_list("pk", flat=True))
    for pk, link in found:
        assert unescape(link) == reverse("judging:record", args=[desk.tournament.slug, int(pk)])


def test_my_penalties_show_each_records_time_of_issue_in_the_venues_zone(client, desk):
    html = page(client, desk.floor, "judging:mine", desk)

    for record in PenaltyRecord.objects.filter(tournament=desk.tournament, issued_by=desk.floor):
        start = html.index(f'id="my-record-{record.pk}"')
        row = html[start : html.index("</li>", start)]
        assert time_filter(template_localtime(record.issued_at), "H:i") in row


def test_the_pairings_link_each_match_to_its_page_and_its_result(client, desk):
    html = page(client, desk.organiser, "tournaments:round", desk, 1)

    matches = Match.objects.filter(round__tournament=desk.tournament)
    assert matches.count() == 3
    for match in matches:
        start = html.index(f'<tr id="match-row-{match.pk}">')
        row = html[start : html.index("</tr>", start)]
        slug = desk.tournament.slug
        assert f'href="{reverse("tournaments:match", args=[slug, match.pk])}"' in row
        result = reverse("tournaments:match-result", args=[slug, match.pk])
        assert f'action="{result}"' in row
        assert f'hx-post="{result}"' in row


def test_the_players_page_links_each_drop_to_its_registration(client, desk):
    html = page(client, desk.organiser, "tournaments:registrations", desk)

    actions = re.findall(r'<form method="post" action="([^"]*/drop/)"', html)
    assert sorted(actions) == sorted(
        reverse("tournaments:registration-drop", args=[desk.tournament.slug, registration.pk])
        for registration in desk.players
    )


def _csrf(html: str, action: str) -> str:
    form = html[html.index(f'action="{action}"') :]
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form[: form.index("</form>")])[
        1
    ]


def test_a_result_posted_with_its_rows_csrf_field_is_accepted(desk):
    client = Client(enforce_csrf_checks=True)
    html = page(client, desk.organiser, "tournaments:round", desk, 1)
    match = desk.match_of(0)
    action = reverse("tournaments:match-result", args=[desk.tournament.slug, match.pk])

    response = client.post(
        action,
        {"csrfmiddlewaretoken": _csrf(html, action), "player1_wins": 2, "player2_wins": 0},
        HTTP_HX_REQUEST="true",
    )

    assert response.status_code == 200
    match.refresh_from_db()
    assert match.player1_wins == 2
    # The row that answers holds a field the middleware accepts too.
    other = desk.match_of(2)
    again = reverse("tournaments:match-result", args=[desk.tournament.slug, other.pk])
    html = page(client, desk.organiser, "tournaments:round", desk, 1)
    answer = client.post(
        again,
        {"csrfmiddlewaretoken": _csrf(html, again), "player1_wins": 9},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert (
        client.post(
            again,
            {"csrfmiddlewaretoken": _csrf(answer, again), "player1_wins": 2, "player2_wins": 1},
            HTTP_HX_REQUEST="true",
        ).status_code
        == 200
    )
    other.refresh_from_db()
    assert (other.player1_wins, other.player2_wins) == (2, 1)


def test_a_drop_posted_with_its_rows_csrf_field_is_accepted(desk):
    client = Client(enforce_csrf_checks=True)
    html = page(client, desk.organiser, "tournaments:registrations", desk)
    registration = desk.players[3]
    action = reverse("tournaments:registration-drop", args=[desk.tournament.slug, registration.pk])

    response = client.post(action, {"csrfmiddlewaretoken": _csrf(html, action)})

    assert response.status_code == 302
    registration.refresh_from_db()
    assert registration.status == RegistrationStatus.DROPPED
