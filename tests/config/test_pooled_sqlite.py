"""The SQLite backend keeps a finished request's connection for the next one (core/pooled_sqlite3),
and never hands over a transaction left open."""

import threading

import pytest
from django.db import connections, transaction

from core.pooled_sqlite3.base import DatabaseWrapper


def wrapper(path, *, max_idle=2):
    """A wrapper of its own on a database file of its own, as a request's thread would have."""
    return DatabaseWrapper(
        {
            "ENGINE": "core.pooled_sqlite3",
            "NAME": str(path),
            "OPTIONS": {"timeout": 5, "pool": {"max_idle": max_idle}},
            "TIME_ZONE": None,
            "CONN_MAX_AGE": 0,
            "CONN_HEALTH_CHECKS": False,
            "AUTOCOMMIT": True,
            "ATOMIC_REQUESTS": False,
            "TEST": {},
            "USER": "",
            "PASSWORD": "",
            "HOST": "",
            "PORT": "",
        },
        alias=f"pool-test-{path.name}",
    )


@pytest.fixture
def database(tmp_path, django_db_blocker):
    # Not the suite's database: a file of the test's own, opened by wrappers of the test's own.
    with django_db_blocker.unblock():
        yield _created(tmp_path)
        DatabaseWrapper.close_idle_connections()


def _created(tmp_path):
    path = tmp_path / "desk.sqlite3"
    first = wrapper(path, max_idle=0)  # The pool of the file is made by the test itself.
    with first.cursor() as cursor:
        cursor.execute("CREATE TABLE note (text TEXT)")
    first.close()
    return path


def test_the_next_request_gets_the_connection_the_last_one_closed(database):
    first = wrapper(database)
    first.ensure_connection()
    raw = first.connection
    first.close()

    # Another request, on another thread, as ASGI serves it.
    taken = {}

    def request():
        second = wrapper(database)
        second.ensure_connection()
        taken["raw"] = second.connection
        second.close()

    thread = threading.Thread(target=request)
    thread.start()
    thread.join()

    assert taken["raw"] is raw


def test_a_connection_left_in_a_transaction_comes_back_rolled_back(database):
    writer = wrapper(database)
    writer.ensure_connection()
    raw = writer.connection
    # A transaction begun outside Django's atomic (raw SQL), still open when the request ends.
    raw.execute("BEGIN")
    raw.execute("INSERT INTO note VALUES ('half-written')")
    writer.close()

    reader = wrapper(database)
    with reader.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM note")
        count = cursor.fetchone()[0]

    assert reader.connection is raw
    assert not raw.in_transaction
    assert count == 0
    reader.close()


def test_a_connection_closed_inside_atomic_is_closed_not_pooled(database):
    writer = wrapper(database)
    connections[writer.alias] = writer  # So that atomic(using=...) finds it.
    try:
        with transaction.atomic(using=writer.alias):
            writer.connection.execute("INSERT INTO note VALUES ('inside atomic')")
            raw = writer.connection
            writer.close()  # Django keeps the connection on the wrapper until the block ends.

            other = wrapper(database)
            other.ensure_connection()

            assert other.connection is not raw
            assert writer.closed_in_transaction
            with other.cursor() as cursor:
                cursor.execute("SELECT count(*) FROM note")
                assert cursor.fetchone()[0] == 0
            other.close()
        # The block ends as Django ends one whose connection was closed: nothing was kept.
        assert writer.connection is None
    finally:
        del connections[writer.alias]


def test_only_as_many_idle_connections_as_the_pool_holds(database):
    open_ = [wrapper(database, max_idle=1) for _ in range(3)]
    for each in open_:
        each.ensure_connection()
    raws = [each.connection for each in open_]
    for each in open_:
        each.close()

    reused = wrapper(database, max_idle=1)
    reused.ensure_connection()
    again = wrapper(database, max_idle=1)
    again.ensure_connection()

    assert reused.connection is raws[0]  # The one kept; the other two were closed.
    assert again.connection not in raws
    reused.close()
    again.close()


def test_a_connection_closed_right_after_a_database_error_is_not_kept(database):
    # On the request path Django forgets the error first (SQLite's connections stay usable), so
    # this guards only a close that comes straight after the error.
    failing = wrapper(database)
    failing.ensure_connection()
    raw = failing.connection
    failing.errors_occurred = True
    failing.close()

    fresh = wrapper(database)
    fresh.ensure_connection()

    assert fresh.connection is not raw
    fresh.close()


def test_without_a_pool_every_connection_is_closed(database):
    plain = wrapper(database, max_idle=0)
    plain.ensure_connection()
    raw = plain.connection
    plain.close()

    other = wrapper(database, max_idle=0)
    other.ensure_connection()

    assert other.connection is not raw
    other.close()
