import os
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError
from django.utils import translation
from django.utils.translation import gettext as _

from judging import report
from tournaments.models import Tournament

FORMATS = ("csv", "xlsx", "html")
# "report": the whole report as one XLSX workbook, a sheet per part.
WHAT = (*report.TABLES, "report")
DEFAULT_WHAT = "penalties"


class Command(BaseCommand):
    help = (
        "Export the judge report of a tournament (its id or slug) to a file: the penalties in "
        "force or the standings as CSV (UTF-8 with a byte-order mark) or XLSX, the whole report "
        "as one XLSX workbook (--what report), or the whole report as one HTML page to print or "
        "save as PDF."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("tournament", metavar="TOURNAMENT", help="the tournament's id or slug")
        parser.add_argument("--format", required=True, choices=FORMATS, help="the file's format")
        parser.add_argument("--output", required=True, metavar="FILE", help="the file to write")
        parser.add_argument(
            "--what",
            choices=WHAT,
            default=DEFAULT_WHAT,
            help=(
                f"what a CSV or XLSX file holds (default: {DEFAULT_WHAT}); an HTML file is "
                "always the whole report"
            ),
        )

    def handle(
        self, *args: object, tournament: str, format: str, output: str, what: str, **options: object
    ) -> None:
        # Messages and the file's words follow the site's language, not the shell's locale.
        translation.activate(settings.LANGUAGE_CODE)
        try:
            found = find_tournament(tournament)
        except DatabaseError as error:
            raise CommandError(
                _("The database cannot be read (run `manage.py migrate` first?): %(error)s")
                % {"error": error}
            ) from error
        if what == "report" and format == "csv":
            raise CommandError(_("The whole report is exported as XLSX or HTML, not as CSV."))
        target = Path(output)
        # Written beside the target and moved into place at the end, so that a failed export
        # never leaves a half-written file under the name the organiser expects.
        partial = target.with_name(f".{target.name}.part")
        try:
            with partial.open("wb") as handle:
                if format == "html":
                    report.write_html(tournament=found, handle=handle)
                elif what == "report":
                    report.write_whole_workbook(tournament=found, target=handle)
                elif format == "csv":
                    for piece in report.csv_pieces(report.TABLES[what](tournament=found)):
                        handle.write(piece)
                else:
                    report.write_xlsx(report.TABLES[what](tournament=found), handle)
            os.replace(partial, target)
        except OSError as error:
            partial.unlink(missing_ok=True)
            raise CommandError(
                _("Cannot write %(file)s: %(error)s") % {"file": output, "error": error.strerror}
            ) from error
        self.stdout.write(_("Written: %(file)s") % {"file": output})


def find_tournament(value: str) -> Tournament:
    """The tournament with that slug or, failing that, that id; a clear error otherwise."""
    tournament = Tournament.objects.filter(slug=value).first()
    if tournament is None and value.isdigit():
        tournament = Tournament.objects.filter(pk=int(value)).first()
    if tournament is None:
        raise CommandError(
            _("There is no tournament «%(tournament)s»: give its id or slug.")
            % {"tournament": value}
        )
    return tournament
