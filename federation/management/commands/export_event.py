from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import translation
from django.utils.translation import gettext as _

from core.errors import DomainError
from federation import services
from judging.management.commands.export_report import find_tournament


class Command(BaseCommand):
    help = "Write a finished tournament's event file (JSON, docs/federation.md) for the federation."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("tournament", metavar="TOURNAMENT", help="the tournament's id or slug")
        parser.add_argument("--output", required=True, metavar="FILE", help="the file to write")

    def handle(self, *args: object, tournament: str, output: str, **options: object) -> None:
        translation.activate(settings.LANGUAGE_CODE)
        found = find_tournament(tournament)
        try:
            content = services.export_event(tournament=found)
        except DomainError as error:
            raise CommandError(str(error.message)) from error
        write_file(output, content)
        self.stdout.write(_("Written: %(file)s") % {"file": output})


def write_file(output: str, content: bytes) -> None:
    target = Path(output)
    partial = target.with_name(f".{target.name}.part")
    try:
        partial.write_bytes(content)
        partial.replace(target)
    except OSError as error:
        partial.unlink(missing_ok=True)
        raise CommandError(
            _("Cannot write %(file)s: %(error)s") % {"file": output, "error": error.strerror}
        ) from error
