import sys

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.utils import translation

from judging.scenarios import run_scenario_file, scenario_files


class Command(BaseCommand):
    help = (
        "Play rule scenarios (JSON files, or folders of them) through the penalty services; "
        "print PASS or FAIL for each; exit 1 if any fails. No real data is changed."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", metavar="PATH")

    def handle(self, *args: object, paths: list[str], **options: object) -> None:
        translation.activate(settings.LANGUAGE_CODE)
        files = scenario_files(paths)
        failed = 0
        if not files:
            self.stdout.write("FAIL no scenario files found in: " + ", ".join(paths))
            sys.exit(1)
        for path in files:
            result = run_scenario_file(path)
            failed += not result.passed
            self.stdout.write(result.line)
        if failed:
            sys.exit(1)
