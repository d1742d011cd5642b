"""Sessions in the database, as Django keeps them, read through a prepared query.

Every page a judge opens reads the session first; Django's own store builds that query anew each
time (see ``core.prepared``). The table is the desk's own (``core.models.Session``): Django's, with
the signed-in user's key beside the data, so that a staff page can read the session together with
the user and their roles (``tournaments.access.read_with_user``) and hand it over with ``prime``.
Writing, expiry and sign-out are Django's. Enabled by ``SESSION_ENGINE = "core.sessions"``.
"""

import datetime
from typing import Any

from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.contrib.sessions.base_session import AbstractBaseSession
from django.utils import timezone

from core.models import Session
from core.prepared import PreparedQuery

_SESSION = PreparedQuery(
    lambda key, now: Session.objects.filter(session_key=key, expire_date__gt=now).values_list(
        "session_data", "expire_date"
    )[:1],
    key=str,
    now=datetime.datetime,
)


class SessionStore(DatabaseSessionStore):
    @classmethod
    def get_model_class(cls) -> type[Session]:
        return Session

    def create_model_instance(self, data: dict[str, Any]) -> Session:
        """The row to save, with the user the data signs in (None for anyone else)."""
        return self._with_user(super().create_model_instance(data), data)

    async def acreate_model_instance(self, data: dict[str, Any]) -> Session:
        return self._with_user(await super().acreate_model_instance(data), data)

    @staticmethod
    def _with_user(session: AbstractBaseSession, data: dict[str, Any]) -> Session:
        if not isinstance(session, Session):
            raise TypeError(f"not a row of the desk's session table: {session!r}")
        session.user_id = signed_in_user_pk(data.get(SESSION_KEY))
        return session

    def _get_session_from_db(self) -> Session | None:
        key = self.session_key
        row = _SESSION.first(key=key, now=timezone.now()) if key is not None else None
        if key is None or row is None:
            self._session_key = None
            return None
        data, expire_date = row
        return Session(session_key=key, session_data=data, expire_date=expire_date)

    @property
    def is_loaded(self) -> bool:
        """Whether the session's data has been read (or made) in this request."""
        return hasattr(self, "_session_cache")

    def prime(self, session_data: str) -> None:
        """Take the data of this session as another query read it (unexpired, by this key),
        instead of reading the row again; decoded as a read of the row would decode it (data
        that fails its signature reads as an empty session)."""
        if self.is_loaded:
            raise RuntimeError("the session was read already: priming it would drop changes")
        # Private to Django's SessionBase: where a read of the row keeps the decoded data.
        self._session_cache = self.decode(session_data)
        self.accessed = True


def signed_in_user_pk(value: object) -> int | None:
    """The key of the user a session's data signs in, if it can be one (the data holds it as
    text); None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value > 0 else None
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 19:
        return int(value) or None
    return None
