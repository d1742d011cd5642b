"""One parser for what arrives from outside: query strings and form fields.

Two rules hold for every request, whatever the view (``RefuseControlCharacters`` below): no
control character (NUL and its kin, which PostgreSQL refuses and no keyboard types) in the path,
a query string or a form field. Everything else is checked by the forms, with bounded fields:
``IdField`` for a row id (a number of at most 18 digits, so ``int()`` and the database both take
it) and ``parse_query`` for a query string, which refuses with a translated message at 400.
"""

import re
from collections.abc import Callable, Iterable
from typing import Any

from django import forms
from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, QueryDict
from django.template import loader
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

# C0 controls but tab, line feed and carriage return (a textarea sends those), DEL, C1 controls.
CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
# Row ids are PostgreSQL bigints; a real one is far below this.
MAX_ID = 10**18 - 1


class InvalidInput(BadRequest):
    """A request no form of the app sends: answered 400 with this message."""

    def __init__(self, message: str | Promise) -> None:
        super().__init__(str(message))
        self.message = message


def has_control_characters(values: Iterable[str]) -> bool:
    return any(CONTROL_CHARACTERS.search(value) for value in values)


def _values(data: QueryDict) -> Iterable[str]:
    for key, values in data.lists():
        yield key
        yield from values


class IdField(forms.IntegerField):
    """The id of a row: a whole number from 1, never long enough to trouble ``int()``."""

    default_error_messages = {
        "invalid": _("Choose from the list."),
        "min_value": _("Choose from the list."),
        "max_value": _("Choose from the list."),
    }

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", MAX_ID)
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> int | None:
        # Refuse a long string before int() (which stops at 4,300 digits) sees it.
        if isinstance(value, str) and len(value.strip()) > len(str(MAX_ID)):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(value)


def form_message(form: forms.BaseForm) -> str:
    """The form's errors as one sentence for a message."""
    return " ".join(str(error) for errors in form.errors.values() for error in errors)


def parse_query[F: forms.BaseForm](request: HttpRequest, form_class: Callable[..., F]) -> F:
    """Validate the query string with a form; a malformed one is refused with its message."""
    form = form_class(request.GET)
    if not form.is_valid():
        raise InvalidInput(form_message(form))
    return form


def parse_id(value: object) -> int | None:
    """A row id from a raw value, or None when it is not one."""
    field = IdField()
    try:
        return field.clean(value)
    except forms.ValidationError:
        return None


class SearchForm(forms.Form):
    """A search box: a short line of text."""

    q = forms.CharField(
        max_length=100,
        required=False,
        error_messages={"max_length": _("Search with at most %(limit_value)d characters.")},
    )


class RefuseControlCharacters:
    """Answer 400 with a clear message when the path, the query string or a form field holds a
    control character; every view then sees only text a person can type."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if has_control_characters([request.path, *_values(request.GET)]) or (
            request.method == "POST" and has_control_characters(_values(request.POST))
        ):
            return bad_request(
                request,
                InvalidInput(
                    _(
                        "The request holds control characters (such as a NUL byte) that no "
                        "form sends; nothing was changed."
                    )
                ),
            )
        return self.get_response(request)


def bad_request(request: HttpRequest, exception: InvalidInput) -> HttpResponse:
    """The 400 page with the reason (the same page as the project's handler400)."""
    context = {"message": exception.message, "request_id": getattr(request, "request_id", "")}
    return HttpResponseBadRequest(loader.get_template("400.html").render(context))
