import datetime
import json

import jsonschema
import pytest

from core.errors import DomainError
from federation import services
from federation.documents import counts_of, digest_of
from federation.files import schema
from federation.models import ImportedEntry, ImportedEvent, ListImport, SuspensionKey
from federation.permissions import make_coordinator
from players.models import MembershipSuspension, MembershipSuspensionChange, Player
from tests.factories import Desk, UserFactory
from tests.federation.events import finished_event
from tournaments import services as tournament_services

MEMBERS = [("Анна", "A-1"), ("Борис", "A-2"), ("Вера", "A-3"), ("Глеб", "A-4")]


@pytest.fixture
def event_file(db):
    desk = finished_event(slug="cup", name="Кубок", members=MEMBERS, suspend=True)
    return desk, services.export_event(tournament=desk.tournament)


def refused(code, call, **kwargs):
    with pytest.raises(DomainError) as caught:
        call(**kwargs)
    assert caught.value.code == code
    return str(caught.value)


def resealed(document):
    document["counts"] = counts_of(document["event"])
    document["digest"] = digest_of(document["event"])
    return json.dumps(document, ensure_ascii=False).encode()


def state():
    return (
        ImportedEvent.objects.count(),
        ImportedEntry.objects.count(),
        MembershipSuspension.objects.count(),
        SuspensionKey.objects.count(),
        Player.objects.count(),
    )


def test_the_event_file_holds_the_event_and_follows_its_schema(event_file):
    _desk, content = event_file
    document = json.loads(content)
    jsonschema.validate(document, schema("event-v1"))
    event = document["event"]
    assert (document["format"], document["version"]) == ("berserk-event", 1)
    assert document["counts"] == {
        "players": 4,
        "rounds": 1,
        "matches": 2,
        "penalties": 2,
        "suspensions": 1,
    }
    assert [(p["name"], p["membership_id"], p["status"]) for p in event["players"]] == [
        ("Анна", "A-1", "disqualified"),
        ("Борис", "A-2", "playing"),
        ("Вера", "A-3", "playing"),
        ("Глеб", "A-4", "playing"),
    ]
    assert [r["stage"] for r in event["rounds"]] == ["swiss"] and event["playoff"] is None
    caution, suspension = event["penalties"]
    assert caution["acknowledgement"]["kind"] == "acknowledged"
    assert [c["kind"] for c in suspension["history"]] == ["issued", "amended"]
    assert suspension["history"][1]["reason"] == "крапленые карты"
    assert suspension["statements"][0]["text"] == "Видел крапленую карту."
    assert suspension["penalty"] == "suspension"
    assert suspension["suspension"]["key"].startswith(event["uid"] + "/")


def test_an_unfinished_tournament_has_no_event_file(db):
    desk = Desk.create()
    refused("tournament_not_finished", services.export_event, tournament=desk.tournament)


def test_import_is_idempotent_and_a_conflicting_file_is_refused(event_file):
    _desk, content = event_file
    outcome = services.import_event_file(content=content)
    assert (outcome.created, outcome.suspensions) == (True, 0)  # the laptop's own suspension
    before = state()
    assert services.import_event_file(content=content).created is False
    assert state() == before

    changed = json.loads(content)
    changed["event"]["name"] = "Кубок (исправлен)"
    message = refused("event_conflict", services.import_event_file, content=resealed(changed))
    assert message.startswith("Другой файл турнира «Кубок» от 05.12.2026 уже импортирован")
    assert state() == before


@pytest.mark.parametrize(
    ("code", "content", "message"),
    [
        ("file_not_json", b'{"format": "berserk-event", ', "Файл — не правильный JSON (строка 1,"),
        ("file_not_json", b"", "Файл пуст."),
        ("file_not_json", b"[" + b"9" * 4301 + b"]", "В файле число слишком длинное"),
        ("file_not_utf8", '{"format": 1}'.encode("utf-16"), "Файл в кодировке UTF-16"),
        ("file_not_utf8", b"\xff\xfe\xfa garbage \x81", "Файл в кодировке UTF-16"),
        ("file_not_utf8", b"{\x81}", "Файл — не текст в UTF-8"),
        ("file_wrong_format", b"[1, 2]", "Файл — JSON, но не файл судейского стола."),
        ("file_too_large", b" " * 25_000_001, "Файл слишком большой (не больше 25 МБ)"),
    ],
)
def test_bad_files_are_refused_with_the_reason_and_change_nothing(db, code, content, message):
    before = state()
    assert refused(code, services.import_event_file, content=content).startswith(message)
    assert state() == before


def test_a_wrong_version_a_wrong_kind_and_a_broken_schema(event_file):
    _desk, content = event_file
    document = json.loads(content)
    assert refused(
        "file_wrong_version",
        services.import_event_file,
        content=json.dumps({**document, "version": 2}).encode(),
    ).startswith("Файл версии 2, а этот судейский стол читает версию 1.")
    assert (
        refused(
            "file_wrong_format",
            services.import_suspension_list,
            content=content,
        )
        == "Это файл турнира, а здесь нужен список приостановлений."
    )
    broken = json.loads(content)
    del broken["event"]["players"][0]["membership_id"]
    assert "event/players/0" in refused(
        "file_schema", services.import_event_file, content=resealed(broken)
    )
    assert ImportedEvent.objects.count() == 0


def test_tampered_counts_content_and_unknown_players(event_file):
    _desk, content = event_file
    counts = json.loads(content)
    counts["counts"]["penalties"] = 1
    assert "Счётчики файла" in refused(
        "file_tampered", services.import_event_file, content=json.dumps(counts).encode()
    )
    edited = json.loads(content)
    edited["event"]["penalties"][1]["penalty"] = "caution"
    assert (
        refused("file_tampered", services.import_event_file, content=json.dumps(edited).encode())
        == "Содержимое файла не совпадает с его контрольной суммой: файл изменён после выгрузки."
    )
    unknown = json.loads(content)
    unknown["event"]["penalties"][0]["player"] = 999_999
    assert (
        refused("file_inconsistent", services.import_event_file, content=resealed(unknown))
        == "Матчи, пенальти или плей-офф файла называют игроков, которых нет в его списке "
        "(999999)."
    )
    twice = json.loads(content)
    twice["event"]["players"][1]["membership_id"] = "A-1"
    refused("file_inconsistent", services.import_event_file, content=resealed(twice))
    assert ImportedEvent.objects.count() == 0


@pytest.fixture
def coordinator(db):
    user = UserFactory(username="coordinator")
    make_coordinator(user)
    return user


def test_the_coordinator_sets_the_term_and_lifts_with_the_history_kept(coordinator):
    player = Player.objects.create(name="Дина", membership_id="D-1")
    suspension = services.suspend_player(
        player=player,
        starts_on=datetime.date(2026, 12, 1),
        ends_on=None,
        reason="угрозы",
        by=coordinator,
    )
    assert services.set_term(
        suspension=suspension, ends_on=datetime.date(2027, 6, 1), reason="полгода", by=coordinator
    )
    assert not services.set_term(
        suspension=suspension, ends_on=datetime.date(2027, 6, 1), reason="снова", by=coordinator
    )
    assert services.lift(suspension=suspension, reason="апелляция", by=coordinator)
    refused(
        "suspension_already_lifted",
        services.set_term,
        suspension=suspension,
        ends_on=datetime.date(2027, 7, 1),
        reason="x",
        by=coordinator,
    )
    suspension.refresh_from_db()
    assert (suspension.ends_on, suspension.lift_reason) == (datetime.date(2027, 6, 1), "апелляция")
    assert list(
        MembershipSuspensionChange.objects.filter(suspension=suspension).values_list(
            "kind", "ends_on", "reason", "author__username"
        )
    ) == [
        ("term_set", datetime.date(2027, 6, 1), "полгода", "coordinator"),
        ("lifted", datetime.date(2027, 6, 1), "апелляция", "coordinator"),
    ]
    assert SuspensionKey.objects.get(suspension=suspension).key == f"federation/{suspension.pk}"


def test_only_the_coordinator_and_only_a_sane_term(coordinator):
    player = Player.objects.create(name="Дина", membership_id="D-1")
    staff = UserFactory(username="staff")
    for code, by, ends_on, reason in [
        ("not_coordinator", staff, None, "x"),
        ("suspension_ends_before_start", coordinator, datetime.date(2026, 11, 1), "x"),
        ("federation_text_required", coordinator, None, "  "),
        ("federation_text_too_long", coordinator, None, "x" * 2001),
    ]:
        refused(
            code,
            services.suspend_player,
            player=player,
            starts_on=datetime.date(2026, 12, 1),
            ends_on=ends_on,
            reason=reason,
            by=by,
        )
    assert MembershipSuspension.objects.count() == 0


def test_the_list_adds_sets_and_lifts_and_links_the_laptops_own(event_file, coordinator):
    _desk, content = event_file
    own = MembershipSuspension.objects.get()
    document = json.loads(services.export_suspension_list())
    row = document["body"]["suspensions"][0]
    row["key"] = json.loads(content)["event"]["penalties"][1]["suspension"]["key"]
    row["ends_on"] = "2027-03-01"
    document["body"]["suspensions"].append(
        {
            **row,
            "key": "federation/7",
            "player": {"name": "Жанна", "membership_id": "Z-9"},
            "ends_on": None,
            "lifted_on": None,
            "reason": "угрозы",
        }
    )
    lifted = Player.objects.create(name="Лев", membership_id="L-1")
    old = MembershipSuspension.objects.create(
        player=lifted, starts_on=datetime.date(2026, 1, 1), reason="старое"
    )
    SuspensionKey.objects.create(key="federation/3", suspension=old)
    document["body"]["suspensions"].append(
        {
            **row,
            "key": "federation/3",
            "player": {"name": "Лев", "membership_id": "L-1"},
            "ends_on": None,
            "lifted_on": "2026-12-01",
            "lift_reason": "апелляция",
        }
    )
    outcome = services.import_suspension_list(content=resealed_list(document))

    assert [(c["kind"], c["membership_id"]) for c in outcome.changes] == [
        ("term", "A-1"),
        ("new", "Z-9"),
        ("lifted", "L-1"),
    ]
    own.refresh_from_db()
    old.refresh_from_db()
    assert own.ends_on == datetime.date(2027, 3, 1)
    assert old.lifted_on == datetime.date(2026, 12, 1)
    assert MembershipSuspension.objects.count() == 3  # the laptop's own is linked, not copied
    refused(
        "membership_suspended",
        tournament_services.register_player,
        tournament=Desk.create(players=0).tournament,
        player=Player.objects.get(membership_id="Z-9"),
    )
    again = services.import_suspension_list(content=resealed_list(document))
    assert (again.changes, again.unchanged, ListImport.objects.count()) == ([], 3, 1)


def resealed_list(document):
    document["counts"] = {"suspensions": len(document["body"]["suspensions"])}
    document["digest"] = digest_of(document["body"])
    return json.dumps(document, ensure_ascii=False).encode()


def test_a_list_with_a_suspension_twice_is_refused(db):
    document = json.loads(services.export_suspension_list())
    row = {
        "key": "federation/1",
        "player": {"name": "A", "membership_id": "A"},
        "starts_on": "2026-12-01",
        "ends_on": None,
        "lifted_on": None,
        "reason": "",
        "lift_reason": "",
    }
    document["body"]["suspensions"] = [row, row]
    refused("file_inconsistent", services.import_suspension_list, content=resealed_list(document))
    document["body"]["suspensions"] = [{**row, "ends_on": "2026-01-01"}]
    refused("file_inconsistent", services.import_suspension_list, content=resealed_list(document))
    assert MembershipSuspension.objects.count() == 0


def test_an_unknown_key_cannot_be_revoked(db):
    desk = Desk.create(players=0)
    refused("api_key_unknown", services.revoke_api_key, tournament=desk.tournament, key_id=42)


def test_a_round_marked_a_playoff_round_is_of_the_playoff_stage(db):
    from federation.stages import stage_of
    from tournaments.models import Round

    swiss, playoff = Round(number=1), Round(number=4)
    playoff.playoff = True  # the playoff's field (issue 32), set here as it will be read
    assert (stage_of(swiss), stage_of(playoff)) == ("swiss", "playoff")
