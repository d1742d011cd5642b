"""At a venue: a tablet that trusts the desk's own certificate authority opens the laptop over
HTTPS by its address, so the service worker runs and a penalty entered offline is kept and sent.

Chromium trusts the authority as a tablet would after installing it: the certificate is added
to the NSS database of the browser's home folder (Debian's libnss3-tools), not ignored with a
flag, so a certificate error would fail the test.
"""

import os
import re
import shutil
import subprocess

import pytest
from playwright.sync_api import expect

from config.servers import asgi_server_thread
from judging.models import PenaltyRecord
from operations import tls
from tests.browser.helpers import TABLET, until
from tests.browser.test_offline import log_while_cut_off, offline_desk

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def chromium_trusting(tmp_path, browser_type, browser_type_launch_args):
    """A Chromium whose home folder's certificate store trusts the authority in ``tmp_path``."""
    certutil = shutil.which("certutil")
    if certutil is None:
        missing = "certutil is not installed: apt-get install -y libnss3-tools"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{missing} (.ci/run installs it)")
        pytest.skip(missing)
    made = tls.server_certificate(
        tmp_path / "tls", addresses=["127.0.0.1"], names=["localhost"], host_name=""
    )
    home = tmp_path / "home"
    store = home / ".pki" / "nssdb"
    store.mkdir(parents=True)
    subprocess.run([certutil, "-d", f"sql:{store}", "-N", "--empty-password"], check=True)
    subprocess.run(
        [certutil, "-d", f"sql:{store}", "-A", "-t", "C,,", "-n", "desk", "-i", str(made.cafile)],
        check=True,
    )
    browser = browser_type.launch(**browser_type_launch_args, env={**os.environ, "HOME": str(home)})
    yield browser, made
    browser.close()


def test_a_tablet_trusting_the_desk_works_offline_over_https(chromium_trusting):
    browser, certificate = chromium_trusting
    desk = offline_desk()
    with asgi_server_thread(
        certfile=str(certificate.certfile), keyfile=str(certificate.keyfile)
    ) as (base_url, _port):
        assert base_url.startswith("https://127.0.0.1:")
        # No ignore_https_errors: the page loads only because the authority is trusted.
        context = browser.new_context(viewport=TABLET, locale="ru-RU", service_workers="allow")
        page = context.new_page()
        page.set_default_timeout(10000)
        page.goto(f"{base_url}/login/")
        assert page.evaluate("() => window.isSecureContext") is True
        page.get_by_label("Логин").fill(desk.floor.username)
        page.get_by_label("Пароль").fill("desk-pass-123")
        page.get_by_role("button", name="Войти").click()
        page.wait_for_url(f"{base_url}/")

        # The worker registers and controls the judge's page, which it keeps for offline use.
        page.goto(f"{base_url}/t/{desk.tournament.slug}/judge/")
        until(page, "() => navigator.serviceWorker.controller !== null", seconds=30)
        # The log form fetched ahead over TLS (slower than plain HTTP on two busy cores). The
        # worker fetches ahead at each visit of the judge's page, as a judge's tablet does all
        # day; on a loaded machine a visit's fetches may not all answer, so the test visits again.
        for visit in range(3):
            page.reload()
            try:
                until(
                    page,
                    "async (player) => { const cache = await caches.open('desk-pages');"
                    " return (await cache.keys())"
                    ".some((r) => r.url.endsWith(`/judge/log/?player=${player}`)); }",
                    desk.players[0].pk,
                    seconds=20,
                )
                break
            except AssertionError:
                if visit == 2:
                    raise
        scope = page.evaluate("async () => (await navigator.serviceWorker.ready).scope")
        assert scope == f"{base_url}/"

        context.set_offline(True)
        log_while_cut_off(page, base_url, desk, 0)
        expect(page.locator("#offline-count")).to_have_text("не отправлено: 1")
        assert PenaltyRecord.objects.filter(issued_by=desk.floor).count() == 0
        context.set_offline(False)
        expect(page.locator("#offline-count")).not_to_have_text(
            re.compile("не отправлено"), timeout=15000
        )
        records = PenaltyRecord.objects.filter(issued_by=desk.floor)
        assert [(r.registration_id, r.reason) for r in records] == [(desk.players[0].pk, "1.4")]
        context.close()
