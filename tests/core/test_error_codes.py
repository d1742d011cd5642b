"""Every error code the code raises is asserted by a test: a code no test names is a refusal
nobody has seen happen. Checked on the source, so a new app's codes are counted as they land.

Each code is asserted where its refusal is tested (``tests/<app>/test_error_codes.py`` and the
service tests), with the rows checked unchanged after it; this test only makes sure none is left
out.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKIPPED = {"tests", "benchmarks", "migrations", ".venv", "node_modules"}


def source_files():
    for path in sorted(ROOT.rglob("*.py")):
        parts = set(path.relative_to(ROOT).parts)
        if not parts & SKIPPED and not any(part.startswith(".") for part in parts):
            yield path


def raised_codes():
    """``{code: [where]}`` for every ``DomainError(code, …)`` in the code; a code that is not
    written out as a string is reported as such, so that it can be found and tested."""
    codes: dict[str, list[str]] = {}
    for path in source_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", getattr(node.func, "attr", None)) == "DomainError"
            ):
                first = node.args[0] if node.args else None
                code = (
                    first.value
                    if isinstance(first, ast.Constant) and isinstance(first.value, str)
                    else f"<not a written-out string: {ast.unparse(first) if first else ''}>"
                )
                codes.setdefault(code, []).append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return codes


def test_the_check_finds_the_codes():
    codes = raised_codes()
    assert {"not_a_judge", "membership_suspended", "no_draft", "unknown_player"} <= set(codes)


def test_every_error_code_is_asserted_by_a_test():
    this = Path(__file__).resolve()
    tests = "\n".join(
        path.read_text(encoding="utf-8")
        for path in (ROOT / "tests").rglob("*.py")
        if path.resolve() != this
    )
    untested = {
        code: where
        for code, where in raised_codes().items()
        if f'"{code}"' not in tests and f"'{code}'" not in tests
    }
    assert untested == {}
