"""The reads of a judge's submit and preview, written as plain SQL (issue 29, item 6).

Why this module exists: a judge's submit reads the player and the opponent under their locks,
the match in progress, the penalties the player holds and the infraction. Built by the ORM, each
of these querysets costs about a millisecond of Python on every request (the ``Q`` with an
``OR``, the joins of ``select_related``, the game count's subquery, the ordering through the
round), against 0.02–0.1 ms for the same statement sent as written. That was 4.6 ms of a 9.3 ms
submit measured in the process, and the difference between the single-judge benchmark's goal
(submit ≤ 5× a hello-world view) met and missed (README, "The single judge").

Only public, documented API is used: ``Manager.raw()`` (which turns each row into a model
instance, with the database's values converted as the ORM converts them), ``connection.cursor()``
for a row of plain numbers, ``Field.get_db_prep_value`` for a parameter, and the ``_meta`` API for
table names. Each function returns what the ORM read it replaced returned, with the same related
objects attached, so the services that call them did not change.

The statements are portable SQL that SQLite and PostgreSQL both run; the only difference is the
row lock (``FOR NO KEY UPDATE``), which SQLite has no use for: its writes hold the database's
write lock from ``BEGIN IMMEDIATE`` on. ``tests/judging/test_plain_reads.py`` compares every
function with the ORM queryset it replaced, on both databases.
"""

import uuid
from collections.abc import Collection

from django.db import connection
from django.db.models import Model

from judging.models import (
    GuidelineEdition,
    Infraction,
    PenaltyRecord,
    RecordStatus,
    TournamentGuideline,
)
from tournaments.models import Game, Match, Player, Registration, Round, Tournament
from tournaments.services.locks import share_tournament


def _table(model: type[Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _placeholders(values: Collection[object]) -> str:
    return ", ".join(["%s"] * len(values))


def _by_id[M: Model](model: type[M], ids: Collection[int]) -> dict[int, M]:
    """Rows of one table by their ids, each as its model instance."""
    if not ids:
        return {}
    rows = model._default_manager.raw(
        f"SELECT * FROM {_table(model)} WHERE id IN ({_placeholders(ids)})", list(ids)
    )
    return {row.pk: row for row in rows}


def match_in_play(registration_id: int) -> Match | None:
    """The player's match that has not ended (a bye is not a match), with its round attached and
    the number of its games recorded so far in ``games_recorded``; as
    ``tournaments.selectors.current_match(..., bare=True)`` reads it. The latest round's, should
    there ever be two."""
    matches = _table(Match)
    rows = list(
        Match.objects.raw(
            f"SELECT m.*, (SELECT COUNT(*) FROM {_table(Game)} g WHERE g.match_id = m.id)"
            f" AS games_recorded FROM {matches} m"
            f" JOIN {_table(Round)} r ON r.id = m.round_id"
            " WHERE (m.player1_id = %s OR m.player2_id = %s)"
            " AND m.ended_at IS NULL AND m.player2_id IS NOT NULL"
            " ORDER BY r.number DESC LIMIT 1",
            [registration_id, registration_id],
        )
    )
    if not rows:
        return None
    match = rows[0]
    match.round = _by_id(Round, [match.round_id])[match.round_id]
    return match


def lock_player_and_opponent(
    registration_id: int, tournament_id: int
) -> tuple[dict[int, Registration], Match | None]:
    """Lock the player and whoever plays them in a match in progress, in id order, after the
    tournament's shared lock (the lock order of ``tournaments.services.locks``); return the rows
    fresh, each with its player and tournament, and the match read again under the locks.
    Nothing is locked for a registration of another tournament.

    The opponent is read before the lock, and the two rows are then locked by key. Under the
    tournament's shared lock no round can be published meanwhile; a match that ends meanwhile
    (its result entered under both players' locks) leaves the opponent locked for nothing, which
    is why the match is read again under the lock.
    """
    share_tournament(tournament_id)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT player1_id, player2_id FROM {_table(Match)}"
            " WHERE (player1_id = %s OR player2_id = %s)"
            " AND ended_at IS NULL AND player2_id IS NOT NULL",
            [registration_id, registration_id],
        )
        playing = [pk for row in cursor.fetchall() for pk in row]
    wanted = sorted({registration_id, *playing})
    # Only the registrations are locked: no key changes, so the foreign-key checks of other
    # writes that name these rows do not wait.
    lock = " FOR NO KEY UPDATE" if connection.vendor == "postgresql" else ""
    registrations = list(
        Registration.objects.raw(
            f"SELECT * FROM {_table(Registration)}"
            f" WHERE id IN ({_placeholders(wanted)}) AND tournament_id = %s ORDER BY id{lock}",
            [*wanted, tournament_id],
        )
    )
    if not registrations:
        return {}, None
    players = _by_id(Player, {row.player_id for row in registrations})
    tournament = _by_id(Tournament, [tournament_id])[tournament_id]
    for row in registrations:
        row.player = players[row.player_id]
        row.tournament = tournament
    return {row.pk: row for row in registrations}, match_in_play(registration_id)


# The statuses of a standing record: those in force are the penalties held; those awaiting the
# head judge count for the second-penalty check (``judging.services.issuing``).
STANDING_STATUSES = (RecordStatus.IN_FORCE.value, RecordStatus.AWAITING_HEAD_JUDGE.value)


def records_held_or_keyed(
    registration_id: int, tournament_id: int, client_key: uuid.UUID | None
) -> list[PenaltyRecord]:
    """The player's standing records (in force, or awaiting the head judge) and, with a key, the
    tournament's record made with that form's key, oldest first, each with its round attached."""
    statuses = list(STANDING_STATUSES)
    where = f"(registration_id = %s AND status IN ({_placeholders(statuses)}))"
    params: list[object] = [registration_id, *statuses]
    if client_key is not None:
        key = PenaltyRecord._meta.get_field("client_key").get_db_prep_value(client_key, connection)
        where += " OR (tournament_id = %s AND client_key = %s)"
        params += [tournament_id, key]
    records = list(
        PenaltyRecord.objects.raw(
            f"SELECT * FROM {_table(PenaltyRecord)} WHERE {where} ORDER BY id", params
        )
    )
    rounds = _by_id(Round, {row.round_id for row in records if row.round_id is not None})
    for row in records:
        row.round = rounds.get(row.round_id) if row.round_id is not None else None
    return records


def infraction_by_code(tournament_id: int, code: str, shipped_edition: str) -> Infraction | None:
    """The infraction with that code in the tournament's edition of the guideline (the shipped
    edition, named by its slug, when the tournament chose none), in one statement."""
    rows = list(
        Infraction.objects.raw(
            f"SELECT * FROM {_table(Infraction)} WHERE code = %s AND edition_id = COALESCE("
            f"(SELECT edition_id FROM {_table(TournamentGuideline)} WHERE tournament_id = %s),"
            f" (SELECT id FROM {_table(GuidelineEdition)} WHERE slug = %s))"
            " ORDER BY id LIMIT 1",
            [code, tournament_id, shipped_edition],
        )
    )
    return rows[0] if rows else None
