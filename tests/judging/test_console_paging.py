"""The console's log a page at a time, keyed by record id: the newest first, older and newer pages
by their keys, the filters kept on every page, and any key that is not one shows the log."""

import re

import pytest
from django.urls import reverse

from judging import console_views
from judging.models import PenaltyRecord
from tests.factories import Desk

PAGE = 2
NEWEST, NEWER, OLDER = "Самые новые", "Более новые", "Более ранние"


@pytest.fixture
def log(client, monkeypatch, desk):
    """Five records on four players (ids in the order issued), the console signed in, and a
    page of two records."""
    monkeypatch.setattr(console_views, "LOG_PAGE_SIZE", PAGE)
    desk.pair((0, 1), (2, 3))
    records = [desk.issue(index % 4, "1.4", by="floor") for index in range(5)]
    client.force_login(desk.head)
    return desk, [record.pk for record in records]


def console(client, desk, **query):
    return client.get(reverse("judging:console", args=[desk.tournament.slug]), query)


def fragment(client, desk, **query):
    return client.get(
        reverse("judging:console", args=[desk.tournament.slug]),
        {"fragment": "penalty-log", **query},
        headers={"HX-Request": "true"},
    )


def shown(response):
    assert response.status_code == 200
    return [int(pk) for pk in re.findall(r'id="log-record-(\d+)"', response.content.decode())]


def links(response):
    """The pager's links by their words: the query string each one leads to."""
    pager = response.content.decode().split('class="row log-pager"')
    if len(pager) == 1:
        return {}
    found = re.findall(r'<a href="\?([^"]*)">([^<]+)</a>', pager[1].split("</p>")[0])
    return {words: query.replace("&amp;", "&") for query, words in found}


def test_the_first_page_holds_the_newest_records_and_leads_only_to_older_ones(client, log):
    desk, ids = log

    page = console(client, desk)

    assert shown(page) == [ids[4], ids[3]]
    assert links(page) == {OLDER: f"before={ids[3]}"}


def test_older_pages_follow_by_their_keys_to_the_last_one(client, log):
    desk, ids = log

    second = console(client, desk, before=ids[3])
    last = console(client, desk, before=ids[1])

    assert shown(second) == [ids[2], ids[1]]
    assert links(second) == {NEWEST: "", NEWER: f"after={ids[2]}", OLDER: f"before={ids[1]}"}
    assert shown(last) == [ids[0]]
    assert links(last) == {NEWEST: "", NEWER: f"after={ids[0]}"}


def test_a_newer_page_is_the_page_just_after_its_key(client, log):
    desk, ids = log

    newer = console(client, desk, after=ids[0])

    assert shown(newer) == [ids[2], ids[1]]
    assert links(newer) == {NEWEST: "", NEWER: f"after={ids[2]}", OLDER: f"before={ids[1]}"}


def test_a_newer_page_short_of_a_page_is_the_first_page(client, log):
    desk, ids = log

    top = console(client, desk, after=ids[2])

    assert shown(top) == [ids[4], ids[3]]
    assert links(top) == {OLDER: f"before={ids[3]}"}


def test_an_empty_log_says_so_without_a_pager(client, db):
    desk = Desk.create()
    client.force_login(desk.head)

    page = console(client, desk)

    assert shown(page) == []
    assert "Пенальти пока нет." in page.content.decode()
    assert links(page) == {}


@pytest.mark.parametrize(
    "query",
    [
        {"before": "abc"},
        {"before": "-1"},
        {"before": "0"},
        {"before": "1" * 40},
        {"after": "2.5"},
        {"after": "٣"},
        {"before": ""},
        {"page": "abc"},
        {"page": "-1"},
        {"page": "99999"},
    ],
)
def test_a_key_that_is_not_one_shows_the_first_page(client, log, query):
    desk, ids = log

    assert shown(console(client, desk, **query)) == [ids[4], ids[3]]
    assert shown(fragment(client, desk, **query)) == [ids[4], ids[3]]


def test_a_key_with_no_record_before_it_shows_the_first_page(client, log):
    desk, ids = log

    assert shown(console(client, desk, before=ids[0])) == [ids[4], ids[3]]
    assert shown(console(client, desk, after=ids[4] + 1000)) == [ids[4], ids[3]]


def test_a_key_past_the_newest_record_shows_the_newest(client, log):
    desk, ids = log

    assert shown(console(client, desk, before=10**17)) == [ids[4], ids[3]]


def test_the_filters_hold_on_every_page_and_in_the_links(client, log):
    desk, ids = log
    player = desk.players[0].pk  # Records 0 and 4 are hers.
    extra = desk.issue(0, "1.1", by="floor").pk

    first = console(client, desk, player=player)
    second = console(client, desk, player=player, before=ids[4])

    assert shown(first) == [extra, ids[4]]
    assert links(first) == {OLDER: f"player={player}&before={ids[4]}"}
    assert shown(second) == [ids[0]]
    assert links(second) == {NEWEST: f"player={player}", NEWER: f"player={player}&after={ids[0]}"}


def test_the_live_re_fetch_of_the_first_page_shows_a_new_penalty_at_the_top(client, log):
    desk, ids = log
    page = console(client, desk).content.decode()
    refetch = re.search(r'<section id="penalty-log"\s+hx-get="([^"]+)"', page)[1]

    new = desk.issue(1, "1.1", by="floor")
    again = client.get(refetch.replace("&amp;", "&"), headers={"HX-Request": "true"})

    assert "before=" not in refetch
    assert shown(again) == [new.pk, ids[4]]


def test_the_live_re_fetch_of_an_older_page_shows_that_page_again(client, log):
    desk, ids = log
    for query in ({"before": ids[3]}, {"after": ids[0]}):
        page = console(client, desk, **query).content.decode()
        refetch = re.search(r'<section id="penalty-log"\s+hx-get="([^"]+)"', page)[1]

        desk.issue(1, "1.1", by="floor")
        again = client.get(refetch.replace("&amp;", "&"), headers={"HX-Request": "true"})

        assert shown(again) == [ids[2], ids[1]]


def test_a_row_links_to_its_record_and_to_its_player(client, log):
    desk, ids = log
    record = PenaltyRecord.objects.get(pk=ids[4])
    slug = desk.tournament.slug

    body = console(client, desk).content.decode()

    assert f'href="{reverse("judging:console-record", args=[slug, record.pk])}"' in body
    assert f'href="{reverse("judging:player", args=[slug, record.registration_id])}"' in body
