"""An event with a playoff in the event file (issues 32 and 34): the playoff's rounds by stage,
and its block with the setting, the seeds, the named winner of a level match and the final
standings; it follows the published schema and imports."""

import json

import jsonschema
import pytest

from core.errors import DomainError
from federation import services
from federation.documents import counts_of, digest_of
from federation.files import schema
from federation.models import ImportedEntry, ImportedEvent
from tests.federation.events import playoff_event
from tournaments.models import PlayoffSeed


@pytest.fixture
def regional(db):
    desk = playoff_event()
    return desk, services.export_event(tournament=desk.tournament)


def test_the_playoff_block_names_the_setting_the_seeds_and_the_final_standings(regional):
    desk, content = regional
    document = json.loads(content)
    jsonschema.validate(document, schema("event-v1"))
    event = document["event"]
    seeds = {
        seed.seed: seed.registration_id
        for seed in PlayoffSeed.objects.filter(tournament=desk.tournament)
    }
    swiss = {
        seed.registration_id: seed.swiss_position
        for seed in PlayoffSeed.objects.filter(tournament=desk.tournament)
    }
    assert [(round_["number"], round_["stage"]) for round_ in event["rounds"]] == [
        (1, "swiss"),
        (2, "playoff"),
        (3, "playoff"),
    ]
    playoff = event["playoff"]
    assert {key: playoff[key] for key in playoff if key not in ("seeds", "standings")} == {
        "rounds": [2, 3],
        "setting": "4",
        "size": 4,
        "best_of": 3,
        "final_best_of": 3,
        "first_player": "higher_starts",
        "decided": [{"round": 2, "table": 2, "winner": seeds[3], "how": "дополнительная партия"}],
    }
    assert playoff["seeds"] == [
        {"seed": seed, "player": seeds[seed], "swiss_place": swiss[seeds[seed]]}
        for seed in (1, 2, 3, 4)
    ]
    # Seed 3 won the final over seed 1; seeds 2 and 4 went out in the semi-finals (round 2),
    # in their Swiss order.
    semi_losers = sorted((seeds[2], seeds[4]), key=lambda pk: swiss[pk])
    assert [
        (row["place"], row["player"], row["out_in_round"], row["champion"], row["finalist"])
        for row in playoff["standings"]
    ] == [
        (1, seeds[3], None, True, False),
        (2, seeds[1], 3, False, True),
        (3, semi_losers[0], 2, False, False),
        (4, semi_losers[1], 2, False, False),
    ]
    assert not any(row["prize_withheld"] for row in playoff["standings"])
    # The players' places are the final standings: the champion first.
    places = {player["ref"]: player["place"] for player in event["players"]}
    assert (places[seeds[3]], places[seeds[1]]) == (1, 2)
    assert sorted(places.values()) == list(range(1, 9))


def test_an_event_with_a_playoff_imports_and_the_places_follow_the_playoff(regional):
    desk, content = regional
    outcome = services.import_event_file(content=content)
    assert outcome.created
    event = ImportedEvent.objects.get()
    assert (event.rounds, event.players) == (3, 8)
    champion = PlayoffSeed.objects.get(tournament=desk.tournament, seed=3).registration.player
    assert ImportedEntry.objects.get(place=1).player.membership_id == champion.membership_id
    assert event.content["event"]["playoff"]["standings"][0]["champion"] is True
    # The same file again changes nothing.
    assert services.import_event_file(content=content).created is False


def test_a_playoff_naming_a_player_the_file_does_not_list_is_refused(regional):
    _desk, content = regional
    document = json.loads(content)
    document["event"]["playoff"]["seeds"][0]["player"] = 999_999
    document["counts"] = counts_of(document["event"])
    document["digest"] = digest_of(document["event"])
    with pytest.raises(DomainError) as caught:
        services.import_event_file(content=json.dumps(document).encode())
    assert caught.value.code == "file_inconsistent"
    assert str(caught.value) == (
        "Матчи, пенальти или плей-офф файла называют игроков, которых нет в его списке (999999)."
    )
    assert ImportedEvent.objects.count() == 0


def test_a_file_of_a_desk_before_the_playoff_block_grew_still_imports(regional):
    """Version 1 is kept: a playoff block with its rounds only (as the first files had) is read."""
    _desk, content = regional
    document = json.loads(content)
    document["event"]["playoff"] = {"rounds": document["event"]["playoff"]["rounds"]}
    document["digest"] = digest_of(document["event"])
    assert services.import_event_file(content=json.dumps(document).encode()).created
