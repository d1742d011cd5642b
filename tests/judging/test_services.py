"""The penalty service through its public functions, with real rows read back."""

import uuid

import pytest

from core.errors import DomainError
from judging import selectors, services
from judging.models import ChangeKind, PenaltyChange, PenaltyRecord, RecordStatus
from judging.penalties import AppliesTo, Because, Rank
from judging.services import issuing
from judging.services.history import held_penalties
from players.models import MembershipSuspension
from tests.factories import Desk, PlayerFactory
from tournaments import selectors as tournament_selectors
from tournaments import services as tournament_services
from tournaments.models import Match, RegistrationStatus


def refused(code, action, *args, **kwargs):
    records_before = PenaltyRecord.objects.count()
    changes_before = PenaltyChange.objects.count()
    with pytest.raises(DomainError) as caught:
        action(*args, **kwargs)
    assert caught.value.code == code
    assert str(caught.value.message)
    assert PenaltyRecord.objects.count() == records_before
    assert PenaltyChange.objects.count() == changes_before
    return caught.value


def test_first_offence_is_recorded_with_its_history(desk):
    desk.pair((0, 1), (2, 3))

    record = desk.issue(0, "1.4", note="  сокращения  ", sub_item="а")

    record.refresh_from_db()
    assert (record.base_rank, record.rank, record.because) == (Rank.CAUTION, Rank.CAUTION, "base")
    assert (record.status, record.applies_to, record.note) == (
        RecordStatus.IN_FORCE,
        "",
        "сокращения",
    )
    assert record.round.number == 1
    assert list(record.history.values_list("kind", "author", "to_rank")) == [
        (ChangeKind.ISSUED, desk.head.pk, Rank.CAUTION)
    ]


def test_a_repeat_names_the_record_it_repeats_and_explains_itself(desk):
    desk.pair((0, 1), (2, 3))
    first = desk.issue(0, "1.4")

    second = desk.issue(0, "1.4")

    assert (second.base_rank, second.rank, second.because) == (
        Rank.CAUTION,
        Rank.WARNING,
        Because.REPEAT,
    )
    assert second.repeat_of == first
    assert second.explanation_text == "повтор 1.4 (уже было: Замечание, тур 1)"


@pytest.mark.parametrize(
    ("code", "level", "decklists", "error"),
    [
        ("9.9", "amateur", True, "unknown_infraction"),
        ("1.3", "highest", True, "infraction_unavailable"),
        ("1.3", "amateur", True, "infraction_unavailable"),
        ("1.1", "amateur", False, "infraction_unavailable"),
    ],
)
def test_an_infraction_that_cannot_be_issued_here_is_refused(db, code, level, decklists, error):
    desk = Desk.create(level=level, uses_decklists=decklists)
    desk.pair((0, 1), (2, 3))

    refused(error, desk.issue, 0, code)


def test_in_game_needs_a_match_in_progress(desk):
    refused("no_match_in_progress", desk.issue, 0, "1.4", "in_game")
    refused("unknown_moment", desk.issue, 0, "1.4", "at_lunch")


def test_an_unknown_sub_item_is_refused(desk):
    desk.pair((0, 1), (2, 3))

    refused("unknown_sub_item", desk.issue, 0, "1.4", sub_item="я")


def test_only_judges_of_the_tournament_issue(desk):
    desk.pair((0, 1), (2, 3))
    other = Desk.create()

    for outsider in (desk.organiser, other.head):
        refused(
            "not_a_judge",
            services.issue_penalty,
            registration=desk.players[0],
            infraction_code="1.4",
            moment="in_game",
            issued_by=outsider,
        )


def send_form(desk, key):
    """The floor judge sends the form with that key for the first player: the service's answer."""
    return services.issue_penalty(
        registration=desk.players[0],
        infraction_code="1.4",
        moment="in_game",
        issued_by=desk.floor,
        client_key=key,
    )


def test_a_retry_with_the_same_client_key_records_once(desk):
    desk.pair((0, 1), (2, 3))
    key = uuid.uuid4()

    first = send_form(desk, key)
    again = send_form(desk, key)

    assert (first.created, again.created) == (True, False)
    assert again.record.pk == first.record.pk
    assert desk.ranks(0) == ["caution"]


def test_a_retry_that_raced_past_the_key_check_answers_with_the_first_record(desk, monkeypatch):
    """Two sends of one form can both miss the key in their read (another process, a connection
    each); the database's unique key refuses the second row, the service rolls its work back and
    answers with the record the first one made."""
    desk.pair((0, 1), (2, 3))
    key = uuid.uuid4()
    first = desk.issue(0, "1.4", by="floor", client_key=key)
    # The read under the lock, as the second send saw it before the first committed.
    monkeypatch.setattr(issuing, "records_held_or_keyed", lambda *args: [])

    again = send_form(desk, key)

    assert again.created is False
    assert again.record.pk == first.pk
    assert desk.ranks(0) == ["caution"]
    assert PenaltyChange.objects.filter(record__registration=desk.players[0]).count() == 1


def test_a_key_that_raced_past_the_check_for_another_player_is_refused(desk, monkeypatch):
    desk.pair((0, 1), (2, 3))
    key = uuid.uuid4()
    desk.issue(0, "1.4", by="floor", client_key=key)
    monkeypatch.setattr(issuing, "records_held_or_keyed", lambda *args: [])

    refused("client_key_reused", desk.issue, 2, "1.4", client_key=key)
    assert desk.ranks(2) == []


def test_a_client_key_cannot_be_reused_for_another_player(desk):
    desk.pair((0, 1), (2, 3))
    key = uuid.uuid4()
    desk.issue(0, "1.4", client_key=key)

    refused("client_key_reused", desk.issue, 1, "1.4", client_key=key)


def test_a_floor_judges_disqualification_waits_and_the_head_judge_confirms(db):
    desk = Desk.create(uses_decklists=False)
    desk.pair((0, 1), (2, 3))

    request = desk.issue(0, "6.1", by="floor")

    assert (request.rank, request.status) == (
        Rank.DISQUALIFICATION,
        RecordStatus.AWAITING_HEAD_JUDGE,
    )
    assert desk.match_of(0).player1_wins == 0
    refused("head_judge_only", services.confirm_request, record=request, head_judge=desk.floor)

    refused("reason_required", services.confirm_request, record=request, head_judge=desk.head)
    services.confirm_request(record=request, head_judge=desk.head, reason="видел сам")

    request.refresh_from_db()
    registration = desk.players[0]
    registration.refresh_from_db()
    match = Match.objects.get(player1=registration)
    assert (request.status, request.applies_to, request.served_match) == (
        RecordStatus.IN_FORCE,
        AppliesTo.CURRENT_MATCH,
        match,
    )
    assert (match.player1_wins, match.player2_wins, match.player1_lost_by_penalty) == (0, 2, True)
    assert (registration.status, registration.prize_eligible) == (
        RegistrationStatus.DISQUALIFIED,
        True,
    )
    assert list(request.history.values_list("kind", "from_status", "to_status")) == [
        (ChangeKind.REQUESTED, "", RecordStatus.AWAITING_HEAD_JUDGE),
        (ChangeKind.CONFIRMED, RecordStatus.AWAITING_HEAD_JUDGE, RecordStatus.IN_FORCE),
    ]
    refused("player_disqualified", desk.issue, 0, "1.4", "between_matches")


def test_a_declined_request_never_takes_effect(db):
    desk = Desk.create(uses_decklists=False)
    desk.pair((0, 1), (2, 3))
    request = desk.issue(0, "6.1", by="floor")

    refused(
        "reason_required",
        services.decline_request,
        record=request,
        head_judge=desk.head,
        reason=" ",
    )
    services.decline_request(record=request, head_judge=desk.head, reason="не доказано")

    request.refresh_from_db()
    desk.players[0].refresh_from_db()
    assert request.status == RecordStatus.DECLINED
    assert desk.players[0].status == RegistrationStatus.PLAYING
    assert desk.match_of(0).ended_at is None
    refused("not_awaiting", services.confirm_request, record=request, head_judge=desk.head)


def test_a_deferred_game_loss_takes_the_game_after_the_current_one(desk):
    desk.pair((0, 1), (2, 3))

    # 1.1 is a warning at the amateur level; its repeat is a game loss.
    desk.issue(0, "1.1")
    record = desk.issue(0, "1.1", deferred=True)

    assert (record.rank, record.applies_to) == (Rank.GAME_LOSS, AppliesTo.NEXT_GAME)
    match = desk.match_of(0)
    assert (match.player1_wins, match.player2_wins) == (0, 0)

    desk.win(0)  # The current game goes on and the player wins it ...

    match.refresh_from_db()
    record.refresh_from_db()
    # ... and the next game is lost at once, so the match stands 1–1.
    assert (match.player1_wins, match.player2_wins) == (1, 1)
    assert record.served_game.number == 2
    assert record.served_game.decided_by_penalty


def test_a_deferred_match_loss_takes_the_next_match(db):
    desk = Desk.create(best_of=1)
    from judging.editions import assign_edition, derive_edition, put_infraction
    from judging.selectors import edition_for

    edition = derive_edition(base=edition_for(tournament=desk.tournament), slug="x", name="x")
    put_infraction(edition=edition, code="9.5", name="Тяжёлое", penalties={"amateur": "match_loss"})
    assign_edition(tournament=desk.tournament, edition=edition)
    desk.pair((0, 1), (2, 3))

    record = desk.issue(0, "9.5", "between_games", deferred=True)

    assert record.applies_to == AppliesTo.NEXT_MATCH
    desk.win(0)
    desk.win(2)
    desk.pair((0, 2), (1, 3))
    record.refresh_from_db()
    match = Match.objects.get(round__number=2, player1=desk.players[0])
    assert record.served_match == match
    assert (match.player1_wins, match.player2_wins, match.ended_at is not None) == (0, 1, True)


def test_an_amendment_cancels_a_pending_loss_and_names_later_records(desk):
    desk.pair((0, 1), (2, 3))
    desk.finish(0)
    loss = desk.issue(0, "1.1", "between_matches")
    desk.issue(0, "1.1", "between_matches")  # warning → game loss
    repeat = PenaltyRecord.objects.get(repeat_of=loss)

    outcome = services.amend_penalty(
        record=repeat, to_rank=Rank.CAUTION, author=desk.head, reason="смягчено"
    )

    repeat.refresh_from_db()
    assert (repeat.rank, repeat.issued_rank, repeat.loss_cancelled) == (
        Rank.CAUTION,
        Rank.GAME_LOSS,
        True,
    )
    assert list(repeat.history.values_list("kind", "from_rank", "to_rank", "reason")) == [
        (ChangeKind.ISSUED, None, Rank.GAME_LOSS, ""),
        (ChangeKind.AMENDED, Rank.GAME_LOSS, Rank.CAUTION, "смягчено"),
    ]
    assert outcome.dependents == []
    later = services.amend_penalty(record=loss, to_rank=Rank.CAUTION, author=desk.head, reason="x")
    assert later.dependents == [repeat]


def test_only_the_head_judge_amends_or_revokes_and_always_with_a_reason(desk):
    desk.pair((0, 1), (2, 3))
    record = desk.issue(0, "1.4")

    refused(
        "head_judge_only",
        services.amend_penalty,
        record=record,
        to_rank=Rank.WARNING,
        author=desk.floor,
        reason="x",
    )
    refused(
        "head_judge_only", services.revoke_penalty, record=record, author=desk.floor, reason="x"
    )
    refused("reason_required", services.revoke_penalty, record=record, author=desk.head, reason="")
    refused(
        "same_penalty",
        services.amend_penalty,
        record=record,
        to_rank=Rank.CAUTION,
        author=desk.head,
        reason="x",
    )


def test_revoking_a_disqualification_brings_the_player_back(db):
    desk = Desk.create(uses_decklists=False)
    desk.pair((0, 1), (2, 3))
    record = desk.issue(0, "6.1")
    desk.players[0].refresh_from_db()
    assert desk.players[0].status == RegistrationStatus.DISQUALIFIED

    services.revoke_penalty(record=record, author=desk.head, reason="ошибка")

    desk.players[0].refresh_from_db()
    record.refresh_from_db()
    assert record.status == RecordStatus.REVOKED
    assert (desk.players[0].status, desk.players[0].prize_eligible) == (
        RegistrationStatus.PLAYING,
        True,
    )
    refused("not_in_force", services.revoke_penalty, record=record, author=desk.head, reason="x")


@pytest.mark.parametrize(
    ("level", "official", "allowed"),
    [
        ("amateur", True, False),
        ("professional", False, False),
        ("professional", True, True),
        ("highest", True, True),
    ],
)
def test_suspension_needs_an_official_head_judge_at_professional_or_above(
    db, level, official, allowed
):
    desk = Desk.create(level=level, head_judge_is_official=official)
    desk.pair((0, 1), (2, 3))
    record = desk.issue(0, "6.1")

    if not allowed:
        refused(
            "suspension_not_allowed",
            services.amend_penalty,
            record=record,
            to_rank=Rank.SUSPENSION,
            author=desk.head,
            reason="x",
        )
        return
    services.amend_penalty(record=record, to_rank=Rank.SUSPENSION, author=desk.head, reason="видео")

    record.refresh_from_db()
    suspension = record.membership_suspension
    assert (suspension.player, suspension.ends_on, suspension.lifted_on) == (
        desk.players[0].player,
        None,
        None,
    )
    refused(
        "membership_suspended",
        tournament_services.register_player,
        tournament=Desk.create(players=0).tournament,
        player=desk.players[0].player,
    )

    services.amend_penalty(
        record=record, to_rank=Rank.DISQUALIFICATION, author=desk.head, reason="срок снят"
    )

    suspension.refresh_from_db()
    assert suspension.lifted_on is not None
    assert MembershipSuspension.objects.in_force_on(suspension.starts_on).count() == 0


def test_a_floor_judge_cannot_suspend(db):
    desk = Desk.create(level="professional", head_judge_is_official=True)
    from judging.editions import assign_edition, derive_edition, put_infraction
    from judging.selectors import edition_for

    edition = derive_edition(base=edition_for(tournament=desk.tournament), slug="s", name="s")
    put_infraction(
        edition=edition, code="6.9", name="Пример", penalties={"professional": "suspension"}
    )
    assign_edition(tournament=desk.tournament, edition=edition)
    desk.pair((0, 1), (2, 3))

    refused("suspension_not_allowed", desk.issue, 0, "6.9", by="floor")
    assert desk.issue(0, "6.9").rank == Rank.SUSPENSION


def test_stacking_at_the_end_of_a_match_marks_its_sources(db):
    desk = Desk.create(uses_decklists=True)
    desk.pair((0, 1), (2, 3))
    desk.issue(0, "1.4")
    desk.issue(0, "1.1", "between_games")  # a warning, not a caution: no three yet
    desk.issue(1, "1.4")

    desk.finish(0)

    assert PenaltyRecord.objects.filter(because=Because.STACKING).count() == 0
    assert desk.ranks(0) == ["caution", "warning"]


def test_registering_a_suspended_player_is_refused_with_the_reason_and_end_date(db):
    import datetime

    player = PlayerFactory(name="Сергей")
    MembershipSuspension.objects.create(
        player=player,
        starts_on=datetime.date(2026, 1, 1),
        ends_on=datetime.date(2099, 3, 1),
        reason="нечистая игра",
    )
    error = refused(
        "membership_suspended",
        tournament_services.register_player,
        tournament=Desk.create(players=0).tournament,
        player=player,
    )
    assert str(error) == "Членство игрока Сергей приостановлено до 01.03.2099: нечистая игра"


def test_a_stacked_penalty_has_no_reason_of_its_own_and_explains_its_sources(desk):
    desk.pair((0, 1), (2, 3))
    for code in ("1.1", "1.2", "1.4", "1.4"):  # warnings for 1.1 and 1.2; 1.4 repeated: a warning
        desk.issue(0, code, "between_games")

    desk.finish(0)

    stacked = PenaltyRecord.objects.get(because=Because.STACKING)
    assert (stacked.reason, stacked.infraction, stacked.rank) == (None, None, Rank.GAME_LOSS)
    assert stacked.explanation == {
        "kind": "stacking",
        "rank": "warning",
        "reasons": ["1.1", "1.2", "1.4"],
        "from_stacking": 0,
        "round": 1,
    }
    assert desk.ranks(0) == ["warning", "warning", "caution", "warning", "game_loss"]


def test_a_record_says_whether_its_loss_waits_as_queries_do(db):
    desk = Desk.create(level="professional")
    desk.pair((0, 1), (2, 3))
    desk.finish(0)
    desk.finish(2)
    waiting = desk.issue(0, "1.2", "between_matches")

    assert waiting.is_pending_loss is True
    assert list(PenaltyRecord.objects.pending_losses()) == [waiting]

    desk.pair((0, 2), (1, 3))

    waiting.refresh_from_db()
    assert waiting.is_pending_loss is False
    assert waiting.served_game.number == 1
    assert list(PenaltyRecord.objects.pending_losses()) == []


def test_a_penalty_names_the_game_it_was_given_in(desk):
    desk.pair((0, 1))
    first = desk.issue(0, "1.4")
    desk.win(0)
    second = desk.issue(1, "1.4")
    tournament_services.record_game(match=desk.match_of(0), winner=None)
    third = desk.issue(0, "1.1")

    assert [record.issued_in_game for record in (first, second, third)] == [1, 2, 3]
    # Both reads of the match count its games: the lock's and the full one.
    bare = tournament_selectors.current_match(registration=desk.players[0], bare=True)
    full = tournament_selectors.current_match(registration=desk.players[1])
    assert bare is not None and full is not None
    assert bare.games_recorded == full.games_recorded == 2


def test_a_penalty_between_matches_names_no_game(desk):
    desk.pair((0, 1))
    desk.win(0)
    desk.finish(0)

    assert desk.issue(0, "1.4", moment="between_matches").issued_in_game is None


def test_a_preview_reads_the_player_with_their_match_and_penalties_as_the_submit_would(db):
    desk = Desk.create(players=5)
    desk.pair((0, 1), (2, 3), (4, None))
    desk.issue(2, "1.4")
    desk.issue(2, "1.1")
    revoked = desk.issue(3, "1.4")
    services.revoke_penalty(record=revoked, author=desk.head, reason="ошибка")
    desk.finish(1)

    def read(index):
        found = selectors.player_for_ruling(tournament=desk.tournament, pk=desk.players[index].pk)
        assert found is not None
        assert found.registration.pk == desk.players[index].pk
        assert found.registration.player.name == desk.players[index].player.name
        assert found.registration.tournament is desk.tournament
        assert list(found.held) == held_penalties(desk.players[index])
        assert found.in_match is tournament_selectors.plays_a_match(
            registration=desk.players[index]
        )
        return found.in_match, len(found.held)

    # The first table's match has ended; the second's goes on, and its first player holds two
    # penalties, the second none in force; the fifth player has a bye, which is no match.
    assert [read(index) for index in range(5)] == [
        (False, 0),
        (False, 0),
        (True, 2),
        (True, 0),
        (False, 0),
    ]
    stranger = Desk.create(players=1).players[0]
    assert selectors.player_for_ruling(tournament=desk.tournament, pk=stranger.pk) is None
