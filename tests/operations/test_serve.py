"""`serve` as an operator runs it on a fresh data folder: no data, no logins, the LAN addresses."""

import http.client
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.management import call_command

from operations import network

PROJECT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def get(address: str, port: int, path: str, host: str | None = None) -> tuple[int, str]:
    connection = http.client.HTTPConnection(address, port, timeout=10)
    headers = {"Host": host} if host else {}
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    return response.status, response.read().decode()


@pytest.fixture
def served(tmp_path):
    """`manage.py serve` on every interface, in a fresh data folder; yields (port, output)."""
    port = free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "DATABASE_URL", "PYTEST"))
    }
    env.update(DJANGO_DATA_DIR=str(tmp_path / "data"), PYTHONUNBUFFERED="1")
    process = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--host", "0.0.0.0", "--port", str(port)],
        cwd=PROJECT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines = []
    try:
        deadline = time.monotonic() + 60
        while not any("Uvicorn running on" in line for line in lines):
            line = process.stdout.readline()
            if not line or time.monotonic() > deadline:
                raise AssertionError("serve did not start:\n" + "".join(lines))
            lines.append(line)
        yield port, "".join(lines)
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def test_serve_starts_an_empty_instance_and_says_how_to_make_the_first_account(served, tmp_path):
    port, output = served

    # In the organiser's language, and pointing at the set-up page rather than a second terminal.
    assert f"Учётных записей ещё нет. Откройте http://localhost:{port}/ в браузере" in output
    assert "Demo" not in output and "berserk-demo" not in output
    lan = network.lan_addresses("0.0.0.0")
    for address in lan:
        assert f"    http://{address}:{port}/\n" in output
    assert f"На этом компьютере: http://localhost:{port}/" in output
    assert "Остановить сервер: Ctrl+C." in output

    # Tablets reach it by the machine's own addresses without any variable set.
    for address in [*lan, "127.0.0.1"]:
        status, page = get(address, port, "/login/")
        assert status == 200, (address, page[:200])
    status, page = get("127.0.0.1", port, "/login/", host="elsewhere.example")
    assert status == 400
    assert "Этот адрес не разрешён" in page

    database = sqlite3.connect(tmp_path / "data" / "db.sqlite3")
    try:
        assert database.execute("SELECT count(*) FROM auth_user").fetchone() == (0,)
        tournaments = database.execute("SELECT count(*) FROM tournaments_tournament").fetchone()
        assert tournaments == (0,)
    finally:
        database.close()


def test_every_interface_makes_the_machine_s_addresses_allowed_hosts():
    allowed = network.allowed_hosts_for("0.0.0.0", ["desk.example.org"])

    assert allowed[0] == "desk.example.org"
    assert "127.0.0.1" in allowed
    for address in network.lan_addresses("0.0.0.0"):
        assert address in allowed
    assert socket.gethostname() in allowed


def test_one_address_bound_is_the_one_allowed_and_loopback_adds_nothing():
    assert network.allowed_hosts_for("192.168.7.20", ["localhost"]) == [
        "localhost",
        "192.168.7.20",
    ]
    assert network.allowed_hosts_for("127.0.0.1", ["localhost"]) == ["localhost"]
    assert network.lan_addresses("127.0.0.1") == []
    assert network.url_for("fd00::2", 8000) == "http://[fd00::2]:8000/"


@pytest.mark.parametrize(
    ("args", "message"),
    [(["--port", "0"], "--port должен быть от 1 до 65535."), (["--workers", "0"], "--workers")],
)
def test_serve_refuses_a_bad_port_or_worker_count(db, args, message):
    from django.core.management import CommandError

    with pytest.raises(CommandError, match=message):
        call_command("serve", *args)


def test_the_demo_on_the_network_says_its_logins_are_public(db, capsys):
    call_command("demo", "--no-serve", "--host", "0.0.0.0")

    out = capsys.readouterr().out
    assert "these logins and their printed password are public" in out
    assert "uv run manage.py serve" in out


def test_the_demo_on_this_machine_only_gives_no_warning(db, capsys):
    call_command("demo", "--no-serve")

    out = capsys.readouterr().out
    assert "public" not in out
    assert "Open http://localhost:8000/ and sign in" in out


def test_a_restore_is_refused_while_the_server_runs_from_the_same_data_folder(served, tmp_path):
    port, _output = served
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "DATABASE_URL", "PYTEST"))
    }
    env["DJANGO_DATA_DIR"] = str(tmp_path / "data")
    backup = subprocess.run(
        [sys.executable, "manage.py", "backup"], cwd=PROJECT, env=env, capture_output=True
    )
    assert backup.returncode == 0, backup.stderr
    made = next((tmp_path / "data" / "backups").glob("desk-*.sqlite3"))

    restore = subprocess.run(
        [sys.executable, "manage.py", "restore", str(made), "--yes"],
        cwd=PROJECT,
        env=env,
        capture_output=True,
        text=True,
    )

    assert restore.returncode == 1
    assert "Судейский стол сейчас работает с этой папкой данных" in restore.stderr
    assert "Ничего не изменено." in restore.stderr
    # Nothing was touched: no safety copy was made, and the server still answers.
    assert not list((tmp_path / "data" / "backups").glob("desk-before-restore-*"))
    assert get("127.0.0.1", port, "/healthz")[0] == 200


def test_the_laptops_browser_lands_on_the_set_up_page_of_a_fresh_server(served):
    port, _output = served

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", "/")
    response = connection.getresponse()

    assert response.status == 302
    assert response.getheader("Location") == "/setup/"
