"""Serve the desk for a real event: no demo data, no demo logins."""

import argparse
import os

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from operations import network, tls
from operations.serving import (
    DataFolderInUse,
    folder_in_use_message,
    hold_data_folder,
    run_servers,
    task_worker,
)

DEFAULT_HTTPS_PORT = 8443


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
        parser.add_argument(
            "--https",
            action=argparse.BooleanOptionalAction,
            default=None,
            help="Also serve HTTPS with a certificate made on this machine, so tablets can work "
            "offline (default: on when tablets can reach the server and it runs one worker).",
        )
        parser.add_argument(
            "--https-port",
            type=int,
            default=DEFAULT_HTTPS_PORT,
            help=f"Port for HTTPS (default {DEFAULT_HTTPS_PORT}).",
        )
        parser.add_argument(
            "--https-redirect",
            action="store_true",
            help="Send tablets that open the plain HTTP address on to HTTPS (turn it on once "
            "every tablet has the desk's certificate).",
        )

    def handle(
        self,
        *args: object,
        host: str,
        port: int,
        workers: int,
        https: bool | None,
        https_port: int,
        https_redirect: bool,
        **options: object,
    ) -> None:
        if not 0 < port < 65536:
            raise CommandError(_("--port must be between 1 and 65535."))
        if workers < 1:
            raise CommandError(_("--workers must be 1 or more."))
        lan_https = decide_https(
            https=https,
            host=host,
            port=port,
            workers=workers,
            https_port=https_port,
            https_redirect=https_redirect,
        )
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

        try:
            with hold_data_folder():
                certificate = (
                    tls.machine_server_certificate(tls.folder_for(settings.DATA_DIR))
                    if lan_https
                    else None
                )
                self.print_addresses(host, port, https_port, certificate, workers, https_redirect)
                if certificate is not None:
                    use_lan_https(port=port, https_port=https_port, redirect=https_redirect)
                with task_worker():
                    run_servers(
                        host=host,
                        port=port,
                        workers=workers,
                        https_port=https_port,
                        certificate=certificate,
                        # X-Forwarded-For only from the proxies the operator named
                        # (DJANGO_TRUSTED_PROXIES).
                        **network.proxy_options(settings.DESK_TRUSTED_PROXIES),
                    )
        except DataFolderInUse as error:
            raise CommandError(folder_in_use_message()) from error

    def print_addresses(
        self,
        host: str,
        port: int,
        https_port: int,
        certificate: tls.ServerCertificate | None,
        workers: int,
        https_redirect: bool,
    ) -> None:
        lan = network.lan_addresses(host)
        if lan:
            self.stdout.write(_("Tablets on the same network open:"))
            for address in lan:
                if certificate is not None and address in certificate.addresses:
                    self.stdout.write(
                        f"    {network.url_for(address, https_port, secure=True)}    "
                        + _("(works offline once the tablet has the desk's certificate)")
                    )
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
        if certificate is not None:
            self.stdout.write(
                _(
                    "HTTPS on port %(port)d with the desk's own certificate authority "
                    "(%(path)s): install it on each tablet once from the page “Connect the "
                    "tablets” (%(url)s)."
                )
                % {
                    "port": https_port,
                    "path": certificate.cafile,
                    "url": network.url_for("localhost", port) + "connect/",
                }
            )
            if certificate.issued:
                self.stdout.write(
                    _("New server certificate for: %(names)s")
                    % {"names": ", ".join([*certificate.names, *certificate.addresses])}
                )
            if certificate.left_out:
                self.stdout.write(
                    self.style.WARNING(
                        _(
                            "Not in the certificate (public addresses or names, which the "
                            "desk's authority may not vouch for): %(names)s. Tablets use the "
                            "addresses above."
                        )
                        % {"names": ", ".join(certificate.left_out)}
                    )
                )
            if https_redirect:
                self.stdout.write(_("Tablets that open a plain HTTP address are sent on to HTTPS."))
        elif workers > 1 and host in network.ALL_INTERFACES:
            self.stdout.write(
                self.style.WARNING(
                    _(
                        "No HTTPS with several workers: tablets work online only. Serve with "
                        "one worker for tablets that keep working offline."
                    )
                )
            )
        self.stdout.write(_("Stop the server with Ctrl+C."))
        self.stdout.flush()


def decide_https(
    *,
    https: bool | None,
    host: str,
    port: int,
    workers: int,
    https_port: int,
    https_redirect: bool,
) -> bool:
    """Whether ``serve`` also serves HTTPS: asked for, or (by default) whenever tablets can reach
    it and it runs one process; a reverse proxy on the same machine (``--host 127.0.0.1``) or
    several workers leave TLS to the proxy."""
    if https is None:
        https = not network.is_loopback(host) and workers == 1
    if not https:
        if https_redirect:
            raise CommandError(_("--https-redirect needs HTTPS: leave out --no-https."))
        return False
    if workers != 1:
        raise CommandError(_("--https serves in one process: leave out --workers or --https."))
    if not 0 < https_port < 65536 or https_port == port:
        raise CommandError(_("--https-port must be between 1 and 65535 and differ from --port."))
    if not network.port_free(host, https_port):
        raise CommandError(
            _(
                "Port %(port)d for HTTPS is taken by another program: choose another with "
                "--https-port, or serve without HTTPS with --no-https."
            )
            % {"port": https_port}
        )
    return True


def use_lan_https(*, port: int, https_port: int, redirect: bool) -> None:
    """Tell the app (this process: HTTPS runs in one) on which ports it is served, for the
    tablets' page and the redirect."""
    settings.DESK_LAN_HTTP_PORT = port
    settings.DESK_LAN_HTTPS_PORT = https_port
    settings.DESK_LAN_HTTPS_REDIRECT = redirect
