import argparse
import contextlib
import logging
from collections.abc import Iterator

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from decks.demo import load_demo_decks
from floor.demo import load_floor_demo
from judging.demo import DEMO_PASSWORD, DEMO_USERS, load_demo, load_playoff_demo
from operations import network, tls
from operations.management.commands.serve import DEFAULT_HTTPS_PORT, decide_https, use_lan_https
from operations.serving import (
    DataFolderInUse,
    folder_in_use_message,
    hold_data_folder,
    run_servers,
    task_worker,
)


class Command(BaseCommand):
    help = (
        "Prepare the embedded database with a demo tournament and demo logins, print them, and "
        "serve the app through the ASGI server (uvicorn). For a real event use `serve`."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--no-serve", action="store_true", help="Only prepare the data.")
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument(
            "--https",
            action=argparse.BooleanOptionalAction,
            default=None,
            help="Also serve HTTPS with a certificate made in the data folder, as `serve` does "
            "(default: on with --host 0.0.0.0).",
        )
        parser.add_argument("--https-port", type=int, default=DEFAULT_HTTPS_PORT)

    def handle(
        self,
        *args: object,
        no_serve: bool,
        host: str,
        port: int,
        https: bool | None,
        https_port: int,
        **options: object,
    ) -> None:
        # Checked before the data is loaded, so a taken port is said at once; --no-serve serves
        # nothing.
        lan_https = not no_serve and decide_https(
            https=https,
            host=host,
            port=port,
            workers=1,
            https_port=https_port,
            https_redirect=False,
        )
        with _console_quiet():
            call_command("migrate", interactive=False, verbosity=0)
            # The regional played to its champion first, so that the event in progress is the
            # latest one (its rounds the newest snapshots).
            regional = load_playoff_demo()
            tournament = load_demo()
            load_demo_decks(tournament)
        public = not network.is_loopback(host)
        urls = [network.url_for(address, port) for address in network.lan_addresses(host)]
        if not public or host in network.ALL_INTERFACES:
            urls.insert(0, network.url_for("localhost", port))
        self.stdout.write(f"Demo tournament: {tournament.name}")
        self.stdout.write(
            f"Open {' or '.join(urls)} and sign in with one of (password {DEMO_PASSWORD}):"
        )
        for username, (full_name, _role) in DEMO_USERS.items():
            self.stdout.write(f"  {username:<10} {full_name}")
        # The logins come first, as the organiser needs them; the finished regional after them.
        self.stdout.write(f"Played to its champion (a top 8): {regional.name}")
        with _console_quiet():
            players_link = load_floor_demo(tournament=tournament, base_url=urls[0])
        self.stdout.write(players_link)
        if public:
            self.stdout.write(
                self.style.WARNING(
                    f"WARNING: the demo listens on {host}, so these logins and their printed "
                    "password are public: anyone on this network can sign in as the head judge "
                    "or the organiser. Use it to try the app only; for a real event run "
                    "`uv run manage.py serve`."
                )
            )
        if no_serve:
            return
        settings.ALLOWED_HOSTS = network.allowed_hosts_for(host, list(settings.ALLOWED_HOSTS))
        # Compressed, fingerprinted copies of the assets, which browsers may keep for a year.
        call_command("collectstatic", interactive=False, verbosity=0)

        try:
            with hold_data_folder():
                certificate = None
                if lan_https:
                    certificate = tls.machine_server_certificate(tls.folder_for(settings.DATA_DIR))
                    use_lan_https(port=port, https_port=https_port, redirect=False)
                    secure = [
                        network.url_for(address, https_port, secure=True)
                        for address in ["localhost", *network.lan_addresses(host)]
                        if address == "localhost" or address in certificate.addresses
                    ]
                    self.stdout.write(
                        f"HTTPS (tablets work offline there): {' or '.join(secure)}; the "
                        f"certificate authority to trust is {certificate.cafile}, offered on "
                        f"{urls[0]}connect/ once signed in as organiser."
                    )
                with task_worker():
                    run_servers(
                        host=host,
                        port=port,
                        https_port=https_port,
                        certificate=certificate,
                    )
        except DataFolderInUse as error:
            raise CommandError(folder_in_use_message()) from error


@contextlib.contextmanager
def _console_quiet() -> Iterator[None]:
    """Keep the demo's own set-up lines (every demo penalty's audit line, every round's snapshot)
    out of the terminal, so the logins are the first thing the person trying the app reads; the
    lines still go to the log file, and warnings still reach the terminal."""
    console = logging.getHandlerByName("console")
    if console is None:
        yield
        return
    level = console.level
    console.setLevel(logging.WARNING)
    try:
        yield
    finally:
        console.setLevel(level)
