"""Faults in the middle of a burst of submits: nothing a judge was told is recorded may be lost,
and nothing may be recorded twice.

Run it with ``uv run python benchmarks/faults.py`` (``--databases sqlite,postgres``; PostgreSQL
through ``BENCH_PG_ADMIN_URL`` as for ``benchmarks/hot_path.py``). For each database it:

1. builds, in a throwaway database, a tournament of ``BENCH_FAULT_PLAYERS`` players in round 1;
2. serves it with ``manage.py serve`` (one uvicorn process, the settings of an event);
3. sends a burst of submits from eight tablets, each a new penalty with its own client key; a
   tablet that gets no answer, a dropped connection or a 5xx sends the same submit again (the
   same key), as the tablets' offline queue does, until the server answers it;
4. in the middle of the burst kills the server (SIGKILL, no shutdown) and starts it again, and
   later ends every connection of the database (on PostgreSQL: what a restart of PostgreSQL does
   to the server's pooled connections; the shared PostgreSQL of a laptop is not restarted);
5. counts the submits sent, accepted (a redirect to the record), lost (accepted but not in the
   database) and duplicated (two records of one key), and the retries the faults caused.
"""

import argparse
import contextlib
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if not __package__:
    sys.path.insert(0, str(ROOT))

from benchmarks import shared_setup  # noqa: E402
from benchmarks.hot_path_tools import Browser, database  # noqa: E402

PLAYERS = int(os.environ.get("BENCH_FAULT_PLAYERS", "200"))
SUBMITS = int(os.environ.get("BENCH_FAULT_SUBMITS", "600"))
TABLETS = 8
PASSWORD = "fault-bench-pass-1"
SLUG = "faults"


def prepare(database_url: str) -> None:
    """Migrate and build the event (run in a process of its own, with the server's settings)."""
    shared_setup.start_django(database_url, "config.settings")
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from players.services import create_player
    from tournaments import services
    from tournaments.models import Level, StaffRole, Tournament

    shared_setup.migrate_database()
    judge = get_user_model().objects.create_user("fault-judge", password=PASSWORD)
    tournament = Tournament.objects.create(
        name="Отказы",
        slug=SLUG,
        date=timezone.localdate(),
        level=Level.AMATEUR,
        uses_decklists=True,
    )
    services.add_staff(tournament=tournament, user=judge, role=StaffRole.FLOOR_JUDGE)
    registrations = [
        services.register_player(
            tournament=tournament,
            player=create_player(name=f"Игрок {n}", membership_id=f"F-{n}", city=""),
        )
        for n in range(PLAYERS)
    ]
    services.pair_round(
        tournament=tournament,
        pairings=[(registrations[i], registrations[i + 1]) for i in range(0, PLAYERS - 1, 2)],
    )
    print(json.dumps({"players": [registration.pk for registration in registrations]}))


def count_records(database_url: str) -> None:
    """Print the client keys recorded at the event (run in a process of its own)."""
    shared_setup.start_django(database_url, "config.settings")
    from judging.models import PenaltyRecord

    keys = PenaltyRecord.objects.filter(tournament__slug=SLUG).values_list("client_key", flat=True)
    print(json.dumps([str(key) for key in keys if key is not None]))


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _env(database_url: str, data_dir: str) -> dict[str, str]:
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))},
        "DATABASE_URL": database_url,
        "DJANGO_DATA_DIR": data_dir,
        "DJANGO_LOG_LEVEL": "WARNING",
        "PYTHONPATH": str(ROOT),
    }


@contextlib.contextmanager
def serving(database_url: str, data_dir: str, port: int) -> Iterator["Server"]:
    server = Server(database_url, data_dir, port)
    server.start()
    try:
        yield server
    finally:
        server.kill()


class Server:
    """``manage.py serve`` in a process that can be killed without warning and started again."""

    def __init__(self, database_url: str, data_dir: str, port: int) -> None:
        self.env = _env(database_url, data_dir)
        self.port = port
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--host", "127.0.0.1", "--port", str(self.port)],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 60
        while True:
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), 1),
            ):
                return
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise SystemExit("serve did not start")
            time.sleep(0.1)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def end_every_connection(database_url: str) -> int:
    """What a restart of PostgreSQL does to the server: every connection of the database ends."""
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as killer:
        row = killer.execute(
            "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()) AS ended"
        ).fetchone()
    return int(row[0]) if row else 0


class Tablet(threading.Thread):
    """A judge's tablet: its submits, each sent again with the same key until answered."""

    def __init__(self, port: int, players: list[int], keys: list[str]) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.players = players
        self.keys = keys
        self.accepted: list[str] = []
        self.refused: list[str] = []
        self.retries = 0
        self.browser = self._signed_in()

    def _signed_in(self) -> Browser:
        while True:
            try:
                browser = Browser(self.port)
                browser.sign_in("fault-judge", PASSWORD)
                return browser
            except (OSError, http.client.HTTPException):
                time.sleep(0.2)

    def run(self) -> None:
        for player, key in zip(self.players, self.keys, strict=True):
            data = {
                "player": str(player),
                "client_key": key,
                "infraction": "1.4",
                "moment": "between_matches",
            }
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                try:
                    status, _ = self.browser.request("POST", f"/t/{SLUG}/judge/issue/", data)
                except (OSError, http.client.HTTPException):
                    status = 0
                if status == 302:
                    self.accepted.append(key)
                    break
                if status == 200:
                    self.refused.append(key)  # the form came back with a refusal
                    break
                self.retries += 1
                time.sleep(0.2)
                # A dropped connection is opened again; the session cookie is kept.
                cookies = self.browser.cookies
                self.browser = Browser(self.port)
                self.browser.cookies = cookies


def run(kind: str) -> dict[str, object]:
    with database(kind) as database_url, tempfile.TemporaryDirectory() as data_dir:
        env = _env(database_url, data_dir)
        players: list[int] = shared_setup.run_child(
            __file__, "--prepare", database_url, purpose="building the event", environment=env
        )["players"]
        port = _free_port()
        with serving(database_url, data_dir, port) as server:
            keys = [str(uuid.uuid4()) for _ in range(SUBMITS)]
            targets = [players[n % len(players)] for n in range(SUBMITS)]
            tablets = [Tablet(port, targets[n::TABLETS], keys[n::TABLETS]) for n in range(TABLETS)]
            started = time.monotonic()
            for tablet in tablets:
                tablet.start()

            def answered() -> int:
                return sum(len(t.accepted) + len(t.refused) for t in tablets)

            faults: list[str] = []
            while answered() < SUBMITS // 3:
                time.sleep(0.01)
            server.kill()
            faults.append(f"server killed after {answered()} answers")
            time.sleep(1.0)
            server.start()
            if kind == "postgres":
                while answered() < 2 * SUBMITS // 3:
                    time.sleep(0.01)
                ended = end_every_connection(database_url)
                faults.append(f"{ended} database connections ended after {answered()} answers")
            for tablet in tablets:
                tablet.join(timeout=600)
            seconds = time.monotonic() - started
        recorded: list[str] = shared_setup.run_child(
            __file__,
            "--count",
            database_url,
            purpose="reading the recorded client keys",
            environment=env,
        )
    accepted = [key for tablet in tablets for key in tablet.accepted]
    refused = [key for tablet in tablets for key in tablet.refused]
    stored = set(recorded)
    return {
        "database": kind,
        "sent": SUBMITS,
        "accepted": len(accepted),
        "refused": len(refused),
        "unanswered": SUBMITS - len(accepted) - len(refused),
        "lost": len([key for key in accepted if key not in stored]),
        "duplicated": len(recorded) - len(stored),
        "recorded": len(recorded),
        "retries": sum(tablet.retries for tablet in tablets),
        "seconds": round(seconds, 1),
        "faults": faults,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--databases", default="sqlite")
    parser.add_argument("--prepare", help=argparse.SUPPRESS)
    parser.add_argument("--count", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.prepare:
        prepare(args.prepare)
        return
    if args.count:
        count_records(args.count)
        return
    for kind in args.databases.split(","):
        result = run(kind)
        print(json.dumps(result, ensure_ascii=False))
        if result["lost"] or result["duplicated"] or result["unanswered"]:
            raise SystemExit(f"{kind}: submits were lost, duplicated or never answered")


if __name__ == "__main__":
    main()
