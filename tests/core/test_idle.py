"""Reading and computing under the idle scheduling policy, in a thread that has ended before
the caller writes (``core.idle``)."""

import threading

import pytest
from django.db import connection, connections, transaction

from core.idle import idle_policy_of_this_thread, in_idle_thread
from players.models import Player
from tests.idle import threads_may_idle

may_idle = pytest.mark.skipif(
    not threads_may_idle(), reason="this machine keeps threads out of the idle policy"
)


def where_it_ran() -> tuple[int, bool]:
    return threading.get_ident(), idle_policy_of_this_thread()


@may_idle
@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_the_work_runs_in_an_idle_thread_and_this_one_keeps_its_policy():
    thread, idle = in_idle_thread(where_it_ran, name="test-reader")
    assert thread != threading.get_ident()
    assert idle
    assert not idle_policy_of_this_thread()


@pytest.mark.django_db(transaction=True)
def test_the_thread_reads_what_is_committed_and_closes_its_connection():
    Player.objects.create(name="Анна Смирнова", membership_id="ID0001")
    threads_before = set(threading.enumerate())
    used = []

    def names() -> list[str]:
        used.append(connections["default"])  # The thread's own: connections are per thread.
        return list(Player.objects.values_list("name", flat=True))

    assert in_idle_thread(names, name="test-reader") == ["Анна Смирнова"]
    assert set(threading.enumerate()) == threads_before
    assert used[0] is not connections["default"]
    # Django never closes an SQLite database in memory (the suite's, on SQLite).
    if not (used[0].vendor == "sqlite" and used[0].is_in_memory_db()):
        assert used[0].connection is None, "the thread closed its connection as it ended"
    # The caller's own connection is untouched: still usable, still outside a transaction.
    assert not connection.in_atomic_block
    assert Player.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_what_the_work_raises_is_raised_in_the_caller():
    def fails() -> None:
        raise LookupError("нет такой карты")

    with pytest.raises(LookupError, match="нет такой карты"):
        in_idle_thread(fails, name="test-reader")


@pytest.mark.django_db
def test_inside_a_transaction_the_work_runs_here_and_sees_what_it_wrote():
    """Another connection would not see the transaction's own writes (nor, on SQLite in memory,
    be allowed to read the table the transaction writes)."""
    with transaction.atomic():
        Player.objects.create(name="Борис Орлов", membership_id="ID0002")
        thread, idle = in_idle_thread(where_it_ran, name="test-reader")
        assert in_idle_thread(Player.objects.count, name="test-reader") == 1
    assert thread == threading.get_ident()
    assert not idle
