"""What each row of a list repeats, made once per page rather than once per row: its link, its
form's CSRF field; and its moments, written once in Python rather than by a filter per cell.

A list of 50 or 100 rows links each row to its own page (a record, a match, a registration's
«Drop»). ``{% url %}`` per row walks the URL resolver each time: 0.77 ms of a 50-row page's
4.5 ms, which is what made the pages of a 10,000-player event slower than those of 32 players
(issue 29). ``IdLink`` reverses the URL once with a placeholder id and splits it there; each row's
link is then the two halves around the row's id. It asks ``reverse()`` itself, so a changed URL
pattern changes every row's link with it; ``tests/core/test_rows.py`` holds the links equal
to ``reverse()``.
"""

import datetime

from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString

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


def csrf_field(request: HttpRequest) -> SafeString:
    """The hidden field ``{% csrf_token %}`` writes, made once for a page whose rows each hold a
    form (a result, a «Drop»): the tag formats it again in each row (0.4 ms of a 50-row page).
    The rows print it as ``{{ csrf_field }}``; the view that renders a row alone passes it too."""
    return format_html(
        '<input type="hidden" name="csrfmiddlewaretoken" value="{}">', get_token(request)
    )


def clock_text(moment: datetime.datetime | None) -> str:
    """A moment as ``|time:"H:i"`` writes it, «14:30» in the current time zone; "" for none.
    The rows of «My penalties» and of the deck findings show it."""
    return "" if moment is None else timezone.localtime(moment).strftime("%H:%M")


def moment_text(moment: datetime.datetime | None) -> str:
    """A moment as ``|date:"d.m.Y H:i"`` writes it, «05.12.2026 14:30» in the current time zone;
    "" for none. The judge report's rows show it. The year is written with four digits as the
    filter writes it: ``strftime``'s ``%Y`` leaves a year before 1000 unpadded on Linux."""
    if moment is None:
        return ""
    local = timezone.localtime(moment)
    return f"{local:%d.%m.}{local.year:04d} {local:%H:%M}"
