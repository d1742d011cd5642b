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
