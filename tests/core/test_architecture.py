"""docs/architecture.md stays true: every file or folder it names exists, and every dotted name
that starts at one of the project's packages (``players.services.create_player``) resolves."""

import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "architecture.md"
PACKAGES = {path.parent.name for path in ROOT.glob("*/__init__.py")} - {"tests", "benchmarks"}


def named():
    return re.findall(r"`([^`\s]+)`", DOC.read_text(encoding="utf-8"))


def resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for split in range(len(parts), 0, -1):
        try:
            target = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for attribute in parts[split:]:
            if not hasattr(target, attribute):
                return False
            target = getattr(target, attribute)
        return True
    return False


def test_every_file_the_architecture_names_exists():
    # A path from the top of the checkout: a generic one (``services/``) starts nowhere.
    paths = [name for name in named() if "/" in name and (ROOT / name.split("/")[0]).is_dir()]
    assert len(paths) > 20
    assert [path for path in paths if not (ROOT / path).exists()] == []


def test_every_dotted_name_of_a_project_package_resolves(db):
    dotted = [
        name
        for name in named()
        if re.fullmatch(r"[a-z_]+(\.[A-Za-z_]+)+", name) and name.split(".")[0] in PACKAGES
    ]
    assert len(dotted) >= 10
    assert [name for name in dotted if not resolves(name)] == []
