"""Who may see and do what in a tournament: every tournament view goes through here.

A user who is not on a tournament's staff gets "not found", so nothing of another tournament is
revealed; a staff member without the role a page needs gets "not allowed" with the reason.
"""

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Concatenate, ParamSpec, cast

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django.http.response import HttpResponseBase
from django.utils.translation import gettext as _

from core.http import DeskRequest
from tournaments.models import StaffRole, Tournament
from tournaments.selectors import staff_access

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


def tournament_access(request: HttpRequest, slug: str, allowed: tuple[str, ...]) -> Access:
    """The tournament of that slug and the signed-in user's roles in it, read once (one query);
    "not found" for anyone off its staff, "not allowed" with the reason for a missing role."""
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
    """Decorate a view taking ``(request, access, ...)``; the URL passes the tournament slug.

    The roles are read here, once per request, and handed to the view in ``access``; a view
    passes ``access.roles`` on to a service that checks the judge's role (``issuer_roles`` of
    the penalty service), so the service need not read them again.
    """

    def decorator(
        view: Callable[Concatenate[DeskRequest, Access, P], HttpResponseBase],
    ) -> Callable[..., HttpResponseBase]:
        @login_required
        @wraps(view)
        def wrapped(
            request: HttpRequest, slug: str, *args: P.args, **kwargs: P.kwargs
        ) -> HttpResponseBase:
            desk_request = cast(DeskRequest, request)  # signed in (login_required), htmx set
            access = tournament_access(request, slug, allowed)
            return view(desk_request, access, *args, **kwargs)

        return wrapped

    return decorator
