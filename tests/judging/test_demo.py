import csv

from django.contrib.auth import authenticate, get_user_model
from django.core.management import call_command
from django.test import RequestFactory

from judging.models import PenaltyRecord
from tournaments.models import Match, Tournament


def test_demo_prepares_a_realistic_event_and_logins_once(db, capsys):
    call_command("demo", "--no-serve")
    call_command("demo", "--no-serve")

    out = capsys.readouterr().out
    tournament = Tournament.objects.get(slug="demo-cup")
    assert Tournament.objects.count() == 2
    assert "password berserk-demo" in out
    assert tournament.registrations.count() == 24
    assert tournament.rounds.count() == 4
    assert Match.objects.filter(round__number__lt=4, ended_at__isnull=True).count() == 0
    assert list(
        PenaltyRecord.objects.filter(tournament=tournament)
        .order_by("id")
        .values_list("registration__player__name", "infraction__code", "rank", "because", "status")
    ) == [
        ("Борис Иванов", "1.4", 1, "base", "in_force"),
        ("Вера Кузнецова", "1.1", 3, "base", "in_force"),
        ("Глеб Попов", "1.4", 1, "base", "in_force"),
        ("Борис Иванов", "1.4", 2, "repeat", "in_force"),
        ("Глеб Попов", "1.1", 3, "base", "in_force"),
        ("Дмитрий Соколов", "6.1", 6, "base", "in_force"),
        ("Елена Лебедева", "1.4", 1, "base", "in_force"),
        ("Елена Лебедева", "1.2", 3, "base", "in_force"),
        ("Ирина Морозова", "1.4", 1, "base", "in_force"),
        ("Ирина Морозова", "4.1", 1, "base", "in_force"),
        ("Ирина Морозова", "4.2", 1, "base", "in_force"),
        ("Ирина Морозова", None, 2, "stacking", "in_force"),
        ("Жанна Козлова", "1.4", 1, "base", "in_force"),
        ("Захар Новиков", "6.1", 6, "base", "awaiting_head_judge"),
    ]
    for username in ("head", "judge", "organiser"):
        request = RequestFactory().post("/login/")
        assert authenticate(request, username=username, password="berserk-demo") is not None
    # Only the operator is a superuser; the demo's organiser is one of the organisers.
    assert not get_user_model().objects.filter(is_superuser=True).exists()
    assert not get_user_model().objects.filter(is_staff=True).exists()
    organiser = get_user_model().objects.get(username="organiser")
    assert list(organiser.groups.values_list("name", flat=True)) == ["organisers"]
    assert organiser.has_perm("tournaments.organise_tournaments")
    assert (
        not get_user_model()
        .objects.get(username="head")
        .has_perm("tournaments.organise_tournaments")
    )


def test_the_demo_report_exports_from_the_command_line(db, tmp_path):
    call_command("demo", "--no-serve")
    target = tmp_path / "report.csv"

    call_command("export_report", "demo-cup", "--format", "csv", "--output", str(target))

    with target.open(encoding="utf-8-sig", newline="") as file:
        rows = list(csv.DictReader(file))
    assert len(rows) == 13  # the request still waiting for the head judge is not in force
    disqualified = [row for row in rows if row["Игрок"] == "Дмитрий Соколов"]
    assert disqualified[0]["Действующее пенальти"].startswith("Дисквалификация без призов")


def test_the_demo_regional_ends_with_a_top_8_played_to_a_champion(db):
    from tournaments import playoff_selectors

    call_command("demo", "--no-serve")
    regional = Tournament.objects.get(slug="demo-regional")
    assert (
        list(regional.rounds.values_list("playoff", "best_of"))
        == [(False, None)] * 4 + [(True, 3)] * 3
    )
    bracket = playoff_selectors.playoff_bracket(tournament=regional)
    assert bracket.size == 8 and bracket.champion_id is not None
    rows = playoff_selectors.final_standings(tournament=regional)
    assert rows[0].champion and rows[1].finalist and len(rows) == 24
    # The Swiss leader's game loss from after round 4 took game 1 of their quarter-final.
    carried = PenaltyRecord.objects.get(tournament=regional)
    assert carried.served_game is not None
    assert carried.served_game.number == 1 and carried.served_game.match.round.number == 5
    assert carried.registration.playoff_seed.seed == 1
