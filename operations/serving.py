"""Which process serves from a data folder.

``serve`` and ``demo`` hold a lock on a file in the data folder for as long as they serve, and
``restore`` takes the same lock before it touches the database: a restore never swaps the database
under a running server (whose tablets would then see another event's state mid-request), and a
second server cannot start on a folder that one already serves. The operating system releases the
lock when the holder ends, even when it is killed, so a crash never leaves the folder "in use".
"""

import contextlib
from collections.abc import Iterator
from pathlib import Path

import portalocker
from django.conf import settings
from django.utils.translation import gettext as _

LOCK_FILE = "serving.lock"


class DataFolderInUse(Exception):
    """Another process holds the data folder: a server is running from it, or a restore is."""


@contextlib.contextmanager
def hold_data_folder() -> Iterator[None]:
    """Hold the data folder for the block's length; raise ``DataFolderInUse`` if another does."""
    path = Path(settings.DATA_DIR) / LOCK_FILE
    with path.open("a+", encoding="utf-8") as file:
        try:
            portalocker.lock(file, portalocker.LOCK_EX | portalocker.LOCK_NB)
        except portalocker.LockException as error:
            raise DataFolderInUse(str(path)) from error
        try:
            yield
        finally:
            portalocker.unlock(file)


def folder_in_use_message() -> str:
    """What a second server is told; a restore says it in its own words (what to stop first)."""
    return _(
        "Another server or a restore is already using this data folder (%(folder)s): stop it "
        "first, or give this one another folder with DJANGO_DATA_DIR."
    ) % {"folder": settings.DATA_DIR}
