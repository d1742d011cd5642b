"""Queries that Django compiles once per process and then runs with new values.

Turning a queryset into SQL (resolving the lookups, the joins, the columns) costs ten to forty
times what the database then takes to answer: about 0.3 ms against 0.01 ms for a look-up by key
on SQLite. A floor judge's preview and submit run a dozen such look-ups, always the same ones, so
most of their time went into compiling the same SQL again. A ``PreparedQuery`` is written as an
ordinary ``values_list`` queryset; it is compiled the first time it runs, on the connection it
runs on, with a placeholder value standing for each parameter, and later runs bind the new values
in the placeholders' places and convert the rows exactly as the ORM would (the same converters).

What it accepts is checked when it compiles, so a query it cannot prepare fails at once, in tests,
and never answers wrongly: every parameter must reach the SQL as a value of its own (an exact or
ordered comparison; not ``__in`` over a list, nor ``__contains``, which rewrite the value), and the
columns must come in the order the ``values_list`` names them. An integer parameter is meant for
an exact comparison: one too large for its column matches no row, as Django answers it.

``instance`` turns a row, or part of one, into a model instance as the ORM would have loaded it.

A ``PreparedInsert`` does for one model's INSERT what a ``PreparedQuery`` does for a read: Django
writes the statement once per process, and each ``create`` binds the new row's values into it,
prepared as the ORM prepares them and with the same signals around it, so that it answers and
behaves as ``Model.objects.create`` would. Every submit writes two rows; the ORM's own path spent
more time writing their SQL again than the database spent storing them.
"""

import copy
import datetime
import threading
import uuid
from collections.abc import Callable, Iterable, Sequence
from typing import Any, cast

from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model, QuerySet
from django.db.models.fields import AutoFieldMixin
from django.db.models.signals import post_save, pre_save
from django.db.models.sql.compiler import SQLCompiler
from django.db.models.sql.subqueries import InsertQuery
from django.db.transaction import TransactionManagementError
from django.utils import timezone

type ParamType = type[int] | type[str] | type[datetime.datetime] | type[uuid.UUID]

# Stand-in values: of the parameter's type, within every column's range (Django leaves a
# comparison with an integer beyond the column's range out of the SQL: a small integer column
# ends at 32,767), and unlike the constants a query holds. Each query is compiled with two sets.
_FIRST_INTEGERS = (29_311, 31_153)
_FIRST_MOMENTS = (
    datetime.datetime(2001, 2, 3, 4, 5, 6, tzinfo=datetime.UTC),
    datetime.datetime(2002, 3, 4, 5, 6, 7, tzinfo=datetime.UTC),
)


class PreparedQueryError(TypeError):
    """The queryset cannot be prepared; raised when it is first compiled."""


class _Compiled:
    """One query compiled for one database connection: its SQL, where each parameter goes, and
    the compiler that knows how to convert its rows."""

    def __init__(
        self,
        sql: str,
        params: list[Any],
        slots: dict[str, list[int]],
        compiler: SQLCompiler,
        *,
        locks: bool,
    ) -> None:
        self.sql = sql
        self.params = params
        self.slots = slots
        self.locks = locks
        self.converters = compiler.get_converters(
            [column[0] for column in compiler.select[: compiler.col_count]]
        )


class PreparedQuery:
    """A ``values_list`` queryset with named parameters, compiled once per process for the
    default database (the desk has no other).

    ``build`` receives the parameters by name (placeholder values when it compiles) and returns
    the queryset; ``params`` names each parameter's type (``int``, ``str`` or ``datetime``).
    """

    def __init__(self, build: Callable[..., QuerySet[Any, Any]], **params: ParamType) -> None:
        self.build = build
        self.types = params
        self._compiled: dict[str, _Compiled] = {}
        self._lock = threading.Lock()

    def rows(self, **values: Any) -> list[tuple[Any, ...]]:
        """The query's rows for these values, as ``values_list`` would return them."""
        if values.keys() != self.types.keys():
            raise TypeError(f"expected the parameters {sorted(self.types)}, got {sorted(values)}")
        connection = connections[DEFAULT_DB_ALIAS]
        compiled = self._compiled.get(DEFAULT_DB_ALIAS) or self._compile(connection)
        if compiled.locks and connection.get_autocommit():
            # Django checks this when it compiles; a prepared query compiles only once.
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        params = list(compiled.params)
        for name, slots in compiled.slots.items():
            value = _adapted(connection, self.types[name], values[name])
            for slot in slots:
                # The value as the ORM would hand it over in that place (a typed integer).
                kind = type(compiled.params[slot])
                if isinstance(value, int) and not _fits(kind, value):
                    # No column of that type holds it, so nothing equals it: what Django answers
                    # for an exact comparison with such a value (a number typed into a URL).
                    return []
                params[slot] = value if type(value) is kind else kind(value)
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, params)
            fetched = cursor.fetchall()
        return [_converted(row, compiled.converters, connection) for row in fetched]

    def first(self, **values: Any) -> tuple[Any, ...] | None:
        rows = self.rows(**values)
        return rows[0] if rows else None

    def _compile(self, connection: BaseDatabaseWrapper) -> _Compiled:
        alias = connection.alias
        with self._lock:
            if alias in self._compiled:
                return self._compiled[alias]
            first = self._compile_with(connection, variant=0)
            # Compiled again with other stand-ins, the SQL must be the same word for word and
            # the values must differ exactly in the slots found: this catches a lookup that
            # compiles differently for some values (Django leaves out a comparison with an
            # integer beyond the column's range), and a constant of the query that happened to
            # equal a stand-in.
            second = self._compile_with(connection, variant=1)
            if second.sql != first.sql or second.slots != first.slots:
                raise PreparedQueryError("the query's SQL depends on the values it is given")
            taken = {slot for slots in first.slots.values() for slot in slots}
            if any(
                first.params[index] != second.params[index]
                for index in range(len(first.params))
                if index not in taken
            ):
                raise PreparedQueryError("the query's SQL depends on the values it is given")
            self._compiled[alias] = first
            return first

    def _compile_with(self, connection: BaseDatabaseWrapper, *, variant: int) -> _Compiled:
        stand_ins = {
            name: _stand_in(kind, index, variant)
            for index, (name, kind) in enumerate(self.types.items())
        }
        queryset = self.build(**stand_ins)
        fields = list(getattr(queryset, "_fields", None) or ())
        query = queryset.query
        if not fields or query.extra_select:
            raise PreparedQueryError("a prepared query must be a plain values_list queryset")
        names = [*query.values_select, *query.annotation_select]
        if fields != names:
            raise PreparedQueryError(
                f"the columns come as {names}, not in the order asked, {fields}"
            )
        compiler = query.get_compiler(using=connection.alias)
        sql, compiled_params = compiler.as_sql()
        if compiler.has_extra_select or compiler.col_count != len(fields):
            # DISTINCT with an ordering adds the ordering's columns to the SELECT.
            raise PreparedQueryError("the query selects columns it was not asked for")
        params = list(compiled_params)
        slots: dict[str, list[int]] = {}
        for name, stand_in in stand_ins.items():
            adapted = _adapted(connection, self.types[name], stand_in)
            # PostgreSQL's backend, binding on the server, hands an integer over typed by its
            # column (psycopg's Int2, Int4, …: subclasses of int); the slot keeps that type.
            slots[name] = [
                index
                for index, value in enumerate(params)
                if isinstance(value, type(adapted)) and value == adapted
            ]
            if not slots[name]:
                raise PreparedQueryError(
                    f"the parameter {name!r} does not reach the SQL as a value of its own"
                )
        return _Compiled(
            sql,
            params,
            slots,
            compiler,
            locks=bool(query.select_for_update) and connection.features.has_select_for_update,
        )


def _converted(
    row: Sequence[Any], converters: dict[int, tuple[list[Any], Any]], connection: Any
) -> tuple[Any, ...]:
    """The row with each column converted as the ORM converts it (``SQLCompiler.apply_converters``
    with this thread's connection)."""
    if not converters:
        return tuple(row)
    values = list(row)
    for position, (functions, expression) in converters.items():
        for function in functions:
            values[position] = function(values[position], expression, connection)
    return tuple(values)


def _fits(kind: type, value: int) -> bool:
    """Whether an integer column of the bound type can hold the value: psycopg's typed integers
    by their name (Int2, Int4, Int8), a plain one by SQLite's and PostgreSQL's widest, 64 bits."""
    bits = {"Int2": 16, "Int4": 32}.get(kind.__name__, 64)
    return -(2 ** (bits - 1)) <= value < 2 ** (bits - 1)


def _stand_in(kind: ParamType, index: int, variant: int) -> Any:
    if kind is int:
        return _FIRST_INTEGERS[variant] + index
    if kind is str:
        return f"\ue000prepared-{variant}-{index}\ue001"
    if kind is datetime.datetime:
        return _FIRST_MOMENTS[variant] + datetime.timedelta(microseconds=index + 1)
    if kind is uuid.UUID:
        return uuid.UUID(int=(variant + 1) << 64 | index)
    raise PreparedQueryError(f"a parameter cannot be of type {kind!r}")


def _adapted(connection: BaseDatabaseWrapper, kind: ParamType, value: Any) -> Any:
    """The value as the ORM hands it to the database driver."""
    if kind is datetime.datetime:
        if not isinstance(value, datetime.datetime) or timezone.is_naive(value):
            # The ORM would read a naive time in the current time zone; say which one instead.
            raise TypeError(f"expected an aware datetime, got {value!r}")
        return connection.ops.adapt_datetimefield_value(value)
    if kind is uuid.UUID:
        # As UUIDField hands it over: the UUID where the database has the type, else its hex.
        return value if connection.features.has_native_uuid_field else value.hex
    if not isinstance(value, kind):
        raise TypeError(f"expected {kind.__name__}, got {value!r}")
    return value


def instance[M: Model](model: type[M], fields: Sequence[str], values: Iterable[Any]) -> M:
    """A model instance from column values, as a queryset would have loaded it: the fields not
    given are deferred. ``fields`` are attribute names (``tournament_id``, not ``tournament``)."""
    return model.from_db(DEFAULT_DB_ALIAS, list(fields), list(values))


def concrete_fields(model: type[Model]) -> list[str]:
    """Every column of the model by attribute name, in the model's order."""
    return [field.attname for field in model._meta.concrete_fields]


class Joined:
    """The columns of a model and of models joined to it, for one ``values_list`` row, and the
    instances read back from such a row.

    Each part is ``(path, model)``: the lookup path from the queried model (``""`` for the model
    itself, ``"player1__player"`` for a joined one) and the model found there. ``instances``
    answers one instance per part, in order; a part whose key is empty (an outer join that found
    nothing) is None.
    """

    def __init__(self, *parts: tuple[str, type[Model]]) -> None:
        self.parts = [(path, model, concrete_fields(model)) for path, model in parts]

    @property
    def names(self) -> list[str]:
        return [
            f"{path}__{name}" if path else name
            for path, _model, fields in self.parts
            for name in fields
        ]

    def instances(self, row: Sequence[Any]) -> list[Any]:
        found: list[Any] = []
        start = 0
        for _path, model, fields in self.parts:
            values = row[start : start + len(fields)]
            start += len(fields)
            key = values[fields.index(model._meta.pk.attname)]
            found.append(instance(model, fields, values) if key is not None else None)
        return found


class _CompiledInsert:
    """One model's INSERT as Django writes it for one database: the statement, the fields whose
    values it takes in order, and the columns it returns with their converters."""

    def __init__(
        self,
        sql: str,
        fields: list[Field],
        returning: list[Field],
        converters: dict[int, tuple[list[Any], Any]],
    ) -> None:
        self.sql = sql
        self.fields = fields
        # The key and the columns the database computes (generated ones), read back as the ORM
        # reads them back, with the ORM's converters.
        self.returning = returning
        self.converters = converters


class PreparedInsert[M: Model]:
    """``Model.objects.create`` for one model, its INSERT written once per process for the
    default database.

    What it accepts is checked when it first runs: a model whose key the database numbers (an
    auto field), no parent model, and no column whose value would change the statement's shape
    (a database default, a field with its own placeholder); a generated column is left to the
    database and read back, as the ORM does. A value that is an expression rather than a value,
    and a key given, are refused on every call, since the statement has no place for them.
    """

    def __init__(self, model: type[M]) -> None:
        self.model = model
        self._compiled: dict[str, _CompiledInsert] = {}
        self._lock = threading.Lock()

    def create(self, **values: Any) -> M:
        """The new row, saved, as ``Model.objects.create(**values)`` answers it."""
        connection = connections[DEFAULT_DB_ALIAS]
        alias = connection.alias
        # Typed loosely: the ORM's own steps below are not in the model's public interface.
        row: Any = self.model(**values)
        if row._is_pk_set():
            # The ORM would insert the key given; the prepared statement lets the database number
            # the row, so a key given is refused rather than silently replaced.
            raise PreparedQueryError("a prepared insert takes no key: the database numbers the row")
        # What ``Model.save`` checks first: a related object not saved yet is refused.
        row._prepare_related_fields_for_save(operation_name="save")
        pre_save.send(sender=self.model, instance=row, raw=False, using=alias, update_fields=None)
        compiled = self._compiled.get(alias)
        fields = compiled.fields if compiled is not None else self._fields()
        # What ``SQLInsertCompiler`` binds: each value after the field's ``pre_save`` (which sets
        # an ``auto_now_add`` moment), then prepared by the field for this database. An expression
        # is refused before anything is compiled from this row, since its SQL would otherwise
        # stand in the statement for every later row.
        saved = [(field, field.pre_save(row, add=True)) for field in fields]
        for field, value in saved:
            if hasattr(value, "resolve_expression"):
                raise PreparedQueryError(
                    f"{field.name} is an expression, which a prepared insert cannot bind"
                )
        returned: tuple[Any, ...]
        # As ``Model.save_base``: a failure from here on (a value the field cannot prepare, the
        # database refusing the row) marks the surrounding transaction for rollback.
        with transaction.mark_for_rollback_on_error(using=alias):
            params = [
                field.get_db_prep_save(value, connection=connection) for field, value in saved
            ]
            # Compiled from a copy: compiling runs the fields' ``pre_save`` again, which would
            # give the row an ``auto_now_add`` moment other than the one bound.
            if compiled is None:
                compiled = self._compile(connection, copy.copy(row), fields)
            with connection.cursor() as cursor:
                cursor.execute(compiled.sql, params)
                if connection.features.can_return_columns_from_insert:
                    (fetched,) = connection.ops.fetch_returned_rows(cursor, ())
                    returned = _converted(fetched, compiled.converters, connection)
                else:
                    # The key alone; the other returned columns are left to be read (as the ORM
                    # leaves them).
                    returned = (
                        connection.ops.last_insert_id(
                            cursor,
                            self.model._meta.db_table,
                            cast(str, compiled.returning[0].column),
                        ),
                    )
        row._assign_returned_values(returned, compiled.returning)
        row._state.db = alias
        row._state.adding = False
        post_save.send(
            sender=self.model,
            instance=row,
            created=True,
            update_fields=None,
            raw=False,
            using=alias,
        )
        return row

    def _fields(self) -> list[Field]:
        """The fields the INSERT takes, in order: every column but the key and generated ones."""
        meta = self.model._meta
        if not isinstance(meta.pk, AutoFieldMixin) or meta.parents:
            raise PreparedQueryError(
                "a prepared insert needs a model of its own whose key the database numbers"
            )
        fields = [
            field
            for field in meta.local_concrete_fields
            if field is not meta.pk and not field.generated
        ]
        if any(
            field.has_db_default() or getattr(field, "get_placeholder_sql", None) is not None
            for field in fields
        ):
            raise PreparedQueryError("a column's value would change the shape of the insert's SQL")
        return fields

    def _compile(
        self, connection: BaseDatabaseWrapper, row: Model, fields: list[Field]
    ) -> _CompiledInsert:
        alias = connection.alias
        with self._lock:
            if alias in self._compiled:
                return self._compiled[alias]
            meta = self.model._meta
            query = InsertQuery(self.model)
            query.insert_values(fields, [row])
            compiler = query.get_compiler(using=alias)
            # The key first, as ``last_insert_id`` answers it where nothing else is returned.
            returning = [
                meta.pk,
                *(field for field in meta.db_returning_fields if field is not meta.pk),
            ]
            compiler.returning_fields = returning
            ((sql, params),) = compiler.as_sql()
            # One plain placeholder per field, so that any row's values bind in their places.
            values_clause = "VALUES (" + ", ".join(["%s"] * len(fields)) + ")"
            if compiler.returning_params or len(params) != len(fields) or values_clause not in sql:
                raise PreparedQueryError("the insert's SQL takes other values than the row's")
            converters = compiler.get_converters(
                [field.get_col(meta.db_table) for field in returning]
            )
            compiled = _CompiledInsert(sql, fields, returning, converters)
            self._compiled[alias] = compiled
            return compiled
