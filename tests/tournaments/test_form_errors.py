"""An invalid form sent by HTMX comes back in its fragment with the errors beside its fields, at
status 200, with nothing changed; without HTMX it is a message and a redirect (test_error_codes)."""

from django.urls import reverse

from tournaments import services
from tournaments.models import RoundDraft


def url(name, desk, *args):
    return reverse(f"tournaments:{name}", args=[desk.tournament.slug, *args])


def htmx_post(client, path, data):
    return client.post(path, data, HTTP_HX_REQUEST="true")


def test_a_swap_of_what_is_no_player_shows_the_draft_with_the_field_errors(client, desk):
    services.draft_next_round(tournament=desk.tournament, seed=1)
    pairings = RoundDraft.objects.get(tournament=desk.tournament).pairings
    client.force_login(desk.organiser)

    response = htmx_post(client, url("round-swap", desk), {"first": "x", "second": ""})

    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<section id="round-draft"')
    assert response.context["swap_form"].errors == {
        "first": ["Выберите из списка."],
        "second": ["Обязательное поле."],
    }
    assert body.count('aria-invalid="true"') == 2
    assert '<small class="error">Выберите из списка.</small>' in body
    assert RoundDraft.objects.get(tournament=desk.tournament).pairings == pairings


def test_a_result_out_of_range_shows_the_row_with_what_was_typed_and_the_error(client, desk):
    desk.pair((0, 1), (2, 3))
    match = desk.match_of(0)
    client.force_login(desk.floor)

    response = htmx_post(
        client,
        url("match-result", desk, match.pk),
        {"player1_wins": "9", "player2_wins": "1", "draws": ""},
    )

    body = response.content.decode()
    match.refresh_from_db()
    assert response.status_code == 200
    assert body.lstrip().startswith(f'<tr id="match-row-{match.pk}"')
    assert list(response.context["result_form"].errors) == ["player1_wins"]
    assert 'name="player1_wins" min="0" max="2"\n  value="9" aria-invalid="true"' in body
    assert 'name="player2_wins" min="0" max="2"\n  value="1"' in body
    assert '<small class="error">Убедитесь, что это значение меньше либо равно 3.</small>' in body
    assert (match.player1_wins, match.player2_wins, match.ended_at) == (0, 0, None)


def test_a_refused_result_keeps_what_was_typed(client, desk):
    desk.pair((0, 1), (2, 3))
    match = desk.match_of(0)
    client.force_login(desk.floor)

    response = htmx_post(
        client, url("match-result", desk, match.pk), {"player1_wins": "2", "player2_wins": "2"}
    )

    body = response.content.decode()
    match.refresh_from_db()
    assert response.status_code == 200
    assert 'role="alert"' in body
    assert 'name="player1_wins" min="0" max="2"\n  value="2"' in body
    assert 'name="player2_wins" min="0" max="2"\n  value="2"' in body
    assert match.ended_at is None


def test_a_refusal_told_as_a_message_carries_its_code_on_the_page(client, desk):
    client.force_login(desk.organiser)

    response = client.post(url("registration-add", desk), {"player": "abc"}, follow=True)

    assert '<li class="error"\n      data-code="unknown_player">' in response.content.decode()


def test_a_correction_out_of_range_shows_the_error_beside_its_field(client, desk):
    desk.pair((0, 1), (2, 3))
    match = desk.match_of(0)
    desk.win(0)
    desk.win(0)
    client.force_login(desk.head)

    response = htmx_post(
        client,
        url("match-correct", desk, match.pk),
        {"player1_wins": "1", "player2_wins": "8", "draws": "0", "reason": "ошибка"},
    )

    body = response.content.decode()
    match.refresh_from_db()
    assert response.status_code == 200
    assert body.lstrip().startswith('<section id="match-result"')
    assert list(response.context["form"].errors) == ["player2_wins"]
    assert 'value="8"' in body and 'required aria-invalid="true"' in body
    assert '<small class="error">Убедитесь, что это значение меньше либо равно 3.</small>' in body
    assert (match.player1_wins, match.player2_wins, match.corrections.count()) == (2, 0, 0)
