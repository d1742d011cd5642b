import jsonschema
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from federation import services
from floor import services as floor_services
from floor.models import PublicPages
from tests.factories import Desk, crowd


def token_of(desk):
    pages, _created = PublicPages.objects.get_or_create(tournament=desk.tournament)
    return pages.token


def url(desk, what, **query):
    base = f"/api/v1/tournaments/{desk.tournament.slug}/{what}"
    return base + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


@pytest.fixture
def played(db):
    desk = Desk.create(players=4)
    desk.pair((0, 1), (2, 3))
    desk.win(0)
    desk.win(0)
    return desk


def validate(client, response, name):
    """The live answer against the component the served OpenAPI schema names for it."""
    document = client.get(reverse("api:openapi-json")).json()
    schema = {**document, "$ref": f"#/components/schemas/{name}"}
    jsonschema.Draft202012Validator(schema).validate(response.json())


def test_the_schema_is_served_and_every_answer_follows_it(client, played):
    key = token_of(played)
    document = client.get(reverse("api:openapi-json")).json()
    assert sorted(document["paths"]) == [
        "/api/v1/tournaments/{slug}/bracket",
        "/api/v1/tournaments/{slug}/clock",
        "/api/v1/tournaments/{slug}/pairings",
        "/api/v1/tournaments/{slug}/results",
        "/api/v1/tournaments/{slug}/standings",
    ]
    for what, name in (
        ("pairings", "RoundsOut"),
        ("results", "RoundsOut"),
        ("standings", "StandingsOut"),
        ("bracket", "BracketOut"),
        ("clock", "ClockOut"),
    ):
        answer = client.get(url(played, what, key=key))
        assert answer.status_code == 200, what
        validate(client, answer, name)


def test_pairings_and_results_show_names_and_scores_only(client, played):
    key = token_of(played)
    names = [registration.player.name for registration in played.players]
    pairings = client.get(url(played, "pairings"), headers={"X-API-Key": key}).json()
    results = client.get(url(played, "results", key=key)).json()

    assert pairings == {
        "tournament": played.tournament.name,
        "round": {
            "number": 1,
            "stage": "swiss",
            "tables": [
                {
                    "table": 1,
                    "player1": names[0],
                    "player2": names[1],
                    "player1_wins": 2,
                    "player2_wins": 0,
                    "draws": 0,
                    "finished": True,
                },
                {
                    "table": 2,
                    "player1": names[2],
                    "player2": names[3],
                    "player1_wins": 0,
                    "player2_wins": 0,
                    "draws": 0,
                    "finished": False,
                },
            ],
        },
    }
    assert results["round"]["tables"] == pairings["round"]["tables"][:1]
    text = str(pairings) + str(results)
    assert not any(registration.player.membership_id in text for registration in played.players)


def test_standings_only_once_published_and_the_clock(client, played):
    key = token_of(played)
    assert client.get(url(played, "standings", key=key)).json() == {
        "tournament": played.tournament.name,
        "published": False,
        "through_round": None,
        "rows": [],
    }
    played.finish(2)
    PublicPages.objects.filter(tournament=played.tournament).update(standings_through=1)
    rows = client.get(url(played, "standings", key=key)).json()["rows"]
    assert [row["points"] for row in rows][:1] == [3] and len(rows) == 4
    assert rows[0]["name"] == played.players[0].player.name

    clock = client.get(url(played, "clock", key=key)).json()
    assert (clock["round"], clock["status"], clock["seconds_left"]) == (1, "not_started", 50 * 60)
    floor_services.start_clock(tournament=played.tournament)
    assert client.get(url(played, "clock", key=key)).json()["status"] == "running"


def test_no_playoff_means_an_empty_bracket(client, played):
    answer = client.get(url(played, "bracket", key=token_of(played))).json()
    assert answer == {"tournament": played.tournament.name, "present": False, "rounds": []}


def test_a_key_opens_only_its_tournament_until_revoked(client, played):
    other = Desk.create(players=2)
    key, raw = services.create_api_key(
        tournament=played.tournament, name="оверлей", by=played.organiser
    )

    assert client.get(url(played, "pairings", key=raw)).status_code == 200
    assert client.get(url(other, "pairings", key=raw)).status_code == 401
    assert client.get(url(other, "pairings", key=token_of(played))).status_code == 401
    assert client.get(url(played, "pairings")).status_code == 401
    assert client.get(url(played, "pairings", key="bk_wrong")).status_code == 401

    services.revoke_api_key(tournament=played.tournament, key_id=key.pk)
    assert client.get(url(played, "pairings", key=raw)).status_code == 401


def test_an_unknown_round_is_not_found(client, played):
    answer = client.get(url(played, "pairings", key=token_of(played), round=7))
    assert (answer.status_code, answer.json()) == (404, {"detail": "No such round."})


def queries(client, desk, what):
    key = token_of(desk)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url(desk, what, key=key)).status_code == 200
    return len(captured)


def test_constant_queries_from_16_to_2000_players(client, db):
    counts = {}
    for size in (16, 2000):
        desk = Desk.create(players=0)
        crowd(desk, size)
        desk.pair(*[(n, n + 1) for n in range(0, size, 2)])
        PublicPages.objects.update_or_create(
            tournament=desk.tournament, defaults={"standings_through": 1}
        )
        counts[size] = {
            what: queries(client, desk, what)
            for what in ("pairings", "results", "standings", "bracket", "clock")
        }
    assert (
        counts[16]
        == counts[2000]
        == {"pairings": 3, "results": 3, "standings": 4, "bracket": 2, "clock": 2}
    )
