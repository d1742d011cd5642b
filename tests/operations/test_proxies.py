"""X-Forwarded-For names the client only when the operator named the proxy: by default the
sign-in lockout, the call limit and the throttles count the address the request came from."""

import urllib.error
import urllib.parse
import urllib.request

import pytest
from axes.models import AccessAttempt
from django.urls import reverse

from operations.network import proxy_options
from tests.factories import UserFactory
from tests.processes import START_DJANGO, run_python

TOKEN = "p" * 32


def sign_in(base_url: str, password: str, forwarded_for: str) -> int:
    """A sign-in as a browser posts it, to the server in its thread (uvicorn, as under serve)."""
    request = urllib.request.Request(
        base_url + reverse("login"),
        data=urllib.parse.urlencode(
            {"username": "anna", "password": password, "csrfmiddlewaretoken": TOKEN}
        ).encode(),
        headers={"Cookie": f"csrftoken={TOKEN}", "X-Forwarded-For": forwarded_for},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def test_a_new_forwarded_header_each_time_does_not_escape_the_lockout(asgi_server):
    UserFactory(username="anna")

    statuses = [sign_in(asgi_server, "wrong", f"198.51.100.{n}") for n in range(1, 7)]

    assert statuses == [200, 200, 200, 200, 429, 429]
    assert list(AccessAttempt.objects.values_list("ip_address", flat=True)) == ["127.0.0.1"]


@pytest.fixture
def trusted_local_proxy(settings):
    """The operator names the proxy on this machine (before the server starts)."""
    settings.DESK_TRUSTED_PROXIES = ["127.0.0.1/32"]


@pytest.mark.usefixtures("trusted_local_proxy")
def test_behind_a_named_proxy_each_client_has_its_own_lockout(asgi_server):
    UserFactory(username="anna")

    statuses = [sign_in(asgi_server, "wrong", "203.0.113.9") for _ in range(5)]
    other_client = sign_in(asgi_server, "wrong", "203.0.113.10")

    assert statuses == [200, 200, 200, 200, 429]
    assert other_client == 200
    assert sorted(AccessAttempt.objects.values_list("ip_address", flat=True)) == [
        "203.0.113.10",
        "203.0.113.9",
    ]


def test_the_named_proxies_become_uvicorn_s_options():
    assert proxy_options([]) == {"proxy_headers": False, "forwarded_allow_ips": ""}
    assert proxy_options(["10.0.0.1/32", "192.168.1.0/24"]) == {
        "proxy_headers": True,
        "forwarded_allow_ips": "10.0.0.1/32,192.168.1.0/24",
    }


def test_the_proxy_list_is_read_from_the_environment(tmp_path):
    result = run_python(
        "from django.conf import settings; print(settings.DESK_TRUSTED_PROXIES)",
        data_dir=tmp_path,
        DJANGO_TRUSTED_PROXIES=" 10.0.0.1, 192.168.1.0/24 ",
    )

    assert result.stdout.strip() == "['10.0.0.1/32', '192.168.1.0/24']", result.stderr


def test_a_malformed_proxy_list_stops_the_start_with_its_entry(tmp_path):
    result = run_python(
        START_DJANGO, data_dir=tmp_path, DJANGO_TRUSTED_PROXIES="10.0.0.1, nginx.local"
    )

    assert result.returncode != 0
    assert "DJANGO_TRUSTED_PROXIES must list IP addresses or networks" in result.stderr
    assert "nginx.local" in result.stderr
