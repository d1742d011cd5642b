"""Uploaded CSV files: every encoding a spreadsheet saves is read, a control character is refused
with its line, and a file too large is refused from its size before anything reads it."""

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile, UploadedFile
from django.urls import reverse

from core.uploads import MAX_UPLOAD_BYTES, UnreadableUpload, UploadField, decode_upload
from decks.models import CardPool
from players.models import Player
from tests.factories import Desk

PLAYERS = "Имя;Членский номер;Город\nАнна Ёлкина;BH-900;Москва\nБорис;BH-901;Тула\n"
ENCODINGS = {
    "UTF-8": PLAYERS.encode("utf-8"),
    "UTF-8 with BOM": PLAYERS.encode("utf-8-sig"),
    "UTF-16 with BOM (a spreadsheet's Unicode text)": PLAYERS.encode("utf-16"),
    "UTF-16 big-endian with BOM": b"\xfe\xff" + PLAYERS.encode("utf-16-be"),
    "UTF-16 without BOM": PLAYERS.encode("utf-16-le"),
    "Windows-1251": PLAYERS.encode("cp1251"),
}


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_every_encoding_reads_as_the_same_text(encoding):
    assert decode_upload(ENCODINGS[encoding]) == PLAYERS


@pytest.mark.parametrize(
    ("content", "line"),
    [
        (b"a;1\nb\x00;2\n", 2),
        ("Анна;1\nБорис;2\nВера\x07;3\n".encode("utf-16"), 3),
        (b"\x1b[31m;1\n", 1),
    ],
)
def test_a_control_character_is_refused_with_its_line(content, line):
    with pytest.raises(UnreadableUpload) as refused:
        decode_upload(content)

    assert refused.value.line == line
    assert refused.value.message == (
        f"Строка {line} содержит управляющий символ (например, нулевой байт), которого не бывает "
        "в файле CSV; сохраните файл в формате CSV ещё раз."
    )


def test_bytes_in_no_known_encoding_are_refused():
    with pytest.raises(UnreadableUpload) as refused:
        decode_upload(b"\x98\x98;1\n")

    assert refused.value.message == (
        "Файл — не текст в UTF-8 или Windows-1251; сохраните его в формате CSV ещё раз."
    )


class _NeverRead(io.RawIOBase):
    def read(self, size: int = -1) -> bytes:
        raise AssertionError("the upload was read")

    readinto = read  # type: ignore[assignment]


def test_a_large_upload_is_refused_by_its_size_without_being_read():
    upload = UploadedFile(_NeverRead(), name="big.csv", size=20_000_000)

    with pytest.raises(Exception) as refused:
        UploadField().clean(upload)

    assert refused.value.messages == ["Файл слишком большой (не больше 2 МБ)."]  # type: ignore[attr-defined]


@pytest.fixture
def desk(db):
    return Desk.create(players=0, level="professional", uses_decklists=True)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_the_player_import_takes_every_encoding(client, desk, encoding):
    client.force_login(desk.organiser)

    response = client.post(
        reverse("tournaments:registration-import", args=[desk.tournament.slug]),
        {"file": SimpleUploadedFile("players.csv", ENCODINGS[encoding])},
    )

    # The checked rows wait in the import's job; the worker's runner registers them.
    from tournaments import jobs
    from tournaments.models import Job

    assert response.status_code == 302
    job = Job.objects.get()
    assert [row[1:3] for row in job.payload["rows"]] == [
        ["Анна Ёлкина", "BH-900"],
        ["Борис", "BH-901"],
    ]
    jobs.run(job.pk)
    assert sorted(
        desk.tournament.registrations.values_list("player__name", "player__membership_id")
    ) == [("Анна Ёлкина", "BH-900"), ("Борис", "BH-901")]


def test_a_player_file_with_a_nul_names_the_line_and_imports_nothing(client, desk):
    client.force_login(desk.organiser)
    content = PLAYERS.replace("Борис", "Бо\x00рис").encode("utf-16")

    response = client.post(
        reverse("tournaments:registration-import", args=[desk.tournament.slug]),
        {"file": SimpleUploadedFile("players.csv", content)},
    )

    assert response.status_code == 200
    assert "Строка 3 содержит управляющий символ" in response.content.decode()
    assert not Player.objects.filter(membership_id__in=["BH-900", "BH-901"]).exists()


def test_a_player_file_over_the_limit_is_refused(client, desk):
    client.force_login(desk.organiser)
    content = PLAYERS.encode() + b"x" * MAX_UPLOAD_BYTES

    response = client.post(
        reverse("tournaments:registration-import", args=[desk.tournament.slug]),
        {"file": SimpleUploadedFile("players.csv", content)},
    )

    assert response.status_code == 200
    assert "Файл слишком большой (не больше 2 МБ)." in response.content.decode()
    assert desk.tournament.registrations.count() == 0


def test_a_pool_file_with_a_nul_names_the_line_and_imports_nothing(client, desk):
    client.force_login(desk.organiser)
    before = CardPool.objects.count()

    response = client.post(
        reverse("decks:pool-import", args=[desk.tournament.slug]),
        {
            "name": "Пул",
            "file": SimpleUploadedFile("pool.csv", "Вампир;A\nБог\x00арт;A\n".encode()),
        },
    )

    assert response.status_code == 200
    assert "Строка 2 содержит управляющий символ" in response.content.decode()
    assert CardPool.objects.count() == before
