import sys

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.migrations.executor import MigrationExecutor
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
        try:
            executor = MigrationExecutor(connections[DEFAULT_DB_ALIAS])
            unapplied = executor.migration_plan(executor.loader.graph.leaf_nodes())
        except DatabaseError as error:
            self.stdout.write(f"FAIL the database cannot be reached: {error}")
            sys.exit(1)
        if unapplied:
            self.stdout.write("FAIL the database is not set up: run `manage.py migrate` first")
            sys.exit(1)
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
