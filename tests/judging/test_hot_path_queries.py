"""The judges' hot path reads each thing once: the queries of a preview and of a submit, pinned.

Django reads the session and the user; the access check (``staff_view``) reads the tournament and
the judge's roles and hands them to the view, which hands the roles to the service; a preview
reads the player with whether they play now, then what they hold; the edition is found inside
the infraction's query; a submit reads whom the player plays, then locks the two by key in one
statement (the player is not read before), after the tournament's shared lock on PostgreSQL
(``tournaments.services.locks``), reads their names and tournament, and reads the match and its
games under the lock; the player's penalties and a record made with the same form come in one
read. The submit's reads are plain SQL (``judging.plain_reads``): a related row is read by its
own short statement rather than joined, which costs a query but not the ORM's building of one.
Savepoints and PostgreSQL's NOTIFY are left out of the count."""

import re
import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from judging.models import PenaltyRecord
from tests.factories import Desk, crowd

# Django's, before the view: the session, then the user it signs in.
SIGNED_IN = ["core_session", "auth_user"]
PREVIEW = [
    *SIGNED_IN,
    "tournaments_staff",  # the tournament and the judge's roles (the access check)
    "tournaments_registration",  # the player, with their name and whether they play now
    "judging_penaltyrecord",  # the penalties they hold
    "judging_infraction",  # the infraction, in the tournament's edition
]


def submit(*middle, holds=False, in_match=True):
    """A submit's queries, ``middle`` read between the infraction and the record written;
    ``holds``: the player holds penalties already, whose rounds are read with them;
    ``in_match``: the player plays a match, whose round is read with it."""
    return [
        *SIGNED_IN,
        "tournaments_staff",
        *shared_tournament_lock(),
        "tournaments_match",  # whom the player plays, if anyone
        "tournaments_registration",  # the player and the opponent, locked by key
        "players_player",  # their names
        "tournaments_tournament",  # their tournament, read fresh under the lock
        "tournaments_match",  # the match and the games it has had, under the lock
        *(["tournaments_round"] if in_match else []),  # the match's round
        "judging_penaltyrecord",  # the penalties held, and a record made with this form
        *(["tournaments_round"] if holds else []),  # the rounds of the penalties held
        "judging_infraction",
        *middle,
        "judging_penaltyrecord",  # the record
        "judging_penaltychange",  # its history entry
    ]


def shared_tournament_lock():
    """PostgreSQL's FOR KEY SHARE on the tournament before the players; SQLite locks no rows."""
    return ["tournaments_tournament"] if connection.vendor == "postgresql" else []


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
    small, large = events
    assert measure(client, small, "issue", form(small, 0)) == submit()
    assert measure(client, large, "issue", form(large, 0)) == submit(holds=True)


def test_a_submit_between_matches_reads_the_round_instead_of_the_game(client, db):
    desk = Desk.create()
    desk.pair((0, 1))

    queries = measure(client, desk, "issue", form(desk, 2, moment="between_matches"))

    # The player alone is locked (no match in progress); the latest round is read instead.
    assert queries == submit("tournaments_round", in_match=False)


def test_a_retry_with_the_same_form_reads_and_writes_nothing_more(client, desk):
    desk.pair((0, 1))
    data = form(desk, 0)
    measure(client, desk, "issue", data)

    queries = measure(client, desk, "issue", data)

    # The record made the first time is read back with its round, and answered.
    assert queries == submit(holds=True)[:-3]
    assert PenaltyRecord.objects.count() == 1
