"""Django's database sessions in the desk's own table (``core.models.Session``), which keeps the
signed-in user's key beside the data.

Only Django's documented extension points are used: ``get_model_class`` names the table and
``create_model_instance`` fills the extra column on every save (synchronous or not). Reading,
writing, expiry and sign-out are Django's. Enabled by ``SESSION_ENGINE = "core.sessions"``.
"""

from typing import Any

from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.contrib.sessions.base_session import AbstractBaseSession

from core.models import Session


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
