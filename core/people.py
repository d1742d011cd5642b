"""How the desk names people."""

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser


def display_name(user: AbstractBaseUser | AnonymousUser | None) -> str:
    """A person with an account (a judge, an organiser): the full name, else the login."""
    if user is None:
        return ""
    full_name = getattr(user, "get_full_name", lambda: "")()
    return str(full_name or user.get_username())
