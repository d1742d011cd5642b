"""What the browser tests share: a tablet or a phone of its own (a browser context: its own
cookies, storage and service worker), signed in or not, how long a step may take, and the judge's
page as a tablet has it once the desk's service worker is at work."""

import time

# How long an action (a click, a fill, an expect) waits for its element before the test fails.
# CI runs the suite on a 2-core machine, the second time on PostgreSQL: the database server,
# uvicorn's threads, Playwright's driver and a Chromium renderer per tablet share the two cores.
# On a 2-core machine of the same kind, with another suite running beside it, the head judge's
# test opened the judge's page, a player's log form from it and chose an infraction in 0.6 to
# 1.4 s (43 runs on PostgreSQL). A step that
# opens a page may also wait out the service worker's 4 s network timeout (static/js/desk_sw.js)
# before the worker answers with its kept copy: 8 s is twice that and several times the slowest
# step measured. A longer limit would only make a test that is really stuck fail later.
ACTION_TIMEOUT = 8000

TABLET = {"width": 800, "height": 1280}
PHONE = {"width": 390, "height": 844}
# The password the factories give every member of staff (tests/factories).
PASSWORD = "desk-pass-123"


def new_page(browser, *, viewport=TABLET, for_axe=False, is_mobile=False, service_workers="allow"):
    """A page in a browser context of its own, in Russian, with the suite's action timeout.

    ``for_axe``: the app's Content-Security-Policy refuses the script tag that adds axe-core to a
    page (``axe_violations``), so a context that runs axe bypasses it; nothing else does.
    ``service_workers="block"``: without the desk's worker (Playwright's routes do not see the
    requests a worker makes)."""
    context = browser.new_context(
        viewport=viewport,
        locale="ru-RU",
        bypass_csp=for_axe,
        is_mobile=is_mobile,
        service_workers=service_workers,
    )
    page = context.new_page()
    page.set_default_timeout(ACTION_TIMEOUT)
    return page


def phone(browser):
    """A player's phone, signed in to nothing."""
    return new_page(browser, viewport=PHONE, is_mobile=True)


def sign_in(page, base_url, username, *, password=PASSWORD):
    """Sign in on the page and wait for the start page."""
    page.goto(f"{base_url}/login/")
    page.get_by_label("Логин").fill(username)
    page.get_by_label("Пароль").fill(password)
    page.get_by_role("button", name="Войти").click()
    page.wait_for_url(f"{base_url}/")


def signed_in(browser, base_url, username, *, password=PASSWORD, **options):
    """A page of a new tablet (``options``: those of ``new_page``), signed in as ``username``."""
    page = new_page(browser, **options)
    sign_in(page, base_url, username, password=password)
    return page


def another_tab(page):
    """A second tab of the same tablet (its cookies are the page's), with the suite's timeout."""
    other = page.context.new_page()
    other.set_default_timeout(ACTION_TIMEOUT)
    return other


def sign_out_in_another_tab(page, base_url):
    """Sign out in a second tab of the same tablet, as a judge who tapped «Выйти» in another tab
    would, and close that tab once the sign-in page has loaded."""
    other = another_tab(page)
    other.goto(f"{base_url}/")
    other.get_by_role("button", name="Выйти").click()
    close_when_loaded(other, f"{base_url}/login/")


def sign_out_and_in_in_another_tab(page, base_url, username):
    """Sign out and in again in other tabs of the same tablet: the session the page was drawn
    with has ended, and its CSRF token with it. ``sign_in`` waits for the start page to load, so
    the tab closes outside any navigation."""
    sign_out_in_another_tab(page, base_url)
    other = another_tab(page)
    sign_in(other, base_url, username)
    other.close()


def close_when_loaded(page, url):
    """Close a page once the navigation the test started has reached ``url`` and loaded.

    Chromium can acknowledge the close of a page whose navigation is committing and then never
    close it, and Playwright's ``page.close()``, which has no timeout, waits for ever
    (crbug.com/536385539, microsoft/playwright#42366): a tab closed right after its sign-out click
    held a CI run for the whole five-minute test timeout. Waiting for the page the click leads to
    takes the close out of that race."""
    page.wait_for_url(url)
    page.close()


def until(page, script, arg=None, seconds=10):
    """Wait until the script answers true (wait_for_function evaluates a string, which the
    pages' Content-Security-Policy refuses)."""
    deadline = time.monotonic() + seconds
    while not page.evaluate(script, arg):
        assert time.monotonic() < deadline, script
        time.sleep(0.1)


def open_judges_page(page, base_url, desk):
    """Open the judge's page and wait until it is as a tablet has it from its second visit on:
    the desk's service worker controls it and has fetched the players' log forms ahead.

    The worker registers on the first page after signing in and takes a moment to install. A page
    asked for before it was active stays out of its control until loaded again, and the fetching
    ahead goes on while the test does: without this wait the test's next click meets whichever
    state the machine's load made."""
    page.goto(f"{base_url}/t/{desk.tournament.slug}/judge/")
    until(page, "async () => Boolean((await navigator.serviceWorker.getRegistration())?.active)")
    page.reload()
    until(page, "() => navigator.serviceWorker.controller !== null")
    until(
        page,
        "async (player) => { const cache = await caches.open('desk-pages');"
        " return (await cache.keys())"
        ".some((r) => r.url.endsWith(`/judge/log/?player=${player}`)); }",
        desk.players[-1].pk,
    )
