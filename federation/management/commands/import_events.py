from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import translation
from django.utils.translation import gettext as _

from core.errors import DomainError
from federation import services
from federation.files import MAX_FILE_BYTES, too_large


def read_file(name: str) -> bytes:
    path = Path(name)
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise CommandError(f"{name}: {too_large().message}")
        return path.read_bytes()
    except OSError as error:
        raise CommandError(
            _("Cannot read %(file)s: %(error)s") % {"file": name, "error": error.strerror}
        ) from error


class Command(BaseCommand):
    help = (
        "Import event files into the federation's registry, each all or nothing; a file "
        "imported already changes nothing, a conflicting one is refused with the reason."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", metavar="FILE")

    def handle(self, *args: object, files: list[str], **options: object) -> None:
        translation.activate(settings.LANGUAGE_CODE)
        refused = 0
        for name in files:
            try:
                outcome = services.import_event_file(content=read_file(name))
            except (DomainError, CommandError) as error:
                refused += 1
                message = error.message if isinstance(error, DomainError) else str(error)
                self.stderr.write(f"{name}: {message}")
                continue
            if outcome.created:
                self.stdout.write(
                    _(
                        "%(file)s: imported «%(name)s», %(players)s players, "
                        "%(suspensions)s suspensions"
                    )
                    % {
                        "file": name,
                        "name": outcome.event.name,
                        "players": outcome.event.players,
                        "suspensions": outcome.suspensions,
                    }
                )
            else:
                self.stdout.write(
                    _("%(file)s: «%(name)s» was imported already; nothing changed")
                    % {"file": name, "name": outcome.event.name}
                )
        if refused:
            raise CommandError(_("%(count)s file(s) refused.") % {"count": refused})
