"""Python in a fresh process, started the way a shell would start the app: only the variables
given (and ``PATH`` and the settings module), none of what the test process has set up."""

import subprocess
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]

START_DJANGO = "import django; django.setup()"


def run_python(
    code: str, *, cwd: Path = PROJECT, data_dir: Path | None = None, **env: str
) -> subprocess.CompletedProcess[str]:
    """Run ``code``; ``data_dir`` becomes ``DJANGO_DATA_DIR``, so nothing lands in the checkout."""
    variables = {"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "config.settings"}
    if data_dir is not None:
        variables["DJANGO_DATA_DIR"] = str(data_dir)
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        env={**variables, **env},
        capture_output=True,
        text=True,
    )
