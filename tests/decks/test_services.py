import datetime
import uuid

import pytest
from django.utils import timezone, translation

from core.errors import DomainError
from decks import picking, selectors, services
from decks.demo import correct_list
from decks.models import Card, CardPool, DeckCheck, DeckList, DeckListVersion, Finding


def test_pool_import_reports_every_bad_row_and_imports_nothing(desk):
    pools, cards = CardPool.objects.count(), Card.objects.count()
    content = "name;set;features;legal\nВампир;A;;\n;A;;\nвампир;A;;\nГном;A;;Неведомый\n".encode()
    report = services.import_card_pool(tournament=desk.tournament, name="x", content=content)
    assert [line for line, _problem in report.errors] == [3, 4, 5]
    assert (CardPool.objects.count(), Card.objects.count()) == (pools, cards)


def test_pool_import_reads_features_and_formats(desk):
    content = "name,set,features,legal\nОрк,Б,Орда;Тьма,Стандарт;constructed\n".encode("cp1251")
    report = services.import_card_pool(tournament=desk.tournament, name="Новый", content=content)
    assert report.ok and report.imported == 1
    card = Card.objects.get(pool=report.pool)
    assert (card.name, card.features, card.legal_in) == (
        "Орк",
        ["Орда", "Тьма"],
        ["constructed", "standard"],
    )
    assert selectors.rules_for(tournament=desk.tournament).pool == report.pool


def test_a_saved_list_is_checked_at_once(desk):
    saved = services.save_decklist(
        registration=desk.players[0], text=correct_list().replace("1 Вайл\n", ""), by=desk.floor
    )
    assert [(f.code, f.sub_item, f.kind) for f in saved.findings] == [("1.1", "б", "main_short")]
    assert list(Finding.objects.values_list("sub_item", "kind")) == [("б", "main_short")]
    # Corrected: the finding goes, the history keeps both versions.
    services.save_decklist(registration=desk.players[0], text=correct_list(), by=desk.floor)
    assert Finding.objects.count() == 0
    decklist = DeckList.objects.get()
    assert decklist.version == 2
    assert list(decklist.versions.values_list("number", flat=True)) == [2, 1]


@pytest.mark.parametrize(
    "text",
    ["3 Вампир\n-1 Гном\n!!!", "1 Вампир\n" * 10_000, "999 Вампир", "3 Вампир 2"],
)
def test_bad_lists_save_nothing(desk, text):
    with pytest.raises(DomainError) as refused:
        services.save_decklist(registration=desk.players[0], text=text, by=desk.floor)
    assert refused.value.code in ("list_refused", "too_long")
    assert (DeckList.objects.count(), Finding.objects.count()) == (0, 0)


def test_unmatched_names_saved_as_written_only_when_the_staff_says_so(desk):
    text = correct_list("1 Вмпр")
    with pytest.raises(services.ListRefused) as refused:
        services.save_decklist(registration=desk.players[0], text=text, by=desk.floor)
    assert [(u.name, u.suggestions) for u in refused.value.unmatched] == [("Вмпр", ["Вампир"])]
    saved = services.save_decklist(
        registration=desk.players[0], text=text, by=desk.floor, accept_unmatched=True
    )
    assert [(f.code, f.sub_item) for f in saved.findings] == [("1.4", "а")]


def test_missing_lists_are_found_at_the_first_pairing(desk):
    services.save_decklist(registration=desk.players[0], text=correct_list(), by=desk.floor)
    assert selectors.missing_lists(tournament=desk.tournament) == []
    desk.pair((0, 1), (2, 3))
    missing = selectors.missing_lists(tournament=desk.tournament)
    assert [(row.registration, row.sub_item) for row in missing] == [
        (desk.players[1], "а"),
        (desk.players[2], "а"),
        (desk.players[3], "а"),
    ]


def test_missing_lists_are_found_at_the_deadline(desk):
    rules = selectors.rules_for(tournament=desk.tournament)
    rules.deadline = timezone.now() - datetime.timedelta(minutes=1)
    rules.save()
    assert len(selectors.missing_lists(tournament=desk.tournament)) == 4


def test_players_submit_with_their_code_until_the_lists_lock(desk):
    services.issue_submission_codes(tournament=desk.tournament)
    code = desk.players[1].submission_code.code
    with pytest.raises(DomainError) as refused:
        services.submit_own_list(tournament=desk.tournament, code="WRONG123", text=correct_list())
    assert refused.value.code == "bad_code"
    saved = services.submit_own_list(
        tournament=desk.tournament, code=code.lower(), text=correct_list()
    )
    assert saved.decklist.registration == desk.players[1]
    assert DeckListVersion.objects.get().by_player
    desk.pair((0, 1), (2, 3))  # no deadline set: the first pairing locks the lists
    with pytest.raises(DomainError) as refused:
        services.submit_own_list(tournament=desk.tournament, code=code, text=correct_list())
    assert refused.value.code == "locked"
    # Staff may still correct, with the reason kept in the history.
    with pytest.raises(DomainError) as refused:
        services.save_decklist(registration=desk.players[1], text=correct_list(), by=desk.floor)
    assert refused.value.code == "reason_required"
    services.save_decklist(
        registration=desk.players[1], text=correct_list(), by=desk.floor, reason="опечатка"
    )
    assert list(DeckListVersion.objects.values_list("number", "by_player", "reason")) == [
        (2, False, "опечатка"),
        (1, True, ""),
    ]


def test_a_deck_check_names_12_and_is_logged_with_round_and_table(desk):
    services.save_decklist(registration=desk.players[2], text=correct_list(), by=desk.floor)
    desk.pair((0, 1), (2, 3))
    key = uuid.uuid4()
    check = services.record_deck_check(
        registration=desk.players[2],
        judge=desk.floor,
        counted={"гном": (4, 0)},
        not_on_list="1 Богарт",
        client_key=key,
    )
    assert (check.round.number, check.table, check.judge, check.outcome) == (
        1,
        desk.match_of(2).table,
        desk.floor,
        "problems",
    )
    assert [(f["code"], f["sub_item"]) for f in check.findings] == [("1.2", "б"), ("1.2", "в")]
    # A double tap records once.
    again = services.record_deck_check(
        registration=desk.players[2], judge=desk.floor, counted={}, client_key=key
    )
    assert again.pk == check.pk and DeckCheck.objects.count() == 1


def test_without_lists_the_judge_ticks_13(db):
    from tests.factories import Desk

    desk = Desk.create(players=2, level="amateur", uses_decklists=False)
    check = services.record_deck_check(
        registration=desk.players[0], judge=desk.head, checklist=["г", "а"]
    )
    assert [(f["code"], f["sub_item"]) for f in check.findings] == [("1.3", "а"), ("1.3", "г")]
    with pytest.raises(DomainError):
        services.record_deck_check(registration=desk.players[0], judge=desk.head, checklist=["ж"])


def test_the_same_seed_picks_the_same_tables(db):
    from tests.factories import Desk

    desk = Desk.create(players=8)
    desk.pair((0, 1), (2, 3), (4, 5), (6, 7))
    first = services.pick_tables(tournament=desk.tournament, by=desk.head, count=2, seed=42)
    second = services.pick_tables(tournament=desk.tournament, by=desk.head, count=2, seed=42)
    assert first.tables == second.tables and len(first.tables) == 2
    assert first.seed == 42


def test_pick_weights_favour_top_tables_and_unchecked_players():
    weights = dict(picking.pick_weights([(1, [1, 2]), (2, [3, 4]), (3, [5, 6])], {1: 1}))
    assert weights[2] > weights[3]  # top tables more likely
    assert weights[1] < weights[2]  # a player checked before: less likely


def test_the_length_limit_counts_a_line_break_once_and_names_the_figure_typed(desk):
    line = "3 Вампир\r\n"
    text = line * (services.MAX_TEXT // (len(line) - 1))
    typed = len(text.replace("\r\n", "\n"))
    assert typed <= services.MAX_TEXT < len(text)
    with pytest.raises(DomainError) as refused:
        services.save_decklist(registration=desk.players[0], text=text, by=desk.floor)
    # Within the limit as typed: refused for its content (too many lines), not its length.
    assert refused.value.code == "list_refused"
    longer = "я" * (services.MAX_TEXT + 21)
    with pytest.raises(DomainError) as refused, translation.override("ru"):
        services.save_decklist(registration=desk.players[0], text=longer, by=desk.floor)
    assert (refused.value.code, str(refused.value.message)) == (
        "too_long",
        f"В дек-листе {services.MAX_TEXT + 21} символ; допускается не больше {services.MAX_TEXT}.",
    )


def test_the_tournament_and_its_deck_rules_have_one_format(desk):
    from decks.models import DeckFormat
    from tournaments.models import Tournament
    from tournaments.services.setup import update_tournament

    # The fixture chose Стандарт in the deck rules: it is the tournament's format.
    assert Tournament.objects.get(pk=desk.tournament.pk).format == "standard"
    assert selectors.rules_for(tournament=desk.tournament).format.slug == "standard"
    # Changed on the tournament, the rules follow, and every list is checked against it.
    update_tournament(tournament=desk.tournament, format="draft")
    rules = selectors.rules_for(tournament=desk.tournament)
    assert rules.format == DeckFormat.objects.get(slug="draft")
    assert selectors.rule_set(rules).format_slug == "draft"
