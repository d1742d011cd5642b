"""The federation's writes: an event's identity, importing event files and suspension lists,
the coordinator's suspensions, and the API keys. Each raises a coded ``DomainError`` before it
writes anything; an import is one transaction, all or nothing.

Imports of one installation run one after another: each locks the ledger's one row first
(``_lock_ledger``), so two workers given the same file, or two files naming the same new
player, never both insert. The row locks of ``tournaments/services/locks.py`` are not taken: an
import writes no tournament, round or registration.
"""

import datetime
import hashlib
import secrets
from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import DomainError
from core.text import bounded_text
from federation.documents import dumps, event_document, suspension_document
from federation.files import day, read_event_file, read_suspension_list, schema
from federation.models import (
    ApiKey,
    EventIdentity,
    ImportedEntry,
    ImportedEvent,
    ImportLedger,
    ListImport,
    SuspensionKey,
)
from players import services as player_services
from players.models import MembershipSuspension, Player, SuspensionChangeKind
from tournaments.models import Tournament

COORDINATOR_PERMISSION = "federation.coordinate_suspensions"


def _required(value: str, *, limit: int = 2000) -> str:
    return bounded_text(
        value,
        max_length=limit,
        missing=DomainError(
            "federation_text_required", _("Write the reason (or the name)."), field="reason"
        ),
        too_long=DomainError(
            "federation_text_too_long",
            _("At most %(limit)s characters.") % {"limit": limit},
            field="reason",
        ),
    )


def _lock_ledger() -> None:
    ImportLedger.objects.get_or_create(pk=1)
    ImportLedger.objects.select_for_update().get(pk=1)


@transaction.atomic
def identify_event(*, tournament: Tournament) -> EventIdentity:
    """The tournament's id in event files, made at its first export."""
    identity, _created = EventIdentity.objects.get_or_create(tournament=tournament)
    return identity


def export_event(*, tournament: Tournament) -> bytes:
    """The event file of a finished tournament, checked against its own schema before it leaves."""
    if not tournament.is_finished:
        raise DomainError(
            "tournament_not_finished",
            _("The event file is made once the tournament is finished."),
        )
    document = event_document(tournament=tournament, identity=identify_event(tournament=tournament))
    import jsonschema

    jsonschema.validate(document, schema("event-v1"))
    return dumps(document)


def export_suspension_list() -> bytes:
    document = suspension_document()
    import jsonschema

    jsonschema.validate(document, schema("suspensions-v1"))
    return dumps(document)


@dataclass(frozen=True)
class EventImport:
    event: ImportedEvent
    created: bool
    new_players: int = 0
    suspensions: int = 0


@transaction.atomic
def import_event_file(*, content: bytes, by: User | None = None) -> EventImport:
    """Take in an event file, all or nothing. The same file again changes nothing; another file
    for the same event (another digest under the same id) is refused with the reason."""
    document = read_event_file(content)
    body = document["event"]
    _lock_ledger()
    existing = ImportedEvent.objects.filter(uid=body["uid"]).first()
    if existing is not None:
        if existing.digest == document["digest"]:
            return EventImport(event=existing, created=False)
        raise DomainError(
            "event_conflict",
            _(
                "Another file of the event «%(name)s» of %(date)s was imported on %(imported)s; "
                "this file differs from it (was the event changed after it was exported?). "
                "Nothing was imported."
            )
            % {
                "name": existing.name,
                "date": existing.date.strftime("%d.%m.%Y"),
                "imported": timezone.localtime(existing.imported_at).strftime("%d.%m.%Y %H:%M"),
            },
        )
    players = _players_of(body["players"])
    event = ImportedEvent.objects.create(
        uid=body["uid"],
        digest=document["digest"],
        name=body["name"],
        date=datetime.date.fromisoformat(body["date"]),
        venue=body["venue"],
        level=body["level"],
        players=len(body["players"]),
        rounds=len(body["rounds"]),
        penalties=len(body["penalties"]),
        content=document,
        imported_by=by,
    )
    penalties: defaultdict[int, list[dict[str, Any]]] = defaultdict(list)
    for penalty in body["penalties"]:
        penalties[penalty["player"]].append(penalty)
    ImportedEntry.objects.bulk_create(
        ImportedEntry(
            event=event,
            player=players[row["membership_id"].strip()],
            name=row["name"],
            place=row["place"],
            points=row["points"],
            status=row["status"],
            prize_eligible=row["prize_eligible"],
            penalties=penalties.get(row["ref"], []),
        )
        for row in body["players"]
    )
    by_ref = {row["ref"]: players[row["membership_id"].strip()] for row in body["players"]}
    issued = [
        {
            **penalty["suspension"],
            "player": {"membership_id": by_ref[penalty["player"]].membership_id},
        }
        for penalty in body["penalties"]
        if penalty["suspension"] is not None
    ]
    known = set(
        SuspensionKey.objects.filter(key__in=[row["key"] for row in issued]).values_list(
            "key", flat=True
        )
    )
    # On an installation that is also the event's laptop, its own suspensions are linked.
    own = _own_suspensions(issued, known)
    suspensions = 0
    for row in issued:
        if row["key"] in known:
            continue
        if row["key"] in own:
            SuspensionKey.objects.create(key=row["key"], suspension=own[row["key"]], event=event)
            continue
        player = players[row["player"]["membership_id"]]
        _new_suspension(player=player, row=row, event=event)
        suspensions += 1
    new_players = len(players) - sum(1 for player in players.values() if not player._state.adding)
    return EventImport(event=event, created=True, new_players=new_players, suspensions=suspensions)


def _players_of(rows: list[dict[str, Any]]) -> dict[str, Player]:
    """The registry's players of these rows by membership id; the missing ones are added."""
    ids = [row["membership_id"].strip() for row in rows]
    found = {
        player.membership_id: player for player in Player.objects.filter(membership_id__in=ids)
    }
    missing = [row for row in rows if row["membership_id"].strip() not in found]
    if missing:
        for player in player_services.create_players(
            entries=[(row["name"], row["membership_id"], row.get("city", "")) for row in missing]
        ):
            found[player.membership_id] = player
    return found


def _new_suspension(
    *, player: Player, row: dict[str, Any], event: ImportedEvent | None
) -> MembershipSuspension:
    suspension = player_services.suspend_membership(
        player=player,
        starts_on=datetime.date.fromisoformat(row["starts_on"]),
        ends_on=day(row["ends_on"]),
        reason=row["reason"],
    )
    lifted = day(row["lifted_on"])
    if lifted is not None:
        player_services.lift_suspension(
            suspension=suspension, reason=row["lift_reason"], day=lifted
        )
    SuspensionKey.objects.create(key=row["key"], suspension=suspension, event=event)
    return suspension


# The coordinator ------------------------------------------------------------------------------


def ensure_coordinator(user: User) -> None:
    if not user.has_perm(COORDINATOR_PERMISSION):
        raise DomainError(
            "not_coordinator",
            _("Only the game's coordinator sets and lifts suspensions."),
        )


@transaction.atomic
def suspend_player(
    *,
    player: Player,
    starts_on: datetime.date,
    ends_on: datetime.date | None,
    reason: str,
    by: User,
) -> MembershipSuspension:
    """A suspension the coordinator decides at the federation (not at an event)."""
    ensure_coordinator(by)
    reason = _required(reason)
    suspension = player_services.suspend_membership(
        player=player, starts_on=starts_on, ends_on=ends_on, reason=reason, author=by
    )
    SuspensionKey.objects.create(key=f"federation/{suspension.pk}", suspension=suspension)
    return suspension


def set_term(
    *, suspension: MembershipSuspension, ends_on: datetime.date, reason: str, by: User
) -> bool:
    ensure_coordinator(by)
    reason = _required(reason)
    return player_services.set_suspension_term(
        suspension=suspension, ends_on=ends_on, reason=reason, author=by
    )


def lift(*, suspension: MembershipSuspension, reason: str, by: User) -> bool:
    ensure_coordinator(by)
    reason = _required(reason)
    return player_services.lift_suspension(
        suspension=suspension, reason=reason, day=timezone.localdate(), author=by
    )


# The event laptop's import of the list ---------------------------------------------------------


@dataclass
class ListOutcome:
    changes: list[dict[str, Any]] = field(default_factory=list)
    unchanged: int = 0
    record: ListImport | None = None


@transaction.atomic
def import_suspension_list(*, content: bytes, by: User | None = None) -> ListOutcome:
    """Take in the federation's list, all or nothing: new suspensions are added (with their
    player, if the registry lacks them), changed terms set, lifted ones lifted, each with its
    history entry; ``changes`` says what changed. The same list again changes nothing."""
    document = read_suspension_list(content)
    _lock_ledger()
    rows = document["body"]["suspensions"]
    keyed = {
        key.key: key.suspension
        for key in SuspensionKey.objects.filter(
            key__in=[row["key"] for row in rows]
        ).select_related("suspension__player")
    }
    local = _own_suspensions(rows, keyed.keys())
    players = _players_of([row["player"] for row in rows if row["key"] not in keyed | local])
    outcome = ListOutcome()
    received = _("From the federation's list of %(date)s") % {
        "date": timezone.localtime(
            datetime.datetime.fromisoformat(document["exported_at"])
        ).strftime("%d.%m.%Y")
    }
    for row in rows:
        change = {
            "player": row["player"]["name"],
            "membership_id": row["player"]["membership_id"],
            "ends_on": row["ends_on"],
            "reason": row["reason"],
        }
        suspension = keyed.get(row["key"])
        if suspension is None and row["key"] in local:
            suspension = local[row["key"]]
            SuspensionKey.objects.create(key=row["key"], suspension=suspension)
        if suspension is None:
            _new_suspension(
                player=players[row["player"]["membership_id"].strip()], row=row, event=None
            )
            outcome.changes.append({**change, "kind": "new", "lifted_on": row["lifted_on"]})
            continue
        kinds = []
        ends_on = day(row["ends_on"])
        if suspension.lifted_on is None and ends_on is not None and ends_on != suspension.ends_on:
            player_services.set_suspension_term(
                suspension=suspension,
                ends_on=ends_on,
                reason=received,
                kind=SuspensionChangeKind.RECEIVED,
            )
            kinds.append("term")
        lifted = day(row["lifted_on"])
        if lifted is not None and suspension.lifted_on is None:
            player_services.lift_suspension(
                suspension=suspension, reason=row["lift_reason"] or received, day=lifted
            )
            kinds.append("lifted")
        for kind in kinds:
            outcome.changes.append({**change, "kind": kind, "lifted_on": row["lifted_on"]})
        if not kinds:
            outcome.unchanged += 1
    if outcome.changes:
        outcome.record = ListImport.objects.create(
            digest=document["digest"],
            exported_at=datetime.datetime.fromisoformat(document["exported_at"]),
            imported_by=by,
            changes=outcome.changes,
        )
    return outcome


def _own_suspensions(
    rows: list[dict[str, Any]], known: Collection[str]
) -> dict[str, MembershipSuspension]:
    """Suspensions of the list that this laptop issued itself (their key names one of its
    events and the suspension's id here): linked, never made a second time."""
    uids = {str(uid) for uid in EventIdentity.objects.values_list("uid", flat=True)}
    wanted: dict[int, dict[str, Any]] = {}
    for row in rows:
        uid, _slash, number = row["key"].partition("/")
        if row["key"] not in known and uid in uids and number.isdecimal():
            wanted[int(number)] = row
    own = MembershipSuspension.objects.filter(pk__in=list(wanted)).select_related("player")
    return {
        wanted[suspension.pk]["key"]: suspension
        for suspension in own
        if suspension.player.membership_id == wanted[suspension.pk]["player"]["membership_id"]
    }


# API keys ------------------------------------------------------------------------------------


def key_digest(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


@transaction.atomic
def create_api_key(*, tournament: Tournament, name: str, by: User) -> tuple[ApiKey, str]:
    """A new key and its text, shown once: only its hash is kept."""
    name = _required(name, limit=120)
    raw = "bk_" + secrets.token_urlsafe(24)
    key = ApiKey.objects.create(
        tournament=tournament, name=name, prefix=raw[:8], digest=key_digest(raw), created_by=by
    )
    return key, raw


@transaction.atomic
def revoke_api_key(*, tournament: Tournament, key_id: int) -> ApiKey:
    key = ApiKey.objects.select_for_update().filter(tournament=tournament, pk=key_id).first()
    if key is None:
        raise DomainError("api_key_unknown", _("There is no such key in this tournament."))
    if key.revoked_at is None:
        key.revoked_at = timezone.now()
        key.save(update_fields=["revoked_at"])
    return key
