import datetime
import uuid

from django import template
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from floor.models import ReportEntry
from floor.selectors import TableState
from judging import live

register = template.Library()


@register.filter
def clock_time(seconds: int | None) -> str:
    """Seconds as the clock shows them: 49:05, or 1:02:03 past an hour."""
    if seconds is None:
        return ""
    seconds = max(0, int(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


@register.filter
def epoch_ms(moment: datetime.datetime | None) -> str:
    """A moment as milliseconds since the epoch, for the page's script."""
    return str(int(moment.timestamp() * 1000)) if moment is not None else ""


@register.filter
def minutes_between(later: datetime.datetime | None, earlier: datetime.datetime | None) -> str:
    """The time from one moment to another as minutes and seconds (a call's response time)."""
    if later is None or earlier is None:
        return "—"
    return clock_time(int((later - earlier).total_seconds()))


@register.simple_tag
def uuid_key() -> str:
    """A fresh client key for a form: a double tap or a retry sends the same one."""
    return str(uuid.uuid4())


@register.filter
def slip_players(first: object, second: object) -> list[object]:
    """The two players of a slip, in table order."""
    return [first, second]


@register.simple_tag(takes_context=True)
def streams_available(context: template.Context) -> bool:
    """Whether this page can hold the live event stream (an ASGI server); without one the live
    parts of the page poll."""
    request = context.get("request")
    return request is not None and live.streams_available(request)


STATE_LABELS = {
    TableState.DISPUTED: _("reports differ"),
    TableState.CALL: _("judge called"),
    TableState.CONFIRMED: _("confirmed by players"),
    TableState.FINISHED: _("finished"),
    TableState.REPORTED: _("reported, not confirmed"),
    TableState.DECK_CHECK: _("deck check"),
    TableState.EXTRA_TIME: _("extra time"),
    TableState.PLAYING: _("playing"),
}


@register.filter
def table_label(table: int | None) -> str:
    """ "Table 12", as a filter: a page of fifty rows draws it fifty times, and a filter costs
    a fraction of a ``blocktranslate`` (the same words, the same catalogue entry)."""
    return gettext("Table %(n)s") % {"n": table}


@register.filter
def table_state(state: str) -> str:
    """The words for a table's state on the round at a glance (the colour never says it alone)."""
    return str(STATE_LABELS.get(state, ""))


@register.filter
def report_games(entry: ReportEntry) -> str:
    """A player's reported games as a score and one by one (the judge report)."""
    from floor.report import games_in_words

    return games_in_words(entry)
