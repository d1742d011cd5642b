"""Everything the app writes goes into one data folder (DJANGO_DATA_DIR, default ./data)."""

import shutil
from pathlib import Path

import pytest

from tests.processes import PROJECT, START_DJANGO, run_python

SHOW = (
    "from django.conf import settings as s; "
    "print(s.DATA_DIR); print(s.DATABASES['default']['NAME']); print(s.SECRET_KEY)"
)


def settings_of(project: Path, **env: str) -> list[str]:
    # An empty DJANGO_DATA_DIR is the variable unset: these tests look at the default folder of a
    # copy of the project, never at the checkout's.
    run = run_python(SHOW, cwd=project, PYTHONPATH=str(project), **{"DJANGO_DATA_DIR": "", **env})
    assert run.returncode == 0, run.stderr
    return run.stdout.splitlines()


def copy_of_the_settings(tmp_path: Path) -> Path:
    """A project folder holding only the settings, so a test may leave files beside them."""
    project = tmp_path / "project"
    (project / "config").mkdir(parents=True)
    shutil.copy(PROJECT / "config" / "settings.py", project / "config" / "settings.py")
    (project / "config" / "__init__.py").touch()
    return project


def test_the_database_and_the_key_live_in_the_chosen_data_folder(tmp_path):
    data = tmp_path / "event"

    folder, database, key = settings_of(PROJECT, DJANGO_DATA_DIR=str(data))

    assert folder == str(data)
    assert database == str(data / "db.sqlite3")
    assert key == (data / "secret_key").read_text(encoding="utf-8")
    assert (data / "secret_key").stat().st_mode & 0o777 == 0o600
    assert settings_of(PROJECT, DJANGO_DATA_DIR=str(data))[2] == key  # kept across starts


def test_the_default_data_folder_is_data_in_the_project(tmp_path):
    project = copy_of_the_settings(tmp_path)

    folder, database, _key = settings_of(project)

    assert folder == str(project / "data")
    assert database == str(project / "data" / "db.sqlite3")


def test_the_files_an_older_version_left_in_the_checkout_move_into_the_data_folder(tmp_path):
    project = copy_of_the_settings(tmp_path)
    (project / "db.sqlite3").write_bytes(b"the old event")
    (project / ".secret_key").write_text("old-key", encoding="utf-8")

    _folder, database, key = settings_of(project)

    assert Path(database).read_bytes() == b"the old event"
    assert key == "old-key"
    assert not (project / "db.sqlite3").exists()
    assert not (project / ".secret_key").exists()


def test_a_data_folder_that_already_has_a_database_is_never_overwritten(tmp_path):
    project = copy_of_the_settings(tmp_path)
    (project / "data").mkdir()
    (project / "data" / "db.sqlite3").write_bytes(b"current")
    (project / "db.sqlite3").write_bytes(b"stale")

    settings_of(project)

    assert (project / "data" / "db.sqlite3").read_bytes() == b"current"
    assert (project / "db.sqlite3").read_bytes() == b"stale"


def test_a_data_folder_that_cannot_be_made_stops_the_start(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")

    run = run_python(START_DJANGO, data_dir=blocker / "data")

    assert run.returncode != 0
    assert f"DJANGO_DATA_DIR {blocker / 'data'} cannot be created" in run.stderr


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DJANGO_ROUND_SNAPSHOTS": "some"}, "DJANGO_ROUND_SNAPSHOTS must be a whole number"),
        ({"DJANGO_LOG_LEVEL": "loud"}, "DJANGO_LOG_LEVEL must be DEBUG, INFO, WARNING"),
    ],
)
def test_a_wrong_venue_setting_stops_the_start(tmp_path, env, message):
    run = run_python(START_DJANGO, data_dir=tmp_path, **env)

    assert run.returncode != 0
    assert message in run.stderr


def test_the_suite_never_uses_the_checkouts_data_folder(settings):
    # The demo's database, logs and collected static files in ./data are not the suite's: after
    # `manage.py demo`, the suite must still pass and must not touch them.
    checkout_data = PROJECT / "data"
    for folder in (settings.DATA_DIR, settings.LOG_DIR, settings.STATIC_ROOT):
        assert checkout_data not in Path(folder).parents
        assert Path(folder) != checkout_data
    assert checkout_data not in Path(settings.DATABASES["default"]["NAME"]).parents
