"""The range of dates and moments the desk accepts, in forms and in the database.

A calendar date far from today (year 1, year 9999) parses as a Python date, but it does not
survive the round trip: moved to UTC from Moscow it falls before year 1 (SQLite's save fails) or
into BC (PostgreSQL stores it and psycopg then refuses to read the row, taking every page that
shows it down). No card tournament happens outside 2000–2100, so forms refuse anything outside
that range with a clear message, and a ``CheckConstraint`` built from the same bounds keeps the
database from holding it whatever writes it.
"""

import datetime
from typing import Any

from django import forms
from django.db.models import Q
from django.utils import formats
from django.utils.translation import gettext_lazy as _

EARLIEST_DAY = datetime.date(2000, 1, 1)
LATEST_DAY = datetime.date(2100, 12, 31)
# The database compares moments in UTC: a day of margin on each side keeps every local moment
# of 2000–2100 (in any time zone) inside, and still far from the ends of any calendar.
EARLIEST_MOMENT = datetime.datetime(1999, 12, 31, tzinfo=datetime.UTC)
END_MOMENT = datetime.datetime(2101, 1, 2, tzinfo=datetime.UTC)
# How far a deadline of the event may be from the event's day.
EVENT_RANGE = datetime.timedelta(days=366)


def day_in_range(day: datetime.date) -> bool:
    return EARLIEST_DAY <= day <= LATEST_DAY


def moment_in_range(moment: datetime.datetime) -> bool:
    return day_in_range(moment.date())


def days_constraint(field: str) -> Q:
    """The condition of a CheckConstraint that bounds a DateField (NULL passes)."""
    return Q(**{f"{field}__isnull": True}) | Q(
        **{f"{field}__gte": EARLIEST_DAY, f"{field}__lte": LATEST_DAY}
    )


def moments_constraint(field: str) -> Q:
    """The condition of a CheckConstraint that bounds a DateTimeField (NULL passes)."""
    return Q(**{f"{field}__isnull": True}) | Q(
        **{f"{field}__gte": EARLIEST_MOMENT, f"{field}__lt": END_MOMENT}
    )


def _range_message() -> str:
    return str(
        _("Enter a date from %(first)s to %(last)s.")
        % {
            "first": formats.date_format(EARLIEST_DAY, "SHORT_DATE_FORMAT"),
            "last": formats.date_format(LATEST_DAY, "SHORT_DATE_FORMAT"),
        }
    )


def validate_day(day: datetime.date) -> None:
    """A validator for a model form's date field."""
    if not day_in_range(day):
        raise forms.ValidationError(_range_message(), code="out_of_range")


class BoundedDateField(forms.DateField):
    """A date from 2000 to 2100."""

    def clean(self, value: Any) -> datetime.date | None:
        day: datetime.date | None = super().clean(value)
        if day is not None and not day_in_range(day):
            raise forms.ValidationError(_range_message(), code="out_of_range")
        return day


class BoundedDateTimeField(forms.DateTimeField):
    """A moment from 2000 to 2100 (checked on the local day, before any move to UTC)."""

    def clean(self, value: Any) -> datetime.datetime | None:
        moment: datetime.datetime | None = super().clean(value)
        if moment is not None and not moment_in_range(moment):
            raise forms.ValidationError(_range_message(), code="out_of_range")
        return moment


def near_event(moment: datetime.datetime, event_day: datetime.date) -> bool:
    """A moment of an event lies within a year of the event's day."""
    return abs(moment.date() - event_day) <= EVENT_RANGE
