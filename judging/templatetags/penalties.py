from django import template

from judging.explanations import explain as explain_text
from judging.explanations import penalty_label, takes_text
from judging.models import Infraction
from judging.penalties import Rank
from judging.stacking import Explanation

register = template.Library()


@register.filter
def rank_label(rank: int | None) -> str:
    """«Поражение в партии (включает: предупреждение)»."""
    return "" if rank is None else penalty_label(rank)


@register.filter
def rank_name(rank: int | None) -> str:
    return "" if rank is None else str(Rank(rank).label)


@register.filter
def rank_key(rank: int | None) -> str:
    """A CSS class per rank, e.g. ``rank-game_loss``."""
    return "" if rank is None else f"rank-{Rank(rank).key}"


@register.filter
def takes(applies_to: str) -> str:
    return takes_text(applies_to)


@register.filter
def explain(explanation: Explanation | None) -> str:
    return explain_text(explanation)


@register.filter
def base_for(infraction: Infraction, level: str) -> str:
    """The infraction's base penalty at the tournament's level, for the list of choices."""
    rank = infraction.base_penalty(level)
    return "" if rank is None else str(rank.label)
