"""Browser tests: Debian's Chromium driven by Playwright, at a tablet's size, against the app."""

import os
import threading
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import ACTION_TIMEOUT, TABLET

CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


@pytest.fixture(scope="session", autouse=True)
def _sync_database_calls_beside_playwright():
    """Playwright's sync API keeps an event loop running in the test thread from the first browser
    test until it stops; the database calls made meanwhile are synchronous and safe. Only here
    (the browser tests run last, see tests/conftest.py): elsewhere Django's guard stays on."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        yield


@pytest.fixture(scope="session", autouse=True)
def _expectations_wait_as_long_as_actions():
    """``expect(...)`` waits 5 s unless told otherwise, less than an action's ``ACTION_TIMEOUT``
    and barely more than the desk's service worker may take to answer a page (its 4 s network
    timeout, then its kept copy): a heading checked after a tap that opened a page failed at 5 s
    in one CI run, with the tap done and the page not yet drawn. The same limit for both."""
    expect.set_options(timeout=ACTION_TIMEOUT)
    yield
    expect.set_options(timeout=5000)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not CHROMIUM.exists():
        missing = "Debian's chromium is not installed: apt-get install -y chromium"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{missing} (CI runs every test; .ci/run installs it)")
        pytest.skip(missing)
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "headless": True,
        # Without these Chromium keeps calling home, which this closed network refuses.
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": TABLET, "locale": "ru-RU"}


@pytest.fixture
def screenshot(tmp_path):
    """Take a screenshot; with DESK_SCREENSHOTS=1 it refreshes docs/screenshots/ for the README,
    otherwise it stays in the test's temporary folder, so a test run leaves the tree clean."""
    folder = SCREENSHOTS if os.environ.get("DESK_SCREENSHOTS") == "1" else tmp_path
    folder.mkdir(parents=True, exist_ok=True)

    def take(page, name):
        page.screenshot(path=str(folder / f"{name}.png"), full_page=True)

    return take


@pytest.fixture(autouse=True)
def _task_worker(request):
    """The task queue's worker beside the live server, as `serve` runs one beside uvicorn: the
    worker of django-tasks-db, in a thread of the test process so that it reads the test's
    database."""
    if "live_server" not in request.fixturenames:
        yield
        return
    from django.db import connections
    from django_tasks_db.management.commands.db_worker import Worker

    request.getfixturevalue("live_server")  # the test's database is open to threads from here
    worker = Worker(
        queue_names=["default"],
        interval=0.1,
        batch=False,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id="browser-tests",
        excluded_queue_names=[],
    )

    def run() -> None:
        try:
            worker.run()
        finally:
            connections.close_all()

    thread = threading.Thread(target=run, name="task-worker", daemon=True)
    thread.start()
    yield
    worker.running = False
    thread.join(timeout=10)


@pytest.fixture(autouse=True)
def _contexts_closed_after_each_test(browser):
    """Close every browser context a test opened itself, whether it passed or failed. A context
    left open keeps its pages' live streams and polls running against the session's live server
    into the next tests, which then share the server (and on PostgreSQL its connections) with
    ghosts of a flushed database. pytest-playwright closes its own ``context`` before this runs."""
    yield
    for context in list(browser.contexts):
        context.close()


@pytest.fixture(autouse=True)
def _short_timeouts(page):
    # The app answers in milliseconds; a missing element should fail the test quickly.
    page.set_default_timeout(ACTION_TIMEOUT)
    page.set_default_navigation_timeout(15000)


AXE = (
    Path(__file__).resolve().parents[2] / ".ci" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
)


def axe_violations(page):
    """Run axe-core (installed by .ci/run from the npm registry) on the page as it is now and
    return its violations as "rule: target" lines. Under CI a missing axe fails the run."""
    if not AXE.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"axe-core is missing at {AXE}: .ci/run installs it with npm")
        pytest.skip("axe-core is not installed (.ci/run installs it with npm)")
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    violations = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => `${v.id} (${v.impact}): ${v.nodes.map(n => n.target.join(' ')).join(', ')}`)"
    )
    return violations
