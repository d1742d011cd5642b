"""Two judges at once: the row lock keeps stacking serial. PostgreSQL only, since SQLite has no
row locks (it ignores ``select_for_update``)."""

import threading
import uuid

import pytest
from django.db import connection, connections, transaction

from core.errors import DomainError
from judging import services
from judging.models import PenaltyRecord
from tests.factories import Desk

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL"),
    # Threads need committed rows: the test data is written for real and flushed afterwards.
    pytest.mark.usefixtures("transactional_db"),
]


def at_once(count, action):
    """Run ``action(i)`` in ``count`` threads released together; return results or errors."""
    barrier = threading.Barrier(count)
    results = [None] * count

    def run(index):
        try:
            barrier.wait()
            results[index] = action(index)
        except Exception as error:
            results[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(index,)) for index in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def holding(lock):
    """Run ``lock`` in a transaction on another thread and keep it open until released; return
    the release event and the thread."""
    locked, release = threading.Event(), threading.Event()

    def hold():
        try:
            with transaction.atomic():
                lock()
                locked.set()
                release.wait(timeout=30)
        finally:
            connections.close_all()

    thread = threading.Thread(target=hold)
    thread.start()
    assert locked.wait(timeout=30)
    return release, thread


def test_simultaneous_repeats_escalate_as_a_serial_order_would():
    desk = Desk.create()
    registration = desk.players[0]

    results = at_once(
        6,
        lambda index: (
            services.issue_penalty(
                registration=registration,
                infraction_code="1.4",
                moment="between_matches",
                issued_by=desk.head,
                client_key=uuid.uuid4(),
                confirm_second=True,
            ).record.rank
        ),
    )

    # In any serial order: caution, warning, game loss, match loss, disqualification, and the
    # sixth is refused because a disqualified player receives no further penalties.
    ranks = sorted(result for result in results if isinstance(result, int))
    refusals = [result.code for result in results if isinstance(result, DomainError)]
    assert ranks == [1, 2, 3, 4, 5]
    assert refusals == ["player_disqualified"]
    assert [r.rank for r in PenaltyRecord.objects.order_by("id")] == [1, 2, 3, 4, 5]


def test_simultaneous_retries_with_one_client_key_record_once():
    desk = Desk.create()
    key = uuid.uuid4()

    results = at_once(
        5,
        lambda index: services.issue_penalty(
            registration=desk.players[0],
            infraction_code="1.4",
            moment="between_matches",
            issued_by=desk.floor,
            client_key=key,
        ),
    )

    assert all(not isinstance(result, Exception) for result in results), results
    assert PenaltyRecord.objects.count() == 1
    assert sorted(result.created for result in results) == [False] * 4 + [True]
    assert len({result.record.pk for result in results}) == 1


def test_a_submits_lock_holds_the_two_players_and_nothing_else():
    # Locking the tournament's row for itself would queue every submit of the event behind one
    # row: a submit shares it (tournaments.services.locks), so only a publish waits for it, and a
    # change of the set-up or a registration does not (tests/tournaments/test_lock_order.py).
    from django.db import DatabaseError

    from judging.services.guards import lock_player
    from players.models import Player
    from tournaments.models import Registration, Tournament

    desk = Desk.create()
    desk.pair((0, 1), (2, 3))
    release, holder = holding(lambda: lock_player(desk.players[0]))
    try:
        with transaction.atomic():
            Tournament.objects.select_for_update(nowait=True, no_key=True).get(
                pk=desk.tournament.pk
            )
            Player.objects.select_for_update(nowait=True).get(pk=desk.players[0].player_id)
            Registration.objects.select_for_update(nowait=True).get(pk=desk.players[2].pk)
        for held in (desk.players[0], desk.players[1]):
            with pytest.raises(DatabaseError), transaction.atomic():
                Registration.objects.select_for_update(nowait=True).get(pk=held.pk)
    finally:
        release.set()
        holder.join(timeout=30)
