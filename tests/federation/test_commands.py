import io
import json

import pytest
from django.core.management import CommandError, call_command

from federation.models import ImportedEvent
from tests.federation.events import finished_event

MEMBERS = [("Анна", "A-1"), ("Борис", "A-2"), ("Вера", "A-3"), ("Глеб", "A-4")]


def test_an_unknown_tournament_is_named(db, tmp_path):
    with pytest.raises(CommandError) as caught:
        call_command("export_event", "nowhere", "--output", str(tmp_path / "e.json"))
    assert str(caught.value) == "Турнир «nowhere» не найден: укажите его номер (id) или slug."
    assert not (tmp_path / "e.json").exists()


def test_import_events_takes_the_good_file_and_names_the_bad_one(db, tmp_path):
    finished_event(slug="cup", name="Кубок", members=MEMBERS, suspend=False)
    good = tmp_path / "cup.json"
    call_command("export_event", "cup", "--output", str(good), stdout=io.StringIO())
    bad = tmp_path / "bad.json"
    tampered = json.loads(good.read_bytes())
    tampered["counts"]["players"] = 5
    bad.write_text(json.dumps(tampered), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()

    with pytest.raises(CommandError) as caught:
        call_command("import_events", str(good), str(bad), stdout=out, stderr=err)

    assert str(caught.value) == "Не принято файлов: 1."
    assert out.getvalue() == f"{good}: импортирован «Кубок», игроков: 4, приостановлений: 0\n"
    assert err.getvalue().startswith(f"{bad}: Счётчики файла (matches 2, penalties 2, players 5")
    assert ImportedEvent.objects.count() == 1
