"""One lock order for every write on a round and its players (``tournaments.services.locks``).

PostgreSQL only: SQLite has no row locks (its writers take the one write lock at BEGIN, one after
the other), so there is nothing to deadlock there.
"""

import uuid

import pytest
from django.db import DatabaseError, connection, transaction

from judging import plain_reads, services
from judging.models import PenaltyRecord
from tests.factories import Desk, PlayerFactory
from tests.judging.test_concurrency import at_once, holding
from tournaments import services as tournament_services
from tournaments.models import Match, Registration, Round, Tournament

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL"),
    # Threads need committed rows: the test data is written for real and flushed afterwards.
    pytest.mark.usefixtures("transactional_db"),
]

PLAYERS = 16
ROUNDS = 15
SUBMITS = 4


def test_publishing_rounds_while_judges_submit_never_fails():
    # The deadlock this prevents: the publish held the tournament and waited for a player, while
    # a submit held that player and, at commit, its foreign-key check waited for the tournament.
    desk = Desk.create(players=PLAYERS)
    pairs = [(index, index + 1) for index in range(0, PLAYERS, 2)]
    failures = []
    for round_index in range(ROUNDS):
        # Four players a round, each penalised at most four times in the run (never disqualified,
        # which would keep them out of the next pairing): their third is a game loss, which the
        # publish serves.
        judged = [(round_index * SUBMITS + offset) % PLAYERS for offset in range(SUBMITS)]

        def act(index, judged=judged):
            if index == 0:
                return desk.pair(*pairs)
            return services.issue_penalty(
                registration=desk.players[judged[index - 1]],
                infraction_code="1.4",
                moment="between_matches",
                issued_by=desk.floor,
                client_key=uuid.uuid4(),
                # Each round's submits are new infractions the judge means, not a tap twice.
                confirm_second=True,
            )

        failures += [
            result for result in at_once(1 + SUBMITS, act) if isinstance(result, Exception)
        ]
        for match in Match.objects.filter(round__tournament=desk.tournament, ended_at__isnull=True):
            tournament_services.finish_match(match=match)

    assert failures == []
    assert Round.objects.filter(tournament=desk.tournament).count() == ROUNDS
    assert PenaltyRecord.objects.filter(tournament=desk.tournament).count() == ROUNDS * SUBMITS
    # Every round paired everyone: no submit left a player out of a round.
    assert Match.objects.filter(round__tournament=desk.tournament).count() == ROUNDS * PLAYERS // 2


def test_a_submit_under_way_holds_off_a_publish_but_not_the_set_up():
    desk = Desk.create()
    desk.pair((0, 1), (2, 3))
    release, thread = holding(
        lambda: plain_reads.lock_player_and_opponent(desk.players[0].pk, desk.tournament.pk)
    )
    try:
        # A publish (exclusive) would wait for the submit to end ...
        with pytest.raises(DatabaseError), transaction.atomic():
            Tournament.objects.select_for_update(nowait=True).get(pk=desk.tournament.pk)
        # ... a change of the set-up or a registration would not, nor would another table.
        with transaction.atomic():
            Tournament.objects.select_for_update(nowait=True, no_key=True).get(
                pk=desk.tournament.pk
            )
            Registration.objects.select_for_update(nowait=True).get(pk=desk.players[2].pk)
    finally:
        release.set()
        thread.join(timeout=30)


def test_a_registration_under_way_does_not_hold_up_a_submit():
    desk = Desk.create()
    desk.pair((0, 1), (2, 3))
    # The import's and the registration's lock on the tournament, held.
    release, thread = holding(lambda: tournament_services.lock_tournament(desk.tournament.pk))
    try:
        with transaction.atomic():
            connection.cursor().execute("SET LOCAL lock_timeout = '2s'")
            record = desk.issue(0, "1.4")
    finally:
        release.set()
        thread.join(timeout=30)

    assert PenaltyRecord.objects.get(pk=record.pk).registration_id == desk.players[0].pk


def test_a_publish_under_way_holds_off_a_submit_until_the_round_is_there():
    desk = Desk.create()
    release, thread = holding(
        lambda: tournament_services.lock_tournament(desk.tournament.pk, exclusive=True)
    )
    try:
        with pytest.raises(DatabaseError), transaction.atomic():
            connection.cursor().execute("SET LOCAL lock_timeout = '200ms'")
            desk.issue(0, "1.4", moment="between_matches")
    finally:
        release.set()
        thread.join(timeout=30)

    assert not PenaltyRecord.objects.exists()
    # Once the publish is over, the submit goes through.
    assert desk.issue(0, "1.4", moment="between_matches").registration_id == desk.players[0].pk


def test_an_import_into_the_running_tournament_and_submits_at_once_all_succeed():
    desk = Desk.create(players=PLAYERS)
    desk.pair(*[(index, index + 1) for index in range(0, PLAYERS, 2)])
    newcomers = [PlayerFactory() for _ in range(4)]

    def act(index):
        if index < len(newcomers):
            return tournament_services.register_player(
                tournament=desk.tournament, player=newcomers[index]
            )
        return desk.issue(index, "1.4", by="floor")

    results = at_once(len(newcomers) + 4, act)

    assert [result for result in results if isinstance(result, Exception)] == []
    assert Registration.objects.filter(tournament=desk.tournament).count() == PLAYERS + 4
    assert PenaltyRecord.objects.filter(tournament=desk.tournament).count() == 4
