"""Permissions the operator gives, not every account has.

Creating a tournament, searching the player registry and registering players from it are for the
accounts the operator puts in the ``organisers`` group (``manage.py createorganiser`` does it); any
other account only works at the tournaments whose staff it is on.
"""

from typing import TYPE_CHECKING

from django.contrib.auth.models import AnonymousUser, Group, Permission, User
from django.contrib.contenttypes.models import ContentType

if TYPE_CHECKING:
    from tournaments.models import Tournament

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


OFFICIAL_REPRESENTATIVE = "tournaments.official_representative"
OFFICIALS_GROUP = "official representatives"
FEDERATION_GROUP = "federation"


def _grant(user: User, *, codename: str, group_name: str) -> None:
    """Put the account in the group that holds the permission (both made if missing)."""
    from tournaments.models import Tournament

    content_type = ContentType.objects.get_for_model(Tournament)
    names = dict(Tournament._meta.permissions)
    permission, _created = Permission.objects.get_or_create(
        content_type=content_type, codename=codename, defaults={"name": names[codename]}
    )
    group, _created = Group.objects.get_or_create(name=group_name)
    group.permissions.add(permission)
    user.groups.add(group)


def make_official_representative(user: User) -> None:
    """The operator names an official representative (the guideline's federation role)."""
    _grant(user, codename="official_representative", group_name=OFFICIALS_GROUP)


def make_federation_staff(user: User) -> None:
    _grant(user, codename="federation_staff", group_name=FEDERATION_GROUP)


FEDERATION_STAFF = "tournaments.federation_staff"


def may_read_history_elsewhere(
    *, user: User | AnonymousUser, tournament: "Tournament", is_head_judge: bool
) -> bool:
    """May this account read a player's penalties from other events on this tournament's pages?

    The federation's staff may; so may the head judge of an event whose head judge is an official
    representative, when the operator made the account one. Organising an event, or ticking «the
    head judge is an official representative» on it, gives nothing by itself: an organiser could
    otherwise make themselves head judge and read anyone's history.
    """
    if not user.is_authenticated:
        return False
    if user.has_perm(FEDERATION_STAFF):
        return True
    return bool(
        is_head_judge
        and tournament.head_judge_is_official
        and user.has_perm(OFFICIAL_REPRESENTATIVE)
    )
