"""A floor judge's submits measured while background work runs: shared by the benchmarks of long
work (``player_import.py``, ``decks.py --recheck``).

The app is served as ``serve`` serves it (``hot_path_tools.server``) with the task worker beside
it (``task_worker``: ``manage.py db_worker``, as ``serve`` starts it); a judge signed in over HTTP
submits first infractions through the real submit endpoint at a judge's pace, idle and then while
the work runs, and the two sets of timings are compared.
"""

import contextlib
import random
import statistics
import subprocess
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import psutil

from benchmarks.hot_path_tools import Browser, timed
from benchmarks.shared_setup import benchmark_environment
from operations import serving

SUBMITS_IDLE = 150


@dataclass
class Samples:
    """Submit timings, each with the moment it started (``time.time``, to compare with the
    times the task queue records)."""

    started: list[float] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)

    def between(self, start: float, stop: float) -> "Samples":
        """The submits that started inside the window."""
        pairs = zip(self.started, self.seconds, strict=True)
        kept = [(s, t) for s, t in pairs if start <= s < stop]
        return Samples([s for s, _ in kept], [t for _, t in kept])

    def __len__(self) -> int:
        return len(self.seconds)

    def p50(self) -> float:
        return statistics.median(self.seconds) * 1000

    def p95(self) -> float:
        ordered = sorted(self.seconds)
        return ordered[max(0, int(len(ordered) * 0.95) - 1)] * 1000


def submits(
    port: int,
    slug: str,
    players: list[int],
    stop: threading.Event | None,
    *,
    username: str,
    password: str,
    infraction: str = "1.3",
    into: Samples | None = None,
) -> Samples:
    """A floor judge's submits of a first infraction, one per player, at a judge's pace, until
    the players run out or ``stop`` is set."""
    judge = Browser(port)
    judge.sign_in(username, password)
    samples = into if into is not None else Samples()
    for player in players:
        if stop is not None and stop.is_set():
            break
        form = {
            "player": str(player),
            "infraction": infraction,
            "moment": "in_game",
            "client_key": str(uuid.uuid4()),
        }
        started = time.time()
        timed(
            samples.seconds,
            lambda form=form: judge.request(  # type: ignore[misc]
                "POST", f"/t/{slug}/judge/issue/", form
            ),
            302,
        )
        samples.started.append(started)
        time.sleep(0.02 + random.random() * 0.02)
    return samples


class JudgeBeside:
    """A judge submitting in a thread of its own while the caller starts and awaits some work."""

    def __init__(
        self,
        port: int,
        slug: str,
        players: list[int],
        *,
        username: str,
        password: str,
        infraction: str = "1.3",
    ) -> None:
        self.samples = Samples()
        self.stop = threading.Event()
        self.thread = threading.Thread(
            target=submits,
            args=(port, slug, players, self.stop),
            kwargs={
                "username": username,
                "password": password,
                "infraction": infraction,
                "into": self.samples,
            },
            daemon=True,
        )

    def __enter__(self) -> "JudgeBeside":
        self.thread.start()
        time.sleep(0.5)  # the judge's first submits are under way before the work starts
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(timeout=60)


# The worker looks in the queue more often than ``serve``'s does (0.5 s), so that a task starts
# soon after it is queued and the judge's submits during it are many.
WORKER_POLL_SECONDS = 0.2


@contextlib.contextmanager
def task_worker(database_url: str, data_dir: str) -> Iterator[subprocess.Popen[bytes]]:
    """The app's task worker (``manage.py db_worker``) beside the server, started by the same
    function as ``serve`` starts it (at a lower CPU priority), polling the queue every 0.2 s."""
    with serving.task_worker(
        poll_seconds=WORKER_POLL_SECONDS,
        environment=benchmark_environment(database_url, data_dir),
    ) as worker:
        yield worker


def cpu_seconds(process: subprocess.Popen[bytes]) -> float:
    """The process's CPU time so far (user and system: its ``time.process_time``)."""
    times = psutil.Process(process.pid).cpu_times()
    return float(times.user + times.system)


def wait_until(done: Callable[[], bool], *, timeout: float = 600, every: float = 0.1) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise SystemExit("the background work did not finish in time")
        time.sleep(every)
