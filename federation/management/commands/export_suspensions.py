from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.utils import translation
from django.utils.translation import gettext as _

from federation import services
from federation.management.commands.export_event import write_file


class Command(BaseCommand):
    help = "Write the federation's suspension list (JSON, docs/federation.md) for event laptops."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--output", required=True, metavar="FILE", help="the file to write")

    def handle(self, *args: object, output: str, **options: object) -> None:
        translation.activate(settings.LANGUAGE_CODE)
        write_file(output, services.export_suspension_list())
        self.stdout.write(_("Written: %(file)s") % {"file": output})
