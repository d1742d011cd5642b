from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser

from federation.permissions import make_coordinator
from tournaments.permissions import make_federation_staff


class Command(BaseCommand):
    help = (
        "Name an account the federation's staff (import event files, read players' histories, "
        "export the suspension list) or the game's coordinator (also sets and lifts suspensions)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        role = parser.add_mutually_exclusive_group(required=True)
        role.add_argument("--staff", action="store_true")
        role.add_argument("--coordinator", action="store_true")

    def handle(self, *args: object, username: str, coordinator: bool, **options: object) -> None:
        user = User.objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"No account «{username}».")
        if coordinator:
            make_coordinator(user)
        else:
            make_federation_staff(user)
        self.stdout.write(f"{username}: {'coordinator' if coordinator else 'federation staff'}")
