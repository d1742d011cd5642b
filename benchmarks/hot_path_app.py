"""What ``benchmarks/hot_path.py`` serves from one uvicorn process: the app, a Django hello-world
view beside it, and a bare server-sent-event endpoint fed by the app's own NOTIFY channel.

The hello-world view is the floor: a fixed string through the same middleware, touching neither
the session nor the database. The bare endpoint is the floor of the live updates: one LISTEN
connection and one queue per stream, no Django at all.
"""

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

type Scope = MutableMapping[str, Any]
type Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
type Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

BARE_EVENTS_PATH = "/bench/bare-events/"


class BareStreams:
    """One LISTEN connection fanning NOTIFY payloads out to every open bare stream."""

    def __init__(self) -> None:
        self.queues: set[asyncio.Queue[str]] = set()
        self.listener: asyncio.Task[None] | None = None

    async def listen(self) -> None:
        import psycopg

        from judging.live import CHANNEL, _conninfo

        async with await psycopg.AsyncConnection.connect(
            **_conninfo(), autocommit=True
        ) as connection:
            await connection.execute(f"LISTEN {CHANNEL}")
            async for note in connection.notifies():
                for queue in self.queues:
                    queue.put_nowait(note.payload)

    @staticmethod
    async def disconnect(receive: Receive) -> None:
        """Wait until the client goes (the request's own empty body comes first)."""
        while (await receive())["type"] != "http.disconnect":
            pass

    async def serve(self, receive: Receive, send: Send) -> None:
        if self.listener is None:
            self.listener = asyncio.create_task(self.listen())
        queue: asyncio.Queue[str] = asyncio.Queue()
        self.queues.add(queue)
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"content-type", b"text/event-stream")],
            }
        )
        await send({"type": "http.response.body", "body": b": open\n\n", "more_body": True})
        disconnected = asyncio.create_task(self.disconnect(receive))
        try:
            while True:
                getting = asyncio.create_task(queue.get())
                done, _pending = await asyncio.wait(
                    {getting, disconnected}, return_when=asyncio.FIRST_COMPLETED
                )
                if disconnected in done:
                    getting.cancel()
                    return
                message = f"event: penalty-changed\ndata: {getting.result()}\n\n"
                await send(
                    {"type": "http.response.body", "body": message.encode(), "more_body": True}
                )
        finally:
            self.queues.discard(queue)
            with contextlib.suppress(Exception):
                await send({"type": "http.response.body", "body": b"", "more_body": False})


def _application() -> Callable[[Scope, Receive, Send], Awaitable[None]]:
    from config.asgi import application as django_application

    bare = BareStreams()

    async def application(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] == BARE_EVENTS_PATH:
            await bare.serve(receive, send)
        else:
            await django_application(scope, receive, send)

    return application


application = _application()
