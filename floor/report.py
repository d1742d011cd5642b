"""The floor's section of the judge report: time extensions, and judge calls with their response
times. Registered with judging's report from ``FloorConfig.ready()``."""

import datetime
import statistics

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from floor import selectors
from tournaments.models import Tournament


def _seconds(delta: datetime.timedelta | None) -> int | None:
    return int(delta.total_seconds()) if delta is not None else None


def report_section(tournament: Tournament) -> SafeString:
    extensions = selectors.report_extensions(tournament=tournament)
    calls = selectors.report_calls(tournament=tournament)
    responses = [
        seconds
        for call in calls
        if (seconds := _seconds(call.claimed_at - call.created_at if call.claimed_at else None))
        is not None
    ]
    context = {
        "extensions": extensions,
        "extension_minutes": sum(extension.minutes for extension in extensions),
        "calls": calls,
        "median_response": int(statistics.median(responses)) if responses else None,
        "longest_response": max(responses) if responses else None,
    }
    # The template escapes every value; the report inserts the section as it is.
    return mark_safe(render_to_string("floor/report_section.html", context))
