from pathlib import Path

import pytest

BROWSER_TESTS = Path(__file__).resolve().parent / "browser"


def pytest_collection_modifyitems(items):
    """Browser tests last: from the first of them on, Playwright keeps an event loop running in
    the test thread, where Django's guard against sync calls would stop every other test."""
    items.sort(key=lambda item: BROWSER_TESTS in Path(str(item.path)).parents)


@pytest.fixture
def desk(db):
    """A tournament with a head judge, a floor judge, an organiser and four players."""
    from tests.factories import Desk

    return Desk.create()


@pytest.fixture(autouse=True)
def _no_round_snapshots(settings):
    # The suite's SQLite database is a file: a snapshot at every published round would copy it
    # each time. The snapshot test runs the demo in a process of its own, with snapshots on.
    settings.DESK_ROUND_SNAPSHOTS = 0


@pytest.fixture(autouse=True)
def _exports_in_the_server_process(settings):
    # A test's data lives in its own uncommitted transaction, which an export process cannot see;
    # the test of the export processes commits and switches them on.
    settings.DESK_EXPORT_PROCESSES = 0


@pytest.fixture(autouse=True)
def _fresh_throttles():
    # The per-client limits count in the process's cache (core/throttle.py), and every test
    # client is 127.0.0.1: one test's requests must not use up the next one's.
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    # The real hasher is slow by design; tests create many users and prove nothing about hashing.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _shipped_guideline(request):
    """Tests that commit (live server, threads) flush the tables after them, the data migrations'
    guideline edition and deck formats with them; the next such test loads them again, whether
    it asks for a committing database by fixture or by ``django_db(transaction=True)``."""
    marker = request.node.get_closest_marker("django_db")
    committing = marker is not None and (
        marker.kwargs.get("transaction") or (len(marker.args) > 0 and marker.args[0])
    )
    if committing or {"transactional_db", "live_server"} & set(request.fixturenames):
        from decks.formats import ship_formats
        from decks.models import DeckFormat
        from judging.editions import load_edition

        request.getfixturevalue("transactional_db")
        load_edition()
        ship_formats(DeckFormat)


@pytest.fixture
def asgi_server(transactional_db):
    """The app served by uvicorn in a background thread; yields the base URL."""
    from config.servers import asgi_server_thread

    with asgi_server_thread() as (url, _port):
        yield url


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, tmp_path_factory):
    """On SQLite the suite runs on a database file, as the demo does, not in memory: concurrent
    writers then meet the same locking (WAL, IMMEDIATE transactions) as at an event."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"].endswith("sqlite3"):
        database.setdefault("TEST", {})["NAME"] = str(
            tmp_path_factory.mktemp("db") / "test.sqlite3"
        )
    # Each test runs inside a transaction, and Django closes connections at moments of its own
    # (a management command's end): a pooled connection would go back to the pool in the middle
    # of the test's transaction. The pools are tested in tests/config.
    database.get("OPTIONS", {}).pop("pool", None)


@pytest.fixture(autouse=True)
def _default_language_after_each_test():
    """LocaleMiddleware leaves the language of a test's last request active in the thread; a test
    that switched to English must not make the next test's messages English."""
    yield
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
