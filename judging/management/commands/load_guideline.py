from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from judging.editions import SHIPPED_EDITION_FILE, load_edition


class Command(BaseCommand):
    help = "Create or update a guideline edition from its JSON file (the shipped one by default)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", nargs="?", default=str(SHIPPED_EDITION_FILE))

    def handle(self, *args: object, path: str, **options: object) -> None:
        try:
            edition = load_edition(Path(path))
        except (OSError, ValueError, KeyError) as error:
            raise CommandError(f"{path}: {error}") from error
        self.stdout.write(f"{edition.name}: {edition.infractions.count()}")
