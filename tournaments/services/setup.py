"""Writes for setting a tournament up: the tournament, its staff, its players, its end.

Keyword-only, atomic, coded errors (``DomainError``) before anything is written.
"""

import datetime
from collections.abc import Sequence

from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import DomainError
from players import services as player_services
from players.models import Player
from tournaments import selectors
from tournaments.models import (
    BEST_OF,
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
    sort_name,
)
from tournaments.permissions import make_organiser
from tournaments.services.locks import lock_registrations, lock_tournament
from tournaments.services.pages import mark_public_change

# A new account's password: Django's MinimumLengthValidator default, which the settings use.
MIN_PASSWORD_LENGTH = 8


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
    ensure_best_of(best_of)
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
    """Register a player; a suspended membership is refused with its reason and end date."""
    return register_players(tournament=tournament, players=[player])[0]


def register_players(*, tournament: Tournament, players: Sequence[Player]) -> list[Registration]:
    """Register players, all or none, in a constant number of queries (an imported list of
    3,000 is one insert); a suspended membership is refused with its reason and end date.

    The tournament's row is locked, so a registration and the end of the tournament (or another
    registration of the same player) cannot cross; not exclusively, so the judges' writes go on
    meanwhile (``tournaments.services.locks``)."""
    with transaction.atomic():
        tournament = lock_tournament(tournament.pk)
        ensure_not_finished(tournament)
        player_services.ensure_none_suspended(players=players, day=timezone.localdate())
        keys = [player.pk for player in players]
        registered = set(
            Registration.objects.filter(tournament=tournament, player__in=keys).values_list(
                "player_id", flat=True
            )
        )
        seen: set[int] = set()
        for player in players:
            if player.pk in registered or player.pk in seen:
                raise DomainError(
                    "already_registered",
                    _("%(player)s is already registered.") % {"player": player.name},
                )
            seen.add(player.pk)
        registrations = Registration.objects.bulk_create(
            [
                Registration(tournament=tournament, player=player, sort_name=sort_name(player.name))
                for player in players
            ]
        )
        mark_public_change(tournament_id=tournament.pk)
        return registrations


def update_tournament(*, tournament: Tournament, **fields: object) -> Tournament:
    """Change the set-up; the level is fixed once play has started (rules.md §1)."""
    with transaction.atomic():
        tournament = lock_tournament(tournament.pk)
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
        if "best_of" in fields:
            ensure_best_of(fields["best_of"])
        for name, value in fields.items():
            setattr(tournament, name, value)
        ensure_decklists_at_highest(
            level=tournament.level, uses_decklists=tournament.uses_decklists
        )
        tournament.full_clean(exclude=["slug"])
        tournament.save()
        return tournament


def ensure_best_of(best_of: object) -> None:
    """Best of 1, 3 or 5 games only (rules.md §9)."""
    if best_of not in BEST_OF or isinstance(best_of, bool):
        raise DomainError(
            "bad_best_of",
            _("A match is best of 1, 3 or 5 games."),
            field="best_of",
        )


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
        # Exclusive: a judge's write under way ends first, and none starts in a finished event.
        tournament = lock_tournament(tournament.pk, exclusive=True)
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
