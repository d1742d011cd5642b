"""The one lock order of every write that touches a tournament's round and its players.

Every such write takes its row locks in this order, each step only if it needs it:

1. the tournament's row;
2. the round's draft (drafting and publishing a round);
3. the players' registrations, by id, in one statement;
4. the match;
5. the penalty records.

Step 1 comes in three strengths (PostgreSQL's row lock modes):

- ``lock_tournament(..., exclusive=True)`` (``FOR UPDATE``): publishing a round and finishing
  the tournament. It waits for every write on the players that is under way and keeps new ones
  out until it commits, so no write on a player ever sees half a round.
- ``lock_tournament(...)`` (``FOR NO KEY UPDATE``): the other writes to the tournament as a whole
  (its set-up, registering and importing players, drafting a round). They exclude one another,
  but not the writes on the players: an import does not hold up a judge's submit.
- every write on players (a penalty and the head judge's decisions on it, a result, its
  correction, a drop, a deck list) takes ``FOR KEY SHARE`` on the tournament inside
  ``lock_registrations`` and ``share_tournament`` (a judge's player and the opponent,
  ``judging.plain_reads.lock_player_and_opponent``), before the players. Those writes never
  wait for each other there; they only wait for a round being published or the tournament being
  finished, before they hold any player.

Why step 1 for the writes on players: their rows refer to the tournament, and PostgreSQL checks
a foreign key at commit by taking ``FOR KEY SHARE`` on the row it names. A submit that locked
its player first met the tournament's lock only at commit, while a publish held the tournament
and waited for that player: a deadlock. Taken first, the tournament's lock is met before any
player is held, and a publish that waits for it holds nothing the submit needs.

SQLite has no row locks: its writes take the database's one write lock at ``BEGIN``
(``transaction_mode = "IMMEDIATE"`` in the settings), so they run one after the other, and the
statements here lock nothing there.
"""

from collections.abc import Iterable

from django.db import connection
from django.db.transaction import TransactionManagementError

from tournaments.models import Registration, Tournament


def lock_tournament(tournament_id: int, *, exclusive: bool = False) -> Tournament:
    """Step 1 for a write to the tournament as a whole; the tournament, read fresh.

    ``exclusive``: also wait for, and then keep out, every write on its players (publishing a
    round, finishing the tournament).
    """
    return Tournament.objects.select_for_update(no_key=not exclusive).get(pk=tournament_id)


def _share_tournaments(where: str, params: list[int]) -> None:
    """``FOR KEY SHARE`` on the tournaments the condition names (step 1 of a write on players).

    Plain SQL: Django's ``select_for_update`` has no shared lock mode.
    """
    if connection.vendor != "postgresql":
        return
    if connection.get_autocommit():
        raise TransactionManagementError("a lock is taken inside a transaction only.")
    table = connection.ops.quote_name(Tournament._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT 1 FROM {table} WHERE {where} ORDER BY id FOR KEY SHARE", params)


def share_tournament(tournament_id: int) -> None:
    """Step 1 of a write on one tournament's players: ``FOR KEY SHARE`` on the tournament (nothing
    on SQLite). ``judging.plain_reads.lock_player_and_opponent`` takes it before a judge's player
    and the opponent."""
    _share_tournaments("id = %s", [tournament_id])


def lock_registrations(ids: Iterable[int]) -> dict[int, Registration]:
    """Lock the registrations (after their tournament's shared lock), in id order; return them
    fresh with their players and tournaments."""
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    registrations = connection.ops.quote_name(Registration._meta.db_table)
    placeholders = ", ".join(["%s"] * len(wanted))
    _share_tournaments(
        f"id IN (SELECT tournament_id FROM {registrations} WHERE id IN ({placeholders}))",
        list(wanted),
    )
    rows = (
        # Only the registrations: the tournament and the players are read with them. No key
        # changes, so the foreign-key checks of other writes that name these rows do not wait.
        Registration.objects.select_for_update(of=("self",), no_key=True)
        .filter(pk__in=wanted)
        .order_by("pk")
        .select_related("player", "tournament")
    )
    return {row.pk: row for row in rows}
