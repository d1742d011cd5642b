import datetime
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from federation import services
from federation.models import ApiKey, ImportedEvent
from federation.permissions import make_coordinator
from players.models import MembershipSuspension, Player
from tests.factories import Desk, UserFactory
from tests.federation.events import finished_event
from tournaments.permissions import make_federation_staff, make_organiser

MEMBERS = [("Анна", "A-1"), ("Борис", "A-2"), ("Вера", "A-3"), ("Глеб", "A-4")]


def messages_of(response):
    return [str(message) for message in response.context["messages"]]


def upload(content, name="event.json"):
    return SimpleUploadedFile(name, content, content_type="application/json")


@pytest.fixture
def finished(db):
    return finished_event(slug="cup", name="Кубок", members=MEMBERS, suspend=True)


def test_the_report_offers_the_event_file_and_it_downloads(client, finished):
    client.force_login(finished.organiser)
    answer = client.get(reverse("judging:report", args=["cup"]))
    report = b"".join(answer.streaming_content).decode()
    assert reverse("federation:event-file", args=["cup"]) in report

    answer = client.get(reverse("federation:event-file", args=["cup"]))
    assert answer["Content-Disposition"] == 'attachment; filename="event-cup-2026-12-05.json"'
    assert json.loads(answer.content)["counts"]["players"] == 4


def test_an_unfinished_event_file_is_refused_with_a_message(client, db):
    desk = Desk.create()
    client.force_login(desk.organiser)
    answer = client.get(reverse("federation:event-file", args=[desk.tournament.slug]), follow=True)
    assert messages_of(answer) == ["Файл турнира создаётся, когда турнир завершён."]


def test_the_schemas_are_served(client, db):
    answer = client.get(reverse("federation:schema", args=["event-v1"]))
    assert json.loads(b"".join(answer.streaming_content))["title"] == (
        "Berserk. Heroes event file, version 1"
    )
    assert client.get(reverse("federation:schema", args=["nothing"])).status_code == 404


def test_the_federation_imports_twice_and_refuses_garbage_of_50_mb(client, finished):
    content = services.export_event(tournament=finished.tournament)
    staff = UserFactory(username="fed")
    make_federation_staff(staff)
    client.force_login(staff)
    first = client.post(reverse("federation:import-event"), {"file": upload(content)}, follow=True)
    second = client.post(reverse("federation:import-event"), {"file": upload(content)}, follow=True)
    garbage = client.post(
        reverse("federation:import-event"), {"file": upload(b"\x00\xff" * 25_000_000)}, follow=True
    )
    assert messages_of(first) == [
        "Импортирован «Кубок»: игроков 4 (новых в реестре: 0), пенальти 2, приостановлений 0."
    ]
    assert messages_of(second) == [
        "«Кубок» уже импортирован из этого же файла: ничего не изменилось."
    ]
    assert messages_of(garbage) == ["Файл слишком большой (не больше 25 МБ): это не файл турнира."]
    assert ImportedEvent.objects.count() == 1


def test_a_players_history_and_the_coordinators_forms(client, finished):
    services.import_event_file(content=services.export_event(tournament=finished.tournament))
    coordinator = UserFactory(username="coordinator")
    make_coordinator(coordinator)
    client.force_login(coordinator)
    anna = Player.objects.get(membership_id="A-1")
    suspension = MembershipSuspension.objects.get(player=anna)

    found = client.get(reverse("federation:home"), {"q": "анна"}).content.decode()
    assert reverse("federation:player", args=[anna.pk]) in found
    client.post(
        reverse("federation:set-term", args=[suspension.pk]),
        {"ends_on": "2027-01-31", "reason": "два месяца"},
    )
    page = client.get(reverse("federation:player", args=[anna.pk])).content.decode()
    assert "Кубок" in page and "крапленые карты" in page and "два месяца" in page
    suspension.refresh_from_db()
    assert str(suspension.ends_on) == "2027-01-31"


def test_pages_of_the_federation_are_for_its_staff(client, db):
    client.force_login(UserFactory(username="someone"))
    assert client.get(reverse("federation:home")).status_code == 403
    assert client.get(reverse("federation:suspension-list")).status_code == 403
    assert client.get(reverse("federation:list-import")).status_code == 403


def test_the_laptop_imports_the_list_and_sees_what_changed(client, db):
    coordinator = UserFactory(username="coordinator")
    make_coordinator(coordinator)
    services.suspend_player(
        player=Player.objects.create(name="Дина", membership_id="D-1"),
        starts_on=datetime.date(2026, 12, 1),
        ends_on=None,
        reason="угрозы",
        by=coordinator,
    )
    listed = services.export_suspension_list()
    organiser = UserFactory(username="org")
    make_organiser(organiser)
    client.force_login(organiser)
    page = client.post(reverse("federation:list-import"), {"file": upload(listed)})
    assert "Что изменилось" in page.content.decode()
    assert page.context["outcome"].unchanged == 1  # the same installation knows it already
    bad = client.post(reverse("federation:list-import"), {"file": upload(b"{")})
    assert bad.context["error"].code == "file_not_json"
    assert "Ничего не изменено." in bad.content.decode()


def test_the_organiser_makes_and_revokes_a_key(client, db):
    desk = Desk.create(players=0)
    client.force_login(desk.organiser)
    page = client.post(
        reverse("federation:api-keys", args=[desk.tournament.slug]), {"name": "оверлей"}
    )
    made = page.context["made"]
    key = ApiKey.objects.get()
    assert made.startswith("bk_") and key.prefix == made[:8] and key.digest != made
    client.post(reverse("federation:api-key-revoke", args=[desk.tournament.slug, key.pk]))
    key.refresh_from_db()
    assert key.revoked_at is not None
    client.force_login(desk.floor)
    assert (
        client.get(reverse("federation:api-keys", args=[desk.tournament.slug])).status_code == 403
    )
