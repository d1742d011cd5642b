"""The plain-SQL reads of a submit (``judging.plain_reads``) against the ORM reads they replaced:
the same rows, the same related objects, and values converted as the ORM converts them (this
module runs on SQLite and, in CI's second run, on PostgreSQL)."""

import datetime
import uuid

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from judging import plain_reads
from judging.editions import assign_edition, derive_edition
from judging.models import GuidelineEdition, Infraction, PenaltyRecord, RecordStatus
from judging.selectors import SHIPPED_EDITION_SLUG
from tests.factories import Desk
from tournaments import selectors as tournament_selectors
from tournaments.models import Registration


def test_the_match_in_play_is_the_one_current_match_reads(desk):
    desk.pair((0, 1), (2, 3))
    desk.win(0)

    plain = plain_reads.match_in_play(desk.players[1].pk)
    orm = tournament_selectors.current_match(registration=desk.players[1], bare=True)

    assert plain is not None and orm is not None
    assert plain.pk == orm.pk
    assert plain.games_recorded == orm.games_recorded == 1
    assert plain.round.pk == orm.round.pk and plain.round.number == orm.round.number
    assert (plain.player1_id, plain.player2_id) == (orm.player1_id, orm.player2_id)


def test_no_match_in_play_after_the_match_ends_or_with_a_bye(desk):
    desk.pair((0, 1), (2, None))
    desk.finish(0)

    assert plain_reads.match_in_play(desk.players[0].pk) is None
    assert plain_reads.match_in_play(desk.players[2].pk) is None
    assert plain_reads.match_in_play(desk.players[3].pk) is None  # not paired at all


def test_the_lock_returns_the_player_and_the_opponent_with_their_names_and_tournament(desk):
    desk.pair((0, 1), (2, 3))
    player, opponent = desk.players[1], desk.players[0]
    player.dropped_at = timezone.now()  # a datetime column, converted on SQLite too
    Registration.objects.filter(pk=player.pk).update(dropped_at=player.dropped_at)

    with transaction.atomic():
        locked, match = plain_reads.lock_player_and_opponent(player.pk, desk.tournament.pk)

    assert sorted(locked) == sorted([player.pk, opponent.pk])
    row = locked[player.pk]
    assert row.player.name == player.player.name
    assert row.tournament.pk == desk.tournament.pk
    assert row.tournament.date == desk.tournament.date
    assert isinstance(row.tournament.date, datetime.date)
    assert isinstance(row.prize_eligible, bool)
    assert row.dropped_at == player.dropped_at
    assert match is not None and match.pk == desk.match_of(0).pk


def test_a_player_between_matches_is_locked_alone(desk):
    desk.pair((0, 1))
    desk.finish(0)

    with transaction.atomic():
        locked, match = plain_reads.lock_player_and_opponent(desk.players[0].pk, desk.tournament.pk)

    assert list(locked) == [desk.players[0].pk]
    assert match is None


def test_nothing_is_locked_for_a_player_of_another_tournament(desk):
    other = Desk.create()
    other.pair((0, 1))

    with transaction.atomic():
        locked, match = plain_reads.lock_player_and_opponent(
            other.players[0].pk, desk.tournament.pk
        )

    assert locked == {}
    assert match is None


def test_the_records_held_or_keyed_are_the_orm_reads_rows(desk):
    desk.pair((0, 1), (2, 3))
    first = desk.issue(0, "1.4")
    desk.issue(0, "1.1")
    revoked = desk.issue(0, "1.4")
    PenaltyRecord.objects.filter(pk=revoked.pk).update(status=RecordStatus.REVOKED)
    key = uuid.uuid4()
    keyed = desk.issue(2, "1.4", client_key=key)

    plain = plain_reads.records_held_or_keyed(desk.players[0].pk, desk.tournament.pk, key)
    orm = list(
        PenaltyRecord.objects.filter(
            Q(
                registration=desk.players[0],
                status__in=[RecordStatus.IN_FORCE, RecordStatus.AWAITING_HEAD_JUDGE],
            )
            | Q(tournament=desk.tournament, client_key=key)
        ).order_by("id")
    )

    assert [row.pk for row in plain] == [row.pk for row in orm]
    assert keyed.pk in [row.pk for row in plain] and revoked.pk not in [row.pk for row in plain]
    held = next(row for row in plain if row.pk == first.pk)
    assert held.client_key == first.client_key and isinstance(held.client_key, uuid.UUID)
    assert held.issued_at == first.issued_at
    assert held.round is not None and held.round.number == 1
    assert held.explanation == first.explanation  # a JSON column, decoded


def test_without_a_key_only_the_standing_records_are_read(desk):
    desk.pair((0, 1))
    desk.issue(1, "1.4")

    assert plain_reads.records_held_or_keyed(desk.players[0].pk, desk.tournament.pk, None) == []


def test_the_infraction_comes_from_the_shipped_edition_by_default(desk):
    plain = plain_reads.infraction_by_code(desk.tournament.pk, "1.4", SHIPPED_EDITION_SLUG)
    orm = Infraction.objects.get(edition__slug=SHIPPED_EDITION_SLUG, code="1.4")

    assert plain is not None and plain.pk == orm.pk
    assert plain.sub_items == orm.sub_items  # a JSON column, decoded
    assert plain_reads.infraction_by_code(desk.tournament.pk, "9.9", SHIPPED_EDITION_SLUG) is None


def test_the_infraction_comes_from_the_tournaments_own_edition_when_it_has_one(desk):
    shipped = GuidelineEdition.objects.get(slug=SHIPPED_EDITION_SLUG)
    own = derive_edition(base=shipped, slug="own", name="Own")
    assign_edition(tournament=desk.tournament, edition=own)

    plain = plain_reads.infraction_by_code(desk.tournament.pk, "1.4", SHIPPED_EDITION_SLUG)

    assert plain is not None
    assert plain.edition_id == own.pk
    assert plain.pk == Infraction.objects.get(edition=own, code="1.4").pk
