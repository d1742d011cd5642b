"""The desk's own session table: Django's, with the signed-in user beside the session's data."""

from django.conf import settings
from django.contrib.sessions.backends.base import SessionBase
from django.contrib.sessions.base_session import AbstractBaseSession
from django.db import models
from django.utils.translation import gettext_lazy as _


class Session(AbstractBaseSession):
    """A session as Django keeps it, with the key of the user it signs in (None before sign-in).

    The user's key is a copy of what the session's data says, written with the data on every save
    (``core.sessions.SessionStore``, through Django's documented ``create_model_instance``), so
    that the sessions of an account can be found in the database. Who is signed in is decided
    from the data, as Django does; nothing on the request path reads the copy.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="sessions",
        # A copy of what the data says, which the data may say of an account that is gone (a
        # session older than a restored backup): no constraint may refuse to save it.
        db_constraint=False,
        verbose_name=_("user"),
    )

    class Meta(AbstractBaseSession.Meta):
        db_table = "core_session"

    @classmethod
    def get_session_store_class(cls) -> type[SessionBase]:
        from core.sessions import SessionStore

        return SessionStore
