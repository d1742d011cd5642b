"""The players' pages' one write: a change they must show (``PublicChange``)."""

from tournaments.models import PublicChange


def mark_public_change(*, tournament_id: int) -> None:
    """Say that the players' pages of the tournament show something out of date; the next
    phone that asks gets pages built anew. Call it inside the writer's transaction: the mark
    commits, or rolls back, with the change itself."""
    PublicChange.objects.create(tournament_id=tournament_id)
