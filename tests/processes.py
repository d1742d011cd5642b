"""Python in a fresh process, started the way a shell would start the app: only the variables
given (and ``PATH`` and the settings module), none of what the test process has set up."""

import os
import subprocess
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]

START_DJANGO = "import django; django.setup()"


def run_python(
    code: str, *, cwd: Path = PROJECT, data_dir: Path | None = None, **env: str
) -> subprocess.CompletedProcess[str]:
    """Run ``code``; ``data_dir`` becomes ``DJANGO_DATA_DIR`` (by default the suite's own folder,
    see ``tests/settings.py``), so nothing lands in the checkout's data folder."""
    variables = {"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "config.settings"}
    variables["DJANGO_DATA_DIR"] = str(data_dir or os.environ["DESK_SUITE_DATA_DIR"])
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        env={**variables, **env},
        capture_output=True,
        text=True,
    )
