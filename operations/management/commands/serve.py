"""Serve the desk for a real event: no demo data, no demo logins."""

import os

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from operations import network
from operations.serving import (
    DataFolderInUse,
    folder_in_use_message,
    hold_data_folder,
    task_worker,
)


class Command(BaseCommand):
    help = (
        "Migrate the database and serve the app through uvicorn for a real event, printing the "
        "addresses tablets on the local network can open. Creates no data and no logins."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--host",
            default="0.0.0.0",
            help="Address to listen on (default 0.0.0.0: every interface, for tablets on the "
            "Wi-Fi; 127.0.0.1 for this machine only, or behind a reverse proxy).",
        )
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument(
            "--workers",
            type=int,
            default=1,
            help="Server processes (default 1; more need PostgreSQL for live updates).",
        )

    def handle(self, *args: object, host: str, port: int, workers: int, **options: object) -> None:
        if not 0 < port < 65536:
            raise CommandError(_("--port must be between 1 and 65535."))
        if workers < 1:
            raise CommandError(_("--workers must be 1 or more."))
        call_command("migrate", interactive=False, verbosity=0)
        # Compressed, fingerprinted copies of the assets, which browsers may keep for a year.
        call_command("collectstatic", interactive=False, verbosity=0)
        database = settings.DATABASES["default"]
        on_sqlite = database["ENGINE"].endswith("sqlite3")
        name = database["NAME"] if on_sqlite else f"PostgreSQL {database['NAME']}"
        self.stdout.write(_("Database ready: %(name)s") % {"name": name})
        self.stdout.write(_("Data folder (logs, backups): %(path)s") % {"path": settings.DATA_DIR})

        if not get_user_model().objects.exists():
            self.stdout.write(
                self.style.WARNING(
                    _(
                        "No account exists yet. Open %(url)s in a browser on this laptop: a "
                        "one-time set-up page creates the first organiser and shows how the "
                        "tablets connect."
                    )
                    % {"url": network.url_for("localhost", port)}
                )
            )
        if workers > 1 and on_sqlite:
            self.stdout.write(
                self.style.WARNING(
                    _(
                        "%(workers)d workers on SQLite: a page gets live updates only from "
                        "changes made through its own worker (the others it sees on reload). Use "
                        "one worker or PostgreSQL."
                    )
                    % {"workers": workers}
                )
            )

        allowed = network.allowed_hosts_for(host, list(settings.ALLOWED_HOSTS))
        settings.ALLOWED_HOSTS = allowed
        # Worker processes read the settings anew: hand them the same list.
        os.environ["DJANGO_ALLOWED_HOSTS"] = ",".join(allowed)

        lan = network.lan_addresses(host)
        if lan:
            self.stdout.write(_("Tablets on the same network open:"))
            for address in lan:
                self.stdout.write(f"    {network.url_for(address, port)}")
        elif host in network.ALL_INTERFACES:
            self.stdout.write(
                self.style.WARNING(
                    _(
                        "This machine has no network address yet: join the venue's Wi-Fi and "
                        "restart, so tablets can reach it."
                    )
                )
            )
        else:
            self.stdout.write(_("Only this machine can open the desk (listening on loopback)."))
        if host in network.ALL_INTERFACES or network.is_loopback(host):
            self.stdout.write(
                _("On this machine: %(url)s") % {"url": network.url_for("localhost", port)}
            )
        self.stdout.write(_("Stop the server with Ctrl+C."))
        self.stdout.flush()

        import uvicorn

        try:
            with hold_data_folder(), task_worker():
                uvicorn.run(
                    "config.asgi:application",
                    host=host,
                    port=port,
                    workers=workers,
                    # The project's logging (console and the data folder's file) takes uvicorn's
                    # lines.
                    log_config=None,
                    log_level="info",
                    timeout_graceful_shutdown=3,
                    # X-Forwarded-For only from the proxies the operator named
                    # (DJANGO_TRUSTED_PROXIES).
                    **network.proxy_options(settings.DESK_TRUSTED_PROXIES),  # type: ignore[arg-type]
                )
        except DataFolderInUse as error:
            raise CommandError(folder_in_use_message()) from error
