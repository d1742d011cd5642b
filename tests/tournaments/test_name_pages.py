"""Lists in name order read from where the last page ended (``tournaments.name_order``): the
players list and the pairings by name. Every cursor a browser can send gives a page, never an
error; the sort name the pages are read by is set however a registration is made."""

import html
import re

import pytest
from django.urls import reverse

from players.models import Player, search_text
from tests.factories import Desk, PlayerFactory, crowd
from tests.schema import migrate_to, migrate_to_newest
from tests.tournaments.test_playoff_services import play_swiss
from tournaments import services
from tournaments.models import Match, PlayoffSeed, Registration, Round, sort_name
from tournaments.play_views import MATCHES_PAGE_SIZE, PAGE_SIZE
from tournaments.views import REGISTRATIONS_PER_PAGE

pytestmark = pytest.mark.django_db

LOST = "Этой страницы в списке больше нет; вот его первая страница."


def paired(players: int) -> Desk:
    desk = Desk.create()
    crowd(desk, players - len(desk.players))
    order = desk.players
    services.pair_round(
        tournament=desk.tournament,
        pairings=[
            (order[i], order[i + 1] if i + 1 < len(order) else None)
            for i in range(0, len(order), 2)
        ],
    )
    return desk


def page(client, desk: Desk, name: str, *args: object, query: str = "", **data: object) -> str:
    client.force_login(desk.organiser)
    path = reverse(name, args=[desk.tournament.slug, *args])
    response = client.get(path + query, data)
    assert response.status_code == 200
    return response.content.decode()


def link(text: str, rel: str) -> str | None:
    found = re.search(rf'<a href="(\?[^"]*)" rel="{rel}">', text)
    return html.unescape(found.group(1)) if found else None


def players_in(text: str) -> list[str]:
    """The players list's names, or the pairings by name's (either table's first column)."""
    return re.findall(r"<tr><td>([^<]+)</td><td>", text)


def by_name(desk: Desk) -> list[str]:
    return sorted(registration.player.name for registration in desk.players)


@pytest.mark.parametrize(
    "cursor",
    [
        {"after": "abc"},
        {"before": "-1"},
        {"after": "²"},
        {"after": "9" * 30},
        {"page": "abc"},
        {"page": "-1"},
        {"page": "99999"},
        {"last": "yes"},
    ],
    ids=[
        "word",
        "negative",
        "superscript",
        "too long",
        "page word",
        "page -1",
        "page 99999",
        "last?",
    ],
)
@pytest.mark.parametrize(
    "screen",
    [("tournaments:registrations", ()), ("tournaments:round", (1,))],
    ids=["players", "pairings by name"],
)
def test_a_cursor_that_is_no_id_shows_the_first_page(client, screen, cursor):
    desk = paired(230)
    name, args = screen
    data = {"order": "name"} if args else {}

    text = page(client, desk, name, *args, **data, **cursor)

    assert players_in(text)[:PAGE_SIZE] == by_name(desk)[:PAGE_SIZE]
    assert link(text, "prev") is None and link(text, "next") is not None
    assert LOST not in text


@pytest.mark.parametrize(
    "screen",
    [("tournaments:registrations", ()), ("tournaments:round", (1,))],
    ids=["players", "pairings by name"],
)
def test_a_cursor_naming_no_player_of_the_tournament_shows_the_first_page_and_says_so(
    client, screen
):
    desk = paired(230)
    elsewhere = Desk.create(players=1).players[0]
    name, args = screen
    data = {"order": "name"} if args else {}

    for cursor in ({"after": elsewhere.pk}, {"before": 10**9}):
        text = page(client, desk, name, *args, **data, **cursor)

        assert players_in(text)[:PAGE_SIZE] == by_name(desk)[:PAGE_SIZE]
        assert LOST in text


def test_the_page_after_the_last_player_is_the_last_page_and_before_the_first_the_first(client):
    desk = paired(230)
    registrations = Registration.objects.filter(tournament=desk.tournament)
    first = registrations.order_by("sort_name", "pk").first()
    last = registrations.order_by("sort_name", "pk").last()

    after_last = page(client, desk, "tournaments:registrations", after=last.pk)
    before_first = page(client, desk, "tournaments:registrations", before=first.pk)

    assert players_in(after_last) == by_name(desk)[-REGISTRATIONS_PER_PAGE:]
    assert link(after_last, "next") is None and link(after_last, "prev") is not None
    assert players_in(before_first) == by_name(desk)[:REGISTRATIONS_PER_PAGE]
    assert link(before_first, "prev") is None


def test_walking_the_players_forth_and_back_shows_each_once_in_order(client):
    desk = paired(330)
    seen: list[str] = []
    text = page(client, desk, "tournaments:registrations")
    pages = [players_in(text)]
    while (forward := link(text, "next")) is not None:
        text = page(client, desk, "tournaments:registrations", query=forward)
        pages.append(players_in(text))
    for names in pages:
        seen += names
    backwards = [players_in(text)]
    while (back := link(text, "prev")) is not None:
        text = page(client, desk, "tournaments:registrations", query=back)
        backwards.append(players_in(text))

    assert seen == by_name(desk)
    assert [len(names) for names in pages] == [100, 100, 100, 30]
    assert backwards == pages[::-1]


def test_a_search_is_paged_and_keeps_its_words(client):
    desk = paired(230)
    # Names «Игрок 1000xx…» are in every crowd; the membership ids «BH-…» find all of them.
    first = page(client, desk, "tournaments:registrations", q="bh-")
    forward = link(first, "next")
    second = page(client, desk, "tournaments:registrations", query=forward)

    assert forward is not None and "q=bh-" in forward
    assert "Найдено 230 игроков" in first and "Найдено 230 игроков" in second
    assert players_in(first) + players_in(second) == by_name(desk)[:200]


def test_an_empty_list_and_a_search_that_finds_nobody_have_no_pager(client):
    desk = Desk.create(players=0)

    empty = page(client, desk, "tournaments:registrations")
    nobody = page(client, desk, "tournaments:registrations", q="никто", after=5)

    for text in (empty, nobody):
        assert players_in(text) == [] and 'class="row pager"' not in text
    assert "Найдено 0 игроков" in nobody


def test_the_pairings_by_name_leave_out_players_who_do_not_play_in_the_round(client):
    desk = paired(230)
    # Registered after round 1 was paired: in the players list, not in round 1's pairings.
    for name in ("Аарон Поздний", "Игрок 0 поздний", "Яна Поздняя"):
        services.register_player(tournament=desk.tournament, player=PlayerFactory(name=name))
    text = page(client, desk, "tournaments:round", 1, order="name")
    pages = [players_in(text)]
    while (forward := link(text, "next")) is not None:
        text = page(client, desk, "tournaments:round", 1, query=forward)
        pages.append(players_in(text))

    assert [name for names in pages for name in names] == by_name(desk)
    assert [len(names) for names in pages] == [100, 100, 30]


def test_the_pairings_by_name_show_the_table_the_opponent_and_the_bye(client):
    desk = paired(231)  # 115 tables and a bye
    match = Match.objects.get(round__number=1, table=7)
    first, second = match.player1.player.name, match.player2.player.name
    bye = Match.objects.get(round__number=1, table__isnull=True).player1.player.name
    rows: dict[str, tuple[str, str]] = {}
    text = page(client, desk, "tournaments:round", 1, order="name")
    while True:
        for name, table, opponent in re.findall(
            r"<tr><td>([^<]+)</td><td>([^<]+)</td><td>\s*([^<]+)</td></tr>", text
        ):
            rows[name] = (table, opponent.strip())
        forward = link(text, "next")
        if forward is None:
            break
        text = page(client, desk, "tournaments:round", 1, query=forward)

    assert len(rows) == 231
    assert rows[first] == ("7", second) and rows[second] == ("7", first)
    assert rows[bye] == ("—", "свободный тур")


def test_a_small_round_is_one_page_in_name_order_whatever_the_case(client):
    desk = Desk.create(players=0)
    for name in ("ёжик Игорь", "Борис", "алиса", "Ярослав", "Евгений"):
        services.register_player(tournament=desk.tournament, player=PlayerFactory(name=name))
    desk.players = list(Registration.objects.filter(tournament=desk.tournament).order_by("pk"))
    desk.pair((0, 1), (2, 3), (4, None))

    text = page(client, desk, "tournaments:round", 1, order="name")

    # Case and «ё» aside: «алиса» first, «ёжик» beside «Евгений».
    assert players_in(text) == ["алиса", "Борис", "Евгений", "ёжик Игорь", "Ярослав"]
    assert 'class="row pager"' not in text


def test_a_playoff_round_is_read_whole_and_ignores_a_cursor(client):
    desk = Desk.create(players=8, level="professional")
    play_swiss(desk, 2)
    services.set_playoff(tournament=desk.tournament, size="4", best_of=3, final_best_of=5)
    services.publish_cut(tournament=desk.tournament)
    playoff = Round.objects.get(tournament=desk.tournament, playoff=True)
    seeded = sorted(seed.registration.player.name for seed in PlayoffSeed.objects.all())

    text = page(client, desk, "tournaments:round", playoff.number, order="name", after=1)

    assert players_in(text) == seeded and len(seeded) == 4
    assert 'class="row pager"' not in text


def test_printing_the_pairings_by_name_lists_every_player_in_order(client):
    desk = paired(230)

    text = page(client, desk, "tournaments:round", 1, order="name", all=1)

    assert players_in(text) == by_name(desk)


def test_the_pairings_by_table_are_cut_by_table_numbers_with_the_bye_last(client):
    desk = paired(231)  # 115 tables and a bye
    # A table missing from the numbers (a playoff round skips a slot nobody plays).
    Match.objects.filter(round__number=1, table=60).delete()

    def tables(text: str) -> list[str]:
        rows = re.findall(r'<tr id="match-row-\d+">\s*(?:\{[^}]*\})?\s*<td>(.*?)</td>', text, re.S)
        return [re.sub(r"<[^>]+>", "", row).strip() for row in rows]

    second = page(client, desk, "tournaments:round", 1, page=2)
    last = page(client, desk, "tournaments:round", 1, page=3)
    beyond = page(client, desk, "tournaments:round", 1, page=99999)
    garbled = page(client, desk, "tournaments:round", 1, page="abc")

    assert tables(second) == [str(n) for n in range(51, 101) if n != 60]
    assert tables(last) == [str(n) for n in range(101, 116)] + ["—"]
    assert tables(beyond) == tables(last)
    assert tables(garbled)[:3] == ["1", "2", "3"]
    assert len(tables(garbled)) == MATCHES_PAGE_SIZE


def test_every_way_of_registering_sets_the_sort_name(db):
    desk = Desk.create(players=0)
    one = services.register_player(
        tournament=desk.tournament, player=PlayerFactory(name="Ёлкина Анна")
    )
    people = Player.objects.bulk_create(
        Player(name=name, membership_id=f"SN-{n}", search_text=search_text(name, f"SN-{n}"))
        for n, name in enumerate(["ÉMILE Straße", "Борис"])
    )
    inserted = Registration.objects.bulk_create(
        Registration(tournament=desk.tournament, player_id=person.pk) for person in people
    )
    saved = Registration(tournament=Desk.create(players=0).tournament, player=people[1])
    saved.save()

    assert [row.sort_name for row in Registration.objects.filter(pk=one.pk)] == ["елкина анна"]
    assert [row.sort_name for row in inserted] == ["émile strasse", "борис"]
    assert Registration.objects.get(pk=saved.pk).sort_name == "борис"
    assert sort_name("Я" * 300) == "я" * 260


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_every_earlier_registration_its_sort_name():
    players = ("players", "0003_suspension_history")
    before = [("tournaments", "0009_playoff_settings_rounds_and_seeds"), players]
    old = migrate_to(before)
    try:
        tournament = old.get_model("tournaments", "Tournament").objects.create(
            name="Кубок",
            slug="sort-names",
            date="2026-12-05",
            level="amateur",
            uses_decklists=True,
        )
        player = old.get_model("players", "Player").objects.create(
            name="Ёжиков ЮРИЙ", membership_id="SN-MIGRATION", search_text="ежиков юрий sn-migration"
        )
        made = old.get_model("tournaments", "Registration").objects.create(
            tournament=tournament, player=player
        )
    finally:
        # Forward to the newest migration of every app, through 0010's data step: every later
        # test needs the whole schema, not the schema as 0010 left it.
        migrate_to_newest()

    assert Registration.objects.get(pk=made.pk).sort_name == "ежиков юрий"
