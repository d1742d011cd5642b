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
    """The app served by uvicorn in a background thread, as in production.

    Server-sent events need an ASGI server: the WSGI live server would buffer an endless stream.
    Yields the base URL; the server stops when the test ends.
    """
    import socket
    import threading
    import time

    import uvicorn

    from config.asgi import application

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(
            application,
            host="127.0.0.1",
            port=port,
            log_level="warning",
            lifespan="off",
            # Open event streams never end by themselves; do not wait for them at shutdown.
            timeout_graceful_shutdown=1,
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    from judging.live import hub

    hub.stop()
    time.sleep(0.1)  # Let the listener close its database connection before the server stops.
    server.should_exit = True
    thread.join(timeout=10)
