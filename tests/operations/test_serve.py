"""`serve` as an operator runs it on a fresh data folder: no data, no logins, the LAN addresses."""

import contextlib
import http.client
import os
import signal
import socket
import sqlite3
import ssl
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import serialization
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


@contextlib.contextmanager
def serving(tmp_path, *extra):
    """`manage.py serve` on every interface, in a fresh data folder, HTTPS on a free port;
    yields (port, https_port, output, process)."""
    port, https_port = free_port(), free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "DATABASE_URL", "PYTEST"))
    }
    env.update(DJANGO_DATA_DIR=str(tmp_path / "data"), PYTHONUNBUFFERED="1")
    command = ["manage.py", "serve", "--host", "0.0.0.0", "--port", str(port)]
    process = subprocess.Popen(
        [sys.executable, *command, "--https-port", str(https_port), *extra],
        cwd=PROJECT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines = []
    try:
        deadline = time.monotonic() + 60
        # Both listeners, plain and TLS, are up.
        while sum("Uvicorn running on" in line for line in lines) < 2:
            line = process.stdout.readline()
            if not line or time.monotonic() > deadline:
                raise AssertionError("serve did not start:\n" + "".join(lines))
            lines.append(line)
        yield port, https_port, "".join(lines), process
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture
def served(tmp_path):
    """`manage.py serve` as an operator starts it; yields (port, output)."""
    with serving(tmp_path) as (port, _https_port, output, _process):
        yield port, output


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
    [
        (["--port", "0"], "--port должен быть от 1 до 65535."),
        (["--workers", "0"], "--workers"),
        (
            ["--https-port", "8000"],
            "--https-port должен быть от 1 до 65535 и отличаться от --port.",
        ),
        (["--workers", "2", "--https"], "--https работает в одном процессе"),
        (["--no-https", "--https-redirect"], "--https-redirect требует HTTPS"),
        (["--host", "127.0.0.1", "--https-redirect"], "--https-redirect требует HTTPS"),
    ],
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


def test_serve_answers_over_tls_with_the_desk_s_own_authority_beside_plain_http(tmp_path):
    with serving(tmp_path, "--https-redirect") as (port, https_port, output, process):
        ca_file = tmp_path / "data" / "tls" / "ca.crt"
        assert f"HTTPS на порту {https_port}" in output
        assert str(ca_file) in output
        trusting_the_desk = ssl.create_default_context(cafile=str(ca_file))
        for host in ["127.0.0.1", "localhost"]:
            connection = http.client.HTTPSConnection(
                host, https_port, context=trusting_the_desk, timeout=10
            )
            connection.request("GET", "/login/")
            response = connection.getresponse()
            assert response.status == 200, host
            assert "Вход" in response.read().decode()
            certificate = connection.sock.getpeercert()
            assert ("IP Address", "127.0.0.1") in certificate["subjectAltName"]
            assert ("DNS", "localhost") in certificate["subjectAltName"]
            connection.close()
        # A client that trusts only the public authorities refuses it: the desk is its own.
        with pytest.raises(ssl.SSLCertVerificationError):
            http.client.HTTPSConnection(
                "127.0.0.1", https_port, context=ssl.create_default_context(), timeout=10
            ).request("GET", "/login/")

        # Plain HTTP keeps answering on the laptop itself...
        assert get("127.0.0.1", port, "/login/", host="localhost")[0] == 200
        # ...and, redirect turned on, sends a tablet that came by a network address to HTTPS,
        # except for the certificate it must fetch over plain HTTP first.
        for address in network.lan_addresses("0.0.0.0"):
            host = f"[{address}]" if ":" in address else address
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            connection.request("GET", "/login/?next=/", headers={"Host": f"{host}:{port}"})
            response = connection.getresponse()
            assert response.status == 302
            assert response.getheader("Location") == f"https://{host}:{https_port}/login/?next=/"
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            connection.request("GET", "/connect/desk-ca.crt", headers={"Host": host})
            response = connection.getresponse()
            assert response.status == 200
            assert response.getheader("Content-Type") == "application/x-x509-ca-cert"
            body = response.read()
            assert body == x509.load_pem_x509_certificate(ca_file.read_bytes()).public_bytes(
                serialization.Encoding.DER
            )

        # Ctrl+C stops both listeners and the process.
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=15) == 0


def test_serve_says_so_when_the_https_port_is_taken(db):
    from django.core.management import CommandError

    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(CommandError, match=f"Порт {port} для HTTPS занят другой программой"):
            call_command("serve", "--https-port", str(port))


def test_the_demo_serves_https_only_when_asked_or_shown_to_the_network():
    from operations.management.commands.serve import decide_https

    def demo(host, https):
        return decide_https(
            https=https,
            host=host,
            port=8000,
            workers=1,
            https_port=free_port(),
            https_redirect=False,
        )

    assert demo("127.0.0.1", None) is False
    assert demo("127.0.0.1", True) is True
    assert demo("0.0.0.0", None) is True
    assert demo("0.0.0.0", False) is False


def test_the_task_worker_beside_the_server_runs_at_a_lower_cpu_priority():
    """Its long work (a re-check of every deck list, an import) takes the CPU that the judges'
    requests leave, as the export processes' does; with PostgreSQL (this run's database, or not)
    under Linux's idle policy too."""
    from operations.serving import WORKER_NICENESS, task_worker, worker_may_idle

    # Read at once and stopped, before the worker has set Django up or opened any database.
    with task_worker() as worker:
        worker_niceness = psutil.Process(worker.pid).nice()
        policy = os.sched_getscheduler(worker.pid) if sys.platform == "linux" else None
    assert worker_niceness == min(os.nice(0) + WORKER_NICENESS, 19)
    if policy is not None and _idle_policy_allowed():
        expected = os.SCHED_IDLE if worker_may_idle() else os.SCHED_OTHER
        assert policy == expected


@pytest.mark.parametrize(
    ("url", "may_idle"),
    [
        ("postgres://judging:judging@127.0.0.1:5432/desk", True),
        ("postgresql://127.0.0.1/desk", True),
        ("sqlite:////var/desk/db.sqlite3", False),
        ("", False),  # the default: SQLite in the data folder
    ],
)
def test_the_worker_idles_only_beside_postgresql(url, may_idle):
    """On SQLite the worker holds the one write lock a judge's submit waits for: preempted there
    under the idle policy, it would make the submit wait until the cores are free."""
    from operations.serving import worker_may_idle

    assert worker_may_idle({"DATABASE_URL": url}) is may_idle


def _idle_policy_allowed() -> bool:
    """Whether this machine lets a process put its child under the idle policy (a container
    may refuse it, and the worker then keeps its niceness alone)."""
    probe = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(5)"])
    try:
        os.sched_setscheduler(probe.pid, os.SCHED_IDLE, os.sched_param(0))
    except OSError:
        return False
    finally:
        probe.kill()
        probe.wait()
    return True
