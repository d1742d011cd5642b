"""Who may see and do what in a tournament: every tournament view goes through here.

A user who is not on a tournament's staff gets "not found", so nothing of another tournament is
revealed; a staff member without the role a page needs gets "not allowed" with the reason.
"""

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import wraps
from typing import Concatenate, ParamSpec, cast

from django.contrib.auth import SESSION_KEY
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django.http.response import HttpResponseBase
from django.utils.translation import gettext as _

from core.authentication import known_user
from core.http import DeskRequest
from core.sessions import SessionStore, signed_in_user_pk
from tournaments.models import StaffRole, Tournament
from tournaments.selectors import (
    StaffRead,
    roles_checked,
    session_with_staff,
    staff_access,
    staff_access_with_user,
)

JUDGES = (StaffRole.HEAD_JUDGE, StaffRole.FLOOR_JUDGE)
RESULT_KEEPERS = (StaffRole.ORGANISER, StaffRole.HEAD_JUDGE, StaffRole.FLOOR_JUDGE)
REPORT_READERS = (StaffRole.ORGANISER, StaffRole.HEAD_JUDGE)
# Who may correct a finished result (with a reason).
CORRECTORS = (StaffRole.ORGANISER, StaffRole.HEAD_JUDGE)

P = ParamSpec("P")


@dataclass(frozen=True)
class Access:
    tournament: Tournament
    roles: frozenset[str]

    @property
    def is_organiser(self) -> bool:
        return StaffRole.ORGANISER in self.roles

    @property
    def is_head_judge(self) -> bool:
        return StaffRole.HEAD_JUDGE in self.roles

    @property
    def is_judge(self) -> bool:
        return bool(self.roles & set(JUDGES))

    @property
    def keeps_results(self) -> bool:
        return bool(self.roles & set(RESULT_KEEPERS))

    @property
    def corrects_results(self) -> bool:
        return bool(self.roles & set(CORRECTORS))

    @property
    def reads_report(self) -> bool:
        return bool(self.roles & set(REPORT_READERS))


# What the staff page being served read of its user before the user was signed in: the slug and
# the read (None when the user is not on that tournament's staff).
_read_with_user: ContextVar[tuple[str, StaffRead | None] | None] = ContextVar(
    "read_with_user", default=None
)


def tournament_access(request: HttpRequest, slug: str, allowed: tuple[str, ...]) -> Access:
    early = _read_with_user.get()
    if early is not None and early[0] == slug and _is_signed_in_user(early[1], request):
        read = early[1]
        tournament, found = (read.tournament, read.roles) if read is not None else (None, set())
    else:
        tournament, found = staff_access(slug=slug, user=request.user)
    roles = frozenset(found)
    if tournament is None or not roles:
        raise Http404
    if allowed and not roles & set(allowed):
        names = ", ".join(str(StaffRole(role).label).lower() for role in allowed)
        raise PermissionDenied(_("This page is for: %(roles)s.") % {"roles": names})
    return Access(tournament=tournament, roles=roles)


def staff_view(
    *allowed: str,
) -> Callable[
    [Callable[Concatenate[DeskRequest, Access, P], HttpResponseBase]],
    Callable[..., HttpResponseBase],
]:
    """Decorate a view taking ``(request, access, ...)``; the URL passes the tournament slug."""

    def decorator(
        view: Callable[Concatenate[DeskRequest, Access, P], HttpResponseBase],
    ) -> Callable[..., HttpResponseBase]:
        @login_required
        @wraps(view)
        def signed_in(
            request: HttpRequest, slug: str, *args: P.args, **kwargs: P.kwargs
        ) -> HttpResponseBase:
            desk_request = cast(DeskRequest, request)  # signed in (login_required), htmx set
            access = tournament_access(request, slug, allowed)
            with roles_checked(
                tournament=access.tournament, user=desk_request.user, roles=access.roles
            ):
                return view(desk_request, access, *args, **kwargs)

        @wraps(view)
        def wrapped(
            request: HttpRequest, slug: str, *args: P.args, **kwargs: P.kwargs
        ) -> HttpResponseBase:
            with read_with_user(request, slug):
                return signed_in(request, slug, *args, **kwargs)

        return wrapped

    return decorator


@contextmanager
def read_with_user(request: HttpRequest, slug: str) -> Iterator[None]:
    """Read the session, the user it names and their roles in the tournament, in one query, and
    let the session, the sign-in check and the access check take them from that read.

    Every page of the staff needs all three; read apart, they cost three round trips to the
    database on every request. Django still decides who is signed in (the session's data, the
    backend, the check against the password): the rows read here only spare their queries.
    """
    named, read = _early_read(request, slug)
    if not named:
        yield
        return
    token = _read_with_user.set((slug, read))
    try:
        with known_user(read.user if read is not None else None):
            yield
    finally:
        _read_with_user.reset(token)


def _early_read(request: HttpRequest, slug: str) -> tuple[bool, StaffRead | None]:
    """Whether the session names a user, and their staff read (None: not on the staff).

    When this request has not read its session yet (the session store of ``core.sessions``),
    the session is read with the user and the roles and primed with its data: one query for the
    three. Someone off the staff (who gets "not found") is read the ordinary way.
    """
    store = request.session
    key = store.session_key
    staff = None
    if isinstance(store, SessionStore) and key is not None and not store.is_loaded:
        found = session_with_staff(key=key, slug=slug)
        if found is not None:
            data, staff = found
            store.prime(data)
    user_id = _session_user_id(request)
    if user_id is None:
        return False, None
    # The session's data decides who it signs in; its row's copy of the user only joined the
    # rows, and is written with the data, so the two agree (else the roles are read again).
    if staff is not None and staff.user.pk == user_id:
        return True, staff
    return True, staff_access_with_user(slug=slug, user_id=user_id)


def _session_user_id(request: HttpRequest) -> int | None:
    """The id of the user the session names, if it names one that could be a user's."""
    # The rule the session table's copy of the user is written by, so the two always agree.
    return signed_in_user_pk(request.session.get(SESSION_KEY))


def _is_signed_in_user(read: StaffRead | None, request: HttpRequest) -> bool:
    """Whether the early read was of the user signed in now (None: of no one on the staff)."""
    if read is None:
        return request.user.is_authenticated
    return request.user.is_authenticated and request.user.pk == read.user.pk
