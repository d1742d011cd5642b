"""Adding infractions the shipped edition does not hold, for one tournament only."""

import pytest
from django.urls import reverse

from core.errors import DomainError
from judging.models import GuidelineEdition, PenaltyRecord
from judging.selectors import edition_for
from tests.factories import Desk


def url(desk):
    return reverse("judging:guideline", args=[desk.tournament.slug])


def added(**fields):
    return {
        "code": "4.2",
        "name": "Неспортивное поведение",
        "section_name": "Поведение",
        "availability": "any",
        "amateur": "caution",
        "professional": "warning",
        "highest": "warning",
        **fields,
    }


def test_an_added_infraction_behaves_like_a_shipped_one_in_this_tournament_only(client, desk):
    other = Desk.create()
    client.force_login(desk.head)

    response = client.post(url(desk), added())

    assert response.status_code == 302
    assert edition_for(tournament=desk.tournament).infractions.filter(code="4.2").exists()
    assert not edition_for(tournament=other.tournament).infractions.filter(code="4.2").exists()
    desk.pair((0, 1), (2, 3))
    desk.issue(0, "4.2")
    assert desk.issue(0, "4.2").rank == 2  # a repeat, as for any infraction
    assert GuidelineEdition.objects.count() == 2
    page = client.get(url(desk)).content.decode()
    assert "Неспортивное поведение" in page


def test_a_level_without_a_penalty_makes_it_unavailable_there(client, desk):
    client.force_login(desk.organiser)
    client.post(url(desk), added(code="5.1", amateur=""))
    desk.pair((0, 1), (2, 3))

    with pytest.raises(DomainError) as caught:
        desk.issue(0, "5.1")

    assert caught.value.code == "infraction_unavailable"
    assert PenaltyRecord.objects.count() == 0


def test_bad_input_is_explained_and_adds_nothing(client, desk):
    client.force_login(desk.head)

    response = client.post(url(desk), added(code="x", amateur="", professional="", highest=""))

    body = response.content.decode()
    assert response.status_code == 200
    assert 'class="field invalid"' in body
    assert GuidelineEdition.objects.count() == 1


def test_a_floor_judge_reads_the_guideline_but_cannot_add(client, desk):
    client.force_login(desk.floor)

    assert client.get(url(desk)).status_code == 200
    client.post(url(desk), added())

    assert GuidelineEdition.objects.count() == 1


def test_a_new_section_needs_its_name_and_adds_nothing_without_it(client, desk):
    client.force_login(desk.head)

    response = client.post(url(desk), added(section_name=""))

    assert response.status_code == 200
    assert "Раздел 4 новый в этом уложении: укажите его название." in response.content.decode()
    assert GuidelineEdition.objects.count() == 1
    assert not edition_for(tournament=desk.tournament).infractions.filter(code="4.2").exists()


def test_a_section_the_guideline_names_keeps_its_name(client, desk):
    client.force_login(desk.head)

    client.post(url(desk), added(code="2.1", name="Пример 2.1", section_name=""))
    client.post(url(desk), added(code="4.3", section_name="  Поведение игроков "))
    client.post(url(desk), added(code="4.4", section_name=""))

    infractions = edition_for(tournament=desk.tournament).infractions
    assert infractions.get(code="2.1").section_name == "Процессуальные ошибки"
    assert infractions.get(code="4.3").section_name == "Поведение игроков"
    assert infractions.get(code="4.4").section_name == "Поведение игроков"
    page = client.get(
        reverse("judging:log", args=[desk.tournament.slug]), {"player": desk.players[0].pk}
    ).content.decode()
    assert "2. Процессуальные ошибки" in page
    assert "4. Поведение игроков" in page


def test_the_shipped_cheating_infraction_holds_only_what_is_known(desk):
    cheating = edition_for(tournament=desk.tournament).infractions.get(code="6.1")

    assert (cheating.name, cheating.section_name) == (
        "Мошенничество – нечистая игра",
        "Мошенничество",
    )
    assert cheating.description.startswith("Мошенничество, нечистая игра: доказанное использование")
    assert (cheating.sub_items, cheating.examples, cheating.philosophy, cheating.remedy) == (
        [],
        [],
        "",
        "",
    )


def test_a_shipped_infraction_is_replaced_for_this_tournament_with_its_reason_in_the_report(
    client, desk
):
    other = Desk.create()
    client.force_login(desk.head)

    response = client.post(
        url(desk),
        added(
            code="1.4",
            name="Ошибки в деклисте",
            section_name="",
            availability="decklists",
            amateur="warning",
            replacement_reason="Положение турнира строже руководства",
        ),
    )

    assert response.status_code == 302
    mine = edition_for(tournament=desk.tournament).infractions.get(code="1.4")
    shipped = edition_for(tournament=other.tournament).infractions.get(code="1.4")
    assert (mine.penalty_amateur, mine.replaced_because) == (
        2,
        "Положение турнира строже руководства",
    )
    assert (shipped.penalty_amateur, shipped.replaced_because) == (1, "")
    desk.pair((0, 1), (2, 3))
    assert desk.issue(0, "1.4").rank == 2
    report = client.get(reverse("judging:report", args=[desk.tournament.slug]))
    body = b"".join(report.streaming_content).decode()
    assert "Нарушения, заменённые для этого турнира" in body
    assert "1.4 Ошибки в деклисте: Положение турнира строже руководства" in body


def test_replacing_without_a_reason_says_why_beside_the_field(client, desk):
    client.force_login(desk.head)

    response = client.post(url(desk), added(code="1.4", replacement_reason=""))

    assert response.status_code == 200
    form = response.context["form"]
    assert list(form.errors) == ["replacement_reason"]
    assert "напишите, почему этот турнир его заменяет" in form.errors["replacement_reason"][0]
    assert edition_for(tournament=desk.tournament).infractions.get(code="1.4").penalty_amateur == 1
