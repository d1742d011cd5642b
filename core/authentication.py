"""Django's password sign-in, with the signed-in user read through a prepared query.

``get_user`` runs on every request a judge makes (``AuthenticationMiddleware``); Django's own
backend builds the same look-up by key each time (see ``core.prepared``). Authentication itself,
permissions and the inactive-user rule are Django's.
"""

from django.contrib.auth import backends
from django.contrib.auth.models import User

from core.prepared import PreparedQuery, concrete_fields, instance

_USER_FIELDS = concrete_fields(User)
_USER = PreparedQuery(lambda pk: User.objects.filter(pk=pk).values_list(*_USER_FIELDS), pk=int)


class ModelBackend(backends.ModelBackend):
    def get_user(self, user_id: int) -> User | None:
        row = _USER.first(pk=int(user_id))
        if row is None:
            return None
        user = instance(User, _USER_FIELDS, row)
        return user if self.user_can_authenticate(user) else None
