"""Links of a list's rows, reversed once per page rather than once per row.

A list of 50 or 100 rows links each row to its own page (a record, a match, a registration's
«Drop»). ``{% url %}`` per row walks the URL resolver each time: 0.77 ms of a 50-row page's
4.5 ms, which is what made the pages of a 10,000-player event slower than those of 32 players
(issue 29). ``IdLink`` reverses the URL once with a placeholder id and splits it there; each row's
link is then the two halves around the row's id. It asks ``reverse()`` itself, so a changed URL
pattern changes every row's link with it; ``tests/core/test_row_links.py`` holds the links equal
to ``reverse()``.
"""

from django.urls import reverse

# An id no row has (beyond the columns' 32-bit range) and a number that a slug, which the URL
# names before the id, could contain only by chance: the split is at its last occurrence, and the
# id is each of these URLs' last argument.
PLACEHOLDER = 98765432109


class IdLink:
    """``IdLink("judging:record", slug)(record.pk) == reverse("judging:record", args=[slug,
    record.pk])``: the URL named ``viewname`` whose last argument is a row's id."""

    def __init__(self, viewname: str, *args: object) -> None:
        url = reverse(viewname, args=[*args, PLACEHOLDER])
        self._before, self._after = url.rsplit(str(PLACEHOLDER), 1)

    def __call__(self, pk: int) -> str:
        return f"{self._before}{pk}{self._after}"
