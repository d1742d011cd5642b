from django.contrib.auth import authenticate
from django.core.management import call_command

from judging.models import PenaltyRecord
from tournaments.models import Tournament


def test_demo_prepares_data_and_logins_once(db, capsys):
    call_command("demo", "--no-serve")
    call_command("demo", "--no-serve")

    out = capsys.readouterr().out
    tournament = Tournament.objects.get(slug="demo-cup")
    assert Tournament.objects.count() == 1
    assert "password berserk-demo" in out
    assert tournament.registrations.count() == 8
    assert tournament.rounds.count() == 2
    assert list(
        PenaltyRecord.objects.filter(tournament=tournament)
        .order_by("id")
        .values_list("registration__player__name", "rank", "because")
    ) == [
        ("Борис Иванов", 1, "base"),
        ("Вера Кузнецова", 3, "base"),
        ("Борис Иванов", 2, "repeat"),
        ("Захар Новиков", 1, "base"),
    ]
    for username in ("head", "judge", "organiser"):
        assert authenticate(username=username, password="berserk-demo") is not None
