"""Writes of the venue's set-up: the first organiser, made from the laptop's browser."""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import DomainError
from tournaments.services import create_organiser


def create_first_organiser(*, username: str, full_name: str, password: str) -> User:
    """The event's first account, an organiser, while the database has no account at all.

    Once any account exists the set-up page is done: further organisers come from
    ``createorganiser`` or the administration, so nobody on the Wi-Fi can use this page to give
    themselves the organiser's rights later.
    """
    with transaction.atomic():
        if get_user_model().objects.exists():
            raise DomainError(
                "set_up_done",
                _("The desk is already set up: sign in with the organiser's login."),
            )
        return create_organiser(username=username, full_name=full_name, password=password)
