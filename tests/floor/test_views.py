"""The staff's floor screens: roles, fragments, refusals with a message, query counts."""

import re
import uuid

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from decks import services as deck_services
from decks.models import DeckCheckPick
from floor import qr, services
from floor.models import CallStatus, JudgeCall, PublicPages, RoundClock, TimeExtension
from tests.factories import Desk, UserFactory, crowd
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def paired(desk):
    desk.pair((0, 1), (2, 3))
    return desk


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def url(name, desk, *args):
    return reverse(f"floor:{name}", args=[desk.tournament.slug, *args])


def test_the_floor_page_is_for_the_staff_only(paired):
    assert Client().get(url("home", paired)).status_code == 302  # sign in
    stranger = Desk.create()
    assert signed_in(stranger.head).get(url("home", paired)).status_code == 404
    for user in (paired.floor, paired.head, paired.organiser):
        assert signed_in(user).get(url("home", paired)).status_code == 200


def test_only_the_organiser_and_the_head_judge_run_the_clock(paired):
    response = signed_in(paired.floor).post(url("clock-start", paired))
    assert response.status_code == 403
    assert not RoundClock.objects.exists()
    for user in (paired.organiser, paired.head):
        client = signed_in(user)
        response = client.post(url("clock-start", paired), follow=True)
        assert response.status_code == 200
    # The head judge's second start is refused with the reason and its code.
    assert "уже идёт" in response.content.decode()
    assert 'data-code="clock_started"' in response.content.decode()
    assert RoundClock.objects.get().started_at is not None


def test_the_clock_buttons_follow_its_state(paired):
    client = signed_in(paired.head)
    page = client.get(url("home", paired)).content.decode()
    assert url("clock-start", paired) in page
    client.post(url("clock-start", paired))
    page = client.get(url("home", paired)).content.decode()
    assert url("clock-pause", paired) in page and url("clock-end", paired) in page
    client.post(url("clock-pause", paired))
    page = client.get(url("home", paired)).content.decode()
    assert url("clock-resume", paired) in page and 'data-status="paused"' in page
    response = client.post(url("clock-end", paired))
    assert response.url == url("home", paired)  # the projector has no buttons to come back to
    page = client.get(url("projector", paired)).content.decode()
    assert 'data-status="time_called"' in page


def test_the_floor_judge_sees_no_clock_buttons(paired):
    page = signed_in(paired.floor).get(url("home", paired)).content.decode()
    assert url("clock-start", paired) not in page
    # Tap 1 opens one table's extension buttons; the list itself carries no forms.
    match = paired.match_of(0)
    assert url("extend", paired, match.pk) not in page
    assert f"?extend={match.pk}" in page
    opened = signed_in(paired.floor).get(
        url("home", paired),
        {"fragment": "table-row", "extend": match.pk},
        headers={"HX-Request": "true"},
    )
    body = opened.content.decode()
    assert body.count(url("extend", paired, match.pk)) == 8  # four forms, action and hx-post
    assert f'id="table-row-{match.pk}"' in body
    # Without JavaScript the same link opens them on the page.
    page = signed_in(paired.floor).get(url("home", paired), {"extend": match.pk}).content.decode()
    assert url("extend", paired, match.pk) in page


def test_a_bad_floor_query_is_refused_with_a_message(paired):
    response = signed_in(paired.floor).get(url("home", paired), {"extend": "9" * 40})
    assert response.status_code == 400
    response = signed_in(paired.floor).get(
        url("home", paired),
        {"fragment": "table-row", "extend": "999999"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 404


def test_the_badge_shows_the_time_left_on_every_staff_page(paired):
    services.start_clock(tournament=paired.tournament)
    badge = signed_in(paired.organiser).get(url("clock-badge", paired)).content.decode()
    assert 'data-status="running"' in badge and "data-ends-at=" in badge
    nav = signed_in(paired.floor).get(reverse("tournaments:rounds", args=[paired.tournament.slug]))
    assert url("clock-badge", paired) in nav.content.decode()


def test_an_extension_in_two_taps_returns_the_table_row(paired):
    match = paired.match_of(0)
    response = signed_in(paired.floor).post(
        url("extend", paired, match.pk),
        {"reason": "deck_check", "minutes": "3", "client_key": str(uuid.uuid4())},
        headers={"HX-Request": "true"},
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert f'id="table-row-{match.pk}"' in body
    assert "+3" in body
    extension = TimeExtension.objects.get()
    assert (extension.minutes, extension.reason, extension.given_by) == (
        3,
        "deck_check",
        paired.floor,
    )


@pytest.mark.parametrize("minutes", ["0", "31", "-5", "999999", "abc", ""])
def test_absurd_minutes_are_refused_with_a_message(paired, minutes):
    match = paired.match_of(0)
    response = signed_in(paired.floor).post(
        url("extend", paired, match.pk),
        {"reason": "ruling", "minutes": minutes, "client_key": str(uuid.uuid4())},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert 'role="alert"' in response.content.decode()
    assert "от 1 до 30 минут" in response.content.decode()
    assert not TimeExtension.objects.exists()


def test_an_extension_without_htmx_comes_back_with_a_message(paired):
    match = paired.match_of(0)
    response = signed_in(paired.head).post(
        url("extend", paired, match.pk),
        {"reason": "ruling", "minutes": "2", "client_key": str(uuid.uuid4())},
        follow=True,
    )
    assert "+2 мин" in response.content.decode()


def test_a_bad_extension_without_htmx_comes_back_with_its_code(paired):
    match = paired.match_of(0)
    response = signed_in(paired.floor).post(
        url("extend", paired, match.pk),
        {"reason": "nap", "minutes": "2", "client_key": str(uuid.uuid4())},
        follow=True,
    )
    assert 'data-code="bad_extension"' in response.content.decode()
    assert not TimeExtension.objects.exists()


def test_the_organiser_gives_no_extensions(paired):
    response = signed_in(paired.organiser).post(
        url("extend", paired, paired.match_of(0).pk),
        {"reason": "ruling", "minutes": "2", "client_key": str(uuid.uuid4())},
    )
    assert response.status_code == 403
    assert not TimeExtension.objects.exists()


def test_a_match_of_another_tournament_is_not_found(paired):
    other = Desk.create()
    other.pair((0, 1), (2, 3))
    response = signed_in(paired.floor).post(
        url("extend", paired, other.match_of(0).pk),
        {"reason": "ruling", "minutes": "2", "client_key": str(uuid.uuid4())},
    )
    assert response.status_code == 404


def test_a_judge_claims_escalates_and_the_head_judge_resolves(paired):
    call = services.call_judge(tournament=paired.tournament, table=2, caller="x")
    floor = signed_in(paired.floor)
    page = floor.get(url("home", paired) + "?fragment=judge-calls", headers={"HX-Request": "true"})
    body = page.content.decode()
    assert 'id="judge-calls"' in body and "Стол 2" in body
    # "Log an infraction" opens the log flow with the player and a note ready.
    log = reverse("judging:log", args=[paired.tournament.slug])
    assert f"{log}?player={paired.players[2].pk}&amp;note=" in body

    response = floor.post(url("call-claim", paired, call.pk), headers={"HX-Request": "true"})
    assert "вызов ваш" in response.content.decode()
    response = floor.post(url("call-escalate", paired, call.pk), headers={"HX-Request": "true"})
    call.refresh_from_db()
    assert call.status == CallStatus.ESCALATED

    console = signed_in(paired.head).get(url("console-calls", paired)).content.decode()
    assert "Стол 2" in console
    assert signed_in(paired.floor).get(url("console-calls", paired)).status_code == 403
    response = signed_in(paired.head).post(
        url("call-resolve", paired, call.pk), {"next": "console"}, headers={"HX-Request": "true"}
    )
    assert 'id="console-calls"' in response.content.decode()
    call.refresh_from_db()
    assert call.status == CallStatus.RESOLVED


def test_a_taken_call_refused_to_another_judge_with_a_message(paired):
    other = UserFactory()
    from tournaments import services as tournament_services

    tournament_services.add_staff(tournament=paired.tournament, user=other, role="floor_judge")
    call = services.call_judge(tournament=paired.tournament, table=1, caller="x")
    services.claim_call(call=call, judge=paired.floor)
    response = signed_in(other).post(url("call-claim", paired, call.pk), follow=True)
    assert "Этот вызов уже взял другой судья." in response.content.decode()
    assert JudgeCall.objects.get().claimed_by == paired.floor


def test_the_console_loads_the_escalated_calls(paired):
    page = signed_in(paired.head).get(reverse("judging:console", args=[paired.tournament.slug]))
    assert url("console-calls", paired) in page.content.decode()


def test_slips_have_players_ids_boxes_and_a_qr_code(paired):
    match = paired.match_of(0)
    TimeExtension.objects.create(
        match=match,
        round_id=match.round_id,
        minutes=3,
        reason="deck_check",
        given_by=paired.floor,
        client_key=uuid.uuid4(),
    )
    page = signed_in(paired.organiser).get(url("slips", paired)).content.decode()
    assert page.count('class="slip"') == 2
    assert paired.players[0].player.membership_id in page
    assert page.count("<svg") == 2
    assert "+3 мин" in page
    # Each QR code is the table's page, by the tournament's token.
    token = PublicPages.objects.get(tournament=paired.tournament).token
    assert qr.svg(f"http://testserver/p/{token}/tables/2/") in page


def test_players_link_and_standings_publishing(paired):
    organiser = signed_in(paired.organiser)
    page = organiser.get(url("players-link", paired)).content.decode()
    assert "/p/" in page and "<svg" in page
    response = organiser.post(url("standings-publish", paired), follow=True)
    assert "Ни один тур ещё не завершён" in response.content.decode()
    assert signed_in(paired.floor).post(url("standings-publish", paired)).status_code == 403


def test_the_floor_page_reads_the_same_queries_for_1_and_3_tables(
    db, django_assert_max_num_queries
):
    counts = []
    for tables in (1, 3):
        desk = Desk.create(players=2)
        crowd(desk, tables * 2 - 2)
        desk.pair(*[(2 * n, 2 * n + 1) for n in range(tables)])
        services.start_clock(tournament=desk.tournament)
        for n in range(tables):
            services.call_judge(tournament=desk.tournament, table=n + 1, caller=str(n))
            services.extend_time(
                match=desk.match_of(2 * n),
                minutes=2,
                reason="ruling",
                given_by=desk.floor,
                client_key=uuid.uuid4(),
            )
        client = signed_in(desk.head)
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as captured:
            assert client.get(url("home", desk)).status_code == 200
        counts.append(len(captured))
    assert counts[0] == counts[1]


def test_the_calls_badge_counts_the_open_calls_on_every_staff_page(paired):
    nav = signed_in(paired.floor).get(reverse("judging:judge-home", args=[paired.tournament.slug]))
    assert url("calls-badge", paired) in nav.content.decode()
    # Without an event stream (a test client, runserver) the badge polls.
    assert "every 5s" in nav.content.decode()
    for user in (paired.floor, paired.head, paired.organiser):
        assert signed_in(user).get(url("calls-badge", paired)).content.decode().strip() == ""
    services.call_judge(tournament=paired.tournament, table=1, caller="a")
    call = services.call_judge(tournament=paired.tournament, table=2, caller="b")
    badge = signed_in(paired.organiser).get(url("calls-badge", paired)).content.decode()
    assert 'data-count="2"' in badge and "Вызовы судьи" in badge
    assert url("home", paired) + "#judge-calls" in badge
    services.resolve_call(call=call, judge=paired.floor)
    badge = signed_in(paired.floor).get(url("calls-badge", paired)).content.decode()
    assert 'data-count="1"' in badge
    assert Client().get(url("calls-badge", paired)).status_code == 302


def test_the_projector_shows_no_staff_chrome_and_no_control(paired):
    services.start_clock(tournament=paired.tournament)
    for user in (paired.head, paired.organiser, paired.floor):
        page = signed_in(user).get(url("projector", paired)).content.decode()
        assert 'data-status="running"' in page
        assert user.username not in page
        for absent in ("Выйти", "Пауза", "Завершить тур сейчас", "<form", "<button", "topbar"):
            assert absent not in page, absent
        assert 'class="subnav"' not in page


def test_the_projector_rotates_the_pairings_by_name_and_the_published_standings(paired):
    players = [registration.player.name for registration in paired.players[:4]]
    page = signed_in(paired.head).get(url("projector", paired), {"seconds": "5"}).content.decode()
    assert 'data-rotation data-seconds="5"' in page
    assert page.count('class="rotation-panel"') == 1  # four names on one page, no standings
    for name in players:
        assert name in page
    assert "Турнирная таблица" not in page  # not published: the hall sees what players see

    tournament_services.enter_result(match=paired.match_of(0), player1_wins=2, player2_wins=0)
    tournament_services.enter_result(match=paired.match_of(2), player1_wins=2, player2_wins=1)
    services.publish_standings(tournament=paired.tournament)
    fragment = signed_in(paired.head).get(
        url("projector", paired),
        {"fragment": "projector-rotation", "seconds": "5"},
        headers={"HX-Request": "true"},
    )
    body = fragment.content.decode()
    assert 'id="projector-rotation"' in body and "<h1" not in body
    assert body.count('class="rotation-panel"') == 2
    assert "Турнирная таблица после тура 1" in body


def test_a_bad_projector_query_is_refused_with_a_message(paired):
    response = signed_in(paired.head).get(url("projector", paired), {"seconds": "1"})
    assert response.status_code == 400
    assert "от 3 до 120 секунд" in response.content.decode()


def glance_states(client, desk, **query):
    response = client.get(
        url("home", desk), {"fragment": "floor-glance", **query}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith('<section id="floor-glance"')
    return dict(
        (int(table), state)
        for state, table in re.findall(r'data-state="([a-z-]+)">\s*<a [^>]*><strong>(\d+)', body)
    )


def test_the_round_at_a_glance_colours_every_table_by_its_state(db):
    desk = Desk.create(players=10, uses_decklists=False)
    desk.pair((0, 1), (2, 3), (4, 5), (6, 7), (8, 9))
    services.start_clock(tournament=desk.tournament)
    tournament_services.enter_result(match=desk.match_of(2), player1_wins=2, player2_wins=0)
    services.extend_time(
        match=desk.match_of(4),
        minutes=3,
        reason="ruling",
        given_by=desk.floor,
        client_key=uuid.uuid4(),
    )
    services.call_judge(tournament=desk.tournament, table=4, caller="x")
    deck_services.pick_tables(tournament=desk.tournament, by=desk.head, count=5, seed=7)
    picked = set(DeckCheckPick.objects.get().tables)
    client = signed_in(desk.head)
    states = glance_states(client, desk, show="all")
    assert states[2] == "finished" and states[4] == "call"
    # A picked table not yet checked is under a deck check unless it is done or calling.
    assert states[1] == "deck-check" and states[3] == "deck-check" and states[5] == "deck-check"
    assert picked == {1, 2, 3, 4, 5}
    deck_services.record_deck_check(registration=desk.players[0], judge=desk.floor, counted={})
    deck_services.record_deck_check(registration=desk.players[4], judge=desk.floor, counted={})
    deck_services.record_deck_check(registration=desk.players[8], judge=desk.floor, counted={})
    states = glance_states(client, desk, show="all")
    assert states == {1: "playing", 2: "finished", 3: "extra-time", 4: "call", 5: "playing"}
    # The first screen keeps the tables still playing, whatever else they show.
    assert glance_states(client, desk) == {1: "playing", 3: "extra-time", 4: "call", 5: "playing"}
    page = client.get(url("home", desk)).content.decode()
    assert re.search(r'data-show="playing"\s+aria-current="true">Ещё играют: 4<', page)
    assert "Все столы: 5" in page and "Завершены: 1" in page
    # The legend counts the whole round, the table done included.
    assert "вызов судьи: 1" in page and "завершён: 1" in page and "играют: 2" in page


def test_the_round_at_a_glance_reads_the_same_queries_for_1_and_3_tables(db):
    counts = []
    for tables in (1, 3):
        desk = Desk.create(players=2)
        crowd(desk, tables * 2 - 2)
        desk.pair(*[(2 * n, 2 * n + 1) for n in range(tables)])
        for n in range(tables):
            services.call_judge(tournament=desk.tournament, table=n + 1, caller=str(n))
        deck_services.pick_tables(tournament=desk.tournament, by=desk.head, count=tables)
        client = signed_in(desk.head)
        with CaptureQueriesContext(connection) as captured:
            assert len(glance_states(client, desk)) == tables
        counts.append(len(captured))
    assert counts[0] == counts[1]


def test_the_projector_reads_the_same_queries_for_1_and_3_tables(db):
    counts = []
    for tables in (1, 3):
        desk = Desk.create(players=2)
        crowd(desk, tables * 2 - 2)
        desk.pair(*[(2 * n, 2 * n + 1) for n in range(tables)])
        for n in range(tables):
            tournament_services.enter_result(
                match=desk.match_of(2 * n), player1_wins=2, player2_wins=0
            )
        services.publish_standings(tournament=desk.tournament)
        desk.pair(*[(2 * n, 2 * n + 1) for n in range(tables)])
        services.start_clock(tournament=desk.tournament)
        for n in range(tables):
            services.extend_time(
                match=desk.match_of(2 * n),
                minutes=2,
                reason="ruling",
                given_by=desk.floor,
                client_key=uuid.uuid4(),
            )
        client = signed_in(desk.head)
        with CaptureQueriesContext(connection) as captured:
            page = client.get(url("projector", desk)).content.decode()
        # Two header rows, then every player once in the pairings and once in the standings.
        assert page.count("<tr>") == 2 + 2 * (tables * 2)
        counts.append(len(captured))
    assert counts[0] == counts[1]


# The players' reports on the staff's screens, and check-in (issue 35) ----------------------


def _report(match, seat, games, phone):
    return services.report_result(
        match=match,
        seat=seat,
        code=services.seat_code(match_id=match.pk, seat=seat),
        games=games,
        phone=phone,
        client_key=uuid.uuid4(),
    )


def test_the_glance_shows_each_tables_report_state(desk):
    crowd(desk, 4)
    from tournaments.models import Registration

    desk.players = list(Registration.objects.filter(tournament=desk.tournament).order_by("pk"))
    desk.pair((0, 1), (2, 3), (4, 5), (6, 7))
    _report(desk.match_of(0), 1, [1, 1], "a")  # table 1: reported
    _report(desk.match_of(2), 1, [1, 1], "b")
    _report(desk.match_of(2), 2, [2, 2], "c")  # table 2: disputed
    _report(desk.match_of(4), 1, [1, 1], "d")
    _report(desk.match_of(4), 2, [1, 1], "e")  # table 3: confirmed; table 4: no result
    page = signed_in(desk.organiser).get(url("home", desk), {"show": "all"}).content.decode()
    states = dict(re.findall(r"<strong>(\d+)</strong>\s*<span>([^<+]+?)\s*</span>", page))
    assert states == {
        "1": "сообщён, не подтверждён",
        "2": "результаты расходятся",
        "3": "подтверждён игроками",
        "4": "играют",
    }
    # Each result state is a filter with its count; the table done leaves the first screen.
    for label in ("Ещё играют: 3", "Результаты расходятся: 1", "Сообщены, не подтверждены: 1"):
        assert label in page
    assert "Без результата: 1" in page and "Завершены: 1" in page
    first = signed_in(desk.organiser).get(url("home", desk)).content.decode()
    assert "подтверждён игроками</span>" not in first and "результаты расходятся</span>" in first


def test_the_match_screen_lists_the_reports_and_the_staff_still_correct(desk):
    desk.pair((0, 1), (2, 3))
    match = desk.match_of(0)
    _report(match, 1, [1, 2, 1], "a")
    _report(match, 2, [1, 2, 1], "b")
    client = signed_in(desk.head)
    page = client.get(reverse("tournaments:match", args=[desk.tournament.slug, match.pk]))
    body = page.content.decode()
    name1 = desk.players[0].player.name
    assert f"{name1} сообщает результат" in body and "подтверждает результат" in body
    assert "2–1 (" in body
    tournament_services.correct_result(
        match=match,
        player1_wins=1,
        player2_wins=2,
        draws=0,
        reason="Ошибка",
        corrected_by=desk.head,
    )
    match.refresh_from_db()
    assert (match.player1_wins, match.player2_wins) == (1, 2)


def test_the_check_in_desk_checks_in_and_drops_the_no_shows(desk):
    client = signed_in(desk.organiser)
    page = client.get(url("check-in-desk", desk)).content.decode()
    assert "Отметились: 0 из 4" in page
    code = services.check_in_code(registration_id=desk.players[0].pk)
    assert code in page
    response = client.post(
        url("check-in-player", desk),
        {"player": desk.players[0].pk},
        headers={"HX-Request": "true"},
    )
    assert "Отметились: 1 из 4" in response.content.decode()
    bad = client.post(
        url("check-in-player", desk), {"player": "nope"}, headers={"HX-Request": "true"}
    ).content.decode()
    assert "Выберите игрока этого турнира." in bad
    # A floor judge checks in at the desk but does not drop anyone.
    judge = signed_in(desk.floor)
    assert judge.post(url("drop-no-shows", desk)).status_code == 403
    response = client.post(url("drop-no-shows", desk), follow=True)
    assert "3 игрока, не отметившихся, выбыли из турнира." in response.content.decode()
    from tournaments.models import Registration

    assert Registration.objects.filter(tournament=desk.tournament, status="playing").count() == 1


def test_the_judge_report_lists_the_players_reports(desk):
    desk.pair((0, 1), (2, 3))
    _report(desk.match_of(0), 1, [1, 1], "a")
    page = signed_in(desk.head).get(reverse("judging:report", args=[desk.tournament.slug]))
    assert "Результаты, сообщённые игроками" in b"".join(page.streaming_content).decode()
    csv = signed_in(desk.head).get(
        reverse("judging:report-export", args=[desk.tournament.slug, "reports", "csv"])
    )
    body = b"".join(csv.streaming_content).decode("utf-8-sig")
    assert csv.status_code == 200 and "сообщает результат" in body
