"""The tournament page, its end, and the staff screen through the test client."""

import re

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from decks import services as deck_services
from decks.models import DeckFormat
from tests.factories import Desk, PlayerFactory
from tournaments import services
from tournaments.models import Staff, StaffRole, TournamentStatus


def url(name, desk, *args):
    return reverse(f"tournaments:{name}", args=[desk.tournament.slug, *args])


@pytest.fixture
def organiser(client, desk):
    client.force_login(desk.organiser)
    return client


def messages_of(response):
    return [str(message) for message in get_messages(response.wsgi_request)]


def test_the_tournament_page_shows_the_set_up_and_the_round(organiser, desk):
    desk.pair((0, 1), (2, 3))

    response = organiser.get(url("detail", desk))

    body = response.content.decode()
    assert response.status_code == 200
    assert desk.tournament.name in body
    assert "Тур 1:" in body and "идут 2 матча" in body
    assert url("finish", desk) in body


def test_a_floor_judge_sees_the_tournament_page_without_the_finish_button(client, desk):
    client.force_login(desk.floor)

    response = client.get(url("detail", desk))

    assert response.status_code == 200
    assert url("finish", desk) not in response.content.decode()


def test_finishing_the_tournament(organiser, desk):
    response = organiser.post(url("finish", desk))

    desk.tournament.refresh_from_db()
    assert response.status_code == 302
    assert desk.tournament.status == TournamentStatus.FINISHED
    assert messages_of(response) == ["Турнир завершён."]


def test_a_tournament_with_a_match_in_progress_is_not_finished(organiser, desk):
    desk.pair((0, 1), (2, 3))

    response = organiser.post(url("finish", desk))

    desk.tournament.refresh_from_db()
    assert response.status_code == 302
    assert desk.tournament.status == TournamentStatus.RUNNING
    assert messages_of(response) == ["Не все матчи текущего тура завершены."]


def test_removing_a_staff_member(organiser, desk):
    floor = Staff.objects.get(tournament=desk.tournament, user=desk.floor)

    response = organiser.post(url("staff-remove", desk, floor.pk))

    assert response.status_code == 302
    assert not Staff.objects.filter(pk=floor.pk).exists()


def test_the_organiser_cannot_remove_their_own_role(organiser, desk):
    own = Staff.objects.get(tournament=desk.tournament, user=desk.organiser)

    response = organiser.post(url("staff-remove", desk, own.pk))

    assert response.status_code == 302
    assert Staff.objects.filter(pk=own.pk).exists()
    assert messages_of(response) == ["Нельзя удалить себя из организаторов."]


def test_a_new_login_without_a_password_is_shown_beside_the_field(organiser, desk):
    staff_before = Staff.objects.count()

    response = organiser.post(
        url("staff", desk),
        {"username": "newjudge", "role": StaffRole.FLOOR_JUDGE, "password": ""},
        HTTP_HX_REQUEST="true",
    )

    assert response.status_code == 200
    assert response.context["form"].errors == {
        "password": [
            "Такого логина ещё нет; чтобы создать его, укажите пароль не короче 8 символов."
        ]
    }
    assert Staff.objects.count() == staff_before


def test_a_registry_choice_that_is_no_player_id_is_refused(organiser, desk):
    registrations = desk.tournament.registrations.count()

    response = organiser.post(url("registration-add", desk), {"player": "abc"})

    assert response.status_code == 302
    assert messages_of(response) == ["Выберите игрока из реестра."]
    assert desk.tournament.registrations.count() == registrations


def steps_of(body):
    """The next steps as (title, done) in their order."""
    section = re.search(r'<section class="card next-steps".*?</section>', body, re.S)
    if section is None:
        return []
    return [
        (re.sub(r"<[^>]+>|\s+", " ", title).strip(), cls == "step-done")
        for cls, title in re.findall(
            r'<li class="(step-done|step-todo)">\s*(?:<span[^>]*>✓</span>\s*<s>|<a [^>]*>)(.*?)</',
            section.group(0),
            re.S,
        )
    ]


def test_a_new_tournament_says_what_comes_next_until_round_1(client, db):
    desk = Desk.create(players=0)
    Staff.objects.filter(tournament=desk.tournament).exclude(role=StaffRole.ORGANISER).delete()
    client.force_login(desk.organiser)
    body = client.get(url("detail", desk)).content.decode()
    assert steps_of(body) == [
        ("Добавьте судей", False),
        ("Зарегистрируйте игроков", False),
        ("Задайте правила колод", False),
        ("Составьте пары первого тура", False),
    ]
    # The first step not done is the page's main action; finishing is folded away below.
    assert f'<a href="{url("staff", desk)}" class="button primary">' in body
    assert body.index("next-steps") < body.index(url("finish", desk))
    assert '<details class="finish-tournament">' in body

    services.add_staff(tournament=desk.tournament, user=desk.head, role=StaffRole.HEAD_JUDGE)
    for _ in range(2):
        services.register_player(tournament=desk.tournament, player=PlayerFactory())
    body = client.get(url("detail", desk)).content.decode()
    assert steps_of(body) == [
        ("Добавьте судей", True),
        ("Зарегистрируйте игроков", True),
        ("Задайте правила колод", False),
        ("Составьте пары первого тура", False),
    ]
    rules_url = reverse("decks:rules", args=[desk.tournament.slug])
    assert f'<a href="{rules_url}" class="button primary">' in body

    deck_services.update_rules(
        tournament=desk.tournament,
        deck_format=DeckFormat.objects.first(),
        pool=None,
        main_min=None,
        main_max=None,
        extra_max=None,
        copy_limit=None,
        lifting_feature="",
        combine_sections=False,
        check_legality=False,
        self_submission=False,
        deadline=None,
    )
    body = client.get(url("detail", desk)).content.decode()
    assert [done for _title, done in steps_of(body)] == [True, True, True, False]

    desk.players = list(desk.tournament.registrations.all())
    desk.pair((0, 1))
    body = client.get(url("detail", desk)).content.decode()
    assert steps_of(body) == [] and "Что дальше" not in body


def test_only_the_organiser_sees_the_next_steps(client, desk):
    client.force_login(desk.head)
    assert "Что дальше" not in client.get(url("detail", desk)).content.decode()
