"""How long a committed penalty takes to reach 100 open event streams (PostgreSQL).

Run: ``uv run python benchmarks/live_fanout.py [--streams 100] [--changes 20]``. It needs the local
PostgreSQL (``DATABASE_URL`` of a role that may create databases, default the local ``postgres``
role); it creates a throwaway database, serves the app with uvicorn in a thread as production does,
opens the streams as raw HTTP connections, issues penalties through the real service and measures,
per stream, the time from the commit to the event's arrival. It prints the median and the 95th
percentile, then drops the database.
"""

import argparse
import os
import socket
import statistics
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlparse

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from tournaments.models import Registration, Tournament

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


class Stream:
    """One event stream read in its own thread; records when each event line arrives."""

    def __init__(self, port: int, path: str, cookie: str) -> None:
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=30)
        request = (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: {cookie}\r\n"
            "Accept: text/event-stream\r\n\r\n"
        )
        self.socket.sendall(request.encode())
        self.arrivals: list[float] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        pending = b""
        try:
            while chunk := self.socket.recv(65536):
                now = time.perf_counter()
                pending += chunk
                while b"\n\n" in pending:
                    message, pending = pending.split(b"\n\n", 1)
                    if b"event: penalty-changed" in message:
                        self.arrivals.append(now)
        except OSError:
            return


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=100)
    parser.add_argument("--changes", type=int, default=20)
    options = parser.parse_args()

    import psycopg

    admin_url = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    name = f"judging_bench_{uuid.uuid4().hex[:8]}"
    admin = urlparse(admin_url)
    with psycopg.connect(admin_url, autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}")
    os.environ["DATABASE_URL"] = admin._replace(path=f"/{name}").geturl()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    try:
        run(options.streams, options.changes)
    finally:
        from django.db import connections

        connections.close_all()
        with psycopg.connect(admin_url, autocommit=True) as connection:
            connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def run(stream_count: int, changes: int) -> None:
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    from config.servers import asgi_server_thread

    call_command("migrate", verbosity=0)
    tournament, head, players = set_up()
    client = Client()
    client.force_login(head)
    cookie = f"sessionid={client.cookies['sessionid'].value}"

    with asgi_server_thread() as (_url, port):
        measure(tournament, head, players, cookie, port, stream_count, changes)


def set_up() -> tuple["Tournament", "User", list["Registration"]]:
    """A tournament with a head judge and two players, made through the services."""
    import datetime

    from tournaments import services
    from tournaments.models import StaffRole

    tag = uuid.uuid4().hex[:8]
    tournament = services.create_tournament(
        name=f"Benchmark {tag}",
        slug=f"benchmark-{tag}",
        date=datetime.date.today(),
        level="amateur",
    )
    head = services.add_staff_member(
        tournament=tournament,
        username=f"head-{tag}",
        role=StaffRole.HEAD_JUDGE,
        password=uuid.uuid4().hex,
    ).user
    players = [
        services.register_new_player(
            tournament=tournament, name=f"Player {n}", membership_id=f"bench-{tag}-{n}"
        )
        for n in (1, 2)
    ]
    return tournament, head, players


def measure(
    tournament: "Tournament",
    head: "User",
    players: list["Registration"],
    cookie: str,
    port: int,
    stream_count: int,
    changes: int,
) -> None:
    from judging import services
    from judging.live import hub
    from judging.models import PenaltyRecord

    path = f"/t/{tournament.slug}/events/"
    streams = [Stream(port, path, cookie) for _ in range(stream_count)]
    deadline = time.monotonic() + 30
    while hub.stream_count < stream_count or not hub.listening:
        if time.monotonic() > deadline:
            raise SystemExit(f"only {hub.stream_count} of {stream_count} streams connected")
        time.sleep(0.01)

    latencies: list[float] = []
    for index in range(changes):
        before = [len(stream.arrivals) for stream in streams]
        services.issue_penalty(
            registration=players[index % 2],
            infraction_code="1.4",
            moment="between_matches",
            issued_by=head,
            client_key=uuid.uuid4(),
            confirm_second=True,  # every change is meant: the benchmark repeats on purpose
        )
        committed = time.perf_counter()  # The service's transaction has committed on return.
        wait_until = time.monotonic() + 5
        while any(len(s.arrivals) <= b for s, b in zip(streams, before, strict=True)):
            if time.monotonic() > wait_until:
                raise SystemExit(f"change {index}: not every stream got the event in 5 s")
            time.sleep(0.001)
        latencies += [s.arrivals[b] - committed for s, b in zip(streams, before, strict=True)]
        time.sleep(0.05)
        # Keep the player below a disqualification, so every change is accepted.
        services.revoke_penalty(
            record=PenaltyRecord.objects.latest("id"),
            author=head,
            reason="benchmark",
        )
        time.sleep(0.05)
        for stream, _count in zip(streams, before, strict=True):
            stream.arrivals.clear()

    latencies.sort()
    median = statistics.median(latencies) * 1000
    p95 = latencies[int(len(latencies) * 0.95) - 1] * 1000
    print(
        f"live fan-out: {stream_count} streams, {changes} changes: "
        f"median {median:.1f} ms, 95th percentile {p95:.1f} ms from commit to arrival"
    )
    for stream in streams:
        stream.socket.close()


if __name__ == "__main__":
    main()
