"""The player's own list (issue 28 item 5): read back as the judges read it and fixable before
the deadline; personal codes throttled; printed slips and registration sheets."""

import pytest
from django.core.cache import cache
from django.urls import reverse

from core.errors import DomainError
from decks import services
from decks.demo import correct_list
from decks.models import DeckList


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


def submit_url(desk):
    return reverse("decks:submit", args=[desk.tournament.slug])


HERO_LIST = "Иванов Иван\nГерой: Хакодар\n" + correct_list(extra="").replace(
    "Дополнительная колода:\n", ""
)


def test_the_player_sees_the_list_as_the_judges_read_it_and_fixes_it(client, desk):
    services.issue_submission_codes(tournament=desk.tournament)
    code = desk.players[1].submission_code.code
    text = HERO_LIST + "Сайд:\n1 Лесная фея\n"
    page = client.post(submit_url(desk), {"code": code, "text": text}).content.decode()
    findings = page.split('id="as-read-findings"')[1].split("</div>")[0]
    assert findings.count("<li>") == 1
    assert "<strong>1.1 д</strong>: Cards of neither the hero&#x27;s element (Хакодар: Тьма)" in (
        findings
    )
    assert "Лесная фея." in findings
    assert '<dd id="as-read-hero">Хакодар</dd>' in page
    # The form comes back filled in with the code and the list, to correct and send again.
    assert f'value="{code}"' in page and "1 Лесная фея</textarea>" in page
    page = client.post(submit_url(desk), {"code": code, "text": HERO_LIST}).content.decode()
    assert 'id="as-read-correct"' in page
    decklist = DeckList.objects.get()
    assert (decklist.version, decklist.findings.count()) == (2, 0)


def test_a_short_list_is_told_to_the_player_not_to_the_judges_only(client, desk):
    services.issue_submission_codes(tournament=desk.tournament)
    code = desk.players[0].submission_code.code
    text = correct_list().replace("1 Вайл\n", "")
    page = client.post(submit_url(desk), {"code": code, "text": text}).content.decode()
    assert "<strong>1.1 б</strong>: The main deck lists 39 cards; it needs at least 40." in page


def test_wrong_codes_are_throttled_per_client_revealing_nothing(client, desk):
    services.issue_submission_codes(tournament=desk.tournament)
    good = desk.players[0].submission_code.code
    for _ in range(services.CODE_TRIES_PER_CLIENT):
        page = client.post(submit_url(desk), {"code": "WRONG", "text": correct_list()})
        assert "This code is not known here." in page.content.decode()
    # Now even the right code is refused without being looked at: nothing is revealed.
    page = client.post(submit_url(desk), {"code": good, "text": correct_list()}).content.decode()
    assert "Too many wrong codes. Wait 15 minutes, or ask the organiser for your code." in page
    assert DeckList.objects.count() == 0
    # Another client is not held up by this one.
    page = client.post(
        submit_url(desk), {"code": good, "text": correct_list()}, REMOTE_ADDR="10.9.9.9"
    )
    assert 'id="submitted"' in page.content.decode()


def test_wrong_codes_are_throttled_per_tournament(desk):
    services.issue_submission_codes(tournament=desk.tournament)
    good = desk.players[0].submission_code.code
    for n in range(services.CODE_TRIES_PER_TOURNAMENT):
        with pytest.raises(DomainError) as refused:
            services.submit_own_list(
                tournament=desk.tournament, code="WRONG", text="3 Вампир", client=f"10.0.{n}.1"
            )
        assert refused.value.code == "bad_code"
    with pytest.raises(DomainError) as refused:
        services.submit_own_list(
            tournament=desk.tournament, code=good, text=correct_list(), client="10.1.1.1"
        )
    assert refused.value.code == "code_throttled"


def test_the_organiser_prints_a_slip_per_player_with_code_and_qr(client, desk):
    services.issue_submission_codes(tournament=desk.tournament)
    client.force_login(desk.organiser)
    page = client.get(reverse("decks:code-slips", args=[desk.tournament.slug])).content.decode()
    slips = page.split('id="code-slips"')[1]
    assert slips.count('<article class="slip"') == 4
    for registration in desk.players:
        assert f'<strong class="slip-code">{registration.submission_code.code}</strong>' in slips
    assert slips.count('class="qr"') == 4
    client.force_login(desk.floor)
    response = client.get(reverse("decks:code-slips", args=[desk.tournament.slug]))
    assert response.status_code == 403


def test_staff_print_a_list_as_a_registration_sheet(client, desk):
    services.save_decklist(
        registration=desk.players[0],
        text=HERO_LIST.replace("3 Вампир\n", "4 Вампир\n").replace("1 Вайл\n", ""),
        by=desk.floor,
    )
    client.force_login(desk.floor)
    sheet = client.get(
        reverse("decks:sheet", args=[desk.tournament.slug, desk.players[0].pk])
    ).content.decode()
    assert "<dd>Хакодар</dd>" in sheet
    assert "<caption>Main deck: 40</caption>" in sheet
    assert "<tr><td>4</td><td>Вампир</td></tr>" in sheet
    assert "<strong>1.1 д</strong>: 4 copies of Вампир in the main deck; at most 3." in sheet
    missing = reverse("decks:sheet", args=[desk.tournament.slug, desk.players[1].pk])
    assert client.get(missing).status_code == 404
