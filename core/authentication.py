"""Django's password sign-in, with the signed-in user read through a prepared query, or taken
from a read that already brought the user's row.

``get_user`` runs on every request a judge makes (``AuthenticationMiddleware``); Django's own
backend builds the same look-up by key each time (see ``core.prepared``). A staff page reads the
user with their roles in the tournament, in one query (``tournaments.access``), and hands the row
over through ``known_user``. Authentication itself, permissions, the inactive-user rule and the
check of the session against the password are Django's, whichever way the row came.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.contrib.auth import backends
from django.contrib.auth.models import User

from core.prepared import PreparedQuery, concrete_fields, instance

_USER_FIELDS = concrete_fields(User)
_USER = PreparedQuery(lambda pk: User.objects.filter(pk=pk).values_list(*_USER_FIELDS), pk=int)
# A user's row read by the request being served together with something else.
_known_user: ContextVar[User | None] = ContextVar("known_user", default=None)


@contextmanager
def known_user(user: User | None) -> Iterator[None]:
    """While it lasts, ``get_user`` takes this user when the session names them, instead of
    reading the row again; with None, nothing changes."""
    token = _known_user.set(user)
    try:
        yield
    finally:
        _known_user.reset(token)


class ModelBackend(backends.ModelBackend):
    def get_user(self, user_id: int) -> User | None:
        user = _known_user.get()
        if user is None or user.pk != int(user_id):
            row = _USER.first(pk=int(user_id))
            if row is None:
                return None
            user = instance(User, _USER_FIELDS, row)
        return user if self.user_can_authenticate(user) else None
