"""The app served by uvicorn in a background thread, as in production: for the browser tests and
the benchmarks (which must not import the tests).

Server-sent events need an ASGI server: the WSGI live server would buffer an endless stream.
"""

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn


@contextmanager
def asgi_server_thread(
    port: int | None = None, *, certfile: str | None = None, keyfile: str | None = None
) -> Iterator[tuple[str, int]]:
    """Yield the base URL and the port; stop the server (and its event streams) on exit.

    ``port``: serve on this one, as a server restarted after a stop does (the tablets' offline
    tests stop the server and start it again where the tablets left it); a free one otherwise.
    ``certfile`` and ``keyfile``: serve HTTPS with them, as ``serve`` does on the venue's network.
    """
    from django.conf import settings

    from config.asgi import application
    from judging.live import hub
    from operations.network import proxy_options

    if port is None:
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
            ssl_certfile=certfile,
            ssl_keyfile=keyfile,
            **proxy_options(settings.DESK_TRUSTED_PROXIES),  # type: ignore[arg-type]
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    try:
        yield f"{'https' if certfile else 'http'}://127.0.0.1:{port}", port
    finally:
        hub.stop()
        time.sleep(0.1)  # Let the streams end and the listener close its database connection.
        server.should_exit = True
        thread.join(timeout=10)
