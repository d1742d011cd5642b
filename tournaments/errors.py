"""Kept for imports written before the error moved below all apps: use ``core.errors``."""

from core.errors import DomainError

__all__ = ["DomainError"]
