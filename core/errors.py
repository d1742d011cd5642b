"""Domain errors: a stable code for programs and tests, a translated message for people.

Every app raises this one kind of error, so a view catches it the same way whatever refused.
"""

from django.utils.functional import Promise


class DomainError(Exception):
    """A refused action. Nothing has been written when it is raised."""

    def __init__(self, code: str, message: str | Promise, *, field: str | None = None) -> None:
        super().__init__(str(message))
        self.code = code
        self.message = message
        # The form field the refusal is about, if any: a view shows the error beside it.
        self.field = field

    def __str__(self) -> str:
        return str(self.message)
