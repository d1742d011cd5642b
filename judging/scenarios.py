"""Executable rulings: play a scenario file through the real services and check what comes out.

The format is described in the shared spec (``scenarios.md``). The runner only drives the same
services the web views call and reads the results back through selectors; it computes no ruling
itself. Each scenario runs inside a transaction that is rolled back, so no real data is touched.
"""

import json
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DatabaseError, transaction
from django.utils import timezone

from judging import editions, selectors, services
from judging.models import GuidelineEdition, PenaltyRecord, RecordStatus
from judging.penalties import Because, Moment, Rank
from players.selectors import suspension_in_force
from tournaments import selectors as tournament_selectors
from tournaments import services as tournament_services
from tournaments.errors import DomainError
from tournaments.models import Level, Match, Registration, StaffRole

ACTIONS = {"pair", "penalty", "confirm", "amend", "revoke", "game", "finish", "check"}
EXPECT_KEYS = {
    "refused",
    "penalty",
    "because",
    "applies_to",
    "status",
    "auto",
    "score",
    "penalties",
    "pending",
    "prize",
    "registrable",
}
TOURNAMENT_KEYS = {"level", "decklists", "best_of", "official_head_judge", "infractions"}


class BrokenScenario(Exception):
    """The file cannot be played: unreadable, not JSON, or not of the scenario format."""


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
        scenario = _validated(data)
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


def _validated(data: Any) -> dict[str, Any]:
    _require(isinstance(data, dict), "the file must hold a JSON object")
    _require(isinstance(data.get("title"), str) and data["title"].strip(), "no title")
    tournament = data.get("tournament")
    _require(isinstance(tournament, dict), "no tournament object")
    _require(
        not set(tournament) - TOURNAMENT_KEYS,
        f"unknown tournament keys: {sorted(set(tournament) - TOURNAMENT_KEYS)}",
    )
    _require(
        tournament.get("level") in Level.values, f"tournament.level must be one of {Level.values}"
    )
    for key in ("decklists", "official_head_judge"):
        _require(
            tournament.get(key) is None or isinstance(tournament[key], bool),
            f"tournament.{key} must be true or false",
        )
    best_of = tournament.get("best_of", 3)
    _require(
        isinstance(best_of, int) and not isinstance(best_of, bool) and best_of >= 1,
        "tournament.best_of must be a whole number of games, at least 1",
    )
    added = tournament.get("infractions", [])
    _require(isinstance(added, list), "tournament.infractions must be a list")
    for item in added:
        _require(
            isinstance(item, dict) and item.get("code") and item.get("name"),
            "each added infraction needs a code and a name",
        )
        penalties = item.get("penalties") or {}
        _require(isinstance(penalties, dict), "an added infraction's penalties must be an object")
        _require(
            set(penalties) <= set(Level.values),
            f"an added infraction's penalties name levels of {Level.values}",
        )
        for key in penalties.values():
            if key is not None:
                _rank(key, "an added infraction's penalty")
    players = data.get("players")
    _require(
        isinstance(players, list) and players and all(isinstance(p, str) for p in players),
        "players must be a list of names",
    )
    _require(len(set(players)) == len(players), "player names must be unique")
    steps = data.get("steps")
    _require(isinstance(steps, list), "steps must be a list")
    for number, step in enumerate(steps, start=1):
        _require(isinstance(step, dict), f"step {number} is not an object")
        actions = set(step) - {"expect"}
        _require(
            len(actions) == 1 and actions <= ACTIONS,
            f"step {number} must have exactly one action of {sorted(ACTIONS)}",
        )
        expect = step.get("expect", {})
        _require(isinstance(expect, dict), f"step {number}: expect must be an object")
        unknown = set(expect) - EXPECT_KEYS
        _require(not unknown, f"step {number}: unknown expect keys {sorted(unknown)}")
    return data


def _require(condition: object, problem: str) -> None:
    if not condition:
        raise BrokenScenario(problem)


def _rank(key: Any, what: str) -> Rank:
    try:
        return Rank.from_key(str(key))
    except ValueError:
        raise BrokenScenario(f"{what}: unknown penalty {key!r}") from None


class _Run:
    def __init__(self, scenario: Mapping[str, Any]) -> None:
        self.scenario = scenario
        settings = scenario["tournament"]
        key = uuid.uuid4().hex[:12]
        users = get_user_model().objects
        self.head_judge = users.create_user(username=f"scenario-head-{key}")
        self.floor_judge = users.create_user(username=f"scenario-floor-{key}")
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
            self._add_infractions(settings.get("infractions", []), key)
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
            player = tournament_services.create_player(
                name=name, membership_id=f"scenario-{key}-{index}"
            )
            self.players[name] = tournament_services.register_player(
                tournament=self.tournament, player=player
            )

    def _add_infractions(self, added: list[Mapping[str, Any]], key: str) -> None:
        if not added:
            return
        shipped = GuidelineEdition.objects.get(slug=selectors.SHIPPED_EDITION_SLUG)
        edition = editions.derive_edition(
            base=shipped, slug=f"scenario-{key}", name=f"{shipped.name} + {key}"
        )
        for item in added:
            editions.put_infraction(
                edition=edition,
                code=str(item["code"]),
                name=str(item["name"]),
                penalties=item.get("penalties") or {},
                availability=item.get("availability"),
            )
        editions.assign_edition(tournament=self.tournament, edition=edition)

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

    def _do_pair(self, pairs: Any) -> None:
        self._expect_type(pairs, list, "pair")
        pairings: list[tuple[Registration, Registration | None]] = []
        for pair in pairs:
            self._expect_type(pair, list, "pair")
            names = [self._player(name) for name in pair]
            if len(names) not in (1, 2):
                raise BrokenScenario(f"step {self.number}: a pairing has one or two players")
            pairings.append((names[0], names[1] if len(names) == 2 else None))
        tournament_services.pair_round(tournament=self.tournament, pairings=pairings)

    def _do_penalty(self, action: Any) -> PenaltyRecord:
        self._expect_type(action, dict, "penalty")
        moment = action.get("moment")
        if moment not in Moment.values:
            raise BrokenScenario(f"step {self.number}: moment must be one of {Moment.values}")
        by = action.get("by", "head")
        if by not in ("head", "floor"):
            raise BrokenScenario(f"step {self.number}: by must be head or floor")
        if not isinstance(action.get("defer", False), bool):
            raise BrokenScenario(f"step {self.number}: defer must be true or false")
        outcome = services.issue_penalty(
            registration=self._player(action.get("player")),
            infraction_code=str(action.get("infraction", "")),
            moment=moment,
            deferred=action.get("defer", False),
            issued_by=self.head_judge if by == "head" else self.floor_judge,
            client_key=uuid.uuid4(),
        )
        return outcome.record

    def _do_confirm(self, action: Any) -> PenaltyRecord:
        registration = self._player(self._field(action, "player"))
        record = (
            PenaltyRecord.objects.filter(
                registration=registration, status=RecordStatus.AWAITING_HEAD_JUDGE
            )
            .order_by("-id")
            .first()
        )
        if record is None:
            raise DomainError("nothing_awaiting", "no penalty awaits confirmation")
        return services.confirm_request(record=record, head_judge=self.head_judge).record

    def _do_amend(self, action: Any) -> PenaltyRecord:
        record = self._latest_for_infraction(action)
        to_rank = _rank(self._field(action, "to"), f"step {self.number}: amend.to")
        return services.amend_penalty(
            record=record,
            to_rank=to_rank,
            author=self.head_judge,
            reason=str(action.get("reason", "")),
        ).record

    def _do_revoke(self, action: Any) -> PenaltyRecord:
        record = self._latest_for_infraction(action)
        return services.revoke_penalty(
            record=record, author=self.head_judge, reason=str(action.get("reason", ""))
        ).record

    def _do_game(self, action: Any) -> None:
        self._expect_type(action, dict, "game")
        if set(action) not in ({"winner"}, {"draw"}):
            raise BrokenScenario(f"step {self.number}: game needs winner or draw")
        registration = self._player(action.get("winner") or action.get("draw"))
        match = self._current_match(registration)
        winner = registration if "winner" in action else None
        tournament_services.record_game(match=match, winner=winner)

    def _do_finish(self, action: Any) -> None:
        registration = self._player(self._field(action, "player"))
        tournament_services.finish_match(match=self._current_match(registration))

    def _do_check(self, action: Any) -> None:
        self._player(self._field(action, "player"))

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

    def _field(self, action: Any, key: str) -> Any:
        if not isinstance(action, dict) or key not in action:
            raise BrokenScenario(f"step {self.number}: missing {key!r}")
        return action[key]

    def _expect_type(self, value: Any, kind: type, action: str) -> None:
        if not isinstance(value, kind):
            raise BrokenScenario(f"step {self.number}: {action} has the wrong shape")

    def _current_match(self, registration: Registration) -> Match:
        match = tournament_selectors.current_match(registration=registration)
        if match is None:
            raise DomainError("no_match_in_progress", "the player has no match in progress")
        return match

    def _latest_for_infraction(self, action: Any) -> PenaltyRecord:
        registration = self._player(self._field(action, "player"))
        code = str(self._field(action, "infraction"))
        record = (
            PenaltyRecord.objects.filter(registration=registration, infraction__code=code)
            .order_by("-id")
            .first()
        )
        if record is None:
            raise DomainError("no_such_penalty", f"no penalty for {code}")
        return record

    def _fail(self, problem: str) -> None:
        raise StepFailed(f"step {self.number}: {problem}")


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)
