"""The hot-path benchmark's tools: a client that signs in and posts as a browser would, an
event-stream reader, timings, and the throwaway database and uvicorn server it runs against."""

import contextlib
import http.client
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from urllib.parse import urlencode, urlparse

from benchmarks.shared_setup import ROOT, benchmark_environment

DEFAULT_PG_ADMIN = "postgres://judging:judging@127.0.0.1:5432/postgres"


class Browser:
    """One keep-alive connection with its cookies, signing in as a browser would."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.cookies: dict[str, str] = {}

    def request(
        self, method: str, path: str, data: dict[str, str] | None = None, **headers: str
    ) -> tuple[int, bytes]:
        headers = {"Host": f"127.0.0.1:{self.port}", **headers}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if data is not None:
            body = urlencode(data)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
            headers["Referer"] = f"http://127.0.0.1:{self.port}{path}"
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        content = response.read()
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
        return response.status, content

    def sign_in(self, username: str, password: str) -> None:
        self.request("GET", "/login/")
        status, _ = self.request("POST", "/login/", {"username": username, "password": password})
        if status != 302:
            raise SystemExit(f"signing in as {username} failed: HTTP {status}")


def follow_progress(browser: Browser, path: str, *, still_running: bytes, every: float) -> bytes:
    """Ask a progress page (a job's, a re-check's) again every ``every`` seconds, as the page's
    own polling does, until it no longer carries ``still_running`` (the attribute of that
    polling); its last body."""
    while True:
        status, body = browser.request("GET", path)
        if status != 200:
            raise SystemExit(f"the progress page {path} failed: HTTP {status}")
        if still_running not in body:
            return body
        time.sleep(every)


@dataclass
class Timings:
    samples: dict[str, list[float]]

    def median(self, name: str) -> float:
        return statistics.median(self.samples[name]) * 1000

    def p95(self, name: str) -> float:
        ordered = sorted(self.samples[name])
        return ordered[max(0, int(len(ordered) * 0.95) - 1)] * 1000


def timed(samples: list[float], call: Callable[[], tuple[int, bytes]], expect: int) -> None:
    started = time.perf_counter()
    status, body = call()
    samples.append(time.perf_counter() - started)
    if status != expect:
        errors = re.findall(r'class="error"[^>]*>(.*?)</', body.decode(errors="replace"), re.S)
        raise SystemExit(f"expected HTTP {expect}, got {status}: {errors or body[:300]!r}")


class Stream:
    """One event stream read in its own thread; records when each event arrives."""

    def __init__(self, port: int, path: str, cookie: str) -> None:
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.socket.sendall(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: {cookie}\r\n"
            "Accept: text/event-stream\r\n\r\n".encode()
        )
        self.arrivals: list[float] = []
        self.open = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        pending = b""
        with contextlib.suppress(OSError):
            while chunk := self.socket.recv(65536):
                now = time.perf_counter()
                pending += chunk
                self.open.set()
                while b"\n\n" in pending:
                    message, pending = pending.split(b"\n\n", 1)
                    if b"event: penalty-changed" in message and b"data:" in message:
                        self.arrivals.append(now)


@contextlib.contextmanager
def database(kind: str) -> Iterator[str]:
    if kind == "sqlite":
        with tempfile.TemporaryDirectory() as folder:
            yield f"sqlite:///{folder}/hot_path.sqlite3"
        return
    import psycopg

    admin_url = os.environ.get("BENCH_PG_ADMIN_URL", DEFAULT_PG_ADMIN)
    name = f"judging_hot_path_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(admin_url, autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}")
    try:
        yield urlparse(admin_url)._replace(path=f"/{name}").geturl()
    finally:
        with psycopg.connect(admin_url, autocommit=True) as connection:
            connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@contextlib.contextmanager
def server(database_url: str, data_dir: str) -> Iterator[int]:
    """One uvicorn process serving the benchmark's app; yields its port."""
    with served_app(database_url, data_dir) as (port, _process):
        yield port


@contextlib.contextmanager
def served_app(
    database_url: str, data_dir: str, *, workers: int = 1, backlog: int | None = None
) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """uvicorn serving the app with the benchmark's URLs, as ``serve`` does (``workers``
    processes, the listen ``backlog`` a storm of phones needs); yields the port and the process
    (the workers are its children)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [
        sys.executable,
        "-m",
        "uvicorn",
        "benchmarks.hot_path_app:application",
        "--port",
        str(port),
        "--log-level",
        "warning",
        "--lifespan",
        "off",
        "--timeout-graceful-shutdown",
        "1",
    ]
    if backlog is not None:
        command += ["--backlog", str(backlog)]
    if workers > 1:
        command += ["--workers", str(workers)]
    process = subprocess.Popen(command, cwd=ROOT, env=benchmark_environment(database_url, data_dir))
    try:
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
                break
            if time.monotonic() > deadline or process.poll() is not None:
                raise SystemExit("uvicorn did not start")
            time.sleep(0.1)
        yield port, process
    finally:
        process.terminate()
        process.wait(timeout=20)
