"""The laptop's first run in the browser: the first organiser, then how the tablets connect."""

import socket

import psutil
import pytest
from cryptography.hazmat.primitives import serialization
from django.contrib.auth import get_user_model
from django.urls import reverse

from core.errors import DomainError
from operations import network, tls
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


class _Address:
    def __init__(self, family, address):
        self.family, self.address = family, address


class _Up:
    isup = True


@pytest.fixture
def venue_network(monkeypatch):
    """The laptop on a hall's Wi-Fi (192.168.1.23) and on a public address (192.0.2.2): the
    operating system's answer, as psutil reads it, for the machine this test runs on."""
    interfaces = {
        "lo": [_Address(socket.AF_INET, "127.0.0.1")],
        "wlan0": [_Address(socket.AF_INET, "192.168.1.23")],
        "eth0": [_Address(socket.AF_INET, "192.0.2.2")],
    }
    monkeypatch.setattr(psutil, "net_if_addrs", lambda: interfaces)
    monkeypatch.setattr(psutil, "net_if_stats", lambda: dict.fromkeys(interfaces, _Up()))


@pytest.fixture
def desk_https(settings, tmp_path):
    """The desk as `serve` runs it with HTTPS: its authority in a data folder of the test's own."""
    settings.DATA_DIR = tmp_path
    settings.DESK_LAN_HTTP_PORT = 8000
    settings.DESK_LAN_HTTPS_PORT = 8443
    tls.server_certificate(tls.folder_for(tmp_path), addresses=["127.0.0.1"], names=[])
    return tls.read_ca_certificate(tls.folder_for(tmp_path))


def test_with_https_the_tablets_page_offers_the_certificate_then_the_https_address(
    client, db, venue_network, desk_https
):
    client.force_login(UserFactory())

    page = client.get(reverse("connect_tablets"), **LAPTOP).content.decode()

    assert "Один раз на каждом планшете: установите сертификат стола." in page
    assert "Android" in page and "iPad" in page
    assert "Сертификат ЦС → desk-ca.crt → «Всё равно установить»" in page
    assert "Доверие сертификатам → включите «Судейский стол»" in page
    assert '<strong class="address">http://192.168.1.23:8000/connect/desk-ca.crt</strong>' in page
    assert '<strong class="address">https://192.168.1.23:8443/</strong>' in page
    assert "Без сертификата: http://192.168.1.23:8000/ (работает, только пока есть связь)." in page
    assert tls.fingerprint(desk_https) in page
    # Two codes for the hall's address; the public one, which the desk's authority may not vouch
    # for, keeps its plain address alone.
    assert page.count('class="qr"') == 3
    assert '<strong class="address">http://192.0.2.2:8000/</strong>' in page
    assert "https://192.0.2.2" not in page


def test_without_https_the_tablets_page_says_how_to_get_offline_work(
    client, db, venue_network, settings
):
    settings.DESK_LAN_HTTPS_PORT = None
    client.force_login(UserFactory())

    page = client.get(reverse("connect_tablets"), **LAPTOP).content.decode()

    assert "сертификат стола" not in page
    assert '<strong class="address">http://192.168.1.23:80/</strong>' in page
    assert "запустите стол командой «uv run manage.py serve» одним процессом" in page


def test_a_tablet_downloads_the_authority_s_certificate_without_signing_in(client, desk_https):
    response = client.get(reverse("connect_ca_certificate"), **TABLET)

    assert response.status_code == 200
    assert response["Content-Type"] == "application/x-x509-ca-cert"
    assert response["Content-Disposition"] == 'attachment; filename="desk-ca.crt"'
    assert response.content == desk_https.public_bytes(serialization.Encoding.DER)
    assert b"PRIVATE" not in response.content


def test_no_certificate_is_offered_while_the_desk_serves_no_https(client, settings, tmp_path):
    settings.DATA_DIR = tmp_path
    settings.DESK_LAN_HTTPS_PORT = None
    tls.server_certificate(tls.folder_for(tmp_path), addresses=["127.0.0.1"], names=[])

    assert client.get(reverse("connect_ca_certificate"), **TABLET).status_code == 404
