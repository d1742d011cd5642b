import os

import pytest

# Browser tests drive Playwright's sync API, which runs an event loop in the test thread; the
# database calls the tests make around it are synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture
def desk(db):
    """A tournament with a head judge, a floor judge, an organiser and four players."""
    from tests.factories import Desk

    return Desk.create()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    # The real hasher is slow by design; tests create many users and prove nothing about hashing.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _shipped_guideline(request):
    """Tests that commit (live server, threads) flush the tables after them, the data migration's
    guideline edition with them; the next such test loads it again."""
    if {"transactional_db", "live_server"} & set(request.fixturenames):
        from judging.editions import load_edition

        request.getfixturevalue("transactional_db")
        load_edition()


@pytest.fixture
def asgi_server(transactional_db):
    """The app served by uvicorn in a background thread; yields the base URL."""
    from config.servers import asgi_server_thread

    with asgi_server_thread() as (url, _port):
        yield url
