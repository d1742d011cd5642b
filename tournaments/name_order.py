"""A tournament's players in name order, a page at a time from where the last page ended.

A page is read from the index on (tournament, sort name, id) (``Registration.sort_name``): the
first page, the page after a registration, the page before one, or the last page, each read as
its rows and one more, which says whether another page follows. There is no total and no page
number: a count, or the rows skipped to reach page 57, would read every row before the page, and
the screen's work would grow with the event. A cursor names a registration by its id; one that
names no registration of the tournament (a link typed by hand, a player since removed) shows the
first page and says so.
"""

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.http import QueryDict

from core.inputs import parse_id
from tournaments.models import Registration, Tournament


@dataclass(frozen=True)
class NameCursor:
    """Where a page starts: after a registration, before one, at the end, or at the start."""

    after: int | None = None
    before: int | None = None
    last: bool = False

    @classmethod
    def from_query(cls, query: QueryDict) -> "NameCursor":
        """The cursor of a request's query string; anything that is not an id is no cursor."""
        after = parse_id(query.get("after"))
        if after is not None:
            return cls(after=after)
        before = parse_id(query.get("before"))
        if before is not None:
            return cls(before=before)
        return cls(last=query.get("last") == "1")


@dataclass(frozen=True)
class NamePage[T]:
    """One page of rows in name order and what the pager needs to link its neighbours."""

    rows: list[T]
    has_previous: bool
    has_next: bool
    # The registrations of the page's first and last rows: the cursors of «Previous» and «Next».
    first_key: int | None
    last_key: int | None
    # The cursor named no registration of the tournament, so the first page is shown instead.
    lost: bool = False

    @property
    def has_other_pages(self) -> bool:
        return self.has_previous or self.has_next

    def __iter__(self) -> Iterator[T]:
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)


def page_in_name_order[R: Registration | Mapping[str, Any]](
    registrations: QuerySet[Registration, R],
    *,
    tournament: Tournament,
    cursor: NameCursor,
    size: int,
) -> NamePage[R]:
    """The page of ``registrations`` (the tournament's, perhaps filtered) that ``cursor`` asks
    for, ``size`` rows at most, in order of sort name and id: registrations, or their values
    (``.values("pk", ...)``: a list of 100 rows needs no model instances)."""
    key: tuple[str, int] | None = None
    named = cursor.after if cursor.after is not None else cursor.before
    if named is not None:
        key = (
            Registration.objects.filter(tournament=tournament, pk=named)
            .values_list("sort_name", "pk")
            .first()
        )
        if key is None:
            return _first(registrations, size, lost=True)
    if key is not None and cursor.after is not None:
        name, pk = key
        after = registrations.filter(sort_name__gte=name).exclude(sort_name=name, pk__lte=pk)
        rows = list(after.order_by("sort_name", "pk")[: size + 1])
        if not rows:
            # Nothing after it (the last row of the list): the last page.
            return _last(registrations, size)
        return _page(rows[:size], has_previous=True, has_next=len(rows) > size)
    if key is not None:
        name, pk = key
        before = registrations.filter(sort_name__lte=name).exclude(sort_name=name, pk__gte=pk)
        rows = list(before.order_by("-sort_name", "-pk")[: size + 1])
        if not rows:
            return _first(registrations, size)
        return _page(rows[:size][::-1], has_previous=len(rows) > size, has_next=True)
    if cursor.last:
        return _last(registrations, size)
    return _first(registrations, size)


def _first[R: Registration | Mapping[str, Any]](
    registrations: QuerySet[Registration, R], size: int, *, lost: bool = False
) -> NamePage[R]:
    rows = list(registrations.order_by("sort_name", "pk")[: size + 1])
    return _page(rows[:size], has_previous=False, has_next=len(rows) > size, lost=lost)


def _last[R: Registration | Mapping[str, Any]](
    registrations: QuerySet[Registration, R], size: int
) -> NamePage[R]:
    rows = list(registrations.order_by("-sort_name", "-pk")[: size + 1])
    return _page(rows[:size][::-1], has_previous=len(rows) > size, has_next=False)


def _page[R: Registration | Mapping[str, Any]](
    rows: list[R], *, has_previous: bool, has_next: bool, lost: bool = False
) -> NamePage[R]:
    return NamePage(
        rows=rows,
        has_previous=has_previous,
        has_next=has_next,
        first_key=_key(rows[0]) if rows else None,
        last_key=_key(rows[-1]) if rows else None,
        lost=lost,
    )


def _key(row: Registration | Mapping[str, Any]) -> int:
    return row.pk if isinstance(row, Registration) else row["pk"]


def mapped[T, U](page: NamePage[T], rows: Callable[[list[T]], list[U]]) -> NamePage[U]:
    """The same page with its rows made into other rows (the same number, in the same order)."""
    return NamePage(
        rows=rows(page.rows),
        has_previous=page.has_previous,
        has_next=page.has_next,
        first_key=page.first_key,
        last_key=page.last_key,
        lost=page.lost,
    )
