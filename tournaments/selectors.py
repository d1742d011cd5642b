"""Reads about tournaments, their staff, rounds and matches."""

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from tournaments.models import Match, Registration, Round, Staff, StaffRole, Tournament


def staff_roles(*, tournament: Tournament, user: AbstractBaseUser | AnonymousUser) -> set[str]:
    if not user.is_authenticated:
        return set()
    return set(
        Staff.objects.filter(tournament=tournament, user=user).values_list("role", flat=True)
    )


def judge_role(*, tournament: Tournament, user: AbstractBaseUser | AnonymousUser) -> str | None:
    """The strongest judging role the user holds in the tournament, if any."""
    roles = staff_roles(tournament=tournament, user=user)
    for role in (StaffRole.HEAD_JUDGE, StaffRole.FLOOR_JUDGE):
        if role in roles:
            return role
    return None


def latest_round(*, tournament: Tournament) -> Round | None:
    return Round.objects.filter(tournament=tournament).order_by("-number").first()


def current_match(*, registration: Registration) -> Match | None:
    """The player's match that has not ended (a bye is not a match and never counts)."""
    return (
        Match.objects.of(registration)
        .in_progress()
        .filter(player2__isnull=False)
        .select_related("round", "player1__player", "player2__player")
        .order_by("-round__number")
        .first()
    )


def latest_match_between(*, first: Registration, second: Registration) -> Match | None:
    return Match.objects.of(first).of(second).order_by("-round__number", "-id").first()
