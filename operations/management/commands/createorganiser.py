"""The first account of a real event: an organiser, who then adds the staff from the web pages."""

import getpass
import os

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

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
                raise CommandError(_("--username is required with --no-input."))
            username = input(_("Login: ")).strip()
        if existing:
            user = users.objects.filter(username=username).first()
            if user is None:
                raise CommandError(_("There is no account %(username)s.") % {"username": username})
            make_organiser(user)
            self.stdout.write(
                self.style.SUCCESS(_("%(username)s is now an organiser.") % {"username": username})
            )
            return
        try:
            users.username_validator(username)
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from error
        if users.objects.filter(username=username).exists():
            raise CommandError(
                _(
                    "The account %(username)s exists already: add --existing to make it an "
                    "organiser."
                )
                % {"username": username}
            )
        password = self._password(users(username=username, first_name=full_name.strip()), no_input)
        create_organiser(username=username, full_name=full_name, password=password)
        self.stdout.write(
            self.style.SUCCESS(
                _(
                    "Organiser %(username)s created. Sign in, create the tournament, and add the "
                    "judges on its Staff page."
                )
                % {"username": username}
            )
        )

    def _password(self, user: User, no_input: bool) -> str:
        if no_input:
            password = os.environ.get(PASSWORD_VARIABLE, "")
            if not password:
                raise CommandError(
                    _("Set %(variable)s to the password with --no-input.")
                    % {"variable": PASSWORD_VARIABLE}
                )
            self._validate(password, user)
            return password
        while True:
            password = getpass.getpass(_("Password: "))
            if password != getpass.getpass(_("Password (again): ")):
                self.stderr.write(_("The passwords differ; try again."))
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
