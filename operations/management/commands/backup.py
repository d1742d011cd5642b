from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from operations.backups import BackupError, backup_folder, create_backup


class Command(BaseCommand):
    help = (
        "Copy the database into a timestamped file in the data folder's backups/ (SQLite's "
        "online backup, safe while the server runs; pg_dump on PostgreSQL)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--label", default="", help="A word for the file name.")
        parser.add_argument(
            "--folder", type=Path, help="Another folder, e.g. a USB stick (default: backups/)."
        )

    def handle(self, *args: object, label: str, folder: Path | None, **options: object) -> None:
        if folder is not None and not folder.is_dir():
            raise CommandError(f"{folder} is not a folder.")
        try:
            path = create_backup(label=label, folder=folder or backup_folder())
        except BackupError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(self.style.SUCCESS(f"Backup written: {path}"))
