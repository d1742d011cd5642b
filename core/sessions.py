"""Sessions in the database, as Django keeps them, read through a prepared query.

Every page a judge opens reads the session first; Django's own store builds that query anew each
time (see ``core.prepared``). Only the read differs: writing, expiry and sign-out are Django's.
Enabled by ``SESSION_ENGINE = "core.sessions"``.
"""

import datetime

from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.contrib.sessions.models import Session
from django.utils import timezone

from core.prepared import PreparedQuery

_SESSION = PreparedQuery(
    lambda key, now: Session.objects.filter(session_key=key, expire_date__gt=now).values_list(
        "session_data", "expire_date"
    )[:1],
    key=str,
    now=datetime.datetime,
)


class SessionStore(DatabaseSessionStore):
    def _get_session_from_db(self) -> Session | None:
        key = self.session_key
        row = _SESSION.first(key=key, now=timezone.now()) if key is not None else None
        if key is None or row is None:
            self._session_key = None
            return None
        data, expire_date = row
        return Session(session_key=key, session_data=data, expire_date=expire_date)
