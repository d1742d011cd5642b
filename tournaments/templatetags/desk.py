from django import template
from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from core import people

register = template.Library()


@register.filter
def percent(value: float | None) -> str:
    """0.6667 → «66.7%»: tie-breakers are shown as percentages with one decimal."""
    if value is None:
        return ""
    return f"{value * 100:.1f}%"


@register.filter
def display_name(user: AbstractBaseUser | None) -> str:
    """``{{ record.issued_by|display_name }}``: see ``core.people.display_name``."""
    return people.display_name(user)


@register.simple_tag
def now_ms() -> int:
    """The server's clock in milliseconds: a page kept by the tablet's service worker tells by it
    that it is older than the newest page the tablet saw (static/js/offline.js)."""
    return int(timezone.now().timestamp() * 1000)
