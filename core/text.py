"""Required text of at most N characters (reasons, names, statements), written once.

Each caller names its own refusals, since "write the statement" and "write the reason for this
decision" say different things; the rule (stripped, not empty where required, not longer than the
limit) is this one."""

from core.errors import DomainError


def bounded_text(
    value: str, *, max_length: int, missing: DomainError | None, too_long: DomainError
) -> str:
    """The text stripped; ``missing`` is raised when it is empty and required (``missing``
    given), ``too_long`` when it is longer than ``max_length``."""
    text = value.strip()
    if missing is not None and not text:
        raise missing
    if len(text) > max_length:
        raise too_long
    return text
