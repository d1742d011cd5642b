from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import translation
from django.utils.translation import gettext as _

from core.errors import DomainError
from federation import services
from federation.management.commands.import_events import read_file


class Command(BaseCommand):
    help = (
        "Import the federation's suspension list on an event laptop, before registration, and "
        "print what changed."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="FILE")

    def handle(self, *args: object, file: str, **options: object) -> None:
        translation.activate(settings.LANGUAGE_CODE)
        try:
            outcome = services.import_suspension_list(content=read_file(file))
        except DomainError as error:
            raise CommandError(str(error.message)) from error
        names = {"new": _("new suspension"), "term": _("term set"), "lifted": _("lifted")}
        for change in outcome.changes:
            self.stdout.write(
                f"{names[change['kind']]}: {change['player']} ({change['membership_id']}), "
                f"{change['ends_on'] or '—'}: {change['reason']}"
            )
        self.stdout.write(
            _("Changes: %(changes)s; already known: %(unchanged)s")
            % {"changes": len(outcome.changes), "unchanged": outcome.unchanged}
        )
