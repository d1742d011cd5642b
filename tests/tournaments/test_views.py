"""The organiser's screens through the test client: roles, HTMX fragments, plain POSTs."""

import re

import pytest
from django.urls import reverse

from players.models import Player
from tests.factories import Desk, PlayerFactory, UserFactory
from tournaments.forms import NewTournamentForm
from tournaments.models import (
    Match,
    Registration,
    RegistrationStatus,
    RoundDraft,
    StaffRole,
    Tournament,
)
from tournaments.permissions import make_organiser


def url(name, desk, *args):
    return reverse(f"tournaments:{name}", args=[desk.tournament.slug, *args])


@pytest.fixture
def organiser(client, desk):
    client.force_login(desk.organiser)
    return client


def test_a_signed_out_visitor_is_sent_to_the_login_page(client, desk):
    response = client.get(url("detail", desk))

    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_the_login_page_speaks_russian(client, db):
    response = client.get(reverse("login"))

    assert "Вход" in response.content.decode()


def test_someone_not_on_the_staff_sees_nothing(client, desk):
    client.force_login(UserFactory())

    for name in ("detail", "registrations", "rounds", "standings", "settings"):
        assert client.get(url(name, desk)).status_code == 404


def test_a_floor_judge_may_not_change_the_set_up(client, desk):
    client.force_login(desk.floor)

    response = client.get(url("settings", desk))

    assert response.status_code == 403
    assert "организатор" in response.content.decode()


def test_creating_a_tournament_makes_the_creator_its_organiser(client, db):
    user = UserFactory()
    make_organiser(user)
    client.force_login(user)

    response = client.post(
        reverse("tournaments:create"),
        {
            "slug": "cup-1",
            "name": "Кубок",
            "date": "2026-12-12",
            "venue": "",
            "level": "highest",
            "format": "constructed",
            "best_of": 3,
            "round_minutes": 50,
        },
    )

    tournament = Tournament.objects.get(slug="cup-1")
    assert response.status_code == 302
    assert tournament.uses_decklists  # forced on at the highest level
    assert tournament.staff.get().role == StaffRole.ORGANISER


def test_settings_save_through_htmx_returns_the_form_fragment(organiser, desk):
    data = {
        "name": "Новое имя",
        "date": "2026-12-06",
        "venue": "Клуб",
        "level": "amateur",
        "format": "draft",
        "uses_decklists": "on",
        "best_of": 1,
        "rounds_planned": 4,
        "round_minutes": 40,
    }

    response = organiser.post(url("settings", desk), data, HTTP_HX_REQUEST="true")

    desk.tournament.refresh_from_db()
    body = response.content.decode()
    assert body.lstrip().startswith('<form id="settings-form"')
    assert "Настройки сохранены" in body
    assert (desk.tournament.name, desk.tournament.best_of, desk.tournament.format) == (
        "Новое имя",
        1,
        "draft",
    )


def test_an_invalid_setting_is_shown_and_changes_nothing(organiser, desk):
    response = organiser.post(
        url("settings", desk),
        {"name": "", "date": "x", "level": "amateur", "best_of": 9},
        HTTP_HX_REQUEST="true",
    )

    desk.tournament.refresh_from_db()
    assert response.status_code == 200
    assert 'class="field invalid"' in response.content.decode()
    assert desk.tournament.best_of == 3


def test_adding_a_staff_member_creates_the_account(organiser, desk):
    response = organiser.post(
        url("staff", desk),
        {
            "username": "newjudge",
            "role": "floor_judge",
            "full_name": "Новый",
            "password": "secret-123",
        },
        HTTP_HX_REQUEST="true",
    )

    assert "newjudge" in response.content.decode()
    assert desk.tournament.staff.filter(user__username="newjudge", role="floor_judge").exists()


def test_the_staff_role_has_no_default_and_is_empty_again_after_an_add(organiser, desk):
    page = organiser.get(url("staff", desk)).content.decode()
    select = re.search(r'<select name="role".*?</select>', page, re.S).group(0)
    assert re.findall(r'<option value="([^"]*)" selected>', select) == [""]
    assert '<option value="" selected>Выберите роль</option>' in select

    response = organiser.post(
        url("staff", desk),
        {"username": "forgot", "role": "", "full_name": "", "password": "secret-123"},
        HTTP_HX_REQUEST="true",
    )
    assert "Выберите роль этого человека." in response.content.decode()
    assert not desk.tournament.staff.filter(user__username="forgot").exists()

    response = organiser.post(
        url("staff", desk),
        {"username": "second", "role": "floor_judge", "full_name": "", "password": "secret-123"},
        HTTP_HX_REQUEST="true",
    )
    select = re.search(r'<select name="role".*?</select>', response.content.decode(), re.S)
    assert re.findall(r'<option value="([^"]*)" selected>', select.group(0)) == [""]
    assert desk.tournament.staff.get(user__username="second").role == StaffRole.FLOOR_JUDGE


def test_registering_a_new_player_and_searching_the_registry(organiser, desk):
    response = organiser.post(
        url("registration-add", desk),
        {"name": "Ярослав", "membership_id": "BH-77", "city": "Омск"},
        HTTP_HX_REQUEST="true",
    )
    assert "Ярослав" in response.content.decode()
    assert Registration.objects.filter(tournament=desk.tournament, player__name="Ярослав").exists()

    PlayerFactory(name="Святослав", membership_id="BH-88")
    found = organiser.get(url("player-search", desk), {"q": "слав"}).content.decode()
    assert "Святослав" in found
    assert "Ярослав" not in found  # already registered here


def test_a_membership_id_that_belongs_to_someone_else_is_refused(organiser, desk):
    PlayerFactory(name="Пётр", membership_id="BH-1")

    response = organiser.post(
        url("registration-add", desk),
        {"name": "Павел", "membership_id": "BH-1"},
        HTTP_HX_REQUEST="true",
    )

    assert "BH-1 уже принадлежит игроку Пётр" in response.content.decode()
    assert not Player.objects.filter(name="Павел").exists()


def test_csv_import_reports_every_bad_row_and_imports_nothing(organiser, desk):
    from django.core.files.uploadedfile import SimpleUploadedFile

    content = "Имя;Членский номер;Город\nАнна;BH-500;Москва\n;BH-501;Тула\nБорис;BH-500;Тверь\n"
    response = organiser.post(
        url("registration-import", desk),
        {"file": SimpleUploadedFile("p.csv", content.encode("cp1251"))},
    )

    body = response.content.decode()
    assert "строка 3" in body and "строка 4" in body
    assert not Player.objects.filter(membership_id="BH-500").exists()


def test_csv_import_of_good_rows_registers_everyone(transactional_db, organiser, desk):
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.core.management import call_command

    rows = "\n".join(f"Игрок импорта {n},IMP-{n},Москва" for n in range(32))
    response = organiser.post(
        url("registration-import", desk),
        {"file": SimpleUploadedFile("p.csv", ("\ufeff" + rows).encode("utf-8"))},
    )
    # The task worker registers the checked file, as `serve` runs it beside the server.
    call_command("db_worker", "--batch", "--no-startup-delay", verbosity=0)

    assert response.status_code == 302
    assert desk.tournament.registrations.count() == 4 + 32


def test_the_players_page_is_paged_and_searched_at_any_size(organiser, desk):
    from players.models import Player, search_text
    from tournaments.models import Registration

    players = Player.objects.bulk_create(
        Player(
            name=f"Участник {n:03d}",
            membership_id=f"PG-{n:03d}",
            search_text=search_text(f"Участник {n:03d}", f"PG-{n:03d}"),
        )
        for n in range(150)
    )
    Registration.objects.bulk_create(
        Registration(tournament=desk.tournament, player=player) for player in players
    )

    first = organiser.get(url("registrations", desk)).content.decode()
    # The next page starts after the last player of this one (no page numbers).
    after = re.search(r'<a href="\?after=(\d+)" rel="next">', first)
    assert after is not None
    second = organiser.get(url("registrations", desk), {"after": after.group(1)}).content.decode()
    found = organiser.get(url("registrations", desk) + "?q=pg-14").content.decode()
    too_long = organiser.get(url("registrations", desk) + "?q=" + "я" * 101)

    assert "Зарегистрировано 154 игрока" in first
    assert first.count("<tr><td>") == 100
    assert "Зарегистрировано 154 игрока" in second and 'rel="next"' not in second
    assert second.count("<tr><td>") == 54
    # PG-140 … PG-149, by a part of the membership id in any case.
    assert "Найдено 10 игроков" in found
    assert found.count("<tr><td>") == 10
    assert too_long.status_code == 200


def test_dropping_a_player(organiser, desk):
    registration = desk.players[0]

    response = organiser.post(url("registration-drop", desk, registration.pk))

    registration.refresh_from_db()
    assert response.status_code == 302
    assert registration.status == RegistrationStatus.DROPPED


def test_draft_swap_and_publish_a_round(organiser, desk):
    organiser.post(url("round-draft", desk))
    draft = desk.tournament.round_draft
    first, second = draft.pairings[0][0], draft.pairings[1][0]

    organiser.post(url("round-swap", desk), {"first": first, "second": second})
    draft.refresh_from_db()
    assert draft.pairings[1][0] == first

    response = organiser.post(url("round-publish", desk))

    assert response.status_code == 302
    assert Match.objects.filter(round__tournament=desk.tournament).count() == 2
    assert not RoundDraft.objects.filter(tournament=desk.tournament).exists()


def test_entering_a_result_returns_the_row(client, desk):
    desk.pair((0, 1), (2, 3))
    match = desk.match_of(0)
    client.force_login(desk.floor)

    response = client.post(
        url("match-result", desk, match.pk),
        {"player1_wins": 2, "player2_wins": 1, "draws": 0},
        HTTP_HX_REQUEST="true",
    )

    match.refresh_from_db()
    body = response.content.decode()
    assert body.lstrip().startswith(f'<tr id="match-row-{match.pk}"')
    assert "<strong>2–1</strong>" in body
    assert (match.player1_wins, match.player2_wins, match.end_reason) == (2, 1, "wins_needed")


def test_a_result_that_contradicts_a_penalty_game_is_refused(client, desk):
    desk.pair((0, 1), (2, 3))
    desk.issue(0, "1.1")
    desk.issue(0, "1.1")  # repeat: a game loss, game 1 goes to the opponent
    match = desk.match_of(0)
    client.force_login(desk.floor)

    response = client.post(
        url("match-result", desk, match.pk),
        {"player1_wins": 2, "player2_wins": 0, "draws": 0},
        HTTP_HX_REQUEST="true",
    )

    match.refresh_from_db()
    assert "результат должен их включать" in response.content.decode()
    assert (match.player1_wins, match.player2_wins, match.ended_at) == (0, 1, None)


def test_a_result_over_the_best_of_is_refused(client, desk):
    desk.pair((0, 1), (2, 3))
    match = desk.match_of(0)
    client.force_login(desk.head)

    client.post(url("match-result", desk, match.pk), {"player1_wins": 2, "player2_wins": 2})

    match.refresh_from_db()
    assert match.ended_at is None


@pytest.mark.parametrize("name", ["registrations", "standings", "rounds"])
def test_list_screens_answer_in_a_constant_number_of_queries(
    client, db, django_assert_max_num_queries, name
):
    counts = []
    for players in (2, 6):
        desk = Desk.create(players=players)
        desk.pair(*[(i, i + 1) for i in range(0, players, 2)])
        client.force_login(desk.organiser)
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as queries:
            assert client.get(url(name, desk)).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_the_round_page_answers_in_a_constant_number_of_queries(client, db):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for players in (2, 6):
        desk = Desk.create(players=players)
        desk.pair(*[(i, i + 1) for i in range(0, players, 2)])
        client.force_login(desk.organiser)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url("round", desk, 1)).status_code == 200
            assert client.get(url("round", desk, 1), {"order": "name"}).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_the_new_tournament_form_starts_professional_with_deck_lists(client, db):
    user = UserFactory()
    make_organiser(user)
    client.force_login(user)

    body = client.get(reverse("tournaments:create")).content.decode()

    form = NewTournamentForm()
    assert (form["level"].value(), form["uses_decklists"].value()) == ("professional", True)
    assert re.search(r'<input type="checkbox" name="uses_decklists"[^>]*checked', body)
    assert "data-decklists-level" in body
    highest = NewTournamentForm(initial={"level": "highest"})
    assert highest["uses_decklists"].value() is True
    assert "disabled" in str(highest["uses_decklists"])
    assert NewTournamentForm(initial={"level": "amateur"})["uses_decklists"].value() is False
