"""Demo data: a small tournament with staff, players, played games and a few penalties.

Everything is made through the same services the app uses, so the demo shows real rulings.
"""

import datetime
import uuid

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from judging import services
from players.models import Player
from tournaments import selectors as tournament_selectors
from tournaments import services as tournament_services
from tournaments.models import Registration, StaffRole, Tournament

DEMO_SLUG = "demo-cup"
DEMO_PASSWORD = "berserk-demo"
DEMO_USERS = {
    "head": ("Главный судья", StaffRole.HEAD_JUDGE),
    "judge": ("Судья зала", StaffRole.FLOOR_JUDGE),
    "organiser": ("Организатор", StaffRole.ORGANISER),
}
DEMO_PLAYERS = [
    ("Алиса Смирнова", "BH-10001", "Москва"),
    ("Борис Иванов", "BH-10002", "Москва"),
    ("Вера Кузнецова", "BH-10003", "Тверь"),
    ("Глеб Попов", "BH-10004", "Санкт-Петербург"),
    ("Дмитрий Соколов", "BH-10005", "Казань"),
    ("Елена Лебедева", "BH-10006", "Москва"),
    ("Жанна Козлова", "BH-10007", "Тула"),
    ("Захар Новиков", "BH-10008", "Рязань"),
]


def ensure_demo_users() -> dict[str, AbstractBaseUser]:
    users = get_user_model().objects
    made: dict[str, AbstractBaseUser] = {}
    for username, (full_name, role) in DEMO_USERS.items():
        user, created = users.get_or_create(username=username)
        if created:
            user.first_name = full_name
            user.set_password(DEMO_PASSWORD)
            # Until the organiser's own screens exist, set-up happens in the admin.
            user.is_staff = user.is_superuser = role == StaffRole.ORGANISER
            user.save()
        made[username] = user
    return made


def load_demo() -> Tournament:
    """Create the demo tournament once; a second call finds it and changes nothing."""
    users = ensure_demo_users()
    existing = Tournament.objects.filter(slug=DEMO_SLUG).first()
    if existing is not None:
        return existing
    with transaction.atomic():
        tournament = tournament_services.create_tournament(
            name="Кубок «Берсерк. Герои» — демо",
            slug=DEMO_SLUG,
            date=datetime.date.today(),
            level="professional",
            venue="Клуб «Лабиринт», Москва",
            best_of=3,
        )
        for username, (_name, role) in DEMO_USERS.items():
            tournament_services.add_staff(tournament=tournament, user=users[username], role=role)
        players: list[Registration] = []
        for name, membership_id, city in DEMO_PLAYERS:
            player, _created = Player.objects.get_or_create(
                membership_id=membership_id, defaults={"name": name, "city": city}
            )
            players.append(
                tournament_services.register_player(tournament=tournament, player=player)
            )
        _play_demo_rounds(tournament, players, head=users["head"], judge=users["judge"])
        return tournament


def _play_demo_rounds(
    tournament: Tournament,
    players: list[Registration],
    *,
    head: AbstractBaseUser,
    judge: AbstractBaseUser,
) -> None:
    a, b, c, d, e, f, g, h = players

    def issue(player: Registration, code: str, moment: str, by: AbstractBaseUser) -> None:
        services.issue_penalty(
            registration=player,
            infraction_code=code,
            moment=moment,
            issued_by=by,
            client_key=uuid.uuid4(),
        )

    def win(player: Registration, times: int = 1) -> None:
        for _ in range(times):
            match = tournament_selectors.current_match(registration=player)
            if match is None:
                return
            tournament_services.record_game(match=match, winner=player)

    tournament_services.pair_round(tournament=tournament, pairings=[(a, b), (c, d), (e, f), (g, h)])
    issue(b, "1.4", "in_game", judge)  # Замечание
    win(a, 2)
    issue(c, "1.1", "between_games", judge)  # Поражение в партии: the next game goes to Глеб
    win(d)
    win(e)
    win(f, 2)
    win(g)
    win(h)
    win(g)
    issue(b, "1.4", "between_matches", judge)  # a repeat: Предупреждение

    tournament_services.pair_round(tournament=tournament, pairings=[(a, d), (f, g), (b, e), (c, h)])
    win(a)
    issue(h, "1.4", "in_game", judge)
