"""Static files: fingerprinted and compressed after collectstatic, cached for a long time; the
plain files still served before it has run."""

import re

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse


def test_before_collectstatic_pages_link_the_plain_files_and_they_are_served(client, db):
    page = client.get(reverse("login")).content.decode()

    assert 'href="/static/css/app.css"' in page
    assert client.get("/static/css/app.css").status_code == 200


@pytest.fixture
def collected(settings, tmp_path):
    settings.STATIC_ROOT = tmp_path / "static"
    call_command("collectstatic", interactive=False, verbosity=0)
    return settings.STATIC_ROOT


def test_after_collectstatic_assets_are_fingerprinted_compressed_and_kept_for_a_year(db, collected):
    client = Client()  # A fresh handler: WhiteNoise reads the collected files when it starts.
    page = client.get(reverse("login")).content.decode()
    (stylesheet,) = re.findall(r'href="(/static/css/app\.[0-9a-f]{12}\.css)"', page)

    response = client.get(stylesheet, HTTP_ACCEPT_ENCODING="gzip")

    assert response.status_code == 200
    assert response["Content-Encoding"] == "gzip"
    assert "max-age=315360000" in response["Cache-Control"]
    assert "immutable" in response["Cache-Control"]
    assert (collected / "css" / f"{stylesheet.rsplit('/', 1)[1]}.gz").exists()
