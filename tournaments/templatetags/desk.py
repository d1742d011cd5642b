from django import template

register = template.Library()


@register.filter
def percent(value: float | None) -> str:
    """0.6667 → «66.7%»: tie-breakers are shown as percentages with one decimal."""
    if value is None:
        return ""
    return f"{value * 100:.1f}%"
