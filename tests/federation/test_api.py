import jsonschema
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from federation import services
from floor import services as floor_services
from floor.models import PublicPages
from tests.factories import Desk, crowd
from tests.federation.events import playoff_event
from tests.tournaments.test_playoff_queries import swiss_round_played
from tournaments import services as tournament_services
from tournaments.models import PlayoffSeed


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
        "page": 1,
        "pages": 1,
        "page_size": 100,
        "total": 0,
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
    assert answer == {
        "tournament": played.tournament.name,
        "present": False,
        "size": 0,
        "champion": None,
        "block": None,
        "blocks": 0,
        "rounds": [],
    }


def test_a_key_opens_only_its_tournament_until_revoked(client, played):
    other = Desk.create(players=2)
    key, raw = services.create_api_key(
        tournament=played.tournament, name="оверлей", by=played.organiser
    )

    assert client.get(url(played, "pairings", key=raw)).status_code == 200
    assert client.get(url(other, "pairings", key=raw)).status_code == 401
    assert client.get(url(other, "pairings", key=token_of(played))).status_code == 401
    missing = client.get(url(played, "pairings"))
    assert (missing.status_code, missing.json()) == (
        401,
        {
            "code": "api_key_required",
            "detail": "Откройте API этого турнира ключом ссылки для игроков или API-ключом, "
            "который создал организатор (заголовок X-API-Key или параметр key).",
        },
    )
    english = client.get(url(played, "pairings"), headers={"Accept-Language": "en"})
    assert english.json()["code"] == "api_key_required"
    assert english.json()["detail"].startswith("Open this tournament's API with")
    assert client.get(url(played, "pairings", key="bk_wrong")).status_code == 401

    services.revoke_api_key(tournament=played.tournament, key_id=key.pk)
    assert client.get(url(played, "pairings", key=raw)).status_code == 401


def test_refusals_carry_a_stable_code_and_a_russian_message(client, played):
    key = token_of(played)
    answer = client.get(url(played, "pairings", key=key, round=7))
    assert (answer.status_code, answer.json()) == (
        404,
        {"code": "no_such_round", "detail": "Раунда 7 нет."},
    )
    validate(client, answer, "ErrorOut")
    english = client.get(
        url(played, "results", key=key, round=7), headers={"Accept-Language": "en"}
    )
    assert english.json() == {"code": "no_such_round", "detail": "There is no round 7."}
    page = client.get(url(played, "standings", key=key, page=2))
    assert (page.status_code, page.json()) == (
        404,
        {"code": "no_such_page", "detail": "Страницы 2 нет: всего страниц в таблице — 1."},
    )
    bad = client.get(url(played, "pairings", key=key, round="x"))
    assert (bad.status_code, bad.json()) == (
        422,
        {"code": "bad_parameter", "detail": "Параметр запроса — не целое число: round."},
    )
    block = client.get(url(played, "bracket", key=key, block=0))
    assert (block.status_code, block.json()["code"]) == (404, "no_such_block")


def queries(client, desk, what, **query):
    key = token_of(desk)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url(desk, what, key=key, **query)).status_code == 200
    return len(captured)


def test_constant_queries_from_16_to_2000_players_with_a_playoff(client, db):
    """16 players with a top 8, 2,000 with a top 512 (half the field): every answer costs the
    same queries; the standings are computed once per change, then a page is a cache read."""
    counts = {}
    for size in (16, 2000):
        desk = Desk.create(players=0, level="professional")
        crowd(desk, size)
        swiss_round_played(desk)
        tournament_services.set_playoff(
            tournament=desk.tournament, size="half", best_of=3, final_best_of=3
        )
        tournament_services.publish_cut(tournament=desk.tournament)
        PublicPages.objects.update_or_create(
            tournament=desk.tournament, defaults={"standings_through": 1}
        )
        counts[size] = {
            what: queries(client, desk, what)
            for what in ("pairings", "results", "standings", "bracket", "clock")
        }
        counts[size]["standings again"] = queries(client, desk, "standings", page=size // 100 or 1)
        counts[size]["bracket block"] = queries(client, desk, "bracket", block=1)
        answer = client.get(url(desk, "standings", key=token_of(desk), page=2)).json()
        if size == 2000:
            assert (answer["pages"], answer["total"], len(answer["rows"])) == (20, 2000, 100)
            assert [row["place"] for row in answer["rows"]][:2] == [101, 102]
            whole = client.get(url(desk, "bracket", key=token_of(desk))).json()
            assert (whole["size"], [len(r["matches"]) for r in whole["rounds"]]) == (
                512,
                [256, 128, 64, 32, 16, 8, 4, 2, 1],
            )
            part = client.get(url(desk, "bracket", key=token_of(desk), block=32)).json()
            assert (part["block"], part["blocks"]) == (32, 32)
            assert [len(r["matches"]) for r in part["rounds"]] == [8, 4, 2, 1, 1, 1, 1, 1, 1]
    assert (
        counts[16]
        == counts[2000]
        == {
            "pairings": 3,
            "results": 3,
            "standings": 5,
            "standings again": 3,
            "bracket": 4,
            "bracket block": 4,
            "clock": 2,
        }
    )


def test_the_bracket_is_the_playoffs_own_and_follows_the_schema(client, db):
    desk = playoff_event()
    seeds = {
        seed.seed: seed.registration.player.name
        for seed in PlayoffSeed.objects.filter(tournament=desk.tournament).select_related(
            "registration__player"
        )
    }
    answer = client.get(url(desk, "bracket", key=token_of(desk)))
    validate(client, answer, "BracketOut")
    bracket = answer.json()
    assert (bracket["present"], bracket["size"], bracket["champion"]) == (True, 4, seeds[3])
    assert (bracket["block"], bracket["blocks"]) == (None, 1)
    semis, final = bracket["rounds"]
    assert (semis["key"], semis["name"], semis["number"], semis["best_of"]) == (
        "semi",
        "Полуфиналы",
        2,
        3,
    )
    assert (final["key"], final["name"], final["number"]) == ("final", "Финал", 3)
    assert semis["matches"][1] == {
        "slot": 1,
        "table": 2,
        "seed1": 2,
        "player1": seeds[2],
        "seed2": 3,
        "player2": seeds[3],
        "player1_wins": 1,
        "player2_wins": 1,
        "draws": 0,
        "finished": True,
        "winner": seeds[3],
        "walkover": False,
        "decided_how": "дополнительная партия",
    }
    assert [(m["player1"], m["player2"], m["winner"]) for m in final["matches"]] == [
        (seeds[1], seeds[3], seeds[3])
    ]
    text = answer.content.decode()
    assert not any(
        seed.registration.player.membership_id in text
        for seed in PlayoffSeed.objects.filter(tournament=desk.tournament)
    )
