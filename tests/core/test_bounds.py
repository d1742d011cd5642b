"""Dates at the edges of the calendar: refused by the forms in Russian, and by the database."""

import datetime

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from decks import services as deck_services
from decks.models import DeckFormat, DeckRules
from tests.factories import Desk
from tournaments.models import Tournament

RANGE_MESSAGE = "Введите дату с 01.01.2000 по 31.12.2100."

SETTINGS = {
    "name": "Кубок",
    "venue": "Клуб",
    "level": "amateur",
    "format": "constructed",
    "uses_decklists": "on",
    "best_of": 3,
    "rounds_planned": 4,
    "round_minutes": 40,
}


@pytest.fixture
def desk(db):
    return Desk.create(players=2, level="professional", uses_decklists=True)


def _rules(desk: Desk, deadline: str) -> dict[str, object]:
    return {
        "deck_format": DeckFormat.objects.get(slug="standard").pk,
        "main_min": 40,
        "copy_limit": 3,
        "deadline": deadline,
    }


@pytest.mark.parametrize("day", ["0001-01-01", "9999-12-31", "1999-12-31", "2101-01-01"])
def test_a_tournament_day_outside_2000_to_2100_is_refused_and_nothing_changes(client, desk, day):
    client.force_login(desk.organiser)

    response = client.post(
        reverse("tournaments:settings", args=[desk.tournament.slug]),
        {**SETTINGS, "date": day},
    )

    desk.tournament.refresh_from_db()
    assert response.status_code == 200
    assert RANGE_MESSAGE in response.content.decode()
    assert desk.tournament.date == datetime.date(2026, 12, 5)
    assert desk.tournament.name != "Кубок"


@pytest.mark.parametrize(
    ("deadline", "message"),
    [
        ("0001-01-01T00:00", RANGE_MESSAGE),
        ("9999-12-31T23:59", RANGE_MESSAGE),
        ("2029-01-01T10:00", "Срок сдачи списков должен быть не дальше года от дня турнира."),
    ],
)
def test_a_deck_list_deadline_far_from_the_event_is_refused(client, desk, deadline, message):
    client.force_login(desk.organiser)

    response = client.post(
        reverse("decks:rules", args=[desk.tournament.slug]), _rules(desk, deadline)
    )

    assert response.status_code == 200
    assert message in response.content.decode()
    assert not DeckRules.objects.filter(tournament=desk.tournament).exists()


def test_a_deadline_near_the_event_is_saved(client, desk):
    client.force_login(desk.organiser)

    response = client.post(
        reverse("decks:rules", args=[desk.tournament.slug]), _rules(desk, "2026-12-04T20:00")
    )

    assert response.status_code == 302
    rules = DeckRules.objects.get(tournament=desk.tournament)
    assert rules.deadline == datetime.datetime(2026, 12, 4, 17, 0, tzinfo=datetime.UTC)


def test_the_database_refuses_a_day_outside_the_range(desk):
    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.filter(pk=desk.tournament.pk).update(date=datetime.date(1, 1, 1))
    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.filter(pk=desk.tournament.pk).update(date=datetime.date(9999, 12, 31))

    desk.tournament.refresh_from_db()
    assert desk.tournament.date == datetime.date(2026, 12, 5)


def test_the_database_refuses_a_deadline_outside_the_range(desk):
    deck_services.update_rules(
        tournament=desk.tournament,
        deck_format=DeckFormat.objects.get(slug="standard"),
        pool=None,
        main_min=40,
        main_max=None,
        extra_max=None,
        copy_limit=3,
        lifting_feature="",
        combine_sections=False,
        check_legality=False,
        self_submission=False,
        deadline=None,
    )
    for moment in (
        datetime.datetime(1000, 1, 1, tzinfo=datetime.UTC),
        datetime.datetime(9999, 12, 31, tzinfo=datetime.UTC),
    ):
        with pytest.raises(IntegrityError), transaction.atomic():
            DeckRules.objects.filter(tournament=desk.tournament).update(deadline=moment)

    assert DeckRules.objects.get(tournament=desk.tournament).deadline is None
