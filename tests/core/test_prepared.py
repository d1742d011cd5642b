"""Prepared queries (core/prepared.py) answer as the ORM would, compile once, and refuse what they
cannot bind."""

import datetime
import uuid

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.models import Q, Value
from django.db.models.functions import Lower
from django.db.models.signals import post_save, pre_save
from django.db.models.sql.compiler import SQLInsertCompiler
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from core.models import Session
from core.prepared import (
    PreparedInsert,
    PreparedQuery,
    PreparedQueryError,
    concrete_fields,
    instance,
)
from judging.models import PenaltyAcknowledgement, PenaltyChange, PenaltyRecord
from tournaments import selectors
from tournaments.models import Match, Registration, Tournament

pytestmark = pytest.mark.django_db


def by_slug() -> PreparedQuery:
    return PreparedQuery(
        lambda slug: Tournament.objects.filter(slug=slug).values_list("id", "name", "date"),
        slug=str,
    )


def test_each_run_binds_its_own_values(desk):
    other = type(desk).create(players=0)
    query = by_slug()

    first = query.rows(slug=desk.tournament.slug)
    second = query.rows(slug=other.tournament.slug)
    missing = query.rows(slug="no-such-tournament")

    assert first == [(desk.tournament.pk, desk.tournament.name, desk.tournament.date)]
    assert second == [(other.tournament.pk, other.tournament.name, other.tournament.date)]
    assert missing == []


def test_it_compiles_once_and_runs_one_query_with_the_same_sql(desk):
    built = []

    def build(slug):
        built.append(slug)
        return Tournament.objects.filter(slug=slug).values_list("id")

    query = PreparedQuery(build, slug=str)
    query.rows(slug="warm-up")
    compiled = len(built)  # Twice: once with each set of stand-ins (core/prepared.py).

    with CaptureQueriesContext(connection) as first:
        query.rows(slug=desk.tournament.slug)
    with CaptureQueriesContext(connection) as second:
        query.rows(slug="another")

    assert len(built) == compiled == 2
    assert len(first) == len(second) == 1
    # The same statement both times (only the values differ), as PostgreSQL's statement cache
    # needs it; the debug log shows the values filled in, so compare it with them taken out.
    assert first[0]["sql"].replace(desk.tournament.slug, "?") == second[0]["sql"].replace(
        "another", "?"
    )


def test_rows_are_converted_as_the_orm_converts_them(desk):
    desk.pair((0, 1), (2, 3))
    record = desk.issue(0, "1.4")
    fields = concrete_fields(PenaltyRecord)
    query = PreparedQuery(
        lambda pk: PenaltyRecord.objects.filter(pk=pk).values_list(*fields), pk=int
    )

    (row,) = query.rows(pk=record.pk)
    (expected,) = PenaltyRecord.objects.filter(pk=record.pk).values_list(*fields)

    assert row == expected
    loaded = instance(PenaltyRecord, fields, row)
    assert loaded == record
    assert loaded.issued_at == record.issued_at
    assert loaded.issued_at.tzinfo is not None
    assert isinstance(loaded.deferred, bool)
    assert loaded.client_key == record.client_key
    assert loaded.explanation == PenaltyRecord.objects.get(pk=record.pk).explanation


def test_a_moment_and_a_uuid_bind_as_the_orm_binds_them(desk):
    desk.pair((0, 1), (2, 3))
    key = uuid.uuid4()
    record = desk.issue(0, "1.4", client_key=key)
    by_key = PreparedQuery(
        lambda key: PenaltyRecord.objects.filter(client_key=key).values_list("id"),
        key=uuid.UUID,
    )
    since = PreparedQuery(
        lambda moment: PenaltyRecord.objects.filter(issued_at__gte=moment).values_list("id"),
        moment=datetime.datetime,
    )
    before = record.issued_at - datetime.timedelta(seconds=1)
    after = record.issued_at + datetime.timedelta(seconds=1)

    assert by_key.rows(key=key) == [(record.pk,)]
    assert by_key.rows(key=uuid.uuid4()) == []
    assert since.rows(moment=before) == [(record.pk,)]
    assert since.rows(moment=after) == []


def test_a_value_used_twice_is_bound_in_both_places(desk):
    desk.pair((0, 1), (2, 3))

    assert selectors.plays_a_match(registration=desk.players[1])
    desk.finish(1)
    assert not selectors.plays_a_match(registration=desk.players[1])
    assert not selectors.plays_a_match(registration=desk.players[0])
    assert selectors.plays_a_match(registration=desk.players[2])


def test_the_hot_path_reads_agree_with_the_orm(desk):
    desk.pair((0, 1), (2, 3))

    tournament, roles = selectors.staff_access(slug=desk.tournament.slug, user=desk.head)
    assert tournament == desk.tournament
    assert tournament is not None and tournament.name == desk.tournament.name
    assert roles == {"head_judge"}

    registration = selectors.registration_in(tournament=desk.tournament, pk=desk.players[2].pk)
    expected = Registration.objects.select_related("player").get(pk=desk.players[2].pk)
    assert registration is not None
    assert registration.player.name == expected.player.name
    assert registration.status == expected.status
    assert registration.registered_at == expected.registered_at

    other = type(desk).create(players=1)
    assert selectors.registration_in(tournament=desk.tournament, pk=other.players[0].pk) is None

    match = selectors.current_match(registration=desk.players[2], bare=True)
    full = selectors.current_match(registration=desk.players[2])
    assert isinstance(match, Match) and full is not None
    assert (match.pk, match.round.number, match.table) == (full.pk, full.round.number, full.table)


def test_a_session_reads_as_django_reads_it(client, desk):
    from django.contrib.sessions.backends.db import SessionStore as DatabaseStore

    from core.sessions import SessionStore

    # Django's own read of the desk's session table; a store's name salts its data, so the same.
    DjangoStore = type(
        "SessionStore", (DatabaseStore,), {"get_model_class": classmethod(lambda cls: Session)}
    )

    client.force_login(desk.floor)
    key = client.session.session_key
    data = DjangoStore(key).load()

    assert data and SessionStore(key).load() == data
    missing = SessionStore("no-such-key")
    assert missing.load() == {}
    assert missing.session_key is None
    Session.objects.filter(session_key=key).update(
        expire_date=timezone.now() - datetime.timedelta(seconds=1)
    )
    expired = SessionStore(key)
    assert expired.load() == DjangoStore(key).load() == {}
    assert expired.session_key is None


def test_an_inactive_user_is_not_signed_in(client, desk):
    from core.authentication import ModelBackend

    assert ModelBackend().get_user(desk.floor.pk) == desk.floor
    desk.floor.is_active = False
    desk.floor.save()

    assert ModelBackend().get_user(desk.floor.pk) is None
    assert ModelBackend().get_user(10**9) is None


@pytest.mark.parametrize(
    ("build", "problem"),
    [
        (
            lambda pk: Tournament.objects.filter(pk__in=[pk]).values_list("id"),
            None,  # An __in with one value binds like an exact match: allowed.
        ),
        (
            lambda slug: Tournament.objects.filter(slug__contains=slug).values_list("id"),
            "does not reach the SQL as a value of its own",
        ),
        (
            lambda slug: Tournament.objects.filter(slug=slug),
            "plain values_list",
        ),
    ],
)
def test_what_it_cannot_bind_is_refused_when_it_compiles(desk, build, problem):
    kind = int if "pk" in build.__code__.co_varnames else str
    name = build.__code__.co_varnames[0]
    query = PreparedQuery(build, **{name: kind})
    value = desk.tournament.pk if kind is int else desk.tournament.slug

    if problem is None:
        assert query.rows(**{name: value}) == [(desk.tournament.pk,)]
        return
    with pytest.raises(PreparedQueryError, match=problem):
        query.rows(**{name: value})


def test_the_wrong_parameters_are_refused():
    query = by_slug()

    with pytest.raises(TypeError):
        query.rows(name="x")
    with pytest.raises(TypeError):
        query.rows(slug=5)


def test_a_comparison_django_would_leave_out_for_some_values_is_refused(desk):
    # On PostgreSQL Django drops a comparison with an integer beyond a small column's range; on
    # SQLite an __in over a list compiles one placeholder per value. Both make the SQL depend on
    # the values, which the second compile catches.
    query = PreparedQuery(
        lambda number: Tournament.objects.filter(
            rounds__number__in=[number, number + 1]
        ).values_list("id"),
        number=int,
    )

    with pytest.raises(PreparedQueryError):
        query.rows(number=1)


def test_a_constant_equal_to_a_stand_in_is_not_taken_for_the_parameter(desk):
    # 29,311 is the first integer stand-in. Either the query is refused (SQLite: the constant
    # looks like the parameter in the first compile and not in the second) or the constant stays
    # a constant (PostgreSQL hands a small integer over as a typed value, unlike the stand-in);
    # it never answers as if the constant were the parameter.
    excluded = type(desk).create(players=0, rounds_planned=29_311).tournament
    query = PreparedQuery(
        lambda pk: (
            Tournament.objects.filter(pk=pk).exclude(rounds_planned=29_311).values_list("id")
        ),
        pk=int,
    )

    try:
        kept = query.rows(pk=desk.tournament.pk)
    except PreparedQueryError as error:
        assert "depends on the values" in str(error)
        return
    assert kept == [(desk.tournament.pk,)]
    assert query.rows(pk=excluded.pk) == []


def test_a_naive_moment_is_refused_rather_than_read_in_some_time_zone(desk):
    query = PreparedQuery(
        lambda moment: PenaltyRecord.objects.filter(issued_at__gte=moment).values_list("id"),
        moment=datetime.datetime,
    )

    with pytest.raises(TypeError, match="aware"):
        query.rows(moment=datetime.datetime(2026, 12, 5, 12, 0))


@pytest.mark.skipif(connection.vendor == "sqlite", reason="SQLite has no row locks to check")
def test_a_lock_outside_a_transaction_is_refused_every_time(transactional_db, desk):
    from django.db.transaction import TransactionManagementError, atomic

    query = PreparedQuery(
        lambda pk: Tournament.objects.select_for_update().filter(pk=pk).values_list("id"),
        pk=int,
    )
    with atomic():
        assert query.rows(pk=desk.tournament.pk) == [(desk.tournament.pk,)]

    with pytest.raises(TransactionManagementError):
        query.rows(pk=desk.tournament.pk)


def test_a_value_the_database_driver_gets_typed_is_bound_or_refused(desk):
    # On PostgreSQL a small integer column's value is handed over typed (psycopg's Int2), so the
    # one parameter reaches the SQL as two kinds of value; a slot left unbound would answer for
    # the stand-in, so the query must be refused there, and answer right where it is bound.
    from tournaments.models import Round

    desk.pair((0, 1), (2, 3))
    query = PreparedQuery(
        lambda n: (
            Round.objects.filter(Q(tournament_id=n) | Q(number=n)).order_by("id").values_list("id")
        ),
        n=int,
    )
    expected = list(
        Round.objects.filter(Q(tournament_id=1) | Q(number=1)).order_by("id").values_list("id")
    )

    try:
        rows = query.rows(n=1)
    except PreparedQueryError as error:
        assert "depends on the values" in str(error)
        return
    assert rows == expected


def test_an_integer_too_large_for_any_column_matches_nothing(desk):
    # A table number typed into a URL reaches the query as it is; Django's ORM answers no rows.
    query = PreparedQuery(
        lambda pk: Tournament.objects.filter(pk=pk).values_list("id"),
        pk=int,
    )

    assert query.rows(pk=10**30) == []
    assert query.rows(pk=-(10**30)) == []
    assert query.rows(pk=desk.tournament.pk) == [(desk.tournament.pk,)]


def test_joined_models_come_back_with_an_outer_join_that_found_nothing_as_none(desk):
    from core.prepared import Joined
    from floor.models import RoundClock
    from tournaments.models import Round

    desk.pair((0, 1), (2, 3))  # A round whose clock was never started has no clock row.
    joined = Joined(("", Round), ("clock", RoundClock))
    query = PreparedQuery(
        lambda tournament: (
            Round.objects.filter(tournament_id=tournament)
            .order_by("number")
            .values_list(*joined.names)
        ),
        tournament=int,
    )

    ((row),) = query.rows(tournament=desk.tournament.pk)
    round_, clock = joined.instances(row)

    assert round_ == Round.objects.get(tournament=desk.tournament)
    assert clock is None


# --- Prepared inserts ---------------------------------------------------------------------------


def _record_values(desk, **changed):
    desk.pair((0, 1), (2, 3))
    template = desk.issue(0, "1.4")
    values = {
        field.name: getattr(template, field.name)
        for field in PenaltyRecord._meta.concrete_fields
        if not field.primary_key and not field.generated
    }
    values.update(client_key=uuid.uuid4(), note="a note", **changed)
    return values


def test_an_insert_answers_and_stores_what_the_orm_does(desk):
    values = _record_values(desk)
    inserted = PreparedInsert(PenaltyRecord).create(**values)
    created = PenaltyRecord.objects.create(**{**values, "client_key": uuid.uuid4()})

    # Every column but the key, the form's key and the moment of issue (each its own).
    columns = [
        name
        for name in concrete_fields(PenaltyRecord)
        if name not in ("id", "client_key", "issued_at")
    ]
    stored = PenaltyRecord.objects.filter(pk__in=[inserted.pk, created.pk]).order_by("pk")
    inserted_row, created_row = stored.values_list(*columns)
    assert inserted_row == created_row
    assert created.pk == inserted.pk + 1
    assert not inserted._state.adding and inserted._state.db == "default"
    # What the database computes comes back as it does with the ORM: the key, the generated column.
    for name in columns:
        assert getattr(inserted, name) == getattr(created, name), name
    assert isinstance(inserted.pk, int)
    assert inserted.is_pending_loss is created.is_pending_loss
    assert inserted.issued_at <= created.issued_at
    assert inserted.issued_at == PenaltyRecord.objects.get(pk=inserted.pk).issued_at


def test_an_insert_sets_an_automatic_moment_and_sends_the_signals(
    desk, django_capture_on_commit_callbacks
):
    desk.pair((0, 1))
    record = desk.issue(0, "1.4")
    heard = []

    def hear(sender, instance, **kwargs):
        heard.append((sender, kwargs.get("created"), kwargs["using"], instance.pk))
        # As ``save`` sends them: not a fixture's raw save, every field written.
        assert kwargs["raw"] is False and kwargs["update_fields"] is None

    pre_save.connect(hear, sender=PenaltyChange)
    post_save.connect(hear, sender=PenaltyChange)
    try:
        before = timezone.now()
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            change = PreparedInsert(PenaltyChange).create(
                record=record, kind="issued", author=desk.floor, to_rank=1, to_status="in_force"
            )
    finally:
        pre_save.disconnect(hear, sender=PenaltyChange)
        post_save.disconnect(hear, sender=PenaltyChange)

    assert before <= change.at <= timezone.now()
    assert PenaltyChange.objects.get(pk=change.pk).at == change.at
    assert heard == [
        (PenaltyChange, None, "default", None),
        (PenaltyChange, True, "default", change.pk),
    ]
    # The audit line (operations/audit.py) is one of the callbacks waiting for the commit.
    assert len(callbacks) == 1


def test_an_insert_compiles_once_and_runs_one_statement(desk, monkeypatch):
    values = _record_values(desk)
    insert = PreparedInsert(PenaltyRecord)
    compiled = []
    as_sql = SQLInsertCompiler.as_sql

    def counted(compiler):
        compiled.append(compiler)
        return as_sql(compiler)

    monkeypatch.setattr(SQLInsertCompiler, "as_sql", counted)
    insert.create(**values)

    with CaptureQueriesContext(connection) as first:
        insert.create(**{**values, "client_key": uuid.uuid4(), "note": "first"})
    with CaptureQueriesContext(connection) as second:
        insert.create(**{**values, "client_key": uuid.uuid4(), "note": "second"})

    assert len(first) == len(second) == 1
    assert first[0]["sql"].startswith('INSERT INTO "judging_penaltyrecord"')
    assert len(compiled) == 1


def test_an_insert_refuses_what_would_change_its_sql(desk):
    values = _record_values(desk)
    insert = PreparedInsert(PenaltyRecord)
    insert.create(**values)

    with pytest.raises(PreparedQueryError, match="expression"):
        insert.create(**{**values, "client_key": uuid.uuid4(), "note": Value("typed in SQL")})
    # A key given: the statement lets the database number the row.
    with pytest.raises(PreparedQueryError, match="takes no key"):
        insert.create(**{**values, "client_key": uuid.uuid4(), "id": 10_000})
    # A model whose key the database does not number.
    with pytest.raises(PreparedQueryError, match="numbers"):
        PreparedInsert(PenaltyAcknowledgement).create(
            record=PenaltyRecord.objects.first(), kind="acknowledged", recorded_by=desk.floor
        )


def test_an_insert_refuses_an_unsaved_related_row_as_save_does(desk):
    values = _record_values(desk, registration=Registration(tournament=desk.tournament))

    with pytest.raises(ValueError, match="unsaved related object"):
        PreparedInsert(PenaltyRecord).create(**values)


def test_a_refused_insert_leaves_the_transaction_to_roll_back_as_the_orm_does(desk):
    values = _record_values(desk)
    insert = PreparedInsert(PenaltyRecord)
    insert.create(**values)

    with transaction.atomic():
        with pytest.raises(IntegrityError):
            insert.create(**values)  # the same client key in the same tournament
        # Marked, so that leaving the block rolls back what it did instead of committing it.
        assert transaction.get_rollback()


def test_an_expression_in_the_first_row_does_not_become_part_of_the_statement(desk):
    values = _record_values(desk)
    insert = PreparedInsert(PenaltyRecord)

    with pytest.raises(PreparedQueryError, match="expression"):
        insert.create(**{**values, "note": Lower(Value("WRITTEN BY SQL"))})
    record = insert.create(**values | {"note": "MiXeD Case"})

    assert PenaltyRecord.objects.get(pk=record.pk).note == "MiXeD Case"
