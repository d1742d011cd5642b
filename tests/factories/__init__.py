"""Factories for the tests, and ``Desk``: a ready tournament with its staff and players."""

import datetime
import itertools
import uuid
from dataclasses import dataclass, field

import factory
from django.contrib.auth import get_user_model

from judging import services
from judging.models import PenaltyRecord
from players.models import Player
from tournaments import selectors as tournament_selectors
from tournaments import services as tournament_services
from tournaments.models import Level, Match, Registration, StaffRole, Tournament
from tournaments.permissions import make_organiser

_numbers = itertools.count(1)


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ["username"]

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("desk-pass-123")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"Игрок {n}")
    membership_id = factory.Sequence(lambda n: f"BH-{n:05d}")
    city = "Москва"


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Турнир {n}")
    slug = factory.Sequence(lambda n: f"tournament-{n}")
    date = datetime.date(2026, 12, 5)
    level = Level.AMATEUR
    uses_decklists = True
    best_of = 3


@dataclass
class Desk:
    tournament: Tournament
    head: object
    floor: object
    organiser: object
    players: list[Registration] = field(default_factory=list)

    @classmethod
    def create(cls, *, players: int = 4, **tournament_fields: object) -> "Desk":
        tournament = TournamentFactory(**tournament_fields)
        n = next(_numbers)
        desk = cls(
            tournament=tournament,
            head=UserFactory(username=f"head{n}"),
            floor=UserFactory(username=f"floor{n}"),
            organiser=UserFactory(username=f"organiser{n}"),
        )
        for user, role in (
            (desk.head, StaffRole.HEAD_JUDGE),
            (desk.floor, StaffRole.FLOOR_JUDGE),
            (desk.organiser, StaffRole.ORGANISER),
        ):
            tournament_services.add_staff(tournament=tournament, user=user, role=role)
        # The organiser of a tournament is one of the operator's organisers.
        make_organiser(desk.organiser)
        for _ in range(players):
            desk.players.append(
                tournament_services.register_player(tournament=tournament, player=PlayerFactory())
            )
        return desk

    def pair(self, *pairs: tuple[int, int | None]) -> None:
        """Pair the next round by player index; ``(i, None)`` is a bye."""
        tournament_services.pair_round(
            tournament=self.tournament,
            pairings=[
                (self.players[a], self.players[b] if b is not None else None) for a, b in pairs
            ],
        )

    def issue(
        self, player: int, code: str, moment: str = "in_game", *, by: str = "head", **extra: object
    ) -> PenaltyRecord:
        outcome = services.issue_penalty(
            registration=self.players[player],
            infraction_code=code,
            moment=moment,
            issued_by=self.head if by == "head" else self.floor,
            client_key=extra.pop("client_key", uuid.uuid4()),
            # A test that issues a penalty means it; the confirmation has its own tests.
            confirm_second=extra.pop("confirm_second", True),
            **extra,
        )
        return outcome.record

    def match_of(self, player: int) -> Match:
        match = tournament_selectors.current_match(registration=self.players[player])
        assert match is not None
        return match

    def win(self, player: int) -> None:
        tournament_services.record_game(match=self.match_of(player), winner=self.players[player])

    def finish(self, player: int) -> None:
        tournament_services.finish_match(match=self.match_of(player))

    def ranks(self, player: int) -> list[str]:
        return [
            record.penalty.key
            for record in PenaltyRecord.objects.in_force()
            .filter(registration=self.players[player])
            .order_by("id")
        ]


def crowd(desk: Desk, count: int) -> None:
    """Register ``count`` more players at once (inserted directly: the registration service, one
    player at a time, would take minutes for an event of thousands)."""
    from players.models import search_text

    start = next(_numbers) * 100_000
    people = Player.objects.bulk_create(
        Player(
            name=f"Игрок {start + n}",
            membership_id=f"BH-{start + n}",
            search_text=search_text(f"Игрок {start + n}", f"BH-{start + n}"),
        )
        for n in range(count)
    )
    desk.players.extend(
        Registration.objects.bulk_create(
            Registration(tournament=desk.tournament, player=person) for person in people
        )
    )
