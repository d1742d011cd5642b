"""The playoff's screens (issue 32): the setting, the preview and its publication, the bracket
with its results and its refusals, the next round, a level match's winner, the final standings."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import Desk
from tests.tournaments.test_playoff_services import by_seed, play_swiss
from tournaments import playoff_selectors
from tournaments.models import Match, PlayoffSeed, Round


@pytest.fixture
def eight(db):
    desk = Desk.create(players=8, level="professional")
    play_swiss(desk, 2)
    return desk


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def url(desk: Desk, name: str, *args: object) -> str:
    return reverse(f"tournaments:{name}", args=[desk.tournament.slug, *args])


def body(response) -> str:
    if response.streaming:
        return b"".join(response.streaming_content).decode("utf-8-sig")
    return response.content.decode()


def refusal(response) -> tuple[str, str]:
    # The redirect is not followed, so earlier messages wait too: this response's is the last.
    message = list(response.wsgi_request._messages)[-1]
    return message.extra_tags, message.message


def test_the_organiser_sets_previews_and_publishes_the_cut_in_one_tap(eight):
    desk = eight
    organiser = client_for(desk.organiser)
    page = organiser.get(url(desk, "playoff"))
    assert page.status_code == 200
    assert "Плей-офф" in page.content.decode()
    response = organiser.post(
        url(desk, "playoff-settings"),
        {
            "playoff": "4",
            "playoff_best_of": "3",
            "playoff_final_best_of": "5",
            "playoff_first_player": "higher_starts",
        },
    )
    assert response.status_code == 302
    desk.tournament.refresh_from_db()
    assert (desk.tournament.playoff, desk.tournament.playoff_final_best_of) == ("4", 5)
    preview = organiser.get(url(desk, "playoff")).content.decode()
    assert 'id="cut-preview"' in preview and "Состав плей-офф: топ-4" in preview
    assert preview.count('<tr><td class="num">') == 4
    organiser.post(url(desk, "playoff-publish"))
    assert PlayoffSeed.objects.filter(tournament=desk.tournament).count() == 4
    bracket = organiser.get(url(desk, "playoff")).content.decode()
    assert 'id="playoff-bracket"' in bracket and "Полуфиналы" in bracket and "Финал" in bracket
    fragment = organiser.get(
        url(desk, "playoff") + "?fragment=playoff-bracket", headers={"HX-Request": "true"}
    ).content.decode()
    assert fragment.strip().startswith('<div id="playoff-bracket"')


def test_bad_input_gets_a_russian_message_and_changes_nothing(eight):
    desk = eight
    organiser = client_for(desk.organiser)
    response = organiser.post(
        url(desk, "playoff-settings"),
        {"playoff": "16", "playoff_best_of": "3", "playoff_final_best_of": "3"},
    )
    assert refusal(response) == (
        "cut_too_large",
        "Плей-офф берёт 16 игроков, а в турнире осталось только 8: выберите плей-офф поменьше.",
    )
    organiser.post(
        url(desk, "playoff-settings"),
        {"playoff": "4", "playoff_best_of": "3", "playoff_final_best_of": "3"},
    )
    organiser.post(url(desk, "playoff-publish"))
    response = organiser.post(
        url(desk, "playoff-settings"),
        {"playoff": "8", "playoff_best_of": "3", "playoff_final_best_of": "3"},
    )
    assert refusal(response)[0] == "playoff_started"
    response = organiser.post(
        url(desk, "playoff-result", 1, 0), {"player1_wins": 2, "player2_wins": 0}
    )
    assert refusal(response) == (
        "players_not_known",
        "Игроки этого матча ещё не известны: он ждёт окончания матчей перед ним.",
    )
    response = organiser.post(
        url(desk, "playoff-result", 0, 0), {"player1_wins": 1, "player2_wins": 1}
    )
    assert refusal(response)[0] == "playoff_draw"
    response = organiser.post(url(desk, "round-draft"))
    assert refusal(response)[0] == "swiss_after_cut"
    assert Round.objects.filter(tournament=desk.tournament).count() == 3
    assert not Match.objects.filter(round__playoff=True, ended_at__isnull=False).exists()


def test_results_the_next_round_and_the_final_standings(eight):
    desk = eight
    organiser = client_for(desk.organiser)
    judge = client_for(desk.floor)
    organiser.post(
        url(desk, "playoff-settings"),
        {"playoff": "4", "playoff_best_of": "3", "playoff_final_best_of": "3"},
    )
    organiser.post(url(desk, "playoff-publish"))
    seeds = by_seed(desk)
    judge.post(url(desk, "playoff-result", 0, 0), {"player1_wins": 2, "player2_wins": 1})
    judge.post(
        url(desk, "playoff-result", 0, 1),
        {"player1_wins": 1, "player2_wins": 1, "winner": seeds[3].pk, "decided_how": "Жизни героя"},
    )
    page = organiser.get(url(desk, "playoff")).content.decode()
    assert "Жизни героя" in page and 'id="publish-next"' in page
    organiser.post(url(desk, "playoff-next"))
    judge.post(url(desk, "playoff-result", 1, 0), {"player1_wins": 0, "player2_wins": 2})
    assert playoff_selectors.playoff_bracket(tournament=desk.tournament).champion_id == seeds[3].pk
    standings = organiser.get(url(desk, "playoff-standings")).content.decode()
    assert "Чемпион" in standings and "Финалист" in standings
    assert standings.index(seeds[3].player.name) < standings.index(seeds[1].player.name)
    printed = organiser.get(url(desk, "playoff") + "?all=1").content.decode()
    assert "bracket-print" in printed and "<form" not in printed.split("<main")[1]


def test_players_phones_the_projector_and_the_slips_show_the_playoff(eight):
    from floor import services as floor_services

    desk = eight
    organiser = client_for(desk.organiser)
    pages = floor_services.ensure_public_pages(tournament=desk.tournament)
    phone = Client()
    public = reverse("floor:public-playoff", args=[pages.token])
    assert phone.get(public).status_code == 404
    organiser.post(
        url(desk, "playoff-settings"),
        {
            "playoff": "4",
            "playoff_best_of": "3",
            "playoff_final_best_of": "5",
            "playoff_first_player": "higher_starts",
        },
    )
    organiser.post(url(desk, "playoff-publish"))
    seeds = by_seed(desk)
    page = phone.get(public)
    html = page.content.decode()
    assert page.status_code == 200
    assert "Полуфиналы" in html and seeds[1].player.name in html and "<form" not in html
    assert (
        "Сетка плей-офф" in phone.get(reverse("floor:public", args=[pages.token])).content.decode()
    )
    # A result changes what the phones are given (a new change, a new page).
    organiser.post(url(desk, "playoff-result", 0, 0), {"player1_wins": 2, "player2_wins": 0})
    assert "won" in phone.get(public).content.decode()
    projector = organiser.get(reverse("floor:projector", args=[desk.tournament.slug]))
    assert "bracket-title" in projector.content.decode()
    slips = organiser.get(reverse("floor:slips", args=[desk.tournament.slug])).content.decode()
    assert "Плей-офф ·\n            максимум партий: 3" in slips
    assert f"Начинает: {seeds[2].player.name}" in slips
    assert slips.count("Партия 3") == 2 and "Партия 4" not in slips  # two semi-finals


def test_the_judge_report_and_its_exports_carry_the_playoff(eight):
    from tests.tournaments.test_playoff_services import issue, win

    desk = eight
    organiser = client_for(desk.organiser)
    organiser.post(
        url(desk, "playoff-settings"),
        {"playoff": "4", "playoff_best_of": "3", "playoff_final_best_of": "3"},
    )
    organiser.post(url(desk, "playoff-publish"))
    seeds = by_seed(desk)
    win(Match.objects.get(round__playoff=True, table=1), seeds[1])
    issue(desk, seeds[4], "1.1", "between_matches")  # out already: never served
    tournament_services_enter = organiser.post(
        url(desk, "playoff-result", 0, 1),
        {"player1_wins": 1, "player2_wins": 1, "winner": seeds[2].pk, "decided_how": "Жизни героя"},
    )
    assert tournament_services_enter.status_code == 302
    organiser.post(url(desk, "playoff-next"))
    issue(desk, seeds[2], "6.1", "in_game")  # a disqualification without prize in the final
    head = client_for(desk.head)
    report = body(head.get(reverse("judging:report", args=[desk.tournament.slug])))
    assert 'id="report-final-standings"' in report and "Чемпион" in report
    assert "Поражения не отбыты: игрок выбыл из плей-офф" in report and "не отбыто" in report
    assert "Жизни героя" in report
    exported = body(
        head.get(reverse("judging:report-export", args=[desk.tournament.slug, "playoff", "csv"]))
    )
    lines = exported.splitlines()
    assert lines[1].split(",")[:2] == ["1", seeds[1].player.name]
    assert "Чемпион" in lines[1] and "Финалист" in lines[2] and "дисквалифицирован" in lines[2]
    assert lines[2].endswith(",нет")
    matches = head.get(
        reverse("judging:report-export", args=[desk.tournament.slug, "playoff-matches", "xlsx"])
    )
    assert matches.status_code == 200


def test_a_level_match_needs_a_winner_from_the_list(eight):
    desk = eight
    organiser = client_for(desk.organiser)
    organiser.post(
        url(desk, "playoff-settings"),
        {"playoff": "2", "playoff_best_of": "1", "playoff_final_best_of": "1"},
    )
    organiser.post(url(desk, "playoff-publish"))
    final = Match.objects.get(round__playoff=True)
    from tournaments import services as tournament_services

    tournament_services.record_game(match=final, winner=None)
    page = organiser.get(url(desk, "playoff")).content.decode()
    assert "Равенство по партиям: кто победил и как это определено?" in page
    response = organiser.post(url(desk, "playoff-winner", final.pk), {"winner": "x"})
    assert refusal(response) == ("bad_winner", "Выберите победителя из списка.")
    response = organiser.post(url(desk, "playoff-winner", final.pk), {"winner": ""})
    assert refusal(response)[0] == "playoff_draw"
    response = organiser.post(
        url(desk, "playoff-winner", final.pk),
        {"winner": final.player2_id, "decided_how": "Дополнительная партия"},
    )
    final.refresh_from_db()
    assert (final.won_by, final.decided_how) == (final.player2_id, "Дополнительная партия")
