"""HTTPS behind a reverse proxy through the environment, and `check --deploy` clean with the
README's production variables."""

import re
import secrets
import subprocess
import sys

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client

from tests.processes import PROJECT, START_DJANGO, run_python

SHOW = (
    "from django.conf import settings as s; print(repr(("
    "s.SECURE_PROXY_SSL_HEADER, s.CSRF_TRUSTED_ORIGINS, s.SESSION_COOKIE_SECURE, "
    "s.CSRF_COOKIE_SECURE, s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS, "
    "s.SECURE_HSTS_INCLUDE_SUBDOMAINS, s.SECURE_HSTS_PRELOAD)))"
)


def production_variables() -> dict[str, str]:
    """The variables the README's production section exports, with a real secret key."""
    readme = (PROJECT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Production", 1)[1]
    block = re.search(r"```sh\n(export .*?)\n[^\n]*manage\.py", section, re.DOTALL)
    assert block, "the README's production section starts with an export block"
    words = block.group(1).replace("\\\n", " ").split()[1:]
    variables = dict(word.split("=", 1) for word in words)
    assert variables["DJANGO_SECRET_KEY"] == "…"
    variables["DJANGO_SECRET_KEY"] = secrets.token_urlsafe(50)
    return variables


def test_check_deploy_is_clean_with_the_readme_s_production_variables(db, tmp_path):
    variables = production_variables()
    assert variables["DATABASE_URL"].startswith("postgres://")
    # The checks ask the database its version, so the README's example database is replaced by
    # one that exists: the suite's PostgreSQL test database when it runs there, else SQLite.
    here = connection.settings_dict
    variables["DATABASE_URL"] = (
        f"postgres://{here['USER']}:{here['PASSWORD']}@{here['HOST']}:{here['PORT']}/{here['NAME']}"
        if connection.vendor == "postgresql"
        else f"sqlite:///{tmp_path / 'db.sqlite3'}"
    )

    run = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=PROJECT,
        env={"PATH": "/usr/bin:/bin", "DJANGO_DATA_DIR": str(tmp_path), **variables},
        capture_output=True,
        text=True,
    )

    assert run.returncode == 0, run.stdout + run.stderr
    assert "System check identified no issues (0 silenced)." in run.stdout
    assert variables["DJANGO_HTTPS"] == "true"


def test_https_switches_on_secure_cookies_hsts_redirect_and_the_proxy_header(tmp_path):
    run = run_python(
        SHOW,
        data_dir=tmp_path,
        DJANGO_HTTPS="true",
        DJANGO_CSRF_TRUSTED_ORIGINS="https://desk.example.org, https://judges.example.org",
    )

    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == repr(
        (
            ("HTTP_X_FORWARDED_PROTO", "https"),
            ["https://desk.example.org", "https://judges.example.org"],
            True,
            True,
            True,
            31_536_000,
            True,
            True,
        )
    )


def test_without_https_nothing_is_forced_and_each_variable_changes_its_own_setting(tmp_path):
    plain = run_python(SHOW, data_dir=tmp_path)
    tuned = run_python(
        SHOW,
        data_dir=tmp_path,
        DJANGO_HTTPS="true",
        DJANGO_PROXY_SSL_HEADER="X-Scheme",
        DJANGO_SSL_REDIRECT="false",
        DJANGO_HSTS_SECONDS="3600",
        DJANGO_HSTS_INCLUDE_SUBDOMAINS="false",
        DJANGO_HSTS_PRELOAD="false",
    )

    assert plain.stdout.strip() == repr((None, [], False, False, False, 0, False, False))
    assert tuned.stdout.strip() == repr(
        (("HTTP_X_SCHEME", "https"), [], True, True, False, 3600, False, False)
    )


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DJANGO_HSTS_SECONDS": "a year"}, "DJANGO_HSTS_SECONDS must be a whole number"),
        ({"DJANGO_CSRF_TRUSTED_ORIGINS": "desk.example.org"}, "must list origins like https://"),
        ({"DJANGO_PROXY_SSL_HEADER": "X Forwarded"}, "DJANGO_PROXY_SSL_HEADER must be a header"),
        ({"DJANGO_HTTPS": "sometimes"}, "DJANGO_HTTPS must be true or false"),
    ],
)
def test_a_wrong_https_variable_stops_the_start(tmp_path, env, message):
    run = run_python(START_DJANGO, data_dir=tmp_path, **env)

    assert run.returncode != 0
    assert message in run.stderr


def test_behind_the_proxy_a_form_is_accepted_and_plain_http_is_redirected(db, settings):
    settings.ALLOWED_HOSTS = ["desk.example.org"]
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_SSL_REDIRECT = True
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = True
    settings.SECURE_HSTS_SECONDS = 31_536_000
    get_user_model().objects.create_user(username="anna", password="venue-pass-123")
    browser = Client(enforce_csrf_checks=True, HTTP_HOST="desk.example.org")
    over_https = {"HTTP_X_FORWARDED_PROTO": "https", "secure": False}

    plain = browser.get("/login/")
    page = browser.get("/login/", **over_https)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode())
    signed_in = browser.post(
        "/login/",
        {"username": "anna", "password": "venue-pass-123", "csrfmiddlewaretoken": token.group(1)},
        HTTP_ORIGIN="https://desk.example.org",
        **over_https,
    )

    assert (plain.status_code, plain["Location"]) == (301, "https://desk.example.org/login/")
    assert page["Strict-Transport-Security"] == "max-age=31536000"
    assert page.cookies["csrftoken"]["secure"] is True
    assert signed_in.status_code == 302
    assert signed_in.cookies["sessionid"]["secure"] is True
