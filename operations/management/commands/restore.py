from pathlib import Path

from django.conf import settings
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
from operations.serving import DataFolderInUse, hold_data_folder


class Command(BaseCommand):
    help = (
        "Replace the database with a backup made by `backup` (or an automatic snapshot). The "
        "current database is backed up first. Refused while a server runs from this data folder."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="The backup file.")
        parser.add_argument(
            "--yes", action="store_true", help="Do not ask for confirmation (for scripts)."
        )

    def handle(self, *args: object, file: Path, yes: bool, **options: object) -> None:
        try:
            with hold_data_folder():
                self._restore(file, yes=yes)
        except DataFolderInUse as error:
            raise CommandError(
                _(
                    "The desk is being served from this data folder right now (%(folder)s): stop "
                    "the server first (Ctrl+C in its window), then restore again. Nothing was "
                    "changed."
                )
                % {"folder": settings.DATA_DIR}
            ) from error

    def _restore(self, file: Path, *, yes: bool) -> None:
        try:
            check_backup(file)
        except BackupError as error:
            raise CommandError(str(error)) from error
        database = connection.settings_dict["NAME"]
        self.stdout.write(
            _("Restore %(backup)s into the database %(database)s?")
            % {"backup": describe_backup(file), "database": database}
        )
        self.stdout.write(
            _(
                "Everything entered since that backup is replaced. Signed-in tablets stay signed "
                "in only if they had signed in before that backup was made; the others sign in "
                "again, and nothing they had not sent is kept."
            )
        )
        if not yes:
            try:
                answer = input(_("Type yes to restore: ")).strip().lower()
            except EOFError:  # no terminal to ask: the answer is no
                answer = ""
            if answer not in {"yes", _("yes")}:
                raise CommandError(_("Nothing restored."))
        try:
            safety = create_backup(label="before-restore")
            restore_backup(file)
        except BackupError as error:
            raise CommandError(str(error)) from error
        # A backup from an older version of the app gets the tables this version needs.
        call_command("migrate", interactive=False, verbosity=0)
        self.stdout.write(self.style.SUCCESS(_("Restored %(name)s.") % {"name": file.name}))
        kept = _("The database as it was before is kept in %(path)s.") % {"path": safety}
        self.stdout.write(kept)
