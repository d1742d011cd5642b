"""The two files the federation exchanges, as plain dicts, and their integrity seal.

``event_document`` reads one finished tournament into an event file (format ``berserk-event``),
``suspension_document`` the registry's suspensions into a suspension list (``berserk-suspensions``);
both are described field by field in ``docs/federation.md`` and by the JSON Schemas in
``federation/schemas/`` (served at ``/federation/schemas/<name>.json``).

Both read in a constant number of queries whatever the event's size. Every file carries the counts
of what it holds and a SHA-256 digest of its body (``seal``), so a file edited by hand (a count
changed, a penalty removed) is refused on import with the reason.
"""

import datetime
import hashlib
import json
from collections import defaultdict
from typing import Any

from django.db.models import Prefetch
from django.utils import timezone

from core.people import display_name
from federation.models import EventIdentity, SuspensionKey
from federation.stages import PLAYOFF, stage_of
from judging.models import (
    InvestigationStatement,
    PenaltyAcknowledgement,
    PenaltyChange,
    PenaltyRecord,
)
from judging.penalties import Rank
from players.models import MembershipSuspension
from tournaments import playoff_selectors
from tournaments.models import (
    Game,
    Match,
    Registration,
    ResultCorrection,
    Round,
    Tournament,
)
from tournaments.selectors import standings

EVENT_FORMAT = "berserk-event"
SUSPENSIONS_FORMAT = "berserk-suspensions"
VERSION = 1


def canonical(value: object) -> bytes:
    """The bytes the digest is taken over: keys sorted, no spaces, UTF-8."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()


def digest_of(body: object) -> str:
    return hashlib.sha256(canonical(body)).hexdigest()


def dumps(document: dict[str, Any]) -> bytes:
    """The file's bytes: indented UTF-8 JSON (readable, and diff-able by a person)."""
    return json.dumps(document, ensure_ascii=False, indent=1).encode() + b"\n"


def _moment(value: datetime.datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _day(value: datetime.date | None) -> str | None:
    return value.isoformat() if value is not None else None


def suspension_key(*, event_uid: str, suspension_id: int) -> str:
    return f"{event_uid}/{suspension_id}"


def event_document(*, tournament: Tournament, identity: EventIdentity) -> dict[str, Any]:
    """The event file of ``tournament`` (the caller makes sure it is finished)."""
    uid = str(identity.uid)
    registrations = list(
        Registration.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("player__name", "pk")
    )
    table = standings(tournament=tournament)
    points = {row.registration.pk: row.standing.points for row in table}
    places = {row.registration.pk: place for place, row in enumerate(table, start=1)}
    # With a playoff, the final standings are the playoff's (the champion first).
    final = playoff_selectors.final_standings(tournament=tournament)
    if any(row.in_cut for row in final):
        places = {row.registration.pk: row.place for row in final}
    players = []
    for registration in registrations:
        players.append(
            {
                "ref": registration.pk,
                "name": registration.player.name,
                "membership_id": registration.player.membership_id,
                "city": registration.player.city,
                "status": registration.status,
                "prize_eligible": registration.prize_eligible,
                "place": places.get(registration.pk),
                "points": points.get(registration.pk, 0),
            }
        )
    rounds = _rounds(tournament)
    penalties = _penalties(tournament, uid)
    body = {
        "uid": uid,
        "name": tournament.name,
        "date": tournament.date.isoformat(),
        "venue": tournament.venue,
        "level": tournament.level,
        "format": tournament.format,
        "best_of": tournament.best_of,
        "head_judge_is_official": tournament.head_judge_is_official,
        "players": players,
        "rounds": rounds,
        # The playoff: its rounds are in ``rounds`` with the stage "playoff"; this block holds
        # its setting, the seeds, the named winners of level matches and the final standings
        # (docs/federation.md, "The playoff").
        "playoff": _playoff(tournament, rounds, final),
        "penalties": penalties,
    }
    return {
        "format": EVENT_FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "counts": counts_of(body),
        "digest": digest_of(body),
        "event": body,
    }


def counts_of(body: dict[str, Any]) -> dict[str, int]:
    return {
        "players": len(body["players"]),
        "rounds": len(body["rounds"]),
        "matches": sum(len(round_["matches"]) for round_ in body["rounds"]),
        "penalties": len(body["penalties"]),
        "suspensions": sum(1 for penalty in body["penalties"] if penalty["suspension"]),
    }


def _playoff(
    tournament: Tournament,
    rounds: list[dict[str, Any]],
    final: list[playoff_selectors.FinalRow],
) -> dict[str, Any] | None:
    """The playoff block: None without a published cut. Every player is named by ``ref``."""
    cut = [row for row in final if row.in_cut]
    if not cut:
        return None
    numbers = [round_["number"] for round_ in rounds if round_["stage"] == PLAYOFF]
    decided = (
        Match.objects.filter(
            round__tournament=tournament, round__playoff=True, decided_winner__isnull=False
        )
        .select_related("round")
        .order_by("round__number", "table")
    )
    return {
        "rounds": numbers,
        "setting": tournament.playoff,
        "size": len(cut),
        "best_of": tournament.playoff_best_of,
        "final_best_of": tournament.playoff_final_best_of,
        "first_player": tournament.playoff_first_player,
        "seeds": [
            {"seed": row.seed, "player": row.registration.pk, "swiss_place": row.swiss_position}
            for row in sorted(cut, key=lambda row: row.seed or 0)
        ],
        # A match whose games were level: the winner the event's procedure named, and how.
        "decided": [
            {
                "round": match.round.number,
                "table": match.table,
                "winner": match.decided_winner_id,
                "how": match.decided_how,
            }
            for match in decided
        ],
        "standings": [
            {
                "place": row.place,
                "player": row.registration.pk,
                "seed": row.seed,
                "swiss_place": row.swiss_position,
                "out_in_round": numbers[row.out_in]
                if row.out_in is not None and row.out_in < len(numbers)
                else None,
                "champion": row.champion,
                "finalist": row.finalist,
                "prize_withheld": row.without_prize,
            }
            for row in cut
        ],
    }


def _rounds(tournament: Tournament) -> list[dict[str, Any]]:
    games: defaultdict[int, list[dict[str, Any]]] = defaultdict(list)
    for game in Game.objects.filter(match__round__tournament=tournament).order_by(
        "match", "number"
    ):
        games[game.match_id].append(
            {
                "number": game.number,
                "winner": game.winner_id,
                "decided_by_penalty": game.decided_by_penalty,
            }
        )
    corrections: defaultdict[int, list[dict[str, Any]]] = defaultdict(list)
    for correction in (
        ResultCorrection.objects.filter(round__tournament=tournament)
        .select_related("corrected_by")
        .order_by("match", "corrected_at", "pk")
    ):
        corrections[correction.match_id].append(
            {
                "at": _moment(correction.corrected_at),
                "by": display_name(correction.corrected_by),
                "reason": correction.reason,
                "before": correction.before_score,
                "after": correction.score,
            }
        )
    matches: defaultdict[int, list[dict[str, Any]]] = defaultdict(list)
    for match in Match.objects.filter(round__tournament=tournament).order_by(
        "round", "table", "pk"
    ):
        matches[match.round_id].append(
            {
                "table": match.table,
                "player1": match.player1_id,
                "player2": match.player2_id,
                "player1_wins": match.player1_wins,
                "player2_wins": match.player2_wins,
                "draws": match.draws,
                "player1_lost_by_penalty": match.player1_lost_by_penalty,
                "player2_lost_by_penalty": match.player2_lost_by_penalty,
                "end_reason": match.end_reason,
                "games": games.get(match.pk, []),
                "corrections": corrections.get(match.pk, []),
            }
        )
    return [
        {"number": round_.number, "stage": stage_of(round_), "matches": matches.get(round_.pk, [])}
        for round_ in Round.objects.filter(tournament=tournament).order_by("number")
    ]


def _penalties(tournament: Tournament, uid: str) -> list[dict[str, Any]]:
    records = (
        PenaltyRecord.objects.filter(tournament=tournament)
        .select_related("infraction", "issued_by", "round", "membership_suspension")
        .prefetch_related(
            Prefetch(
                "history",
                queryset=PenaltyChange.objects.select_related("author").order_by("at", "pk"),
            ),
            Prefetch(
                "statements",
                queryset=InvestigationStatement.objects.select_related("taken_by").order_by(
                    "at", "pk"
                ),
            ),
        )
        .order_by("issued_at", "pk")
    )
    acknowledgements = {
        ack.record_id: ack
        for ack in PenaltyAcknowledgement.objects.filter(
            record__tournament=tournament
        ).select_related("recorded_by")
    }
    found = []
    for record in records:
        ack = acknowledgements.get(record.pk)
        suspension = record.membership_suspension
        found.append(
            {
                "ref": record.pk,
                "player": record.registration_id,
                "round": record.round.number if record.round is not None else None,
                "infraction": record.infraction.code if record.infraction is not None else None,
                "infraction_name": record.infraction.name if record.infraction else "",
                "sub_item": record.sub_item,
                "because": record.because,
                "moment": record.moment,
                "base_penalty": Rank(record.base_rank).key if record.base_rank else None,
                "issued_penalty": Rank(record.issued_rank).key,
                "penalty": Rank(record.rank).key,
                "status": record.status,
                "issued_at": _moment(record.issued_at),
                "issued_by": display_name(record.issued_by),
                "note": record.note,
                "history": [
                    {
                        "kind": change.kind,
                        "at": _moment(change.at),
                        "by": display_name(change.author),
                        "from_penalty": Rank(change.from_rank).key if change.from_rank else None,
                        "to_penalty": Rank(change.to_rank).key,
                        "from_status": change.from_status,
                        "to_status": change.to_status,
                        "reason": change.reason,
                    }
                    for change in record.history.all()
                ],
                "acknowledgement": (
                    {
                        "kind": ack.kind,
                        "at": _moment(ack.at),
                        "recorded_by": display_name(ack.recorded_by),
                    }
                    if ack is not None
                    else None
                ),
                "statements": [
                    {
                        "role": statement.role,
                        "name": statement.author_name,
                        "text": statement.text,
                        "at": _moment(statement.at),
                        "taken_by": display_name(statement.taken_by),
                    }
                    for statement in record.statements.all()
                ],
                "suspension": (
                    {
                        "key": suspension_key(event_uid=uid, suspension_id=suspension.pk),
                        "starts_on": _day(suspension.starts_on),
                        "ends_on": _day(suspension.ends_on),
                        "lifted_on": _day(suspension.lifted_on),
                        "reason": suspension.reason,
                        "lift_reason": suspension.lift_reason,
                    }
                    if suspension is not None
                    else None
                ),
            }
        )
    return found


def suspension_document() -> dict[str, Any]:
    """Every suspension of the registry, lifted ones too (a laptop lifts what the coordinator
    lifted), each under its key."""
    keys = dict(SuspensionKey.objects.values_list("suspension_id", "key"))
    rows = []
    for suspension in MembershipSuspension.objects.select_related("player").order_by("pk"):
        rows.append(
            {
                "key": keys.get(suspension.pk, f"federation/{suspension.pk}"),
                "player": {
                    "name": suspension.player.name,
                    "membership_id": suspension.player.membership_id,
                },
                "starts_on": _day(suspension.starts_on),
                "ends_on": _day(suspension.ends_on),
                "lifted_on": _day(suspension.lifted_on),
                "reason": suspension.reason,
                "lift_reason": suspension.lift_reason,
            }
        )
    body = {"suspensions": rows}
    return {
        "format": SUSPENSIONS_FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "counts": {"suspensions": len(rows)},
        "digest": digest_of(body),
        "body": body,
    }
