"""Every scenario the project ships, played through the real services, and the runner's refusals."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from judging.models import PenaltyRecord
from judging.scenarios import run_scenario, run_scenario_file
from tournaments.models import Tournament

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
PROJECT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*.json")), ids=lambda path: path.stem)
def test_shipped_scenario_passes(db, path):
    result = run_scenario_file(path)

    assert result.passed, result.line


def test_a_scenario_leaves_no_data_behind(db):
    run_scenario_file(SCENARIOS / "03-stacking-cascades.json")

    assert (Tournament.objects.count(), PenaltyRecord.objects.count()) == (0, 0)


def scenario(*steps, **tournament):
    return {
        "title": "Проверка",
        "tournament": {"level": "amateur", "decklists": True, **tournament},
        "players": ["Алиса", "Борис"],
        "steps": [{"pair": [["Алиса", "Борис"]]}, *steps],
    }


def test_a_wrong_expectation_fails_naming_the_step_and_both_values(db):
    result = run_scenario(
        scenario(
            {
                "penalty": {"player": "Алиса", "infraction": "1.4", "moment": "in_game"},
                "expect": {"penalty": "warning"},
            }
        ),
        source="x.json",
    )

    assert result.line == 'FAIL Проверка: step 2: penalty: expected "warning", got "caution"'


def test_an_unexpected_refusal_fails_with_the_reason(db):
    result = run_scenario(
        scenario({"penalty": {"player": "Алиса", "infraction": "1.3", "moment": "in_game"}}),
        source="x.json",
    )

    assert not result.passed
    assert result.problem.startswith("step 2: refused: ")
    assert result.problem.endswith("[infraction_unavailable]")


def test_an_expected_refusal_that_is_accepted_fails(db):
    result = run_scenario(
        scenario(
            {
                "penalty": {"player": "Алиса", "infraction": "1.4", "moment": "in_game"},
                "expect": {"refused": True},
            }
        ),
        source="x.json",
    )

    assert result.line == "FAIL Проверка: step 2: expected refused, got caution"


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ([], "the file must hold a JSON object"),
        (
            {"title": "t", "tournament": {"level": "pro"}, "players": ["A"], "steps": []},
            "tournament.level must be one of",
        ),
        (scenario({"jump": {}}), "step 2 must have exactly one action"),
        (scenario({"check": {"player": "Вася"}}), "step 2: unknown player 'Вася'"),
        (scenario({"check": {"player": "Алиса"}, "expect": {"colour": 1}}), "unknown expect keys"),
        (
            scenario({"penalty": {"player": "Алиса", "infraction": "1.4", "moment": "lunch"}}),
            "moment must be one of",
        ),
        (scenario(decklists="no"), "tournament.decklists must be true or false"),
        (scenario(official_head_judge="false"), "must be true or false"),
        (scenario(best_of="3"), "tournament.best_of must be one of [1, 3, 5]"),
        ({**scenario(), "availability": "any"}, "unknown keys: ['availability']"),
        (
            scenario({"confirm": {"player": "Алиса", "reason": "x"}}),
            "step 2: unknown keys in confirm: ['reason']",
        ),
        (scenario(best_of=2), "tournament.best_of must be one of [1, 3, 5]"),
        (scenario(best_of=7), "tournament.best_of must be one of [1, 3, 5]"),
        (
            scenario(
                infractions=[{"code": "1.4", "name": "x", "penalties": {}, "availability": "any"}]
            ),
            "unknown keys in an added infraction: ['availability']",
        ),
        (scenario(infractions=5), "tournament.infractions must be a list"),
        (
            scenario(infractions=[{"code": "9.1", "name": "x", "penalties": ["caution"]}]),
            "penalties must be an object",
        ),
        (
            scenario(
                {
                    "penalty": {
                        "player": "Алиса",
                        "infraction": "1.4",
                        "moment": "in_game",
                        "defer": "false",
                    }
                }
            ),
            "defer must be true or false",
        ),
    ],
)
def test_a_broken_scenario_is_a_clear_error(db, data, problem):
    result = run_scenario(data, source="broken.json")

    assert not result.passed
    assert problem in result.problem
    assert "broken scenario" in result.problem


PENALTY = {"player": "Алиса", "infraction": "1.4", "moment": "in_game"}


@pytest.mark.parametrize(
    ("step", "problem"),
    [
        ({"penalty": {**PENALTY, "defr": True}}, "step 2: unknown keys in penalty: ['defr']"),
        ({"penalty": {**PENALTY, "by": "flor"}}, "step 2: by must be head or floor"),
        ({"penalty": {**PENALTY, "sub_item": 1}}, "step 2: penalty.sub_item must be a string"),
        ({"penalty": {"player": "Алиса", "moment": "in_game"}}, "step 2: penalty needs infraction"),
        ({"decline": {"player": "Алиса", "reasn": "x"}}, "step 2: unknown keys in decline"),
        ({"amend": {**PENALTY, "to": "warning"}}, "step 2: unknown keys in amend: ['moment']"),
        (
            {"revoke": {"player": "Алиса", "infraction": "stacking", "to": "caution"}},
            "step 2: unknown keys in revoke: ['to']",
        ),
        (
            {"amend": {"player": "Алиса", "infraction": "1.4", "to": "warnign"}},
            "step 2: amend.to: unknown penalty 'warnign'",
        ),
        ({"game": {"winner": "Алиса", "draw": "Борис"}}, "step 2: game needs exactly one of"),
        ({"check": {"player": "Алиса", "when": 1}}, "step 2: unknown keys in check: ['when']"),
        ({"pair": [["Алиса", "Борис", "Вера"]]}, "step 2: pair must be a list of pairings"),
        (
            {"check": {"player": "Алиса"}, "expect": {"penalties": ["cautoin"]}},
            "step 2: expect.penalties: unknown penalty 'cautoin'",
        ),
        (
            {"check": {"player": "Алиса"}, "expect": {"status": "in_force"}},
            "step 2: expect.status must be one of",
        ),
        (
            {"penalty": PENALTY, "expect": {"status": "playing"}},
            "step 2: expect.status must be one of",
        ),
        ({"penalty": PENALTY, "expect": {"because": "repeated"}}, "step 2: expect.because"),
        ({"penalty": PENALTY, "expect": {"applies_to": "game"}}, "step 2: expect.applies_to"),
        ({"penalty": PENALTY, "expect": {"refused": "no"}}, "step 2: expect.refused must be"),
        (
            {"penalty": PENALTY, "expect": {"auto": [{"player": "Алиса", "rank": "warning"}]}},
            "step 2: expect.auto: each item is",
        ),
        (
            {"penalty": PENALTY, "expect": {"score": {"Алиса": 1, "Вася": 0}}},
            "step 2: expect.score: unknown player 'Вася'",
        ),
    ],
)
def test_a_misspelt_key_or_value_anywhere_in_a_step_names_the_file_and_step(db, step, problem):
    result = run_scenario(scenario(step), source="tests/misspelt.json")

    assert result.line.startswith("FAIL tests/misspelt.json: broken scenario: ")
    assert problem in result.problem
    assert Tournament.objects.count() == 0


def test_every_public_scenario_is_shipped_unchanged():
    shipped = sorted(path.name for path in SCENARIOS.glob("[01][0-9]-*.json"))
    assert [name[:3] for name in shipped] == [f"{n:02}-" for n in range(1, 13)]
    public = PROJECT.parent / "shared" / "scenarios"
    if public.is_dir():  # the shared spec beside the checkout: the copies are byte for byte
        assert sorted(path.name for path in public.glob("*.json")) == shipped
        for name in shipped:
            assert (SCENARIOS / name).read_bytes() == (public / name).read_bytes(), name


def test_the_command_prints_one_line_per_file_and_exits_1_on_any_failure(db, tmp_path, capsys):
    (tmp_path / "a.json").write_text(json.dumps(scenario()), encoding="utf-8")
    (tmp_path / "b.json").write_text("{not json", encoding="utf-8")

    with pytest.raises(SystemExit) as exit_:
        call_command("run_scenarios", str(tmp_path), str(SCENARIOS / "01-repeat-same-reason.json"))

    lines = capsys.readouterr().out.splitlines()
    assert exit_.value.code == 1
    assert lines[0] == "PASS Проверка"
    assert lines[1].startswith(f"FAIL {tmp_path / 'b.json'}: is not valid JSON")
    assert lines[2].startswith("PASS A repeat for the same reason")
    assert len(lines) == 3


def test_the_command_passes_quietly_on_the_shipped_scenarios(db, capsys):
    call_command("run_scenarios", str(SCENARIOS))

    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(list(SCENARIOS.glob("*.json")))
    assert all(line.startswith("PASS ") for line in lines)


def test_the_command_from_a_shell_fails_without_a_traceback(tmp_path):
    database = tmp_path / "db.sqlite3"
    env = {"DATABASE_URL": f"sqlite:///{database}", "PATH": "/usr/bin:/bin"}
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v0"], cwd=PROJECT, env=env, check=True
    )
    missing = tmp_path / "missing.json"

    run = subprocess.run(
        [sys.executable, "manage.py", "run_scenarios", str(missing)],
        cwd=PROJECT,
        env=env,
        capture_output=True,
        text=True,
    )

    assert run.returncode == 1
    assert run.stdout.strip().startswith(f"FAIL {missing}: cannot be read")
    assert "Traceback" not in run.stdout + run.stderr
