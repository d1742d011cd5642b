from pathlib import Path

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from operations.backups import (
    BackupError,
    check_backup,
    create_backup,
    describe_backup,
    restore_backup,
)


class Command(BaseCommand):
    help = (
        "Replace the database with a backup made by `backup` (or an automatic snapshot). The "
        "current database is backed up first. Stop the server before restoring."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="The backup file.")
        parser.add_argument(
            "--yes", action="store_true", help="Do not ask for confirmation (for scripts)."
        )

    def handle(self, *args: object, file: Path, yes: bool, **options: object) -> None:
        try:
            check_backup(file)
        except BackupError as error:
            raise CommandError(str(error)) from error
        database = connection.settings_dict["NAME"]
        self.stdout.write(f"Restore {describe_backup(file)}")
        self.stdout.write(
            f"into the database {database}? Everything entered since that backup is replaced."
        )
        if not yes:
            try:
                answer = input("Type yes to restore: ").strip().lower()
            except EOFError:  # no terminal to ask: the answer is no
                answer = ""
            if answer != "yes":
                raise CommandError("Nothing restored.")
        try:
            safety = create_backup(label="before-restore")
            restore_backup(file)
        except BackupError as error:
            raise CommandError(str(error)) from error
        # A backup from an older version of the app gets the tables this version needs.
        call_command("migrate", interactive=False, verbosity=0)
        self.stdout.write(self.style.SUCCESS(f"Restored {file.name}."))
        self.stdout.write(f"The database as it was before is kept in {safety}.")
