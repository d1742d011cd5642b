"""Live updates: penalty changes reach every open page of a tournament within a second.

A write publishes a PostgreSQL NOTIFY inside its own transaction, so the note goes out only if the
write commits. Each server process keeps one LISTEN connection (``Hub``) and fans the notes out to
its server-sent-event streams, one asyncio queue per stream; so several server processes behind a
proxy all hear every change. An event only says that penalties of the tournament changed, with a
version number; the page re-fetches the fragment it shows, so no ORM work runs inside a stream.

SQLite has no LISTEN/NOTIFY: there a committed change is handed to the hub of the same process,
which is all the laptop demo has (one uvicorn process); several processes need PostgreSQL. A page
served without an ASGI server (``runserver``, WSGI) cannot hold a stream and polls instead.
"""

import asyncio
import contextlib
import datetime
import logging
import re
from collections import defaultdict
from collections.abc import AsyncIterator
from typing import Any

import psycopg
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connection, transaction
from django.http import HttpRequest
from django.utils import timezone

logger = logging.getLogger(__name__)

CHANNEL = "judging_desk"
EVENT = "penalty-changed"
END = "end:"
HEARTBEAT_SECONDS = 15.0
RECONNECT_SECONDS = 1.0


def streams_available(request: HttpRequest) -> bool:
    """Whether this request came through an ASGI server, which can hold an event stream open."""
    return isinstance(request, ASGIRequest)


def _notifies_across_processes() -> bool:
    return connection.vendor == "postgresql"


def end_streams_of_session(session_key: str) -> None:
    """The session has ended (signed out): its open streams end too, in every process."""
    _send(f"{END}session:{session_key}")


def end_streams_of_staff(*, tournament_id: int, user_id: int) -> None:
    """A staff membership was removed: that person's streams of the tournament end; a page that
    reconnects is checked again and still gets its stream if another role remains."""
    _send(f"{END}staff:{tournament_id}:{user_id}")


def on_signed_out(sender: object, request: HttpRequest | None, **kwargs: object) -> None:
    """``user_logged_out``: the session's streams end with it."""
    key = request.session.session_key if request is not None else None
    if key:
        end_streams_of_session(key)


def on_staff_removed(sender: object, instance: object, **kwargs: object) -> None:
    """``post_delete`` of a staff membership."""
    end_streams_of_staff(
        tournament_id=instance.tournament_id,  # type: ignore[attr-defined]
        user_id=instance.user_id,  # type: ignore[attr-defined]
    )


def publish(*, tournament_id: int, version: int) -> None:
    """Announce a change, delivered only when the surrounding transaction commits."""
    _send(f"{tournament_id}:{version}")


# Other apps' events (the round clock, judge calls) ride the same stream under their own name;
# they carry no version (a page hearing one re-fetches, and ``desk:resync`` covers a reconnect).
EVENT_NAME = re.compile(r"[a-z][a-z-]{0,39}")


def publish_event(*, tournament_id: int, event: str) -> None:
    """Announce a named event (``sse:<event>`` on the pages), delivered only on commit."""
    if not EVENT_NAME.fullmatch(event) or event == EVENT:
        raise ValueError(f"not an event name: {event!r}")
    _send(f"{tournament_id}:{event}")


def _send(payload: str) -> None:
    if _notifies_across_processes():
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, payload])
    else:
        transaction.on_commit(lambda: hub.dispatch_from_thread(payload))


def _conninfo() -> dict[str, Any]:
    database = settings.DATABASES["default"]
    params = {
        "dbname": database["NAME"],
        "user": database.get("USER") or "",
        "password": database.get("PASSWORD") or "",
        "host": database.get("HOST") or "",
        "port": str(database.get("PORT") or ""),
    }
    return {key: value for key, value in params.items() if value}


class Hub:
    """The process's one LISTEN connection and the streams it feeds."""

    def __init__(self) -> None:
        self._queues: dict[int, set[asyncio.Queue[int | str | None]]] = defaultdict(set)
        # Whose each stream is (user id, session key), and the streams told to end.
        self._owners: dict[asyncio.Queue[int | str | None], tuple[int | None, str | None]] = {}
        self._ended: set[asyncio.Queue[int | str | None]] = set()
        self._latest: dict[int, int] = {}
        self._task: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._listened_before = False
        # True while the LISTEN connection is up (always true where commits arrive in-process).
        self.listening = not _notifies_across_processes()

    def latest(self, tournament_id: int) -> int | None:
        return self._latest.get(tournament_id)

    def subscribe(
        self, tournament_id: int, *, user_id: int | None = None, session_key: str | None = None
    ) -> asyncio.Queue[int | str | None]:
        self._ensure_listening()
        queue: asyncio.Queue[int | str | None] = asyncio.Queue(maxsize=100)
        self._queues[tournament_id].add(queue)
        self._owners[queue] = (user_id, session_key)
        return queue

    def unsubscribe(self, tournament_id: int, queue: asyncio.Queue[int | str | None]) -> None:
        self._owners.pop(queue, None)
        self._ended.discard(queue)
        self._queues[tournament_id].discard(queue)
        if not self._queues[tournament_id]:
            del self._queues[tournament_id]

    @property
    def stream_count(self) -> int:
        return sum(len(queues) for queues in self._queues.values())

    def _ensure_listening(self) -> None:
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            # A new event loop means a new server in this process: earlier streams are gone.
            self._queues.clear()
            self._listened_before = False
            self.listening = not _notifies_across_processes()
            self._loop = loop
            self._task = None
        if _notifies_across_processes() and (self._task is None or self._task.done()):
            self._task = loop.create_task(self._listen())

    def dispatch_from_thread(self, payload: str) -> None:
        """Deliver a change committed in this process (SQLite) to the streams' event loop."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._dispatch, payload)

    def stop(self) -> None:
        """End the open streams and close the LISTEN connection, before the server stops.

        Safe to call from another thread (tests, benchmarks).
        """
        task, loop = self._task, self._loop
        if loop is None or loop.is_closed():
            return
        loop.call_soon_threadsafe(self._end_streams)
        if task is not None:
            loop.call_soon_threadsafe(task.cancel)

    def _end_streams(self) -> None:
        for queues in list(self._queues.values()):
            for queue in list(queues):
                with contextlib.suppress(asyncio.QueueFull):
                    queue.put_nowait(None)

    async def _listen(self) -> None:
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    **_conninfo(), autocommit=True
                ) as listener:
                    await listener.execute(f"LISTEN {CHANNEL}")
                    self.listening = True
                    if self._listened_before:
                        # Whatever changed while we were not listening: pages re-fetch once.
                        self._deliver_to_all()
                    self._listened_before = True
                    async for note in listener.notifies():
                        self._dispatch(note.payload)
            except asyncio.CancelledError:
                self.listening = False
                raise
            except (psycopg.Error, OSError) as error:
                logger.warning("Live updates lost their database connection: %s", error)
            self.listening = False
            await asyncio.sleep(RECONNECT_SECONDS)

    def has_ended(self, queue: asyncio.Queue[int | str | None]) -> bool:
        return queue in self._ended

    def _end(self, what: str) -> None:
        kind, _sep, rest = what.partition(":")
        if kind == "session":
            ended = [queue for queue, (_user, key) in self._owners.items() if key == rest]
        elif kind == "staff":
            tournament, _sep, user = rest.partition(":")
            ended = [
                queue
                for queue in self._queues.get(int(tournament), ())
                if self._owners.get(queue, (None, None))[0] == int(user)
            ]
        else:
            return
        for queue in ended:
            self._ended.add(queue)
            with contextlib.suppress(asyncio.QueueFull):
                queue.put_nowait(None)  # wakes the stream, which sees it has ended

    def _dispatch(self, payload: str) -> None:
        if payload.startswith(END):
            with contextlib.suppress(ValueError):
                self._end(payload.removeprefix(END))
            return
        tournament, _sep, version = payload.partition(":")
        item: int | str
        try:
            tournament_id = int(tournament)
            if EVENT_NAME.fullmatch(version):
                item = version  # a named event: no version to keep
            else:
                item = int(version)
                self._latest[tournament_id] = max(item, self._latest.get(tournament_id, 0))
        except ValueError:
            return
        for queue in list(self._queues.get(tournament_id, ())):
            with contextlib.suppress(asyncio.QueueFull):
                # A full queue belongs to a stalled client: one pending event is enough for it.
                queue.put_nowait(item)

    def _deliver_to_all(self) -> None:
        for tournament_id, queues in list(self._queues.items()):
            version = self._latest.get(tournament_id, 0)
            for queue in list(queues):
                with contextlib.suppress(asyncio.QueueFull):
                    queue.put_nowait(version)


hub = Hub()


def sse_message(version: int | str) -> str:
    if isinstance(version, str):
        # No id: the page's last event id stays the latest penalty version it saw.
        return f"event: {version}\ndata: 1\n\n"
    return f"id: {version}\nevent: {EVENT}\ndata: {version}\n\n"


async def event_stream(
    tournament_id: int,
    last_event_id: str | None,
    *,
    user_id: int | None = None,
    session_key: str | None = None,
    expires_at: datetime.datetime | None = None,
    only: frozenset[str] | None = None,
) -> AsyncIterator[str]:
    """The body of one stream: an event per change, a comment as heartbeat, until disconnect,
    until its session ends (sign-out, or expiry) or its owner leaves the tournament's staff.
    ``only``: the named events this stream carries, and nothing of the penalties (the players'
    stream, which has no session)."""
    queue = hub.subscribe(tournament_id, user_id=user_id, session_key=session_key)
    try:
        # "retry" tells EventSource how soon to reconnect after a dropped connection.
        yield "retry: 1000\n\n"
        latest = hub.latest(tournament_id)
        if (
            only is None
            and last_event_id is not None
            and (latest is None or str(latest) != last_event_id)
        ):
            # A reconnecting page may have missed changes: it re-fetches at once.
            yield sse_message(latest or 0)
        while True:
            try:
                version = await asyncio.wait_for(queue.get(), timeout=HEARTBEAT_SECONDS)
            except TimeoutError:
                version = -1
            # Checked at every event and heartbeat, without the database: the hub was told.
            if hub.has_ended(queue) or (expires_at is not None and timezone.now() >= expires_at):
                return
            if version is None:
                return  # The server is stopping.
            if only is not None and version != -1 and version not in only:
                continue
            yield ": heartbeat\n\n" if version == -1 else sse_message(version)
    finally:
        hub.unsubscribe(tournament_id, queue)
