"""The first account of a real event: an organiser, who then adds the staff from the web pages."""

import getpass
import os

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.permissions import make_organiser
from tournaments.services import create_organiser

PASSWORD_VARIABLE = "DJANGO_ORGANISER_PASSWORD"


class Command(BaseCommand):
    help = (
        "Create an organiser account: it may create tournaments and add their judges and "
        "players from the web pages. Not a superuser. With --existing, make an existing account "
        "an organiser."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--username", help="The login (asked for when missing).")
        parser.add_argument("--full-name", default="", help="The name shown in the app.")
        parser.add_argument(
            "--existing",
            action="store_true",
            help="Give an account that already exists the organisers' permission.",
        )
        parser.add_argument(
            "--no-input",
            action="store_true",
            help=f"Ask nothing: the password comes from {PASSWORD_VARIABLE}.",
        )

    def handle(
        self,
        *args: object,
        username: str | None,
        full_name: str,
        existing: bool,
        no_input: bool,
        **options: object,
    ) -> None:
        users = get_user_model()
        username = (username or "").strip()
        if not username:
            if no_input:
                raise CommandError("--username is required with --no-input.")
            username = input("Login: ").strip()
        if existing:
            user = users.objects.filter(username=username).first()
            if user is None:
                raise CommandError(f"There is no account {username!r}.")
            make_organiser(user)
            self.stdout.write(self.style.SUCCESS(f"{username} is now an organiser."))
            return
        try:
            users.username_validator(username)
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from error
        if users.objects.filter(username=username).exists():
            raise CommandError(
                f"The account {username!r} exists already; add --existing to make it an organiser."
            )
        password = self._password(users(username=username, first_name=full_name.strip()), no_input)
        create_organiser(username=username, full_name=full_name, password=password)
        self.stdout.write(
            self.style.SUCCESS(
                f"Organiser {username} created. Sign in, create the tournament, and add the "
                "judges on its Staff page."
            )
        )

    def _password(self, user: User, no_input: bool) -> str:
        if no_input:
            password = os.environ.get(PASSWORD_VARIABLE, "")
            if not password:
                raise CommandError(f"Set {PASSWORD_VARIABLE} to the password with --no-input.")
            self._validate(password, user)
            return password
        while True:
            password = getpass.getpass("Password: ")
            if password != getpass.getpass("Password (again): "):
                self.stderr.write("The passwords differ; try again.")
                continue
            try:
                self._validate(password, user)
            except CommandError as error:
                self.stderr.write(str(error))
                continue
            return password

    @staticmethod
    def _validate(password: str, user: User | None) -> None:
        try:
            validate_password(password, user)
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from error
