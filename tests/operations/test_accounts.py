"""The first account of a real event: an organiser (not a superuser) who adds the staff."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.urls import reverse

from tournaments.models import StaffRole, Tournament
from tournaments.permissions import ORGANISE, ORGANISERS_GROUP


def create(*args, password="venue-pass-123", monkeypatch):
    monkeypatch.setenv("DJANGO_ORGANISER_PASSWORD", password)
    call_command("createorganiser", "--no-input", *args)


def test_the_first_organiser_creates_a_tournament_and_adds_a_judge_from_the_web(
    client, db, monkeypatch, capsys
):
    create("--username", "anna", "--full-name", "Анна Орлова", monkeypatch=monkeypatch)

    anna = get_user_model().objects.get(username="anna")
    assert "Организатор anna создан." in capsys.readouterr().out
    assert (anna.first_name, anna.is_superuser, anna.is_staff) == ("Анна Орлова", False, False)
    assert list(anna.groups.values_list("name", flat=True)) == [ORGANISERS_GROUP]
    assert anna.has_perm(ORGANISE)

    assert (
        client.post(
            reverse("login"), {"username": "anna", "password": "venue-pass-123"}
        ).status_code
        == 302
    )
    client.post(
        reverse("tournaments:create"),
        {
            "slug": "city-cup",
            "name": "Кубок города",
            "date": "2026-12-12",
            "venue": "",
            "level": "professional",
            "format": "constructed",
            "best_of": 3,
            "round_minutes": 50,
        },
    )
    client.post(
        reverse("tournaments:staff", args=["city-cup"]),
        {
            "username": "boris",
            "role": StaffRole.HEAD_JUDGE,
            "full_name": "Борис",
            "password": "judge-pass-123",
        },
    )

    tournament = Tournament.objects.get(slug="city-cup")
    assert sorted(tournament.staff.values_list("user__username", "role")) == [
        ("anna", StaffRole.ORGANISER),
        ("boris", StaffRole.HEAD_JUDGE),
    ]
    client.logout()
    assert (
        client.post(
            reverse("login"), {"username": "boris", "password": "judge-pass-123"}
        ).status_code
        == 302
    )
    assert client.get(reverse("judging:console", args=["city-cup"])).status_code == 200


def test_an_existing_account_is_made_an_organiser(db, capsys):
    user = get_user_model().objects.create_user(username="vera", password="x" * 12)

    call_command("createorganiser", "--username", "vera", "--existing", "--no-input")

    assert "vera теперь организатор." in capsys.readouterr().out
    user = get_user_model().objects.get(pk=user.pk)
    assert user.has_perm(ORGANISE)
    assert not user.is_superuser


@pytest.mark.parametrize(
    ("args", "password", "message"),
    [
        (["--username", "anna"], "short", "Введённый пароль слишком короткий."),
        (["--username", "anna"], "", "пароль берётся из переменной DJANGO_ORGANISER_PASSWORD"),
        (["--username", "has space"], "venue-pass-123", "Введите правильное имя пользователя."),
        ([], "venue-pass-123", "С --no-input нужен --username."),
        (["--username", "ghost", "--existing"], "venue-pass-123", "Учётной записи ghost нет."),
    ],
)
def test_a_bad_organiser_is_refused_and_nothing_is_created(
    db, monkeypatch, args, password, message
):
    with pytest.raises(CommandError) as refused:
        create(*args, password=password, monkeypatch=monkeypatch)

    assert message in str(refused.value)
    assert get_user_model().objects.count() == 0


def test_an_account_that_exists_is_not_created_twice(db, monkeypatch):
    create("--username", "anna", monkeypatch=monkeypatch)

    with pytest.raises(CommandError) as refused:
        create("--username", "anna", password="other-pass-456", monkeypatch=monkeypatch)

    assert "уже есть: добавьте --existing" in str(refused.value)
    assert get_user_model().objects.get().check_password("venue-pass-123")


def test_the_prompts_speak_russian(db, monkeypatch, capsys):
    asked = []

    def answer(prompt):
        asked.append(prompt)
        return {"Логин: ": "irina"}[prompt]

    passwords = iter(["venue-pass-123", "other-pass-456", "venue-pass-123", "venue-pass-123"])

    def password(prompt):
        asked.append(prompt)
        return next(passwords)

    monkeypatch.setattr("builtins.input", answer)
    monkeypatch.setattr("getpass.getpass", password)
    call_command("createorganiser")

    assert asked == ["Логин: ", "Пароль: ", "Пароль ещё раз: ", "Пароль: ", "Пароль ещё раз: "]
    assert "Пароли не совпадают, введите ещё раз." in capsys.readouterr().err
    assert get_user_model().objects.get(username="irina").check_password("venue-pass-123")
