"""The scenario file format (shared spec ``scenarios.md``): reading a file strictly, so that a
misspelt key or value is a clear error naming the step, never a step silently ignored."""

from typing import Any

from judging.models import RecordStatus
from judging.penalties import AppliesTo, Because, Moment, Rank
from tournaments.models import BEST_OF, Level, RegistrationStatus

ACTIONS = {
    "pair",
    "penalty",
    "confirm",
    "decline",
    "amend",
    "revoke",
    "game",
    "finish",
    "check",
}
# The keys each action takes (scenarios.md), and whether the key is required. ``pair`` and ``game``
# have shapes of their own and are checked apart.
ACTION_FIELDS: dict[str, dict[str, bool]] = {
    "penalty": {
        "player": True,
        "infraction": True,
        "sub_item": False,
        "moment": True,
        "defer": False,
        "by": False,
    },
    "confirm": {"player": True},
    "decline": {"player": True, "reason": False},
    "amend": {"player": True, "infraction": True, "to": True, "reason": False},
    "revoke": {"player": True, "infraction": True, "reason": False},
    "finish": {"player": True},
    "check": {"player": True},
}
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
FILE_KEYS = {"title", "tournament", "players", "steps"}
TOURNAMENT_KEYS = {"level", "decklists", "best_of", "official_head_judge", "infractions"}
# The keys of an added infraction (scenarios.md): nothing else, so an undefined key such as
# ``availability`` is refused rather than honoured or ignored.
INFRACTION_KEYS = {"code", "name", "penalties"}
# In ``amend`` and ``revoke``, this "infraction" names the player's latest penalty made by stacking.
STACKING = "stacking"
JUDGES = ("head", "floor")
RECORD_STATUSES = list(RecordStatus.values)
PLAYER_STATUSES = list(RegistrationStatus.values)


class BrokenScenario(Exception):
    """The file cannot be played: unreadable, not JSON, or not of the scenario format."""


def validated(data: Any) -> dict[str, Any]:
    require(isinstance(data, dict), "the file must hold a JSON object")
    require(not set(data) - FILE_KEYS, f"unknown keys: {sorted(set(data) - FILE_KEYS)}")
    require(isinstance(data.get("title"), str) and data["title"].strip(), "no title")
    tournament = data.get("tournament")
    require(isinstance(tournament, dict), "no tournament object")
    require(
        not set(tournament) - TOURNAMENT_KEYS,
        f"unknown tournament keys: {sorted(set(tournament) - TOURNAMENT_KEYS)}",
    )
    require(
        tournament.get("level") in Level.values, f"tournament.level must be one of {Level.values}"
    )
    for key in ("decklists", "official_head_judge"):
        require(
            tournament.get(key) is None or isinstance(tournament[key], bool),
            f"tournament.{key} must be true or false",
        )
    best_of = tournament.get("best_of", 3)
    require(
        isinstance(best_of, int) and not isinstance(best_of, bool) and best_of in BEST_OF,
        f"tournament.best_of must be one of {list(BEST_OF)}",
    )
    added = tournament.get("infractions", [])
    require(isinstance(added, list), "tournament.infractions must be a list")
    for item in added:
        require(
            isinstance(item, dict) and item.get("code") and item.get("name"),
            "each added infraction needs a code and a name",
        )
        require(
            not set(item) - INFRACTION_KEYS,
            f"unknown keys in an added infraction: {sorted(set(item) - INFRACTION_KEYS)}",
        )
        penalties = item.get("penalties") or {}
        require(isinstance(penalties, dict), "an added infraction's penalties must be an object")
        require(
            set(penalties) <= set(Level.values),
            f"an added infraction's penalties name levels of {Level.values}",
        )
        for key in penalties.values():
            if key is not None:
                rank(key, "an added infraction's penalty")
    players = data.get("players")
    require(
        isinstance(players, list)
        and players
        and all(isinstance(p, str) and p.strip() for p in players),
        "players must be a list of names",
    )
    require(len(set(players)) == len(players), "player names must be unique")
    steps = data.get("steps")
    require(isinstance(steps, list), "steps must be a list")
    for number, step in enumerate(steps, start=1):
        _validate_step(step, f"step {number}", set(players))
    return data


def _validate_step(step: Any, where: str, players: set[str]) -> None:
    """Every key and value of a step is one the format knows (scenarios.md), or the file is
    broken: a misspelt key or value is never ignored."""
    require(isinstance(step, dict), f"{where} is not an object")
    actions = set(step) - {"expect"}
    require(
        len(actions) == 1 and actions <= ACTIONS,
        f"{where} must have exactly one action of {sorted(ACTIONS)}",
    )
    (action,) = actions
    payload = step[action]
    if action == "pair":
        require(
            isinstance(payload, list)
            and payload
            and all(isinstance(pair, list) and len(pair) in (1, 2) for pair in payload),
            f"{where}: pair must be a list of pairings of one or two players",
        )
        for pair in payload:
            for name in pair:
                _validate_player(name, where)
    elif action == "game":
        require(
            isinstance(payload, dict) and len(payload) == 1 and set(payload) <= {"winner", "draw"},
            f"{where}: game needs exactly one of winner or draw",
        )
        (name,) = payload.values()
        _validate_player(name, where)
    else:
        require(isinstance(payload, dict), f"{where}: {action} must be an object")
        fields = ACTION_FIELDS[action]
        unknown = set(payload) - set(fields)
        require(not unknown, f"{where}: unknown keys in {action}: {sorted(unknown)}")
        missing = [key for key, required in fields.items() if required and key not in payload]
        require(not missing, f"{where}: {action} needs {', '.join(missing)}")
        for key, value in payload.items():
            _validate_field(action, key, value, where)
    _validate_player_names(action, payload, where, players)
    expect = step.get("expect", {})
    require(isinstance(expect, dict), f"{where}: expect must be an object")
    unknown = set(expect) - EXPECT_KEYS
    require(not unknown, f"{where}: unknown expect keys {sorted(unknown)}")
    for key, value in expect.items():
        _validate_expectation(key, value, action, where, players)


def _validate_player(name: Any, where: str) -> None:
    require(isinstance(name, str), f"{where}: a player is named by a string, not {name!r}")


def _validate_player_names(action: str, payload: Any, where: str, players: set[str]) -> None:
    if action == "pair":
        names = [name for pair in payload for name in pair]
    elif action == "game":
        names = list(payload.values())
    else:
        names = [payload["player"]]
    for name in names:
        require(name in players, f"{where}: unknown player {name!r}")


def _validate_field(action: str, key: str, value: Any, where: str) -> None:
    what = f"{where}: {action}.{key}"
    if key in ("player", "infraction", "sub_item", "reason"):
        require(isinstance(value, str), f"{what} must be a string")
    elif key == "moment":
        require(value in Moment.values, f"{where}: moment must be one of {Moment.values}")
    elif key == "defer":
        require(isinstance(value, bool), f"{where}: defer must be true or false")
    elif key == "by":
        require(value in JUDGES, f"{where}: by must be head or floor")
    elif key == "to":
        rank(value, what)


def _validate_expectation(key: str, value: Any, action: str, where: str, players: set[str]) -> None:
    what = f"{where}: expect.{key}"
    if key in ("refused", "prize", "registrable"):
        require(isinstance(value, bool), f"{what} must be true or false")
    elif key == "penalty":
        rank(value, what)
    elif key == "because":
        require(value in Because.values, f"{what} must be one of {Because.values}")
    elif key == "applies_to":
        require(
            value is None or value in AppliesTo.values,
            f"{what} must be one of {AppliesTo.values} or null",
        )
    elif key == "status":
        allowed = PLAYER_STATUSES if action == "check" else RECORD_STATUSES
        require(value in allowed, f"{what} must be one of {allowed}")
    elif key in ("penalties", "pending"):
        require(isinstance(value, list), f"{what} must be a list of penalties")
        for item in value:
            rank(item, what)
    elif key == "auto":
        require(isinstance(value, list), f"{what} must be a list")
        for item in value:
            require(
                isinstance(item, dict) and set(item) == {"player", "penalty"},
                f'{what}: each item is {{"player": …, "penalty": …}}',
            )
            require(item["player"] in players, f"{what}: unknown player {item['player']!r}")
            rank(item["penalty"], what)
    elif key == "score":
        require(
            isinstance(value, dict) and len(value) == 2,
            f"{where}: score names two players",
        )
        for name, wins in value.items():
            require(name in players, f"{what}: unknown player {name!r}")
            require(
                isinstance(wins, int) and not isinstance(wins, bool) and wins >= 0,
                f"{what}: games won is a whole number",
            )


def require(condition: object, problem: str) -> None:
    if not condition:
        raise BrokenScenario(problem)


def rank(key: Any, what: str) -> Rank:
    try:
        return Rank.from_key(str(key))
    except ValueError:
        raise BrokenScenario(f"{what}: unknown penalty {key!r}") from None
