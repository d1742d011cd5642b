"""Each refusal of the decks app by its code, with nothing written."""

import pytest

from core.errors import DomainError
from decks import selectors, services
from decks.demo import correct_list
from decks.models import DeckCheck, DeckCheckPick, DeckFormat, DeckList, DeckRules
from tests.factories import Desk


def rows():
    return (
        DeckList.objects.count(),
        DeckCheck.objects.count(),
        DeckCheckPick.objects.count(),
        list(DeckRules.objects.values_list("main_min", "main_max", "self_submission")),
    )


def refused(code, call):
    before = rows()
    with pytest.raises(DomainError) as error:
        call()
    assert error.value.code == code
    assert rows() == before


def test_no_format_when_the_tournament_format_has_no_rules(db):
    desk = Desk.create(players=2, level="professional")
    DeckFormat.objects.all().delete()
    refused(
        "no_format",
        lambda: services.save_decklist(registration=desk.players[0], text="3 А", by=desk.floor),
    )


def test_sizes_least_above_largest(desk):
    rules = selectors.rules_for(tournament=desk.tournament)
    refused(
        "sizes",
        lambda: services.update_rules(
            tournament=desk.tournament,
            deck_format=rules.format,
            pool=rules.pool,
            main_min=50,
            main_max=40,
            extra_max=10,
            copy_limit=3,
            lifting_feature="Орда",
            combine_sections=True,
            check_legality=True,
            self_submission=False,
            deadline=None,
        ),
    )


def test_no_decklists_and_closed_and_bad_item_without_lists(db):
    desk = Desk.create(players=2, level="amateur", uses_decklists=False)
    refused(
        "no_decklists",
        lambda: services.save_decklist(
            registration=desk.players[0], text=correct_list(), by=desk.floor
        ),
    )
    refused(
        "closed",
        lambda: services.submit_own_list(tournament=desk.tournament, code="X", text="3 А"),
    )
    refused(
        "bad_item",
        lambda: services.record_deck_check(
            registration=desk.players[0], judge=desk.floor, checklist=["д"]
        ),
    )


def test_deck_check_refusals(desk):
    refused(
        "no_list",
        lambda: services.record_deck_check(registration=desk.players[0], judge=desk.floor),
    )
    services.save_decklist(registration=desk.players[0], text=correct_list(), by=desk.floor)
    refused(
        "bad_cards",
        lambda: services.record_deck_check(
            registration=desk.players[0], judge=desk.floor, not_on_list="-1 Богарт"
        ),
    )
    refused(
        "bad_count",
        lambda: services.record_deck_check(
            registration=desk.players[0], judge=desk.floor, counted={"гном": (-1, 0)}
        ),
    )


def test_pick_refusals(desk):
    refused(
        "no_round",
        lambda: services.pick_tables(tournament=desk.tournament, by=desk.head, count=1),
    )
    desk.pair((0, 1), (2, 3))
    refused(
        "count",
        lambda: services.pick_tables(tournament=desk.tournament, by=desk.head, count=0),
    )


def test_no_tables_when_the_round_has_only_a_bye(db):
    desk = Desk.create(players=1)
    desk.pair((0, None))
    refused(
        "no_tables",
        lambda: services.pick_tables(tournament=desk.tournament, by=desk.head, count=1),
    )
