"""Permissions the operator gives, not every account has.

Creating a tournament, searching the player registry and registering players from it are for the
accounts the operator puts in the ``organisers`` group (``manage.py createorganiser`` does it); any
other account only works at the tournaments whose staff it is on.
"""

from django.contrib.auth.models import AnonymousUser, Group, Permission, User
from django.contrib.contenttypes.models import ContentType

ORGANISERS_GROUP = "organisers"
ORGANISE_CODENAME = "organise_tournaments"
ORGANISE = f"tournaments.{ORGANISE_CODENAME}"
ORGANISE_NAME = "Can create tournaments and use the player registry"


def may_organise(user: User | AnonymousUser) -> bool:
    """May this account create tournaments and use the player registry?"""
    return bool(user.is_authenticated and user.has_perm(ORGANISE))


def organisers_group() -> Group:
    """The ``organisers`` group with its permission, made if missing.

    A data migration makes it; this also makes it again where a test flushed the tables, so the
    group is always there for ``createorganiser`` and the demo.
    """
    from tournaments.models import Tournament

    content_type = ContentType.objects.get_for_model(Tournament)
    permission, _created = Permission.objects.get_or_create(
        content_type=content_type,
        codename=ORGANISE_CODENAME,
        defaults={"name": ORGANISE_NAME},
    )
    group, _created = Group.objects.get_or_create(name=ORGANISERS_GROUP)
    group.permissions.add(permission)
    return group


def make_organiser(user: User) -> None:
    """Put the account in the ``organisers`` group."""
    user.groups.add(organisers_group())
