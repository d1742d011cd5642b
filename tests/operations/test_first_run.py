"""The laptop's first run in the browser: the first organiser, then how the tablets connect."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from core.errors import DomainError
from operations import network
from operations.services import create_first_organiser
from tests.factories import UserFactory
from tournaments.permissions import may_organise

LAPTOP = {"REMOTE_ADDR": "127.0.0.1"}
TABLET = {"REMOTE_ADDR": "192.168.1.23"}
ANSWERS = {
    "username": "olga",
    "full_name": "Ольга Организатор",
    "password": "venue-pass-2026",
    "password_again": "venue-pass-2026",
}


def test_the_laptops_browser_is_led_from_the_start_page_to_the_set_up(client, db):
    response = client.get(reverse("home"), **LAPTOP)

    assert response.status_code == 302
    assert response["Location"] == reverse("first_run")
    page = client.get(reverse("first_run"), **LAPTOP).content.decode()
    assert "Первая настройка судейского стола" in page
    assert 'name="password_again"' in page


def test_a_tablet_on_the_wi_fi_cannot_set_up_the_desk(client, db):
    assert client.get(reverse("home"), **TABLET).status_code == 200

    page = client.get(reverse("first_run"), **TABLET)
    answer = client.post(reverse("first_run"), ANSWERS, **TABLET)

    assert page.status_code == 403
    assert "Первого организатора создают на ноутбуке" in page.content.decode()
    assert answer.status_code == 403
    assert not get_user_model().objects.exists()


def test_the_first_organiser_is_created_signed_in_and_shown_how_tablets_connect(client, db):
    response = client.post(reverse("first_run"), ANSWERS, **LAPTOP)

    assert response.status_code == 302
    assert response["Location"] == reverse("connect_tablets") + "?first=1"
    user = get_user_model().objects.get()
    assert (user.username, user.first_name) == ("olga", "Ольга Организатор")
    assert may_organise(user)
    page = client.get(response["Location"], **LAPTOP).content.decode()
    assert "Организатор создан, вход выполнен." in page
    assert "Распечатать страницу" in page
    addresses = network.lan_addresses("0.0.0.0")
    for address in addresses:
        assert network.url_for(address, 80) in page
    assert page.count('class="qr"') == len(addresses)
    if not addresses:
        assert "У этого ноутбука ещё нет сетевого адреса" in page


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"password_again": "другой-пароль-1"}, "password_again", "Пароли не совпадают."),
        ({"password": "12345678", "password_again": "12345678"}, "password", "слишком"),
        ({"username": "два слова"}, "username", "Введите правильное имя пользователя"),
    ],
)
def test_a_wrong_answer_is_shown_beside_its_field_and_creates_nothing(
    client, db, change, field, message
):
    response = client.post(reverse("first_run"), {**ANSWERS, **change}, **LAPTOP)

    assert response.status_code == 200
    assert message in " ".join(str(e) for e in response.context["form"].errors[field])
    assert not get_user_model().objects.exists()


def test_the_set_up_is_done_once_an_account_exists(client, db):
    UserFactory(username="first")

    assert client.get(reverse("home"), **LAPTOP).status_code == 200
    response = client.post(reverse("first_run"), {**ANSWERS, "username": "second"}, **LAPTOP)

    assert response.status_code == 302
    assert response["Location"] == reverse("login")
    assert list(get_user_model().objects.values_list("username", flat=True)) == ["first"]
    with pytest.raises(DomainError) as refused:
        create_first_organiser(username="third", full_name="", password="venue-pass-2026")
    assert refused.value.code == "set_up_done"


def test_the_tablets_page_is_for_signed_in_staff(client, db):
    response = client.get(reverse("connect_tablets"), **LAPTOP)

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
