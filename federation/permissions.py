"""Who works at the federation: its staff (``tournaments.federation_staff``: import event files,
read players' histories, export the suspension list) and the game's coordinator
(``federation.coordinate_suspensions``: sets and lifts suspensions). The operator names them
(``manage.py federationrole USER --staff|--coordinator``)."""

from django.contrib.auth.models import AnonymousUser, Group, Permission, User
from django.contrib.contenttypes.models import ContentType

from tournaments.permissions import FEDERATION_STAFF, make_federation_staff

COORDINATOR = "federation.coordinate_suspensions"
COORDINATORS_GROUP = "coordinators"


def is_federation_staff(user: User | AnonymousUser) -> bool:
    return bool(user.is_authenticated and user.has_perm(FEDERATION_STAFF))


def is_coordinator(user: User | AnonymousUser) -> bool:
    return bool(user.is_authenticated and user.has_perm(COORDINATOR))


def make_coordinator(user: User) -> None:
    """The game's coordinator, who is federation staff as well."""
    from federation.models import ImportedEvent

    make_federation_staff(user)
    permission, _created = Permission.objects.get_or_create(
        content_type=ContentType.objects.get_for_model(ImportedEvent),
        codename="coordinate_suspensions",
        defaults={"name": "Is the game's coordinator: sets and lifts suspensions"},
    )
    group, _created = Group.objects.get_or_create(name=COORDINATORS_GROUP)
    group.permissions.add(permission)
    user.groups.add(group)
