"""The shared parser: control characters anywhere, huge numbers and long text are refused with a
clear message at 400, and nothing changes."""

from django.urls import reverse

from judging.models import PenaltyChange, RecordStatus

HUGE = "9" * 4301


def test_a_nul_in_the_judges_search_is_refused_with_a_message(client, desk):
    client.force_login(desk.floor)

    response = client.get(reverse("judging:judge-home", args=[desk.tournament.slug]), {"q": "\x00"})

    assert response.status_code == 400
    assert "управляющие символы" in response.content.decode()


def test_a_nul_in_the_registry_search_is_refused(client, desk):
    client.force_login(desk.organiser)

    response = client.get(
        reverse("tournaments:player-search", args=[desk.tournament.slug]), {"q": "Ив\x00"}
    )

    assert response.status_code == 400


def test_an_over_long_search_is_refused_with_a_message(client, desk):
    client.force_login(desk.floor)

    response = client.get(
        reverse("judging:judge-home", args=[desk.tournament.slug]), {"q": "9" * 101}
    )

    assert response.status_code == 400
    assert "Поиск — не длиннее 100 символов." in response.content.decode()


def test_a_round_number_of_thousands_of_digits_is_refused(client, desk):
    client.force_login(desk.organiser)

    response = client.get(
        reverse("tournaments:standings", args=[desk.tournament.slug]), {"round": HUGE}
    )

    assert response.status_code == 400
    assert "Выберите тур из списка." in response.content.decode()


def test_a_nul_in_the_head_judges_reason_changes_nothing(client, desk):
    desk.pair((0, 1), (2, 3))
    record = desk.issue(0, "6.1", by="floor")
    client.force_login(desk.head)
    url = reverse("judging:console-act", args=[desk.tournament.slug, record.pk, "confirm"])

    response = client.post(url, {"reason": "Снят\x00"})

    record.refresh_from_db()
    assert response.status_code == 400
    assert record.status == RecordStatus.AWAITING_HEAD_JUDGE
    assert PenaltyChange.objects.filter(record=record).count() == 1


def test_an_over_long_reason_is_refused_with_a_message(client, desk):
    desk.pair((0, 1), (2, 3))
    record = desk.issue(0, "6.1", by="floor")
    client.force_login(desk.head)
    url = reverse("judging:console-act", args=[desk.tournament.slug, record.pk, "confirm"])

    response = client.post(url, {"reason": "x" * 2001}, follow=True)

    record.refresh_from_db()
    assert "Причина — не длиннее 2000 символов." in response.content.decode()
    assert record.status == RecordStatus.AWAITING_HEAD_JUDGE


def test_a_registry_player_id_of_thousands_of_digits_is_refused(client, desk):
    client.force_login(desk.organiser)

    response = client.post(
        reverse("tournaments:registration-add", args=[desk.tournament.slug]),
        {"player": HUGE},
        follow=True,
    )

    assert "Выберите игрока из реестра." in response.content.decode()
    assert desk.tournament.registrations.count() == 4


def test_a_record_id_too_large_for_the_database_is_not_found(client, desk):
    client.force_login(desk.head)

    response = client.get(f"/t/{desk.tournament.slug}/records/{'9' * 30}/")

    assert response.status_code == 404
