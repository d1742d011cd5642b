"""The judges' hot path reads each thing once: the queries of a preview and of a submit, pinned.

The session, the user, the tournament and the judge's roles are read in one query (the access
check) and handed to the session, the sign-in check and the service; a preview reads the player
with whether they play now and what they hold; the edition is found inside the infraction's
query; a submit locks the player and the opponent in one statement (the player is not read
before) and reads the match and its games once under the lock; the player's penalties and a
record made with the same form come in one read. Savepoints and PostgreSQL's NOTIFY are left out
of the count, so the same numbers hold on both databases."""

import re
import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from judging.models import PenaltyRecord
from tests.factories import Desk, crowd

PREVIEW = [
    "tournaments_staff",  # the session, the user, the tournament and the judge's roles (access)
    # The player, with their name, whether they play now and the penalties they hold.
    "tournaments_registration",
    "judging_infraction",  # the infraction, in the tournament's edition
]
SUBMIT = [
    "tournaments_staff",
    "tournaments_registration",  # the player and the opponent, locked (not read before)
    "tournaments_match",  # the match and the games it has had, under the lock
    "judging_penaltyrecord",  # the penalties held, and a record made with this form
    "judging_infraction",
    "judging_penaltyrecord",  # the record
    "judging_penaltychange",  # its history entry
]


def tables(queries):
    """The table each statement reads or writes, without savepoints and NOTIFY."""
    named = []
    for query in queries:
        sql = query["sql"]
        if sql.startswith(("SAVEPOINT", "RELEASE", "ROLLBACK", "BEGIN", "COMMIT")):
            continue
        if "pg_notify" in sql:
            continue
        named.append(main_table(sql))
    return named


def main_table(sql):
    """The table after the statement's own FROM or INTO, not a subquery's."""
    for found in re.finditer(r'(?:FROM|INTO) "(\w+)"', sql):
        before = sql[: found.start()]
        if before.count("(") == before.count(")"):
            return found.group(1)
    raise AssertionError(f"no table in {sql}")


def measure(client, desk, name, data, **headers):
    client.force_login(desk.floor)
    with CaptureQueriesContext(connection) as queries:
        response = client.post(
            reverse(f"judging:{name}", args=[desk.tournament.slug]), data, headers=headers
        )
    assert response.status_code in (200, 302), response.content[:300]
    return tables(queries)


def form(desk, player, code="1.4", moment="in_game"):
    return {
        "player": desk.players[player].pk,
        "client_key": str(uuid.uuid4()),
        "infraction": code,
        "moment": moment,
    }


@pytest.fixture
def events(db):
    """A small event, and a larger one where the player and others already hold penalties."""
    made = []
    for players, penalised in ((4, 0), (200, 40)):
        desk = Desk.create()
        crowd(desk, players - len(desk.players))
        order = desk.players
        desk.pair(*[(i, i + 1) for i in range(0, len(order) - 1, 2)])
        for index in range(penalised):
            # By the head judge: the floor judge who submits below is not repeating their own tap.
            desk.issue(index, "1.4", by="head")
        made.append(desk)
    return made


def test_a_preview_reads_each_thing_once(client, events):
    for desk in events:
        assert measure(client, desk, "preview", form(desk, 0), **{"HX-Request": "true"}) == PREVIEW


def test_a_submit_reads_each_thing_once(client, events):
    for desk in events:
        assert measure(client, desk, "issue", form(desk, 0)) == SUBMIT


def test_a_submit_between_matches_reads_the_round_instead_of_the_game(client, db):
    desk = Desk.create()
    desk.pair((0, 1))

    queries = measure(client, desk, "issue", form(desk, 2, moment="between_matches"))

    assert (
        queries
        == [
            *SUBMIT[:1],
            "tournaments_registration",  # the player alone: no match in progress
            "tournaments_match",
            "judging_penaltyrecord",
            "judging_infraction",
            "tournaments_round",  # the latest round
            *SUBMIT[-2:],
        ]
    )


def test_a_retry_with_the_same_form_reads_and_writes_nothing_more(client, desk):
    desk.pair((0, 1))
    data = form(desk, 0)
    measure(client, desk, "issue", data)

    queries = measure(client, desk, "issue", data)

    assert queries == SUBMIT[:4]
    assert PenaltyRecord.objects.count() == 1
