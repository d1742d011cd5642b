"""Russian by default; English when the user chooses it."""

from django.urls import reverse


def test_russian_by_default_and_english_on_request(client, desk):
    client.force_login(desk.floor)
    home = reverse("judging:judge-home", args=[desk.tournament.slug])

    assert "Найти игрока" in client.get(home).content.decode()

    client.post(reverse("set_language"), {"language": "en", "next": home})

    assert "Find a player" in client.get(home).content.decode()
