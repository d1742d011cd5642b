"""Lists read a page at a time: a screen's work does not grow with the event."""

from collections.abc import Callable, Iterator, Sequence
from functools import cached_property
from typing import overload


class Window[T](Sequence[T]):
    """A tournament-long list read one slice at a time, for ``Paginator``: it asks for the
    count and then for the one page it shows, so a screen's work does not grow with the event.

    ``count`` says how many rows there are; ``rows(start, stop)`` reads those rows, in order.
    """

    def __init__(self, *, count: Callable[[], int], rows: Callable[[int, int], list[T]]) -> None:
        self._count = count
        self._rows = rows

    @cached_property
    def total(self) -> int:
        return self._count()

    def __len__(self) -> int:
        return self.total

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> list[T]: ...

    def __getitem__(self, index: int | slice) -> T | list[T]:
        if isinstance(index, int):
            position = range(len(self))[index]
            return self._rows(position, position + 1)[0]
        start, stop, step = index.indices(len(self))
        if step != 1:
            raise ValueError("A window is read in order, one row after another.")
        return self._rows(start, stop) if start < stop else []

    def __iter__(self) -> Iterator[T]:
        # The whole list in one read (the report and its exports), not one read per row.
        return iter(self[:])
