"""Django's SQLite backend with the connections kept between requests.

Under ASGI Django serves each request on a thread of its own, and a database connection belongs
to its thread, so without a pool every request opens the database file, registers Django's SQL
functions, runs the start-up pragmas and, on the way out, closes the file; the last connection
to close also checkpoints the write-ahead log into the database. That is about a millisecond and
a half of a floor judge's submit. PostgreSQL has psycopg's pool for the same reason
(``config/settings.py``); this is the SQLite counterpart: a connection that finished its request
waits, idle, for the next request of the same process.

A connection goes back only with no transaction open: one closed in the middle of a transaction
(an error, a shutdown) is rolled back first, so the next request never inherits another's
uncommitted writes; one closed inside ``atomic`` is closed for real. A database in memory is
never closed by Django, so it is never pooled.

What the pool cannot see: a statement left unfinished (a cursor read half-way and not closed)
holds a read snapshot of the write-ahead log that the next request would read from. Every
iterator over a queryset that a response streams must therefore close when the response does
(``judging.report_views`` closes its pieces, which close their cursor, before the connection goes
back).

Enabled by ``OPTIONS["pool"] = {"max_idle": N}``; without it the backend is Django's own.
"""

import queue
import threading
from typing import Any, ClassVar

from django.db.backends.sqlite3 import base


class DatabaseWrapper(base.DatabaseWrapper):
    # Idle connections by database file, shared by every wrapper (every thread) of the process.
    _idle: ClassVar[dict[str, queue.LifoQueue[Any]]] = {}
    _idle_lock: ClassVar[threading.Lock] = threading.Lock()

    def get_connection_params(self) -> dict[str, Any]:
        params = super().get_connection_params()
        pool = params.pop("pool", None) or {}
        self.max_idle = int(pool.get("max_idle", 0))
        return params

    @classmethod
    def close_idle_connections(cls) -> None:
        """Close every connection waiting in the pools (a test that switched the pool on and off
        again; a process that is about to replace its database file)."""
        with cls._idle_lock:
            pools = list(cls._idle.values())
        for idle in pools:
            while True:
                try:
                    idle.get_nowait().close()
                except queue.Empty:
                    break

    def _pool(self) -> queue.LifoQueue[Any]:
        name = str(self.settings_dict["NAME"])
        with self._idle_lock:
            return self._idle.setdefault(name, queue.LifoQueue(maxsize=self.max_idle))

    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        if self.max_idle:
            try:
                # The most recently used first (LIFO): its pages are the likeliest still cached.
                return self._pool().get_nowait()
            except queue.Empty:
                pass
        return super().get_new_connection(conn_params)

    def close(self) -> None:
        """Django's ``close``, except that a connection with nothing left open goes back to the
        pool instead of being closed.

        Only public parts of the wrapper are used: the raw connection is taken off the wrapper
        (``connection``) and Django's own ``close`` then finds nothing to close, so it only resets
        the wrapper's state for the next connection, as it does after closing one.
        """
        raw = self.connection
        if (
            raw is None
            or not getattr(self, "max_idle", 0)
            or self.errors_occurred
            # Closed inside ``atomic``, Django keeps the connection on this wrapper until the
            # block ends; pooled, another thread could take it meanwhile. It is closed instead.
            or self.in_atomic_block
            or self.is_in_memory_db()
        ):
            super().close()
            return
        self.validate_thread_sharing()
        with self.wrap_database_errors:
            if raw.in_transaction:
                raw.rollback()
        self.connection = None
        super().close()
        try:
            self._pool().put_nowait(raw)
        except queue.Full:
            raw.close()
