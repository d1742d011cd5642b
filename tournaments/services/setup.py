"""Writes for setting a tournament up: the tournament, its staff, its players, its end.

Keyword-only, atomic, coded errors (``DomainError``) before anything is written.
"""

import datetime
from collections.abc import Iterable

from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q, QuerySet, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import DomainError
from core.prepared import PreparedQuery
from players import services as player_services
from players.models import Player
from tournaments import selectors
from tournaments.models import (
    Level,
    Match,
    Registration,
    RegistrationStatus,
    Staff,
    StaffRole,
    Tournament,
    TournamentStatus,
    decklists_default,
    decklists_required,
)
from tournaments.permissions import make_organiser
from tournaments.services.pages import mark_public_change

# A new account's password: Django's MinimumLengthValidator default, which the settings use.
MIN_PASSWORD_LENGTH = 8


def lock_registrations(ids: Iterable[int]) -> dict[int, Registration]:
    """Lock the rows in a fixed order and return them fresh."""
    rows = (
        # Only the registrations: the tournament and the players are read with them, and locking
        # them too would queue every submit of the event behind one row (and deadlock with a
        # round being published, which locks the tournament first).
        Registration.objects.select_for_update(of=("self",))
        .filter(pk__in=sorted(set(ids)))
        .order_by("pk")
        .select_related("player", "tournament")
    )
    return {row.pk: row for row in rows}


def lock_player_and_opponent(registration_id: int, tournament_id: int) -> dict[int, Registration]:
    """Lock the player and whoever plays them in a match in progress, in one statement and in
    the same order as ``lock_registrations``; return the rows fresh. Nothing is locked for a
    registration of another tournament."""
    return {
        registration.pk: registration
        for registration in map(
            selectors.registration_from_row,
            _LOCK_PLAYER_AND_OPPONENT.rows(registration=registration_id, tournament=tournament_id),
        )
    }


def _lock_player_and_opponent(
    registration: int, tournament: int
) -> QuerySet[Registration, tuple[object, ...]]:
    # The newest match first, as ``current_match`` reads it.
    in_play = Match.objects.filter(ended_at__isnull=True, player2__isnull=False).order_by(
        "-round__number"
    )
    # Each opponent is one scalar subquery (a player plays one match at a time), so the database
    # finds the two rows by their key; "in (subquery)" would scan every registration instead.
    # Should a second match in progress ever exist, ``lock_player`` sees its player unlocked and
    # locks again (after the player, out of the key order: a deadlock there is possible, but
    # only with a match that cannot exist, since a round begins when every match has ended).
    return (
        # Only the registrations (see ``lock_registrations``).
        Registration.objects.select_for_update(of=("self",))
        .filter(tournament_id=tournament)
        .filter(
            Q(pk=registration)
            | Q(pk=Subquery(in_play.filter(player1_id=registration).values("player2_id")[:1]))
            | Q(pk=Subquery(in_play.filter(player2_id=registration).values("player1_id")[:1]))
        )
        .order_by("pk")
        .values_list(*selectors.REGISTRATION_ROW.names)
    )


# Every submit runs it (core/prepared.py says why it is prepared).
_LOCK_PLAYER_AND_OPPONENT = PreparedQuery(
    _lock_player_and_opponent, registration=int, tournament=int
)


def create_tournament(
    *,
    name: str,
    slug: str,
    date: datetime.date,
    level: str,
    uses_decklists: bool | None = None,
    best_of: int = 3,
    head_judge_is_official: bool = False,
    venue: str = "",
    format: str = "constructed",
    rounds_planned: int | None = None,
    round_minutes: int | None = None,
    organiser: User | None = None,
) -> Tournament:
    """A new tournament; whoever creates it on the screen becomes its organiser."""
    if level not in Level.values:
        raise DomainError("unknown_level", _("Unknown rules-enforcement level."))
    if uses_decklists is None:
        uses_decklists = decklists_default(level)
    ensure_decklists_at_highest(level=level, uses_decklists=uses_decklists)
    if best_of < 1:
        raise DomainError("bad_best_of", _("A match has at least one game."))
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name,
            slug=slug,
            date=date,
            level=level,
            uses_decklists=uses_decklists,
            best_of=best_of,
            head_judge_is_official=head_judge_is_official,
            venue=venue,
            format=format,
        )
        timing = {"rounds_planned": rounds_planned, "round_minutes": round_minutes}
        given = {name: value for name, value in timing.items() if value is not None}
        if given:
            tournament = update_tournament(tournament=tournament, **given)
        if organiser is not None:
            add_staff(tournament=tournament, user=organiser, role=StaffRole.ORGANISER)
        return tournament


def ensure_decklists_at_highest(*, level: str, uses_decklists: bool) -> None:
    """The one rule that the highest level always uses deck lists (rules.md §1)."""
    if decklists_required(level) and not uses_decklists:
        raise DomainError(
            "decklists_required", _("Deck lists are always used at the highest level.")
        )


def add_staff(*, tournament: Tournament, user: User, role: str) -> Staff:
    with transaction.atomic():
        if role == StaffRole.HEAD_JUDGE and (
            Staff.objects.filter(tournament=tournament, role=role).exclude(user=user).exists()
        ):
            raise DomainError("head_judge_taken", _("The tournament already has a head judge."))
        staff, _created = Staff.objects.get_or_create(tournament=tournament, user=user, role=role)
        return staff


def add_staff_member(
    *, tournament: Tournament, username: str, role: str, full_name: str = "", password: str = ""
) -> Staff:
    """Give a login a role in the tournament, creating the account when the login is new."""
    username = username.strip()
    with transaction.atomic():
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            if len(password) < MIN_PASSWORD_LENGTH:
                raise DomainError(
                    "password_too_short",
                    _(
                        "There is no such login yet; give a password of at least 8 characters "
                        "to create it."
                    ),
                    field="password",
                )
            # Django's password validators: not like the login, not common, not only digits.
            account = get_user_model()(username=username, first_name=full_name.strip())
            try:
                password_validation.validate_password(password, user=account)
            except ValidationError as error:
                raise DomainError(
                    "weak_password", " ".join(error.messages), field="password"
                ) from error
            user = create_account(username=username, full_name=full_name, password=password)
        elif Staff.objects.filter(tournament=tournament, user=user, role=role).exists():
            raise DomainError(
                "already_staff", _("This person already has this role in the tournament.")
            )
        return add_staff(tournament=tournament, user=user, role=role)


def create_account(*, username: str, full_name: str = "", password: str | None = None) -> User:
    """A new login. The caller has checked the password (``add_staff_member`` with Django's
    validators, ``createorganiser`` as it asks); without one the account cannot sign in, as the
    scenario runner's judges, and no time goes into hashing."""
    return get_user_model().objects.create_user(
        username=username.strip(), password=password, first_name=full_name.strip()
    )


def create_organiser(*, username: str, full_name: str, password: str) -> User:
    """A new login in the ``organisers`` group: both or neither."""
    with transaction.atomic():
        user = create_account(username=username, full_name=full_name, password=password)
        make_organiser(user)
        return user


def remove_staff(*, staff: Staff, by: User) -> None:
    """Take a role away; an organiser cannot remove their own organiser role (they would lock
    themselves out of the set-up)."""
    with transaction.atomic():
        if staff.user_id == by.pk and staff.role == StaffRole.ORGANISER:
            raise DomainError(
                "own_organiser_role", _("You cannot remove yourself as the organiser.")
            )
        Staff.objects.filter(pk=staff.pk).delete()


def register_new_player(
    *, tournament: Tournament, name: str, membership_id: str, city: str = ""
) -> Registration:
    """A player entered on the spot: into the registry and the tournament, both or neither."""
    with transaction.atomic():
        player = player_services.create_player(name=name, membership_id=membership_id, city=city)
        return register_player(tournament=tournament, player=player)


def register_player(*, tournament: Tournament, player: Player) -> Registration:
    """Register a player; a suspended membership is refused with its reason and end date.

    The tournament's row is locked, so a registration and the end of the tournament (or another
    registration of the same player) cannot cross."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        ensure_not_finished(tournament)
        player_services.ensure_not_suspended(player=player, day=timezone.localdate())
        registration, created = Registration.objects.get_or_create(
            tournament=tournament, player=player
        )
        if not created:
            raise DomainError(
                "already_registered",
                _("%(player)s is already registered.") % {"player": player.name},
            )
        mark_public_change(tournament_id=tournament.pk)
        return registration


def update_tournament(*, tournament: Tournament, **fields: object) -> Tournament:
    """Change the set-up; the level is fixed once play has started (rules.md §1)."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        ensure_not_finished(tournament)
        played = tournament.rounds.exists()
        if played and _changes(tournament, fields, "level"):
            raise DomainError(
                "level_fixed",
                _("The rules-enforcement level cannot change once the first round is paired."),
            )
        if played and _changes(tournament, fields, "uses_decklists"):
            raise DomainError(
                "uses_decklists_fixed",
                _("Whether deck lists are used cannot change once the first round is paired."),
            )
        open_matches = Match.objects.filter(round__tournament=tournament).in_progress()
        if _changes(tournament, fields, "best_of") and open_matches.exists():
            raise DomainError(
                "best_of_fixed",
                _("The number of games in a match cannot change while a round is being played."),
            )
        for name, value in fields.items():
            setattr(tournament, name, value)
        ensure_decklists_at_highest(
            level=tournament.level, uses_decklists=tournament.uses_decklists
        )
        tournament.full_clean(exclude=["slug"])
        tournament.save()
        return tournament


def _changes(tournament: Tournament, fields: dict[str, object], name: str) -> bool:
    return name in fields and fields[name] != getattr(tournament, name)


def suggested_rounds(player_count: int) -> int:
    """Swiss rounds that leave one undefeated player: the binary logarithm, rounded up."""
    rounds = 0
    while (1 << rounds) < max(player_count, 2):
        rounds += 1
    return max(rounds, 1)


def drop_player(*, registration: Registration) -> Registration:
    """The player leaves of their own will: no further pairings; results and penalties stay."""
    with transaction.atomic():
        registration = lock_registrations([registration.pk])[registration.pk]
        ensure_not_finished(registration.tournament)
        if registration.status != RegistrationStatus.PLAYING:
            raise DomainError(
                "not_playing",
                _("%(player)s is no longer playing.") % {"player": registration.player.name},
            )
        registration.dropped_at = timezone.now()
        registration.status = RegistrationStatus.DROPPED
        registration.save(update_fields=["dropped_at", "status"])
        return registration


def finish_tournament(*, tournament: Tournament) -> Tournament:
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        ensure_not_finished(tournament)
        ensure_round_over(tournament)
        tournament.status = TournamentStatus.FINISHED
        tournament.save(update_fields=["status"])
        return tournament


def ensure_not_finished(tournament: Tournament) -> None:
    if tournament.status == TournamentStatus.FINISHED:
        raise DomainError("tournament_finished", _("The tournament has finished."))


def ensure_round_over(tournament: Tournament) -> None:
    """The one "round in progress" rule: a new round, or the end of the tournament, waits until
    every match of the current round has ended."""
    if selectors.round_in_progress(tournament=tournament):
        raise DomainError("round_in_progress", _("A match of the current round has not ended yet."))
