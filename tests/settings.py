"""The app's settings for the test suite: ``config.settings`` itself, with a data folder of its own.

The suite never reads or writes the data folder of the demo or of a real event: the demo's
collected, fingerprinted static files there would be served to the tests' browser pages (which
then miss htmx), and that folder's database, key, logs and backups are nobody's test data. The
data folder is chosen when ``config.settings`` is imported, so it is set here, before that import;
nothing else differs from what ``serve`` runs.
"""

import atexit
import os
import shutil
import tempfile

# Processes the suite starts (the export processes, a served app) inherit the folder by this
# variable; only the process that made the folder removes it.
SUITE_DATA_DIR = os.environ.get("DESK_SUITE_DATA_DIR", "")
if not SUITE_DATA_DIR:
    SUITE_DATA_DIR = tempfile.mkdtemp(prefix="judging-desk-tests-")
    os.environ["DESK_SUITE_DATA_DIR"] = SUITE_DATA_DIR
    atexit.register(shutil.rmtree, SUITE_DATA_DIR, ignore_errors=True)
os.environ["DJANGO_DATA_DIR"] = SUITE_DATA_DIR
# A static folder named for a venue's server belongs to that server, not to the suite.
os.environ.pop("DJANGO_STATIC_ROOT", None)

from config.settings import *  # noqa: E402, F403

if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":  # noqa: F405
    # A test that leaves a connection holding a lock (a thread or a browser page still working
    # when the test ends) must fail the tests after it within a minute, not hold the next flush
    # waiting for ever: the locking tests wait for each other for seconds at most.
    DATABASES["default"]["OPTIONS"]["options"] = "-c lock_timeout=60s"  # noqa: F405
