"""The pool import by header names (issue 28 item 3), the pools each organiser sees, and lists
read again when the pool changes."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from decks import selectors, services
from decks.demo import correct_list
from decks.models import Card, CardPool, Finding
from decks.pool_file import file_rows, read_pool
from tests.factories import Desk, UserFactory

FORMATS = {"стандарт": "standard", "standard": "standard", "констрактед": "constructed"}


def read(text):
    return read_pool(file_rows(text), FORMATS)


@pytest.mark.parametrize(
    "text",
    [
        "название,стихия,тип\nХакодар,Тьма,Герой\n",
        "ТИП;Название;СТИХИЯ\nГерой;Хакодар;Тьма\n",
        "Стоимость\tКласс\tНазвание\tСтихия\tТип\tХудожник\n0\tВоин\tХакодар\tТьма\tгерой\tX\n",
        "Name,Element,Type\nХакодар,Тьма,hero\n",
    ],
)
def test_columns_are_found_by_their_names_in_any_order_and_case(text):
    result = read(text)
    assert result.ok, result.errors
    [card] = result.cards
    assert (card.name, card.elements, card.is_hero) == ("Хакодар", ("Тьма",), True)


def test_every_column_of_the_issue_is_read():
    text = (
        "название;особенности;стихия;тип;выпуск;запрещена в;разрешена в\n"
        'Гоблин;"Орда, Засада";Тьма;Существо;Демо;Стандарт;\n'
        "Шар;;Тьма, Лес;Заклинание;Демо;;Констрактед\n"
    )
    result = read(text)
    assert result.ok, result.errors
    goblin, ball = result.cards
    assert (goblin.features, goblin.banned_in, goblin.legal_in, goblin.set_name) == (
        ("Орда", "Засада"),
        ("standard",),
        (),
        "Демо",
    )
    assert (ball.elements, ball.is_hero, ball.legal_in) == (
        ("Тьма", "Лес"),
        False,
        ("constructed",),
    )


def test_a_file_without_a_header_is_read_in_the_old_order():
    result = read("Вампир;Демо;Орда;Стандарт\n")
    assert [(c.name, c.set_name, c.features, c.legal_in) for c in result.cards] == [
        ("Вампир", "Демо", ("Орда",), ("standard",))
    ]


@pytest.mark.parametrize(
    ("text", "errors"),
    [
        ("название;стихия\n;Тьма\nВампир;Тьма\n", [2]),
        ("название;запрещена в\nВампир;Модерн\nВайл;Стандарт\n", [2]),
        ("название\nВампир\nвампир\n", [3]),
        ("название\n" + "x" * 201 + "\n", [2]),
        ("Вампир;Демо;;;лишнее\n", [1]),
        ("название;стихия\n", [0]),
    ],
)
def test_bad_rows_are_named(text, errors):
    assert [line for line, _message in read(text).errors] == errors


def test_an_import_with_a_bad_row_imports_nothing(db):
    desk = Desk.create(players=2, level="professional", uses_decklists=True)
    content = "Название;Запрещена в\nВампир;\nВайл;Модерн\n".encode()
    report = services.import_card_pool(tournament=desk.tournament, name="x", content=content)
    assert [line for line, _message in report.errors] == [3]
    assert (CardPool.objects.count(), Card.objects.count()) == (0, 0)


def test_an_imported_pool_belongs_to_its_organiser_and_keeps_what_it_read(db):
    desk = Desk.create(players=2, level="professional", uses_decklists=True)
    content = "Тип;Название;Стихия;Запрещена в\nГерой;Хакодар;Тьма;Стандарт\n".encode("cp1251")
    report = services.import_card_pool(
        tournament=desk.tournament, name="Мой", content=content, owner=desk.organiser
    )
    assert report.ok
    card = Card.objects.get()
    assert (card.pool.owner, card.elements, card.is_hero, card.banned_in, card.legal_in) == (
        desk.organiser,
        ["Тьма"],
        True,
        ["standard"],
        [],
    )


def test_the_rules_form_offers_only_the_organiser_s_own_pools(client, db):
    desk = Desk.create(players=2, level="professional", uses_decklists=True)
    other = UserFactory(username="another-organiser")
    theirs = CardPool.objects.create(name="Чужой пул", owner=other)
    client.force_login(desk.organiser)
    upload = SimpleUploadedFile("pool.csv", "название\nВампир\n".encode())
    pool_url = reverse("decks:pool-import", args=[desk.tournament.slug])
    client.post(pool_url, {"name": "Свой пул", "file": upload})
    mine = CardPool.objects.get(name="Свой пул")
    assert mine.owner == desk.organiser
    page = client.get(reverse("decks:rules", args=[desk.tournament.slug])).content.decode()
    assert "Свой пул" in page
    assert "Чужой пул" not in page
    assert list(selectors.pools_for(user=desk.organiser, current=None)) == [mine]
    assert theirs not in selectors.pools_for(user=desk.organiser, current=mine.pk)


def test_a_new_pool_with_a_ban_reaches_the_lists_already_in(
    desk, django_capture_on_commit_callbacks
):
    services.save_decklist(registration=desk.players[0], text=correct_list(), by=desk.floor)
    assert Finding.objects.count() == 0
    banned = "название;запрещена в\n" + "".join(
        f"{name};{'Стандарт' if name == 'Вампир' else ''}\n"
        for name in Card.objects.values_list("name", flat=True).distinct()
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.import_card_pool(
            tournament=desk.tournament, name="С баном", content=banned.encode()
        )
    assert list(Finding.objects.values_list("sub_item", "kind", "params")) == [
        ("в", "not_legal", {"card": "Вампир", "format": "Стандарт"})
    ]
    # The list's lines read the new pool's cards.
    new_pool = selectors.rules_for(tournament=desk.tournament).pool
    lines = selectors.saved_lines(decklist=desk.players[0].decklist)
    assert {line.card.pool_id for line in lines} == {new_pool.pk}
