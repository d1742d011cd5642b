"""The players' pages: no login, a token in the link, nothing of the staff's."""

import uuid

import pytest
from django.test import Client
from django.urls import reverse

from floor import services
from floor.models import JudgeCall
from tests.factories import crowd

pytestmark = pytest.mark.django_db


@pytest.fixture
def paired(desk):
    desk.pair((0, 1), (2, 3))
    return desk


@pytest.fixture
def token(paired):
    return services.ensure_public_pages(tournament=paired.tournament).token


def test_unknown_and_replaced_tokens_are_a_plain_404(paired, token):
    client = Client()
    assert client.get(reverse("floor:public", args=["nope"])).status_code == 404
    assert client.get(reverse("floor:table", args=["nope", 1])).status_code == 404
    assert client.post(reverse("floor:call", args=["nope", 1])).status_code == 404
    services.renew_public_link(tournament=paired.tournament)
    response = client.get(reverse("floor:public", args=[token]))
    assert response.status_code == 404
    assert paired.tournament.name not in response.content.decode()
    assert client.post(reverse("floor:call", args=[token, 1])).status_code == 404
    assert not JudgeCall.objects.exists()


def test_an_unknown_table_is_a_404(paired, token):
    assert Client().get(reverse("floor:table", args=[token, 9])).status_code == 404
    assert Client().post(reverse("floor:call", args=[token, 9])).status_code == 404


def test_the_table_page_shows_the_players_the_clock_and_the_button(paired, token):
    services.start_clock(tournament=paired.tournament)
    paired.issue(0, "1.1")  # a penalty: never on a player's page
    page = Client().get(reverse("floor:table", args=[token, 1])).content.decode()
    assert paired.players[0].player.name in page and paired.players[1].player.name in page
    assert 'data-status="running"' in page
    assert "Вызвать судью" in page
    for registration in paired.players:
        assert registration.player.membership_id not in page
    assert "1.1" not in page and "Замечание" not in page and "/t/" not in page


def test_the_table_page_shows_its_extra_time(paired, token):
    import uuid

    services.start_clock(tournament=paired.tournament)
    services.extend_time(
        match=paired.match_of(0),
        minutes=4,
        reason="ruling",
        given_by=paired.floor,
        client_key=uuid.uuid4(),
    )
    page = Client().get(reverse("floor:table", args=[token, 1])).content.decode()
    assert "+4 мин" in page
    assert "+4 мин" not in Client().get(reverse("floor:table", args=[token, 2])).content.decode()


def test_a_call_from_the_table_page(paired, token):
    client = Client()
    response = client.post(reverse("floor:call", args=[token, 2]), headers={"HX-Request": "true"})
    body = response.content.decode()
    assert response.status_code == 200
    assert 'id="call-status"' in body and "Судья вызван в" in body
    call = JudgeCall.objects.get()
    assert (call.table, call.match, call.status) == (2, paired.match_of(2), "open")
    assert call.caller and "127.0.0.1" not in call.caller

    # Again at once: refused with a message, nothing written.
    again = client.post(reverse("floor:call", args=[token, 2]), follow=True)
    assert "уже вызван судья" in again.content.decode()
    assert 'data-code="call_open"' in again.content.decode()
    assert JudgeCall.objects.count() == 1


def test_call_spam_from_one_phone_is_refused_with_a_message(desk):
    crowd(desk, 6)
    desk.pair((0, 1), (2, 3), (4, 5), (6, 7), (8, 9))
    token = services.ensure_public_pages(tournament=desk.tournament).token
    client = Client()
    for table in (1, 2, 3):
        client.post(reverse("floor:call", args=[token, table]))
    response = client.post(reverse("floor:call", args=[token, 4]), headers={"HX-Request": "true"})
    assert 'role="alert"' in response.content.decode()
    assert "Слишком много вызовов" in response.content.decode()
    assert JudgeCall.objects.count() == 3


def test_players_find_their_table_by_name(paired, token):
    name = paired.players[3].player.name
    page = Client().get(reverse("floor:public", args=[token]), {"q": name}).content.decode()
    assert name in page
    assert paired.players[0].player.name not in page
    # The table number opens the table's page, where the player may call a judge.
    assert f'href="{reverse("floor:table", args=[token, 2])}"' in page
    for registration in paired.players:
        assert registration.player.membership_id not in page


def test_a_search_too_long_is_refused_with_a_message(paired, token):
    response = Client().get(reverse("floor:public", args=[token]), {"q": "x" * 101})
    assert response.status_code == 200
    assert 'role="alert"' in response.content.decode()


def test_standings_only_once_published(paired, token):
    for index in (0, 2):
        paired.win(index)
        paired.win(index)
    client = Client()
    assert (
        "Турнирная таблица после тура"
        not in client.get(reverse("floor:public", args=[token])).content.decode()
    )
    services.publish_standings(tournament=paired.tournament)
    page = client.get(reverse("floor:public", args=[token])).content.decode()
    assert "Турнирная таблица после тура 1" in page
    assert page.index(paired.players[0].player.name) < page.index(paired.players[1].player.name)


def test_the_public_clock_fragment(paired, token):
    page = Client().get(reverse("floor:public-clock", args=[token])).content.decode()
    assert 'id="public-clock"' in page and 'data-status="not_started"' in page


# The players' own reports of results (issue 35) --------------------------------------------


def post_report(client, token, table, data, htmx=True):
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(reverse("floor:report", args=[token, table]), data, headers=headers)


def test_the_table_page_offers_the_report_and_sets_the_phones_cookie(paired, token):
    client = Client()
    response = client.get(reverse("floor:table", args=[token, 1]))
    page = response.content.decode()
    assert 'id="table-report"' in page and "Кто вы?" in page
    assert page.count('name="game_') == 12  # 3 games × 4 choices
    assert "desk_phone" in response.cookies


def test_two_phones_report_and_confirm(paired, token):
    match = paired.match_of(0)
    first, second = Client(), Client()
    first.get(reverse("floor:table", args=[token, 1]))
    second.get(reverse("floor:table", args=[token, 1]))
    code1 = services.seat_code(match_id=match.pk, seat=1)
    body = post_report(
        first,
        token,
        1,
        {
            "action": "report",
            "seat": "1",
            "code": code1,
            "client_key": uuid.uuid4(),
            "game_1": "1",
            "game_2": "2",
            "game_3": "1",
        },
    ).content.decode()
    assert 'data-state="reported"' in body and "сообщает: 2–1" in body
    # The first phone remembers its seat: it is asked for the opponent's code to confirm here.
    assert "Код игрока" in body
    code2 = services.seat_code(match_id=match.pk, seat=2)
    body = post_report(
        second,
        token,
        1,
        {"action": "confirm", "seat": "2", "code": code2, "client_key": uuid.uuid4()},
    ).content.decode()
    assert 'data-state="ended"' in body and "Результат записан: 2–1" in body
    match.refresh_from_db()
    assert (match.player1_wins, match.player2_wins, match.has_ended) == (2, 1, True)


def test_a_refused_report_says_why_in_russian_and_changes_nothing(paired, token):
    client = Client()
    body = post_report(
        client,
        token,
        1,
        {
            "action": "report",
            "seat": "1",
            "code": "999999",
            "client_key": uuid.uuid4(),
            "game_1": "1",
            "game_2": "1",
        },
    ).content.decode()
    assert 'data-code="bad_code"' in body and "Это не ваш код" in body
    body = post_report(
        client,
        token,
        1,
        {"action": "report", "seat": "1", "code": "1", "client_key": "x", "game_1": "1"},
    ).content.decode()
    assert "Обновите страницу" in body and 'data-code="bad_report_form"' in body
    match = paired.match_of(0)
    body = post_report(
        client,
        token,
        1,
        {
            "action": "report",
            "seat": "1",
            "client_key": uuid.uuid4(),
            "code": services.seat_code(match_id=match.pk, seat=1),
            "game_1": "",
            "game_2": "1",
        },
    ).content.decode()
    assert 'data-code="games_in_order"' in body
    from floor.models import ReportEntry, TableReport

    assert not ReportEntry.objects.exists() and not TableReport.objects.exists()


def test_a_report_without_htmx_redirects_with_the_message(paired, token):
    client = Client()
    response = post_report(
        client,
        token,
        1,
        {"action": "confirm", "seat": "2", "code": "1", "client_key": uuid.uuid4()},
        htmx=False,
    )
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "Пока нет сообщённого результата" in page


def test_a_disputed_table_shows_it_and_the_judge_is_called(paired, token):
    match = paired.match_of(0)
    for seat, games in ((1, ["1", "1"]), (2, ["2", "2"])):
        post_report(
            Client(),
            token,
            1,
            {
                "action": "report",
                "seat": str(seat),
                "client_key": uuid.uuid4(),
                "code": services.seat_code(match_id=match.pk, seat=seat),
                "game_1": games[0],
                "game_2": games[1],
            },
        )
    page = Client().get(reverse("floor:table", args=[token, 1])).content.decode()
    assert 'data-state="disputed"' in page
    assert JudgeCall.objects.get().reason == "dispute"


def test_the_players_check_in_page(desk):
    token = services.ensure_public_pages(tournament=desk.tournament).token
    client = Client()
    url = reverse("floor:check-in", args=[token])
    assert "Я на месте" in client.get(url).content.decode()
    player = desk.players[0]
    body = client.post(url, {"name": player.player.name, "code": "000"}).content.decode()
    assert 'data-code="no_such_player"' in body
    code = services.check_in_code(registration_id=player.pk)
    body = client.post(url, {"name": player.player.name, "code": code}).content.decode()
    assert 'data-state="checked-in"' in body
    from floor.models import CheckIn

    assert list(CheckIn.objects.values_list("registration_id", "round_number")) == [(player.pk, 1)]


def test_a_deferred_game_loss_is_shown_to_both_players_before_they_report(desk):
    desk.tournament.level = "professional"
    desk.tournament.save()
    desk.pair((0, 1), (2, 3))
    desk.issue(0, "1.1", deferred=True)  # lands on game 2
    token = services.ensure_public_pages(tournament=desk.tournament).token
    for _phone in range(2):
        page = Client().get(reverse("floor:table", args=[token, 1])).content.decode()
        assert "Поражение в партии по пенальти приходится на партию этого матча" in page
        assert "на эту партию приходится поражение в партии по пенальти" in page
        assert 'name="game_2"' not in page and 'name="game_1"' in page


def _final_published():
    """Four players, one Swiss round played, a top 2 published: the final is under way."""
    from tests.factories import Desk
    from tournaments import services as tournament_services
    from tournaments.models import Match

    desk = Desk.create(players=4)
    desk.pair((0, 1), (2, 3))
    for match in Match.objects.filter(round__tournament=desk.tournament):
        tournament_services.enter_result(match=match, player1_wins=2, player2_wins=0)
    tournament_services.set_playoff(
        tournament=desk.tournament, size="2", best_of=3, final_best_of=3
    )
    final = tournament_services.publish_cut(tournament=desk.tournament)
    return desk, final.matches.get()


def test_a_playoff_game_reaches_the_bracket_pages_streams_at_once(asgi_server):
    """The staff's stream and the players' stream (no account) both hear ``bracket-changed``
    when a playoff game is recorded; the players' stream hears nothing of the penalties."""
    import time

    from floor.models import PublicPages
    from judging.live import hub
    from tests.judging.test_live import Stream, session_cookie, wait_for
    from tournaments import services as tournament_services

    desk, final = _final_published()
    token = PublicPages.objects.get_or_create(tournament=desk.tournament)[0].token
    staff = Stream(asgi_server, f"/t/{desk.tournament.slug}/events/", session_cookie(desk.head))
    players = Stream(asgi_server, f"/p/{token}/events/", "")
    assert wait_for(lambda: hub.stream_count == 2 and hub.listening)
    # The hub counts a stream as its body starts; the reader thread parses the status line a
    # moment later, so the test waits for it rather than reading it at once.
    assert wait_for(lambda: players.status is not None)
    assert players.status == 200

    desk.issue(3, "1.4", "between_matches")  # a caution: penalties stay on the staff's stream
    assert staff.received.wait(timeout=2)
    assert not players.received.wait(timeout=0.5)
    staff.received.clear()

    started = time.monotonic()
    tournament_services.record_game(match=final, winner=final.player1)
    assert players.received.wait(timeout=2) and time.monotonic() - started < 1.0
    assert wait_for(lambda: ("event: bracket-changed", 1) in staff.events)
    assert players.events == [("event: bracket-changed", 1)]
    staff.close()
    players.close()


def test_the_bracket_pages_listen_for_playoff_results(client, db):
    from floor.models import PublicPages

    desk, _final = _final_published()
    token = PublicPages.objects.get_or_create(tournament=desk.tournament)[0].token
    phone = Client().get(reverse("floor:public-playoff", args=[token])).content.decode()
    assert f'sse-connect="/p/{token}/events/"' in phone
    assert 'hx-trigger="sse:bracket-changed, every 20s"' in phone
    # Without an ASGI server the players' stream says "poll instead"; an unknown link is a 404.
    assert Client().get(f"/p/{token}/events/").status_code == 204
    assert Client().get("/p/unknown-token/events/").status_code == 404

    client.force_login(desk.organiser)
    projector = client.get(reverse("floor:projector", args=[desk.tournament.slug]))
    assert 'id="projector-bracket"' in projector.content.decode()
    fragment = client.get(
        reverse("floor:projector", args=[desk.tournament.slug]) + "?fragment=projector-bracket",
        headers={"HX-Request": "true"},
    ).content.decode()
    assert fragment.lstrip().startswith('<div id="projector-bracket"')
    staff = client.get(reverse("tournaments:playoff", args=[desk.tournament.slug]))
    assert 'hx-trigger="every 15s"' in staff.content.decode()  # no stream under WSGI: it polls
