"""Demo data for deck lists: a small demo card pool (not an official card list) and a few lists
that show each of the guideline's 1.1 examples."""

from django.contrib.auth.models import User

from decks import services
from decks.models import DeckFormat, DeckList
from tournaments.models import Registration, StaffRole, Tournament

DEMO_POOL_NAME = "Демо-пул карт (не официальный список)"
# name, set, features, legal formats (empty: every format)
DEMO_CARDS = [
    ("Вампир", "Демо", "", ""),
    ("Самоход", "Демо", "", ""),
    ("Вайл", "Демо", "", ""),
    ("Шар смерти", "Демо", "", "constructed"),
    ("Гном", "Демо", "", ""),
    ("Богарт", "Демо", "", ""),
    ("Гоблин-налётчик", "Демо", "Орда", ""),
    ("Лесной страж", "Демо", "", ""),
    ("Тролль", "Демо", "", ""),
    ("Эльф-лучник", "Демо", "", ""),
    ("Горный великан", "Демо", "", ""),
    ("Болотная ведьма", "Демо", "", ""),
    ("Рыцарь света", "Демо", "", ""),
    ("Скелет", "Демо", "", ""),
    ("Призрак", "Демо", "", ""),
    ("Огненный дракон", "Демо", "", ""),
    ("Тень", "Демо", "", ""),
    ("Голем", "Демо", "", ""),
    ("Феникс", "Демо", "", ""),
    ("Лесная фея", "Демо", "", ""),
    ("Хакодар", "Демо", "", ""),
]
# The demo's elements (стихии) and its hero: a deck around Хакодар holds Тьма and neutral cards.
DEMO_ELEMENTS = {
    **dict.fromkeys(
        ["Вампир", "Вайл", "Шар смерти", "Богарт", "Гоблин-налётчик", "Скелет", "Призрак"], "Тьма"
    ),
    **dict.fromkeys(["Тень", "Хакодар"], "Тьма"),
    "Лесная фея": "Лес",
}
DEMO_HEROES = {"Хакодар"}
NEUTRAL = "Нейтральная"
FILLER = [
    "Лесной страж",
    "Тролль",
    "Эльф-лучник",
    "Горный великан",
    "Болотная ведьма",
    "Рыцарь света",
    "Скелет",
    "Призрак",
    "Огненный дракон",
    "Гном",
    "Богарт",
]


def pool_csv() -> bytes:
    """The demo pool in the import's format: columns named in the header row."""
    rows = ["название;выпуск;особенности;разрешена в;стихия;тип"] + [
        ";".join(
            [
                name,
                set_name,
                features,
                legal,
                DEMO_ELEMENTS.get(name, NEUTRAL),
                "Герой" if name in DEMO_HEROES else "Существо",
            ]
        )
        for name, set_name, features, legal in DEMO_CARDS
    ]
    return "\n".join(rows).encode("utf-8")


def correct_list(*extra_main: str, extra: str = "") -> str:
    """A correct 40-card list (13 cards × 3 + 1), with more lines as given."""
    lines = [f"3 {name}" for name in FILLER] + ["3 Вампир", "3 Самоход", "1 Вайл"]
    lines += extra_main
    return "Основная колода:\n" + "\n".join(lines) + "\nДополнительная колода:\n" + extra


# The guideline's six 1.1 examples, one player each.
DEMO_LISTS = {
    "Алиса": correct_list(extra="3 Гоблин-налётчик\n2 Феникс"),
    "Борис": correct_list().replace("1 Вайл\n", ""),  # 39 cards (б)
    "Вера": correct_list().replace("3 Вампир", "4 Вампир").replace("1 Вайл\n", ""),  # (д)
    "Глеб": correct_list(extra="3 Гоблин-налётчик\n3 Тень\n3 Голем\n2 Феникс"),  # 11 (б)
    "Елена": correct_list("Самоход").replace("3 Самоход\n", ""),  # no number (г)
    "Жанна": correct_list(extra="1 Вайл").replace("1 Вайл\n", "3 Вайл\n", 1),  # 3 + 1 (е)
    "Захар": correct_list("3 Шар смерти"),  # not legal in Стандарт (в)
}


def load_demo_decks(tournament: Tournament) -> None:
    """Import the demo pool, set Стандарт's rules, and enter the demo lists once."""
    if not tournament.uses_decklists or DeckList.objects.filter(tournament=tournament).exists():
        return
    players = {
        registration.player.name.split()[0]: registration
        for registration in Registration.objects.filter(tournament=tournament).select_related(
            "player"
        )
    }
    report = services.import_card_pool(
        tournament=tournament, name=DEMO_POOL_NAME, content=pool_csv(), is_demo=True
    )
    assert report.ok, report.errors
    standard = DeckFormat.objects.get(slug="standard")
    services.update_rules(
        tournament=tournament,
        deck_format=standard,
        pool=report.pool,
        main_min=standard.main_min,
        main_max=standard.main_max,
        extra_max=standard.extra_max,
        copy_limit=standard.copy_limit,
        lifting_feature=standard.lifting_feature,
        combine_sections=standard.combine_sections,
        check_legality=standard.check_legality,
        self_submission=True,
        deadline=None,
    )
    staff = tournament.staff.filter(role=StaffRole.ORGANISER).select_related("user").first()
    author: User | None = staff.user if staff else None
    for first_name, registration in players.items():
        text = DEMO_LISTS.get(first_name, correct_list(extra="2 Феникс"))
        services.save_decklist(registration=registration, text=text, by=author, reason="демо")
    services.issue_submission_codes(tournament=tournament)
    head = tournament.staff.filter(role=StaffRole.HEAD_JUDGE).select_related("user").first()
    if head is not None and "Алиса" in players:
        # A deck check that finds a fourth Гном where the list has three (1.2 в).
        services.record_deck_check(
            registration=players["Алиса"], judge=head.user, counted={"гном": (4, 0)}
        )
