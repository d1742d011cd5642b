"""`serve --https-redirect`: the tablets are sent from plain HTTP to the laptop's own HTTPS."""

import pytest
from django.urls import reverse

TABLET = {"REMOTE_ADDR": "192.168.1.40", "HTTP_HOST": "192.168.1.23:8000"}


@pytest.fixture
def redirecting(settings):
    settings.ALLOWED_HOSTS = ["localhost", "127.0.0.1", "192.168.1.23", "[fd00::2]"]
    settings.DESK_LAN_HTTP_PORT = 8000
    settings.DESK_LAN_HTTPS_PORT = 8443
    settings.DESK_LAN_HTTPS_REDIRECT = True


def test_a_tablet_s_page_over_plain_http_is_sent_to_https(client, db, redirecting):
    response = client.get("/login/?next=/t/", **TABLET)

    assert response.status_code == 302
    assert response["Location"] == "https://192.168.1.23:8443/login/?next=/t/"
    ipv6 = client.get("/login/", HTTP_HOST="[fd00::2]:8000")
    assert ipv6["Location"] == "https://[fd00::2]:8443/login/"


def test_what_must_stay_on_plain_http_is_not_redirected(client, db, redirecting):
    # The laptop itself (a secure context already, its browser need not trust the desk's
    # certificate), the certificate a tablet fetches before it trusts HTTPS, the health check,
    # and a form sent over HTTP.
    assert client.get("/login/", HTTP_HOST="localhost:8000").status_code == 200
    assert client.get(reverse("connect_ca_certificate"), **TABLET).status_code == 404
    assert client.get("/healthz", **TABLET).status_code in (200, 503)
    sent = client.post("/login/", {"username": "x", "password": "y"}, **TABLET)
    assert sent.status_code == 200
    # Already over HTTPS: served.
    assert client.get("/login/", secure=True, **TABLET).status_code == 200


def test_without_the_redirect_plain_http_serves_the_tablets(client, db, redirecting, settings):
    settings.DESK_LAN_HTTPS_REDIRECT = False

    assert client.get("/login/", **TABLET).status_code == 200
