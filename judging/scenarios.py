"""Executable rulings: play a scenario file through the real services and check what comes out.

The format is described in the shared spec (``scenarios.md``) and read by ``scenario_format``.
The runner only drives the same services the web views call and reads the results back through
selectors; it computes no ruling itself. Each scenario runs inside a transaction that is rolled
back, so no real data is touched.
"""

import json
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.db import DatabaseError, transaction
from django.utils import timezone

from core.errors import DomainError
from judging import editions, selectors, services
from judging.models import PenaltyRecord, RecordStatus
from judging.penalties import Because, Rank
from judging.scenario_format import STACKING, BrokenScenario, validated
from players.selectors import suspension_in_force
from tournaments import selectors as tournament_selectors
from tournaments import services as tournament_services
from tournaments.models import Match, Registration, StaffRole


class StepFailed(Exception):
    """A step's outcome differs from its expectation."""


@dataclass(frozen=True)
class ScenarioResult:
    source: str
    title: str
    passed: bool
    problem: str = ""

    @property
    def line(self) -> str:
        return f"PASS {self.title}" if self.passed else f"FAIL {self.title}: {self.problem}"


def run_scenario_file(path: Path) -> ScenarioResult:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        return ScenarioResult(str(path), str(path), False, f"cannot be read: {error.strerror}")
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        return ScenarioResult(str(path), str(path), False, f"is not valid JSON: {error}")
    return run_scenario(data, source=str(path))


def run_scenario(data: Any, *, source: str) -> ScenarioResult:
    try:
        scenario = validated(data)
    except BrokenScenario as error:
        return ScenarioResult(source, source, False, f"broken scenario: {error}")
    title = scenario["title"]
    try:
        with transaction.atomic():
            try:
                _Run(scenario).play()
            finally:
                transaction.set_rollback(True)
    except BrokenScenario as error:
        return ScenarioResult(source, title, False, f"{source}: broken scenario: {error}")
    except StepFailed as error:
        return ScenarioResult(source, title, False, str(error))
    except DatabaseError as error:
        return ScenarioResult(source, title, False, f"the database refused a step: {error}")
    except Exception as error:
        # Whatever the file holds, the reader gets a line naming it, never a traceback.
        return ScenarioResult(
            source, title, False, f"{source}: the runner failed: {type(error).__name__}: {error}"
        )
    return ScenarioResult(source, title, True)


def scenario_files(paths: list[str]) -> list[Path]:
    """Files named, and the ``*.json`` files of folders named, in order."""
    found: list[Path] = []
    for name in paths:
        path = Path(name)
        found.extend(sorted(path.glob("*.json")) if path.is_dir() else [path])
    return found


class _Run:
    def __init__(self, scenario: Mapping[str, Any]) -> None:
        self.scenario = scenario
        settings = scenario["tournament"]
        key = uuid.uuid4().hex[:12]
        self.head_judge = tournament_services.create_account(username=f"scenario-head-{key}")
        self.floor_judge = tournament_services.create_account(username=f"scenario-floor-{key}")
        try:
            self.tournament = tournament_services.create_tournament(
                name=scenario["title"][:200],
                slug=f"scenario-{key}",
                date=timezone.localdate(),
                level=settings["level"],
                uses_decklists=settings.get("decklists"),
                best_of=int(settings.get("best_of", 3)),
                head_judge_is_official=bool(settings.get("official_head_judge", False)),
            )
            self._add_infractions(settings.get("infractions", []))
        except (DomainError, TypeError, ValueError, ValidationError) as error:
            raise BrokenScenario(f"tournament: {error}") from error
        tournament_services.add_staff(
            tournament=self.tournament, user=self.head_judge, role=StaffRole.HEAD_JUDGE
        )
        tournament_services.add_staff(
            tournament=self.tournament, user=self.floor_judge, role=StaffRole.FLOOR_JUDGE
        )
        self.players: dict[str, Registration] = {}
        for index, name in enumerate(scenario["players"], start=1):
            self.players[name] = tournament_services.register_new_player(
                tournament=self.tournament, name=name, membership_id=f"scenario-{key}-{index}"
            )

    def _add_infractions(self, added: list[Mapping[str, Any]]) -> None:
        """Through the guideline screen's service: a new code is available everywhere, a code
        that exists already is replaced for this tournament (keeping its availability)."""
        for item in added:
            code = str(item["code"])
            editions.add_tournament_infraction(
                tournament=self.tournament,
                code=code,
                name=str(item["name"]),
                availability=None,
                penalties=item.get("penalties") or {},
                # scenarios.md names neither a new section nor why a code is replaced.
                section_name=f"Раздел {editions.section_of(code)}",
                replacement_reason="As the scenario sets it.",
            )

    def play(self) -> None:
        for number, step in enumerate(self.scenario["steps"], start=1):
            self.number = number
            (action,) = set(step) - {"expect"}
            expect = step.get("expect", {})
            watermark = PenaltyRecord.objects.order_by("-id").values_list("id", flat=True).first()
            handler: Callable[[Any], PenaltyRecord | None] = getattr(self, f"_do_{action}")
            record = None
            refusal: DomainError | None = None
            try:
                with transaction.atomic():
                    record = handler(step[action])
            except DomainError as error:
                refusal = error
            self._check(action, step[action], expect, record, refusal, watermark or 0)

    # Actions. Each returns the record the step made or changed, when there is one.

    def _do_pair(self, pairs: list[list[str]]) -> None:
        tournament_services.pair_round(
            tournament=self.tournament,
            pairings=[
                (self._player(pair[0]), self._player(pair[1]) if len(pair) == 2 else None)
                for pair in pairs
            ],
        )

    def _do_penalty(self, action: dict[str, Any]) -> PenaltyRecord:
        outcome = services.issue_penalty(
            registration=self._player(action["player"]),
            infraction_code=action["infraction"],
            sub_item=action.get("sub_item", ""),
            moment=action["moment"],
            deferred=action.get("defer", False),
            issued_by=self.head_judge if action.get("by", "head") == "head" else self.floor_judge,
            client_key=uuid.uuid4(),
            # A scripted ruling says each penalty it means; no tap is repeated here.
            confirm_second=True,
        )
        return outcome.record

    def _do_confirm(self, action: dict[str, Any]) -> PenaltyRecord:
        return services.confirm_request(
            record=self._awaiting(action["player"]),
            head_judge=self.head_judge,
            # A disqualification is confirmed with reasoning; a scenario states only the ruling.
            reason="As the scenario rules.",
        ).record

    def _do_decline(self, action: dict[str, Any]) -> PenaltyRecord:
        return services.decline_request(
            record=self._awaiting(action["player"]),
            head_judge=self.head_judge,
            reason=action.get("reason", ""),
        ).record

    def _do_amend(self, action: dict[str, Any]) -> PenaltyRecord:
        return services.amend_penalty(
            record=self._latest_for_infraction(action),
            to_rank=Rank.from_key(action["to"]),
            author=self.head_judge,
            reason=action.get("reason", ""),
        ).record

    def _do_revoke(self, action: dict[str, Any]) -> PenaltyRecord:
        return services.revoke_penalty(
            record=self._latest_for_infraction(action),
            author=self.head_judge,
            reason=action.get("reason", ""),
        ).record

    def _do_game(self, action: dict[str, str]) -> None:
        registration = self._player(action["winner"] if "winner" in action else action["draw"])
        match = self._current_match(registration)
        winner = registration if "winner" in action else None
        tournament_services.record_game(match=match, winner=winner)

    def _do_finish(self, action: dict[str, Any]) -> None:
        registration = self._player(action["player"])
        tournament_services.finish_match(match=self._current_match(registration))

    def _do_check(self, action: dict[str, Any]) -> None:
        return None

    # Reading the outcome.

    def _check(
        self,
        action: str,
        payload: Any,
        expect: Mapping[str, Any],
        record: PenaltyRecord | None,
        refusal: DomainError | None,
        watermark: int,
    ) -> None:
        refused_expected = bool(expect.get("refused", False))
        if refusal is not None and not refused_expected:
            self._fail(f"refused: {refusal.message} [{refusal.code}]")
        if refusal is None and refused_expected:
            got = Rank(record.rank).key if record else "done"
            self._fail(f"expected refused, got {got}")
        subject = None
        if isinstance(payload, dict) and isinstance(payload.get("player"), str):
            subject = self._player(payload["player"])
        elif action == "game" and isinstance(payload, dict):
            subject = self._player(payload.get("winner") or payload.get("draw"))
        for key, expected in expect.items():
            if key == "refused":
                continue
            got = self._observe(key, expected, action, subject, record, watermark)
            if got != expected:
                self._fail(f"{key}: expected {_show(expected)}, got {_show(got)}")

    def _observe(
        self,
        key: str,
        expected: Any,
        action: str,
        subject: Registration | None,
        record: PenaltyRecord | None,
        watermark: int,
    ) -> Any:
        if key == "auto":
            made = (
                PenaltyRecord.objects.filter(
                    tournament=self.tournament, because=Because.STACKING, id__gt=watermark
                )
                .select_related("registration__player")
                .order_by("id")
            )
            return [
                {"player": item.registration.player.name, "penalty": Rank(item.rank).key}
                for item in made
            ]
        if key == "score":
            if not isinstance(expected, dict) or len(expected) != 2:
                raise BrokenScenario(f"step {self.number}: score names two players")
            first, second = (self._player(name) for name in expected)
            match = tournament_selectors.latest_match_between(first=first, second=second)
            if match is None:
                return None
            return {name: match.wins_of(self._player(name)) for name in expected}
        if key in ("penalty", "because", "applies_to") or (key == "status" and action != "check"):
            if record is None:
                return None
            record.refresh_from_db()
            return {
                "penalty": Rank(record.rank).key,
                "because": record.because,
                "applies_to": record.applies_to or None,
                "status": record.status,
            }[key]
        if subject is None:
            raise BrokenScenario(f"step {self.number}: {key} needs a player")
        subject.refresh_from_db()
        if key == "status":
            return subject.status
        if key == "penalties":
            return [Rank(r.rank).key for r in selectors.penalties_in_force(registration=subject)]
        if key == "pending":
            return [Rank(r.rank).key for r in selectors.pending_losses(registration=subject)]
        if key == "prize":
            return subject.prize_eligible
        if key == "registrable":
            return suspension_in_force(player=subject.player, day=timezone.localdate()) is None
        raise BrokenScenario(f"step {self.number}: unknown expect key {key}")

    # Helpers.

    def _player(self, name: Any) -> Registration:
        if not isinstance(name, str) or name not in self.players:
            raise BrokenScenario(f"step {self.number}: unknown player {name!r}")
        return self.players[name]

    def _current_match(self, registration: Registration) -> Match:
        match = tournament_selectors.current_match(registration=registration)
        if match is None:
            raise DomainError("no_match_in_progress", "the player has no match in progress")
        return match

    def _awaiting(self, name: str) -> PenaltyRecord:
        """The player's latest record that waits for the head judge."""
        record = (
            PenaltyRecord.objects.filter(
                registration=self._player(name), status=RecordStatus.AWAITING_HEAD_JUDGE
            )
            .order_by("-id")
            .first()
        )
        if record is None:
            raise DomainError("nothing_awaiting", "no penalty awaits the head judge")
        return record

    def _latest_for_infraction(self, action: dict[str, Any]) -> PenaltyRecord:
        """The player's latest record in force or awaiting the head judge for the infraction, or
        made by stacking (``"stacking"``): a revoked or declined one is never the one meant."""
        records = PenaltyRecord.objects.filter(
            registration=self._player(action["player"]),
            status__in=[RecordStatus.IN_FORCE, RecordStatus.AWAITING_HEAD_JUDGE],
        )
        code = action["infraction"]
        if code == STACKING:
            records = records.filter(because=Because.STACKING)
        else:
            records = records.filter(infraction__code=code)
        record = records.order_by("-id").first()
        if record is None:
            raise DomainError("no_such_penalty", f"no penalty for {code}")
        return record

    def _fail(self, problem: str) -> None:
        raise StepFailed(f"step {self.number}: {problem}")


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)
