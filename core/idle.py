"""Background reading and computing that gives way to every request at once.

The task worker beside ``serve`` runs at a lower niceness than the server. Niceness only weighs
the two when both want a core: a judge's request that wakes while the worker computes may wait
for the worker's time slice to end, and on a laptop's two cores it often does (the deck lists'
re-check, README round E). Linux's idle scheduling policy (``SCHED_IDLE``) lets any other
process take the core at once. But a process under it barely runs while others want the cores,
so it must never hold anything a judge's request waits for: on SQLite, the one write lock, which
every write transaction of the worker holds from its start.

So on SQLite the worker itself keeps its niceness, and only the part of its work that holds
nothing runs under the idle policy: ``in_idle_thread`` runs it in a thread of its own, which
takes the policy for itself alone (on Linux the policy is a thread's) and reads through its own
database connection outside any transaction, and returns once that thread has ended. The worker
begins its next write transaction only then: a thread that has ended holds neither SQLite's lock
nor Python's interpreter lock, so the write never waits for a thread the scheduler has put
aside. With PostgreSQL ``serve`` puts the whole worker under the idle policy
(``operations.serving``).
"""

import contextlib
import os
import sys
import threading
from collections.abc import Callable

from django.db import connection, connections


def in_idle_thread[Result](work: Callable[[], Result], *, name: str) -> Result:
    """Run ``work`` in a new thread under the idle scheduling policy and return what it returned
    (or raise what it raised) once the thread has ended.

    ``work`` must only read: its thread has a database connection of its own, outside any
    transaction, which it closes when it ends. Inside a transaction (a data migration, a test
    that rolls back) another connection would not see what the transaction has written, so
    there ``work`` runs in the caller's thread and connection, at the caller's priority."""
    if connection.in_atomic_block:
        return work()
    results: list[Result] = []
    failures: list[BaseException] = []

    def in_thread() -> None:
        try:
            _take_the_idle_policy()
            results.append(work())
        except BaseException as failure:  # Handed to the caller, which raises it.
            failures.append(failure)
        finally:
            connections.close_all()

    thread = threading.Thread(target=in_thread, name=name)
    thread.start()
    thread.join()
    if failures:
        raise failures[0]
    return results[0]


def _take_the_idle_policy() -> None:
    """Put the calling thread (the 0 of ``sched_setscheduler`` is the calling thread on Linux)
    under the idle policy. Elsewhere, or where a container refuses the call, the thread keeps the
    process's priority: slower requests beside it, never a wrong result."""
    if sys.platform != "linux":
        return
    with contextlib.suppress(OSError):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


def idle_policy_of_this_thread() -> bool:
    """Whether the calling thread runs under the idle policy (for tests and benchmarks)."""
    return sys.platform == "linux" and os.sched_getscheduler(0) == os.SCHED_IDLE
