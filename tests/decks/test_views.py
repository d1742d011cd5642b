import re
import uuid
from html import unescape
from urllib.parse import parse_qs, urlsplit

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from decks import services
from decks.demo import correct_list
from decks.models import DeckCheck, DeckList
from judging.models import PenaltyRecord
from judging.penalties import Because
from tests.factories import Desk, UserFactory


def url(name, desk, *args):
    return reverse(f"decks:{name}", args=[desk.tournament.slug, *args])


@pytest.mark.parametrize("role", ["floor", "head", "organiser"])
def test_the_staff_see_the_lists(client, desk, role):
    services.save_decklist(registration=desk.players[0], text=correct_list(), by=desk.floor)
    client.force_login(getattr(desk, role))
    response = client.get(url("player", desk, desk.players[0].pk))
    assert response.status_code == 200
    assert "Огненный дракон" in response.content.decode()


def test_lists_are_hidden_from_anyone_not_on_the_staff(client, desk):
    services.save_decklist(registration=desk.players[0], text=correct_list(), by=desk.floor)
    client.force_login(UserFactory(username="stranger"))
    for page in (
        url("player", desk, desk.players[0].pk),
        url("findings", desk),
        url("overview", desk),
    ):
        assert client.get(page).status_code == 404
    client.logout()
    assert client.get(url("findings", desk)).status_code == 302  # to sign in


def test_staff_paste_a_list_and_see_its_findings_with_the_issue_link(client, desk):
    client.force_login(desk.floor)
    text = correct_list().replace("3 Вампир", "4 Вампир").replace("1 Вайл\n", "")
    response = client.post(
        url("player-save", desk, desk.players[0].pk), {"text": text}, follow=True
    )
    page = response.content.decode()
    assert "4 copies of Вампир in the main deck; at most 3." in page
    link = re.search(r'href="(/t/[^"]+/judge/log/\?[^"]*infraction=[^"]+)"', page)
    assert link is not None
    query = parse_qs(urlsplit(unescape(link.group(1))).query)
    assert query == {
        "player": [str(desk.players[0].pk)],
        "infraction": ["1.1"],
        "sub_item": ["д"],
        "note": ["4 copies of Вампир in the main deck; at most 3."],
    }


def test_a_bad_list_shows_each_line_and_saves_nothing(client, desk):
    client.force_login(desk.floor)
    response = client.post(
        url("player-save", desk, desk.players[0].pk), {"text": "3 Вампир\n-2 Гном\n3 Вампирр"}
    )
    page = " ".join(response.content.decode().split())
    assert response.status_code == 200
    assert "The list was not saved: correct these lines." in page
    assert "line 2: a number of copies cannot be negative" in page
    # English text quotes with English quotation marks (issue 26).
    assert "line 3: “Вампирр” is not a card of the pool; did you mean “Вампир”?" in page
    assert DeckList.objects.count() == 0


def test_one_tap_from_a_finding_issues_through_the_penalty_service_with_repeat(client, desk):
    desk.pair((0, 1), (2, 3))
    client.force_login(desk.floor)
    services.save_decklist(
        registration=desk.players[0],
        text=correct_list().replace("1 Вайл\n", ""),
        by=desk.floor,
        reason="x",
    )
    page = client.get(url("findings", desk)).content.decode()
    link = unescape(
        re.search(r'href="(/t/[^"]+/judge/log/\?[^"]*infraction=[^"]+)"', page).group(1)
    )
    assert client.get(link).status_code == 200
    query = {key: values[0] for key, values in parse_qs(urlsplit(link).query).items()}
    issue = reverse("judging:issue", args=[desk.tournament.slug])
    for second in (False, True):
        client.post(
            issue,
            {
                "player": query["player"],
                "client_key": str(uuid.uuid4()),
                "infraction": query["infraction"],
                "sub_item": f"{query['infraction']}:{query['sub_item']}",
                "moment": "between_games",
                "note": query["note"],
                # The same judge's same infraction a moment later is a second one only when
                # they say so (issue 26: one intention, one record).
                **({"confirm_second": "on"} if second else {}),
            },
        )
    records = list(PenaltyRecord.objects.order_by("pk"))
    assert [(r.infraction.code, r.sub_item, r.because) for r in records] == [
        ("1.1", "б", Because.BASE),
        ("1.1", "б", Because.REPEAT),
    ]
    assert records[0].note == "The main deck lists 39 cards; it needs at least 40."


def test_a_deck_check_finding_a_12_problem(client, desk):
    services.save_decklist(registration=desk.players[0], text=correct_list(), by=desk.floor)
    desk.pair((0, 1), (2, 3))
    client.force_login(desk.floor)
    page = client.get(url("check", desk, desk.players[0].pk)).content.decode()
    fields = dict(re.findall(r'name="((?:main|extra)_\d+)"[^>]*value="(\d+)"', page))
    gnome = re.search(r"<td>Гном</td>.*?name=\"(main_\d+)\"", page, re.S).group(1)
    fields[gnome] = "4"
    response = client.post(
        url("check", desk, desk.players[0].pk),
        {**fields, "client_key": str(uuid.uuid4()), "not_on_list": "", "note": ""},
        follow=True,
    )
    assert "Гном: 4 in the main deck, 3 on the list." in response.content.decode()
    check = DeckCheck.objects.get()
    assert [(f["code"], f["sub_item"]) for f in check.findings] == [("1.2", "в")]


def test_pool_import_with_a_bad_row_names_it(client, desk):
    client.force_login(desk.organiser)
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("pool.csv", "name;set\nВампир;A\nВампир;B\n".encode())
    response = client.post(url("pool-import", desk), {"name": "П", "file": upload})
    assert "line 3: Вампир is already on line 2." in response.content.decode()


def test_players_submit_their_own_list_with_a_code(client, desk):
    services.issue_submission_codes(tournament=desk.tournament)
    code = desk.players[2].submission_code.code
    submit = reverse("decks:submit", args=[desk.tournament.slug])
    assert client.get(submit).status_code == 200
    response = client.post(submit, {"code": code, "text": correct_list()})
    assert 'id="submitted"' in response.content.decode()
    assert DeckList.objects.get().registration == desk.players[2]
    response = client.post(submit, {"code": "NOPE", "text": correct_list()})
    assert "This code is not known here." in response.content.decode()


def _queries(client, page):
    with CaptureQueriesContext(connection) as queries:
        assert client.get(page).status_code == 200
    return len(queries)


def test_the_screens_answer_in_constant_queries(client, db):
    counts = []
    for players in (1, 3):
        desk = Desk.create(players=max(players, 2), level="professional")
        services.import_card_pool(
            tournament=desk.tournament, name="p", content=__import__("decks.demo").demo.pool_csv()
        )
        for registration in desk.players[:players]:
            services.save_decklist(
                registration=registration,
                text=correct_list().replace("1 Вайл\n", ""),
                by=desk.floor,
            )
        services.record_deck_check(registration=desk.players[0], judge=desk.floor, counted={})
        client.force_login(desk.floor)
        counts.append(
            [
                _queries(client, url(name, desk, *args))
                for name, args in (
                    ("overview", ()),
                    ("findings", ()),
                    ("checks", ()),
                    ("check", (desk.players[0].pk,)),
                    ("player", (desk.players[0].pk,)),
                )
            ]
        )
    assert counts[0] == counts[1]


def test_the_judge_report_shows_findings_checks_and_deck_penalties(client, desk):
    services.save_decklist(
        registration=desk.players[0], text=correct_list().replace("1 Вайл\n", ""), by=desk.floor
    )
    desk.pair((0, 1), (2, 3))
    services.record_deck_check(
        registration=desk.players[0], judge=desk.floor, counted={"гном": (4, 0)}
    )
    desk.issue(0, "1.1", sub_item="б", note="39")
    client.force_login(desk.head)
    page = b"".join(
        client.get(reverse("judging:report", args=[desk.tournament.slug])).streaming_content
    )
    section = page.decode().split('id="report-decks"')[1].split("</section>")[0]
    text = " ".join(section.split())
    assert "The main deck lists 39 cards; it needs at least 40." in text
    assert "Гном: 4 in the main deck, 3 on the list." in text
    assert "1.1 а)" in text  # players without a list since the first pairing
    assert "<td>1.1</td> <td>б</td>" in text


def test_the_report_page_shows_a_page_of_deck_penalties_and_the_printed_report_all(
    client, desk, monkeypatch
):
    from decks import report

    monkeypatch.setattr(report, "PAGE_ROWS", 2)
    desk.pair((0, 1), (2, 3))
    records = [desk.issue(index, "1.1") for index in range(3)]
    desk.issue(3, "6.1")  # Not a deck problem: never in the section.
    client.force_login(desk.organiser)
    path = reverse("judging:report", args=[desk.tournament.slug])

    def deck_penalties(query):
        page = b"".join(client.get(path, query).streaming_content).decode()
        section = page.split('id="report-decks"')[1].split("</section>")[0]
        heading, table = section.split("Penalties for deck problems")[1].split("</h3>")
        return " ".join(heading.split()), re.findall(r"<tr><td>(\d+)</td>", table)

    count = '<span class="muted">(3)</span>'
    assert deck_penalties({}) == (count, [str(record.pk) for record in records[:2]])
    assert deck_penalties({"all": 1}) == (count, [str(record.pk) for record in records])


def test_the_judges_player_page_shows_the_list_findings(client, desk):
    services.save_decklist(
        registration=desk.players[1], text=correct_list("3 Шар смерти"), by=desk.floor
    )
    client.force_login(desk.floor)
    page = client.get(reverse("judging:player", args=[desk.tournament.slug, desk.players[1].pk]))
    panel = page.content.decode().split('id="player-decks"')[1]
    assert "Шар смерти is not legal in Стандарт." in panel
    assert "infraction=1.1&amp;sub_item=%D0%B2" in panel


def test_the_deck_section_is_exported_as_csv(client, desk):
    services.save_decklist(
        registration=desk.players[0], text=correct_list().replace("1 Вайл\n", ""), by=desk.floor
    )
    client.force_login(desk.organiser)
    response = client.get(
        reverse("judging:report-export", args=[desk.tournament.slug, "decks", "csv"])
    )
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    assert "The main deck lists 39 cards; it needs at least 40." in text
    assert "1.1" in text


def test_the_long_lists_show_one_page_of_fifty(client, db):
    from decks.views import PAGE_SIZE

    desk = Desk.create(players=PAGE_SIZE + 5, level="professional")
    client.force_login(desk.head)

    first = client.get(url("overview", desk)).content.decode()
    second = client.get(url("overview", desk), {"page": "2"}).content.decode()
    garbage = client.get(url("overview", desk), {"page": "x" * 500})

    def shown(page):
        return len(re.findall(rf'/t/{desk.tournament.slug}/decks/players/\d+/"', page))

    assert (shown(first), shown(second)) == (PAGE_SIZE, 5)
    assert 'href="?page=2"' in first and 'href="?page=1"' in second
    assert garbage.status_code == 200 and shown(garbage.content.decode()) == PAGE_SIZE
