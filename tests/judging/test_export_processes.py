"""Under an ASGI server the exports are built in an export process and streamed from its file:
the same bytes as built in the server process, and the file is gone once sent."""

import glob
import io
import os
import tempfile
import urllib.request

import openpyxl
from django.test import Client

from tests.judging.test_report import Event, body, export_url, read_xlsx


def download(base_url, path, session):
    request = urllib.request.Request(base_url + path, headers={"Cookie": f"sessionid={session}"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return response.headers, response.read()


def leftovers():
    return set(glob.glob(os.path.join(tempfile.gettempdir(), "desk-export-*")))


class Organiser:
    """An event with its organiser signed in: a test client, and the session for raw requests."""

    def __init__(self) -> None:
        self.event = Event()
        self.client = Client()
        self.client.force_login(self.event.desk.organiser)
        self.session = self.client.cookies["sessionid"].value


def test_an_export_built_in_its_own_process_is_the_export(asgi_server, settings):
    organiser = Organiser()
    event, client, session = organiser.event, organiser.client, organiser.session
    in_server = {
        extension: body(client.get(export_url(event.desk, "penalties", extension)))
        for extension in ("csv", "xlsx")
    }
    before = leftovers()
    settings.DESK_EXPORT_PROCESSES = 1

    csv_headers, csv = download(asgi_server, export_url(event.desk, "penalties", "csv"), session)
    xlsx_headers, xlsx = download(asgi_server, export_url(event.desk, "penalties", "xlsx"), session)

    assert csv == in_server["csv"]
    assert read_xlsx(xlsx) == read_xlsx(in_server["xlsx"])
    assert csv_headers["Content-Type"] == "text/csv; charset=utf-8"
    assert xlsx_headers["Content-Disposition"] == (
        f'attachment; filename="{event.desk.tournament.slug}-penalties.xlsx"'
    )
    assert leftovers() <= before


def test_the_whole_report_workbook_is_built_in_an_export_process_too(asgi_server, settings):
    organiser = Organiser()
    event, session = organiser.event, organiser.session
    settings.DESK_EXPORT_PROCESSES = 1

    headers, content = download(asgi_server, export_url(event.desk, "report", "xlsx"), session)

    assert headers["Content-Disposition"] == (
        f'attachment; filename="{event.desk.tournament.slug}-report.xlsx"'
    )
    workbook = openpyxl.load_workbook(io.BytesIO(content), read_only=True)
    assert workbook.sheetnames[0] == "Сведения о турнире"
    assert "Дисквалификации" in workbook.sheetnames


def test_an_export_process_yields_the_cpu_to_the_server(asgi_server, settings):
    from judging import export_processes

    organiser = Organiser()
    settings.DESK_EXPORT_PROCESSES = 1
    download(asgi_server, export_url(organiser.event.desk, "penalties", "csv"), organiser.session)

    # os.nice(0) answers the niceness of the process it runs in.
    exporting = export_processes._pool().submit(os.nice, 0).result(timeout=30)

    assert exporting >= min(os.nice(0) + export_processes.EXPORT_NICENESS, 19)


def test_every_report_section_downloads_whole_from_an_export_process(asgi_server, settings):
    """Every key the report exports (its own tables and the sections other apps register: deck
    lists, calls, extensions) goes through the export process under the server, as under
    ``serve``, and gives the bytes the server's own thread gives."""
    from judging.report import TABLES, registered_sections

    organiser = Organiser()
    event, client, session = organiser.event, organiser.client, organiser.session
    keys = [*TABLES, *(section.key for section in registered_sections() if section.exported)]
    assert {"penalties", "standings", "decks", "calls", "extensions"} <= set(keys)
    in_server = {
        (key, extension): body(client.get(export_url(event.desk, key, extension)))
        for key in keys
        for extension in ("csv", "xlsx")
    }
    settings.DESK_EXPORT_PROCESSES = 1

    for (key, extension), expected in in_server.items():
        headers, content = download(asgi_server, export_url(event.desk, key, extension), session)

        assert headers["Content-Disposition"] == (
            f'attachment; filename="{event.desk.tournament.slug}-{key}.{extension}"'
        ), key
        if extension == "csv":
            assert content == expected, key
        else:
            assert read_xlsx(content) == read_xlsx(expected), key
