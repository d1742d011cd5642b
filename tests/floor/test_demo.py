"""The demo shows the players' link, and the pages behind it work."""

import io
import re

import pytest
from django.core.management import call_command
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_demo_prints_the_players_link_and_publishes_the_standings():
    out = io.StringIO()
    call_command("demo", "--no-serve", stdout=out)
    path = re.search(r"Players' pages \(no sign-in\): http://[^/]+(/p/[^/]+/)", out.getvalue())
    assert path is not None
    page = Client().get(path.group(1)).content.decode()
    assert "Турнирная таблица после тура 3" in page
    assert "Пары тура 4" in page
    # A second run finds the same link.
    again = io.StringIO()
    call_command("demo", "--no-serve", stdout=again)
    assert path.group(1) in again.getvalue()


def test_the_demo_round_has_half_its_tables_reported_by_the_players():
    from floor.models import JudgeCall, TableReport
    from tournaments.models import Match, Round

    call_command("demo", "--no-serve", stdout=io.StringIO())
    # The demo cup's round under way (the demo regional has finished its playoff).
    round_ = Round.objects.filter(tournament__slug="demo-cup").order_by("-number").first()
    tables = Match.objects.filter(round=round_, player2__isnull=False).count()
    reports = list(TableReport.objects.filter(round=round_).values_list("state", flat=True))
    assert len(reports) == (tables + 1) // 2
    assert sorted(set(reports)) == ["confirmed", "disputed", "reported"]
    assert JudgeCall.objects.filter(round=round_, reason="dispute").count() == 1
