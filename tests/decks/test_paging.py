"""The deck screens cost the same at 20 and at 300 players (issue 12): each reads one page of its
rows and a count, in the same number of queries, and answers a page of bounded size."""

import datetime
import re

import pytest
from django.db import connection
from django.db.models.signals import post_init
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from decks.models import DeckCheck, DeckFormat, DeckList, DeckRules, Finding
from decks.views import PAGE_SIZE
from tests.factories import Desk, crowd

SMALL, LARGE = 20, 300
# Saved findings newer than the deadline: they come before the block of missing lists.
NEWER = 3
# A page of 50 rows of any of the three screens stays well under this (31 KB at most measured).
MOST_BYTES = 60_000
# Model instances a page of 50 rows may load (a check's row is four: check, registration, player,
# judge); reading the whole event of 300 players loads over a thousand.
MOST_LOADED = 6 * PAGE_SIZE


def _event(size: int) -> Desk:
    """``size`` players an hour after the deadline. Every other player has a list with one
    finding (``NEWER`` of them made after the deadline, the rest before it); the others have no
    list. Every player's deck was checked once, a second apart."""
    desk = Desk.create(players=2, level="professional")
    crowd(desk, size - 2)
    now = timezone.now()
    deadline = now - datetime.timedelta(hours=1)
    DeckRules.objects.create(
        tournament=desk.tournament,
        format=DeckFormat.objects.get(slug="standard"),
        deadline=deadline,
    )
    lists = DeckList.objects.bulk_create(
        DeckList(
            tournament=desk.tournament,
            registration=registration,
            text="40 Вампир",
            version=1 + n % 3,
        )
        for n, registration in enumerate(desk.players[::2])
    )
    Finding.objects.bulk_create(
        Finding(
            tournament=desk.tournament,
            registration_id=decklist.registration_id,
            decklist=decklist,
            code="1.1",
            sub_item="б",
            kind="main_short",
            params={"count": 30 + n % 10, "limit": 40},
            created_at=deadline + datetime.timedelta(minutes=(n + 1) if n < NEWER else -(n + 1)),
        )
        for n, decklist in enumerate(lists)
    )
    DeckCheck.objects.bulk_create(
        DeckCheck(
            tournament=desk.tournament,
            registration=registration,
            judge=desk.floor,
            with_lists=True,
            table=n + 1,
            outcome="problems",
            findings=[
                {
                    "code": "1.2",
                    "sub_item": "а",
                    "kind": "deck_short",
                    "params": {"found": 39, "listed": 40},
                }
            ],
            checked_at=now - datetime.timedelta(seconds=n),
        )
        for n, registration in enumerate(desk.players)
    )
    return desk


def _get(client, desk: Desk, name: str, page: int = 1) -> tuple[int, str, int]:
    """The queries one page took, its HTML, and the model instances it loaded."""
    url = reverse(f"decks:{name}", args=[desk.tournament.slug])
    client.get(url)  # the first request of a signed-in client reads the session's user
    loaded = 0

    def count(**_kwargs: object) -> None:
        nonlocal loaded
        loaded += 1

    post_init.connect(count, weak=False, dispatch_uid="paging-test")
    try:
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url, {"page": str(page)})
    finally:
        post_init.disconnect(dispatch_uid="paging-test")
    assert response.status_code == 200
    return len(queries), response.content.decode(), loaded


def _shown(desk: Desk, html: str) -> list[int]:
    """The registrations the page's rows link to, in order."""
    return [
        int(pk)
        for pk in re.findall(rf'href="/t/{desk.tournament.slug}/decks/players/(\d+)/"', html)
    ]


@pytest.fixture
def events(db):
    return {size: _event(size) for size in (SMALL, LARGE)}


@pytest.mark.parametrize("screen", ["overview", "findings", "checks"])
def test_a_screen_costs_the_same_at_20_and_300_players(client, events, screen):
    measured = {}
    for size, desk in events.items():
        client.force_login(desk.head)
        queries, html, loaded = _get(client, desk, screen)
        assert len(html.encode()) < MOST_BYTES
        assert len(_shown(desk, html)) == min(size, PAGE_SIZE)
        assert loaded <= MOST_LOADED, (size, loaded)
        measured[size] = queries
    assert measured[SMALL] == measured[LARGE], measured


def _names(desk: Desk, ids: list[int]) -> list[str]:
    by_id = {registration.pk: registration.player.name for registration in desk.players}
    return [by_id[pk] for pk in ids]


def test_the_overview_pages_by_player_name_and_counts_the_missing_lists(client, events):
    desk = events[LARGE]
    client.force_login(desk.organiser)
    _queries, html, _loaded = _get(client, desk, "overview", page=2)
    expected = sorted(desk.players, key=lambda r: (r.player.name, r.pk))[PAGE_SIZE : 2 * PAGE_SIZE]
    assert _shown(desk, html) == [r.pk for r in expected]
    text = " ".join(html.split())
    assert "page 2 of 6" in text
    assert f"{LARGE // 2} players have no deck list (1.1 а)." in text
    with_list = {r.pk for r in desk.players[::2]}
    rows = re.findall(r"<tr(?: class=\"warn\")?><td><a href=.*?</tr>", html, re.S)
    assert len(rows) == PAGE_SIZE
    for registration, row in zip(expected, rows, strict=True):
        if registration.pk in with_list:
            assert 'class="warn"' in row and "version" in row and "<td>1</td>" in row
        else:
            assert "none" in row and "<td>—</td>" in row


def _expected_findings(desk: Desk) -> list[tuple[int, str]]:
    """Every finding of the event in the screen's order, worked out the long way: the saved
    findings newest first, the missing lists dated from the deadline by player name, merged by
    time with saved findings first on a tie."""
    deadline = DeckRules.objects.get(tournament=desk.tournament).deadline
    saved = [
        (finding.created_at, finding.registration_id, "б")
        for finding in Finding.objects.filter(tournament=desk.tournament).order_by(
            "-created_at", "-id"
        )
    ]
    with_list = {r.pk for r in desk.players[::2]}
    missing = [
        (deadline, r.pk, "а")
        for r in sorted(desk.players, key=lambda r: (r.player.name, r.pk))
        if r.pk not in with_list
    ]
    merged = sorted(saved + missing, key=lambda row: row[0], reverse=True)
    return [(pk, sub_item) for _when, pk, sub_item in merged]


def _finding_rows(desk: Desk, html: str) -> list[tuple[int, str]]:
    table = html.split('id="findings"')[1].split("</table>")[0]
    return [
        (int(pk), sub_item)
        for pk, sub_item in re.findall(
            rf'/t/{desk.tournament.slug}/decks/players/(\d+)/".*?<strong>1\.1 (\S)\)</strong>',
            table,
            re.S,
        )
    ]


@pytest.mark.parametrize("page", [1, 2, 6])
def test_the_findings_page_in_time_order_with_the_missing_lists_in_their_place(
    client, events, page
):
    desk = events[LARGE]
    client.force_login(desk.head)
    _queries, html, _loaded = _get(client, desk, "findings", page=page)
    expected = _expected_findings(desk)
    assert len(expected) == LARGE
    assert _finding_rows(desk, html) == expected[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
    assert f"page {page} of 6" in " ".join(html.split())


def test_a_small_event_shows_every_finding_on_one_page(client, events):
    desk = events[SMALL]
    client.force_login(desk.head)
    _queries, html, _loaded = _get(client, desk, "findings")
    rows = _finding_rows(desk, html)
    assert rows == _expected_findings(desk)
    # The newer saved findings, then every missing list, then the older saved ones.
    assert [sub_item for _pk, sub_item in rows] == ["б"] * NEWER + ["а"] * 10 + ["б"] * 7
    assert "page 1 of" not in html


def test_the_deck_checks_page_newest_first(client, events):
    desk = events[LARGE]
    client.force_login(desk.head)
    _queries, html, _loaded = _get(client, desk, "checks", page=2)
    # The checks were made a second apart, the first player's the newest.
    assert _shown(desk, html) == [r.pk for r in desk.players[PAGE_SIZE : 2 * PAGE_SIZE]]
    text = " ".join(html.split())
    assert "page 2 of 6" in text
    assert (
        text.count("<strong>1.2 а)</strong> The main deck holds 39 cards; the list has 40.")
        == PAGE_SIZE
    )
