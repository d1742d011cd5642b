from pathlib import Path

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.utils.translation import gettext as _

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
        self.stdout.write(_("Restore %(backup)s") % {"backup": describe_backup(file)})
        self.stdout.write(
            _("into the database %(database)s? Everything entered since that backup is replaced.")
            % {"database": database}
        )
        if not yes:
            try:
                answer = input(_("Type yes to restore: ")).strip().lower()
            except EOFError:  # no terminal to ask: the answer is no
                answer = ""
            # The operator may answer in either language.
            if answer not in ("yes", _("yes").lower()):
                raise CommandError(_("Nothing restored."))
        try:
            safety = create_backup(label="before-restore")
            restore_backup(file)
        except BackupError as error:
            raise CommandError(str(error)) from error
        # A backup from an older version of the app gets the tables this version needs.
        call_command("migrate", interactive=False, verbosity=0)
        self.stdout.write(self.style.SUCCESS(_("Restored %(file)s.") % {"file": file.name}))
        self.stdout.write(
            _("The database as it was before is kept in %(path)s.") % {"path": safety}
        )
