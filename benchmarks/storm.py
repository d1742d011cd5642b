"""The round-start storm: the organiser publishes a round of a 2,000-player event, 2,000 phones
open the players' pairings page within a minute and poll the clock every 20 s, and 16 floor
judges keep submitting penalties. Every figure is printed beside its baseline from the same run.

Run it with ``uv run python benchmarks/storm.py`` (SQLite, one server process as ``serve``
starts it); ``--databases sqlite,postgres`` adds PostgreSQL (``--pg-workers 2`` processes;
``BENCH_PG_ADMIN_URL`` as for ``benchmarks/hot_path.py``). ``--players 500 --seconds 20`` is a
quick, scaled-down run. Everything runs on the loopback interface.

For each database it:

1. builds, in a throwaway database, an event of ``--players`` players whose round 1 is over and
   round 2 drafted, with 16 floor judges and the players' link;
2. serves the app (``config.asgi`` with the hello-world view beside it) from uvicorn;
3. baseline: the 16 judges submit (each a penalty, then a pause of a second, as a judge at a
   table) for ``--seconds`` with no phone;
4. the storm: the organiser publishes round 2; the phones open the pairings page (a fifth of them
   search their name) at moments spread evenly over ``--seconds``, then poll the clock every
   20 s as the page does (with the entity tag they hold) until the storm ends; the clock is
   started; the judges keep submitting;
5. the results (issue 35): the last ten minutes of the round (``--report-seconds``, 600), in
   which ``--reports`` tables (default: every table, 1,000 at 2,000 players) report their own
   results from the table's page: at moments spread evenly over the window, the first player's
   phone opens the page and reports 2–1 game by game, then the opponent's phone opens it and
   confirms with their code (four requests a table, each phone with its own cookies and CSRF
   token); the judges keep submitting, and their submits in this window are compared with the
   baseline;
6. throughput: the pairings page and hello-world, each asked by 16 clients at once for 5 s.

Goals (issue 29): every phone has its pairings within 10 s; clock polls p95 under 1 s; a submit's
p95 under 250 ms on SQLite and under 150 ms on PostgreSQL; no error and no submit lost; the
pairings page at 50 % or more of hello-world's throughput; the server's memory bounded. Issue 35:
the judges' submit p95 while the tables report stays within the same goal as in the storm, and
every table's result is entered.
"""

import argparse
import asyncio
import concurrent.futures
import contextlib
import json
import multiprocessing
import os
import random
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
if not __package__:
    sys.path.insert(0, str(ROOT))

from benchmarks import shared_setup  # noqa: E402
from benchmarks.hot_path_tools import Browser, database, served_app  # noqa: E402

PASSWORD = "bench-storm-2000"
JUDGES = 16
JUDGE_PAUSE_SECONDS = 1.0
CLOCK_POLL_SECONDS = 20.0
SEARCHING_SHARE = 0.2
THROUGHPUT_CLIENTS = 16
THROUGHPUT_SECONDS = 5.0
PHONE_DEADLINE_SECONDS = 10.0


def prepare(database_url: str, players: int) -> None:
    """Migrate and build the event; print what the client needs as JSON."""
    shared_setup.start_django(database_url)
    from django.utils import timezone

    from floor import services as floor_services
    from tournaments import services
    from tournaments.models import Match, MatchEnd, StaffRole

    shared_setup.migrate_database()
    tournament = shared_setup.professional_event_today(
        name="Storm benchmark", slug=f"storm-{uuid.uuid4().hex[:6]}"
    )
    organiser = services.create_account(username="storm-organiser", password=PASSWORD)
    services.add_staff(tournament=tournament, user=organiser, role=StaffRole.ORGANISER)
    judges = []
    for n in range(JUDGES):
        judge = services.create_account(username=f"storm-judge-{n:02d}", password=PASSWORD)
        services.add_staff(tournament=tournament, user=judge, role=StaffRole.FLOOR_JUDGE)
        judges.append(judge.username)
    names = [f"Игрок {n:05d}" for n in range(players)]
    registrations = shared_setup.register_new_players(
        tournament=tournament, people=((name, f"ST-{n:05d}") for n, name in enumerate(names))
    )
    pairs = [(registrations[i], registrations[i + 1]) for i in range(0, players - 1, 2)]
    services.pair_round(tournament=tournament, pairings=pairs)
    # Round 1's results, written at once (entering a thousand results is not what is measured).
    Match.objects.filter(round__tournament=tournament, ended_at__isnull=True).update(
        player1_wins=2, ended_at=timezone.now(), end_reason=MatchEnd.WINS_NEEDED
    )
    services.draft_next_round(tournament=tournament, seed=2026)
    token = floor_services.ensure_public_pages(tournament=tournament).token
    print(
        json.dumps(
            {
                "slug": tournament.slug,
                "token": token,
                "players": [registration.pk for registration in registrations],
                "names": names,
                "judges": judges,
                "organiser": organiser.username,
            }
        )
    )


def seat_codes(database_url: str, slug: str) -> None:
    """The published round's tables with both players' codes (as printed on the slips), and
    nothing else: print them as JSON."""
    shared_setup.start_django(database_url)
    from floor import services as floor_services
    from tournaments.models import Match, Round

    round_ = Round.objects.filter(tournament__slug=slug).order_by("-number").first()
    tables = [
        [
            table,
            floor_services.seat_code(match_id=pk, seat=1),
            floor_services.seat_code(match_id=pk, seat=2),
        ]
        for pk, table in Match.objects.filter(round=round_, player2__isnull=False)
        .order_by("table")
        .values_list("pk", "table")
    ]
    ended = Match.objects.filter(round=round_, player2__isnull=False, ended_at__isnull=False)
    print(json.dumps({"tables": tables, "ended": ended.count()}))


def count_records(database_url: str, slug: str) -> None:
    """Print the number of penalty records the event holds (no submit may be lost)."""
    shared_setup.start_django(database_url)
    from judging.models import PenaltyRecord

    print(PenaltyRecord.objects.filter(tournament__slug=slug).count())


# The server -------------------------------------------------------------------------------


@contextlib.contextmanager
def server(database_url: str, data_dir: str, workers: int) -> Iterator[tuple[int, int]]:
    """uvicorn serving the app as ``serve`` does, with ``workers`` processes; yields the port
    and the process id (the workers are its children)."""
    with served_app(database_url, data_dir, workers=workers, backlog=4096) as (port, process):
        time.sleep(1.0 if workers > 1 else 0.2)  # every worker up
        yield port, process.pid


def rss_mb(pid: int) -> float:
    """The resident memory of the server's largest process (a worker, with ``--workers``)."""
    pids = [pid]
    with contextlib.suppress(OSError):
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        pids += [int(child) for child in children]
    largest = 0.0
    for one in pids:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{one}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    largest = max(largest, int(line.split()[1]) / 1024)
    return largest


def cpu_seconds(pid: int) -> float:
    """The CPU time the server's processes have used so far (user and system)."""
    pids = [pid]
    with contextlib.suppress(OSError):
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        pids += [int(child) for child in children]
    ticks = 0
    for one in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{one}/stat").read_text().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


class MemoryWatch:
    """Samples the server's memory every half second in a thread."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(0.5):
            self.peak = max(self.peak, rss_mb(self.pid))

    def __enter__(self) -> "MemoryWatch":
        self.peak = rss_mb(self.pid)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


# The phones: one connection per request, as a phone that polls every 20 s gets (the server
# closes an idle connection after a few seconds) --------------------------------------------


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes


async def request(
    port: int, method: str, path: str, headers: dict[str, str], body: str = ""
) -> Response:
    """One request on its own connection (a phone's); ``body`` is a urlencoded form."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Connection: close"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        if method == "POST":
            lines += [
                "Content-Type: application/x-www-form-urlencoded",
                f"Content-Length: {len(body.encode())}",
            ]
        writer.write(("\r\n".join(lines) + "\r\n\r\n" + body).encode())
        await writer.drain()
        raw = await reader.read()
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()
    head, _, answer = raw.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    parsed: dict[str, str] = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        key = name.strip().lower()
        if key == "set-cookie":
            parsed[key] = parsed.get(key, "") + "\n" + value.strip()
        else:
            parsed[key] = value.strip()
    return Response(int(status_line.split()[1]), parsed, answer)


async def fetch(port: int, path: str, headers: dict[str, str] | None = None) -> Response:
    """A GET on its own connection."""
    return await request(port, "GET", path, headers or {})


PHONE_HEADERS = {"Accept-Encoding": "gzip, deflate, br", "Accept-Language": "ru"}


@dataclass
class StormFigures:
    pairings: list[float] = field(default_factory=list)  # seconds from asking to the page
    polls: list[float] = field(default_factory=list)
    not_modified: int = 0
    errors: list[str] = field(default_factory=list)
    pages_bytes: list[int] = field(default_factory=list)


async def phone(
    port: int, event: dict, name: str, start_at: float, end_at: float, figures: StormFigures
) -> None:
    token = event["token"]
    await asyncio.sleep(max(0.0, start_at - time.monotonic()))
    path = f"/p/{token}/"
    if random.random() < SEARCHING_SHARE:
        path += f"?q={quote(name)}"
    asked = time.monotonic()
    try:
        page = await fetch(port, path, PHONE_HEADERS)
    except OSError as error:
        figures.errors.append(f"pairings: {error!r}")
        return
    if page.status != 200 or "Пары тура 2".encode() not in _plain(page):
        figures.errors.append(f"pairings: HTTP {page.status}")
        return
    figures.pairings.append(time.monotonic() - asked)
    figures.pages_bytes.append(len(page.body))
    # The page's clock asks at once, then every 20 s, with the entity tag it holds.
    etag = ""
    next_poll = time.monotonic()
    while next_poll < end_at:
        await asyncio.sleep(max(0.0, next_poll - time.monotonic()))
        headers = {**PHONE_HEADERS, **({"If-None-Match": etag} if etag else {})}
        asked = time.monotonic()
        try:
            clock = await fetch(port, f"/p/{token}/clock/", headers)
        except OSError as error:
            figures.errors.append(f"clock: {error!r}")
            return
        if clock.status not in (200, 304):
            figures.errors.append(f"clock: HTTP {clock.status}")
            return
        figures.polls.append(time.monotonic() - asked)
        figures.not_modified += clock.status == 304
        etag = clock.headers.get("etag", etag)
        next_poll += CLOCK_POLL_SECONDS


@dataclass
class ReportFigures:
    requests: list[float] = field(default_factory=list)
    confirmed: int = 0
    errors: list[str] = field(default_factory=list)


class TablePhone:
    """A player's phone at a table: its own cookies (the phone's, the CSRF token's)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}

    def _headers(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        cookie = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        return {"Accept-Language": "ru", **({"Cookie": cookie} if cookie else {}), **(extra or {})}

    def _keep(self, response: Response) -> None:
        for line in response.headers.get("set-cookie", "").split("\n"):
            pair = line.split(";", 1)[0]
            if "=" in pair:
                name, value = pair.split("=", 1)
                self.cookies[name.strip()] = value.strip()

    async def send(self, method: str, path: str, figures: ReportFigures, form: str = "") -> bytes:
        asked = time.monotonic()
        headers = self._headers({"HX-Request": "true"} if method == "POST" else None)
        if method == "POST":
            form += f"&csrfmiddlewaretoken={self.cookies.get('csrftoken', '')}"
        response = await request(self.port, method, path, headers, form)
        figures.requests.append(time.monotonic() - asked)
        self._keep(response)
        if response.status != 200:
            raise OSError(f"{method} {path}: HTTP {response.status}")
        return response.body


async def report_table(
    port: int, token: str, table: list, start_at: float, figures: ReportFigures
) -> None:
    """The first player's phone reports 2–1 game by game; the opponent's confirms it."""
    number, code1, code2 = table
    await asyncio.sleep(max(0.0, start_at - time.monotonic()))
    path = f"/p/{token}/tables/{number}/"
    try:
        first, second = TablePhone(port), TablePhone(port)
        await first.send("GET", path, figures)
        body = await first.send(
            "POST",
            f"{path}report/",
            figures,
            f"action=report&seat=1&code={code1}&client_key={uuid.uuid4()}"
            "&game_1=1&game_2=2&game_3=1",
        )
        if b'data-state="reported"' not in body:
            raise OSError(f"table {number}: the report was not taken")
        await second.send("GET", path, figures)
        body = await second.send(
            "POST",
            f"{path}report/",
            figures,
            f"action=confirm&seat=2&code={code2}&client_key={uuid.uuid4()}",
        )
        if b'data-state="ended"' not in body:
            raise OSError(f"table {number}: the confirmation was not taken")
        figures.confirmed += 1
    except OSError as error:
        figures.errors.append(f"report: {error}")


async def reporting(port: int, token: str, tables: list, seconds: float) -> ReportFigures:
    figures = ReportFigures()
    started = time.monotonic()
    await asyncio.gather(
        *(
            report_table(port, token, table, started + seconds * n / len(tables), figures)
            for n, table in enumerate(tables)
        )
    )
    return figures


def _run_reporting(port: int, token: str, tables: list, seconds: float) -> ReportFigures:
    return asyncio.run(reporting(port, token, tables, seconds))


def reporting_in_their_own_process(
    port: int, token: str, tables: list, seconds: float
) -> ReportFigures:
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
        return pool.submit(_run_reporting, port, token, tables, seconds).result()


def _plain(response: Response) -> bytes:
    import gzip

    if response.headers.get("content-encoding") == "gzip":
        return gzip.decompress(response.body)
    return response.body


async def phones(port: int, event: dict, count: int, seconds: float) -> StormFigures:
    figures = StormFigures()
    started = time.monotonic()
    end_at = started + seconds + CLOCK_POLL_SECONDS
    names = event["names"]
    tasks = [
        asyncio.create_task(
            phone(
                port, event, names[n % len(names)], started + seconds * n / count, end_at, figures
            )
        )
        for n in range(count)
    ]
    await asyncio.gather(*tasks)
    return figures


def phones_in_their_own_process(port: int, event: dict, count: int, seconds: float) -> StormFigures:
    """The phones, run by another process: in the judges' process they would hold its GIL
    while a judge's answer waits to be read, and the judges' timings would include it."""
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
        return pool.submit(_run_phones, port, event, count, seconds).result()


def _run_phones(port: int, event: dict, count: int, seconds: float) -> StormFigures:
    return asyncio.run(phones(port, event, count, seconds))


async def throughput(
    port: int, pid: int, path: str, headers: dict[str, str]
) -> tuple[float, float]:
    """Answers a second with ``THROUGHPUT_CLIENTS`` clients asking at once, and the server's
    CPU time per answer in milliseconds: on a machine whose cores other work shares, the
    second says what one answer costs whatever the others do."""
    done = 0
    failures: list[int] = []
    stop_at = time.monotonic() + THROUGHPUT_SECONDS

    async def client() -> None:
        nonlocal done
        while time.monotonic() < stop_at:
            response = await fetch(port, path, headers)
            if response.status != 200:
                failures.append(response.status)
                return
            done += 1

    started, cpu = time.monotonic(), cpu_seconds(pid)
    await asyncio.gather(*(client() for _ in range(THROUGHPUT_CLIENTS)))
    if failures:
        raise SystemExit(f"{path} answered {failures[0]} under load")
    rate = done / (time.monotonic() - started)
    return rate, 1000 * (cpu_seconds(pid) - cpu) / max(1, done)


# The judges ---------------------------------------------------------------------------------


@dataclass
class Judges:
    port: int
    event: dict
    samples: dict[str, list[float]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    submitted: int = 0
    phase: str = "idle"
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self) -> list[threading.Thread]:
        """Sign every judge in (a password hash each: seconds of the server's time), then
        start them submitting; the first few submits of each warm the server up."""
        ready = threading.Barrier(JUDGES + 1)
        threads = [
            threading.Thread(target=self._judge, args=(n, ready), daemon=True)
            for n in range(JUDGES)
        ]
        for thread in threads:
            thread.start()
        ready.wait(timeout=300)
        return threads

    def _judge(self, n: int, ready: threading.Barrier) -> None:
        browser = Browser(self.port)
        browser.sign_in(self.event["judges"][n], PASSWORD)
        ready.wait(timeout=300)
        players = self.event["players"][n::JUDGES]
        rng = random.Random(n)
        self.stop.wait(rng.random() * JUDGE_PAUSE_SECONDS)
        index = 0
        while not self.stop.is_set():
            form = {
                "player": str(players[index % len(players)]),
                "infraction": "1.4",
                "moment": "between_matches",
                "client_key": str(uuid.uuid4()),
                # A judge who comes back to a player within minutes means the second penalty
                # (a run with reports lasts longer than a judge's round of their players).
                "confirm_second": "on",
            }
            index += 1
            phase = self.phase if index > 2 else "warm-up"
            started = time.perf_counter()
            try:
                browser.connection.close()  # a tablet's idle connection is closed by then
                status, body = browser.request(
                    "POST", f"/t/{self.event['slug']}/judge/issue/", form
                )
            except OSError as error:
                self.errors.append(f"submit: {error!r}")
                continue
            elapsed = time.perf_counter() - started
            if status != 302:
                self.errors.append(f"submit: HTTP {status}: {body[:200]!r}")
                continue
            self.submitted += 1
            self.samples.setdefault(phase, []).append(elapsed)
            self.stop.wait(JUDGE_PAUSE_SECONDS)


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, int(len(ordered) * share + 0.5) - 1))]


# One run ------------------------------------------------------------------------------------


def run(
    kind: str,
    players: int,
    seconds: float,
    workers: int,
    phone_count: int,
    reports: int,
    report_seconds: float,
) -> dict[str, float | str]:
    with database(kind) as url, tempfile.TemporaryDirectory() as data_dir:
        env = shared_setup.benchmark_environment(url, data_dir)
        event = shared_setup.build_event(__file__, url, data_dir, "--players", str(players))
        with server(url, data_dir, workers) as (port, pid):
            rss_start = rss_mb(pid)
            judges = Judges(port, event)
            organiser = Browser(port)
            organiser.sign_in(event["organiser"], PASSWORD)
            threads = judges.run()
            time.sleep(seconds + 3 * JUDGE_PAUSE_SECONDS)  # the baseline: judges and no phone
            with MemoryWatch(pid) as memory:
                judges.phase = "storm"
                organiser.connection.close()  # idle since the sign-in: the server closed it
                started = time.perf_counter()
                status, _body = organiser.request("POST", f"/t/{event['slug']}/rounds/publish/", {})
                published = time.perf_counter() - started
                if status != 302:
                    raise SystemExit(f"publishing the round answered {status}")

                def start_clock() -> None:
                    time.sleep(min(5.0, seconds / 4))
                    organiser.connection.close()
                    organiser.request("POST", f"/t/{event['slug']}/floor/clock/start/", {})

                clock_thread = threading.Thread(target=start_clock, daemon=True)
                clock_thread.start()
                figures = phones_in_their_own_process(port, event, phone_count, seconds)
                clock_thread.join()
                judges.phase = "after"
            reported = ReportFigures()
            if reports:
                codes = _codes(url, event["slug"], env)
                judges.phase = "reports"
                reported = reporting_in_their_own_process(
                    port, event["token"], codes["tables"][:reports], report_seconds
                )
                judges.phase = "after"
            judges.stop.set()
            for thread in threads:
                thread.join(timeout=30)
            rss_after = rss_mb(pid)
            page_path = f"/p/{event['token']}/"
            page_rate, page_cpu = asyncio.run(throughput(port, pid, page_path, PHONE_HEADERS))
            clock_rate, clock_cpu = asyncio.run(
                throughput(port, pid, f"{page_path}clock/", PHONE_HEADERS)
            )
            hello_rate, hello_cpu = asyncio.run(
                throughput(port, pid, "/bench/hello/", PHONE_HEADERS)
            )
        records: int = shared_setup.run_child(
            __file__,
            "--count",
            url,
            "--slug",
            event["slug"],
            purpose="counting the penalty records",
            environment=env,
        )
        entered = _codes(url, event["slug"], env)["ended"] if reports else 0
    idle, storm = judges.samples.get("idle", []), judges.samples.get("storm", [])
    during = judges.samples.get("reports", [])
    in_time = sum(1 for seconds_ in figures.pairings if seconds_ <= PHONE_DEADLINE_SECONDS)
    return {
        "phones": phone_count,
        "phones_in_time": 100.0 * in_time / max(1, phone_count),
        "last_phone": max(figures.pairings, default=float("nan")),
        "page_kb": (sum(figures.pages_bytes) / max(1, len(figures.pages_bytes))) / 1024,
        "polls": len(figures.polls),
        "polls_304": figures.not_modified,
        "poll_p50": percentile(figures.polls, 0.5) * 1000,
        "poll_p95": percentile(figures.polls, 0.95) * 1000,
        "idle_p50": percentile(idle, 0.5) * 1000,
        "idle_p95": percentile(idle, 0.95) * 1000,
        "storm_p50": percentile(storm, 0.5) * 1000,
        "storm_p95": percentile(storm, 0.95) * 1000,
        "submits": len(idle) + len(storm),
        "publish_ms": published * 1000,
        "errors": len(figures.errors) + len(judges.errors),
        "first_error": (figures.errors + judges.errors + [""])[0],
        "lost": judges.submitted - records,
        "page_rate": page_rate,
        "page_cpu": page_cpu,
        "clock_rate": clock_rate,
        "clock_cpu": clock_cpu,
        "hello_rate": hello_rate,
        "hello_cpu": hello_cpu,
        "rss_start": rss_start,
        "rss_peak": memory.peak,
        "rss_after": rss_after,
        "reports": reports,
        "reports_confirmed": reported.confirmed,
        "reports_entered": entered,
        "report_errors": len(reported.errors),
        "first_report_error": [*reported.errors, ""][0],
        "report_request_p50": percentile(reported.requests, 0.5) * 1000,
        "report_request_p95": percentile(reported.requests, 0.95) * 1000,
        "during_p50": percentile(during, 0.5) * 1000,
        "during_p95": percentile(during, 0.95) * 1000,
        "during_submits": len(during),
    }


def _codes(url: str, slug: str, env: dict[str, str]) -> dict:
    codes: dict = shared_setup.run_child(
        __file__,
        "--codes",
        url,
        "--slug",
        slug,
        purpose="reading the tables' codes",
        environment=env,
    )
    return codes


def report(kind: str, workers: int, r: dict[str, float | str]) -> None:
    def verdict(ok: bool) -> str:
        return "ok" if ok else "MISSED"

    goal_submit = 250.0 if kind == "sqlite" else 150.0
    f = {key: value for key, value in r.items() if not isinstance(value, str)}
    share = 100.0 * f["page_rate"] / f["hello_rate"]
    print(f"\n== {kind}, {workers} worker(s): {f['phones']:.0f} phones, {JUDGES} judges")
    print(f"publishing the round                {f['publish_ms']:8.0f} ms")
    print(
        f"phones with pairings within 10 s    {f['phones_in_time']:8.1f} %   (last after "
        f"{f['last_phone']:.2f} s; {f['page_kb']:.1f} KB a page as sent)   "
        f"goal 100 %: {verdict(f['phones_in_time'] >= 100.0)}"
    )
    print(
        f"clock polls: {f['polls']:.0f} ({f['polls_304']:.0f} answered 304)   "
        f"p50 {f['poll_p50']:.1f} ms   p95 {f['poll_p95']:.1f} ms   "
        f"goal p95 < 1000 ms: {verdict(f['poll_p95'] < 1000)}"
    )
    print(
        f"judge submit, no phones (baseline)  p50 {f['idle_p50']:6.1f} ms   "
        f"p95 {f['idle_p95']:6.1f} ms"
    )
    print(
        f"judge submit, in the storm          p50 {f['storm_p50']:6.1f} ms   "
        f"p95 {f['storm_p95']:6.1f} ms   (x{f['storm_p95'] / f['idle_p95']:.2f} of the "
        f"baseline)   goal p95 < {goal_submit:.0f} ms: {verdict(f['storm_p95'] < goal_submit)}"
    )
    print(
        f"errors {f['errors']:.0f}, submits lost {f['lost']:.0f} of {f['submits']:.0f}   "
        f"goal 0 and 0: {verdict(f['errors'] == 0 and f['lost'] == 0)}"
        + (f"   first: {r['first_error']}" if r["first_error"] else "")
    )
    print(
        f"pairings page {f['page_rate']:7.0f}/s   clock {f['clock_rate']:7.0f}/s   hello-world "
        f"{f['hello_rate']:7.0f}/s   pairings at {share:.0f} % of hello-world   "
        f"goal >= 50 %: {verdict(share >= 50)}"
    )
    print(
        f"server CPU per answer: pairings page {f['page_cpu']:.2f} ms, clock "
        f"{f['clock_cpu']:.2f} ms, hello-world {f['hello_cpu']:.2f} ms   (pairings at "
        f"{100 * f['hello_cpu'] / f['page_cpu']:.0f} % of hello-world's rate on a free core)"
    )
    print(
        f"worker memory: {f['rss_start']:.0f} MB at the start, {f['rss_peak']:.0f} MB at the "
        f"storm's peak, {f['rss_after']:.0f} MB after"
    )
    if f["reports"]:
        print(
            f"tables reporting: {f['reports']:.0f}; confirmed {f['reports_confirmed']:.0f}, "
            f"results entered {f['reports_entered']:.0f}; errors {f['report_errors']:.0f}   "
            f"goal all and 0: "
            f"{verdict(f['reports_entered'] >= f['reports'] and f['report_errors'] == 0)}"
            + (f"   first: {r['first_report_error']}" if r["first_report_error"] else "")
        )
        print(
            f"a phone's request at the table      p50 {f['report_request_p50']:6.1f} ms   "
            f"p95 {f['report_request_p95']:6.1f} ms"
        )
        print(
            f"judge submit, tables reporting      p50 {f['during_p50']:6.1f} ms   "
            f"p95 {f['during_p95']:6.1f} ms   (x{f['during_p95'] / f['idle_p95']:.2f} of the "
            f"baseline; {f['during_submits']:.0f} submits)   goal p95 < {goal_submit:.0f} ms: "
            f"{verdict(f['during_p95'] < goal_submit)}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--databases", default="sqlite")
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument(
        "--phones",
        type=int,
        help="phones in the storm (default: one per player; 0: the "
        "publish and the judges alone, to tell the phones' share from the publish's)",
    )
    parser.add_argument(
        "--reports",
        type=int,
        help="tables that report their own results after the storm (default: every table; 0: none)",
    )
    parser.add_argument("--report-seconds", type=float, default=600.0)
    parser.add_argument("--pg-workers", type=int, default=2)
    parser.add_argument("--sqlite-workers", type=int, default=1)
    parser.add_argument("--prepare", metavar="DATABASE_URL", help=argparse.SUPPRESS)
    parser.add_argument("--count", metavar="DATABASE_URL", help=argparse.SUPPRESS)
    parser.add_argument("--codes", metavar="DATABASE_URL", help=argparse.SUPPRESS)
    parser.add_argument("--slug", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.prepare:
        prepare(options.prepare, options.players)
        return
    if options.count:
        count_records(options.count, options.slug)
        return
    if options.codes:
        seat_codes(options.codes, options.slug)
        return
    for kind in options.databases.split(","):
        workers = options.pg_workers if kind == "postgres" else options.sqlite_workers
        phone_count = options.players if options.phones is None else options.phones
        reports = options.players // 2 if options.reports is None else options.reports
        figures = run(
            kind,
            options.players,
            options.seconds,
            workers,
            phone_count,
            reports,
            options.report_seconds,
        )
        report(kind, workers, figures)


if __name__ == "__main__":
    main()
