"""The Content-Security-Policy and Cache-Control on the app's answers."""

from django.urls import reverse


def test_every_page_carries_the_content_security_policy(client, db):
    policy = client.get(reverse("login"))["Content-Security-Policy"]

    assert "default-src 'self'" in policy
    assert "script-src 'self'" in policy
    assert "style-src 'self'" in policy
    assert "unsafe-inline" not in policy
    assert "frame-ancestors 'none'" in policy


def test_signed_in_pages_and_downloads_are_not_stored(client, desk):
    client.force_login(desk.head)

    page = client.get(reverse("judging:console", args=[desk.tournament.slug]))
    download = client.get(
        reverse("judging:report-export", args=[desk.tournament.slug, "penalties", "xlsx"])
    )

    assert page["Cache-Control"] == "private, no-store"
    assert download["Cache-Control"] == "private, no-store"
    assert download["Content-Disposition"].startswith("attachment")


def test_no_template_has_inline_script_or_style(settings):
    """Served templates: a script or style comes from a file (the report saved by the command
    for use away from the app is not served, and carries its stylesheet inline)."""
    from pathlib import Path

    offline = {"judging/report_document.html"}
    for path in Path(settings.BASE_DIR, "templates").rglob("*.html"):
        name = path.relative_to(Path(settings.BASE_DIR, "templates")).as_posix()
        text = path.read_text(encoding="utf-8")
        if name in offline:
            continue
        assert "<style" not in text, name
        assert " style=" not in text, name
        assert " hx-on" not in text, name
        assert " onclick=" not in text, name
        for line in text.splitlines():
            if "<script" in line:
                assert "src=" in line, name
