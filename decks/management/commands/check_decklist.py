"""Check one deck list from the command line against a pool file, without a tournament.

``uv run manage.py check_decklist LIST_FILE --pool POOL_CSV --format NAME [--json]``: organisers
check lists sent by e-mail before an event. The list goes through the same reader and checks as a
list saved in the app (``decks.rules.check_text``); the pool file is read as the pool import
reads it (``decks.pool_file``).
"""

import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError
from django.utils import translation
from django.utils.translation import gettext as _

from decks import selectors
from decks.describe import describe
from decks.formats import FORMATS, shipped_names, shipped_rule_set
from decks.parsing import CardInfo, PoolIndex
from decks.pool_file import decode_list_file, decode_pool_file, file_rows, read_pool
from decks.rules import ListCheck, check_text
from decks.services import MAX_TEXT


class Command(BaseCommand):
    help = "Check one deck list against a card pool file and a format's deck rules."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("list_file", help="the deck list, a text file")
        parser.add_argument("--pool", required=True, help="the card pool, a CSV with a header row")
        parser.add_argument("--format", required=True, help="the format's name or slug")
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args: Any, **options: Any) -> None:
        with translation.override(settings.LANGUAGE_CODE):
            verdict = self._verdict(options)
        if options["json"]:
            self.stdout.write(json.dumps(verdict, ensure_ascii=False))
            return
        if verdict["refused"]:
            self.stdout.write(verdict["refused"])
            return
        for finding in verdict["findings"]:
            self.stdout.write(f"{finding['sub_item']}: {finding['text']}")
        if verdict["unmatched"]:
            self.stdout.write(
                _("Not cards of the pool: %(names)s") % {"names": ", ".join(verdict["unmatched"])}
            )
        if not verdict["findings"] and not verdict["unmatched"]:
            self.stdout.write(_("The list is correct."))

    def _verdict(self, options: dict[str, Any]) -> dict[str, Any]:
        try:
            rules = selectors.format_rule_set(options["format"])
            names, labels = selectors.format_names(), selectors.format_labels()
        except DatabaseError:
            # Run where the desk's database is not set up: the formats as shipped.
            rules = shipped_rule_set(options["format"])
            names = shipped_names()
            labels = [f"{row[1]} ({row[0]})" for row in FORMATS]
        if rules is None:
            raise CommandError(
                _("Unknown format «%(name)s»; known: %(names)s.")
                % {"name": options["format"], "names": ", ".join(labels)}
            )
        index = _pool(Path(options["pool"]), names)
        text, unreadable = decode_list_file(_read(Path(options["list_file"])))
        if unreadable is None and len(text) > MAX_TEXT:
            unreadable = _("The list is longer than %(limit)s characters.") % {"limit": MAX_TEXT}
        if unreadable is not None:
            return {"findings": [], "unmatched": [], "refused": unreadable}
        return verdict_of(check_text(text, index, rules))


def verdict_of(check: ListCheck) -> dict[str, Any]:
    """The command's JSON object: findings with their sub-items, names not in the pool, and
    why the list was refused (None when it was read)."""
    if not check.parse.ok:
        lines = [
            message
            if number == 0
            else _("line %(line)s: %(message)s")
            % {
                "line": number,
                "message": message,
            }
            for number, message in check.parse.errors
        ]
        refused = _("The list cannot be read: %(lines)s") % {"lines": "; ".join(lines)}
        return {"findings": [], "unmatched": [], "refused": refused}
    return {
        "findings": [
            {"sub_item": f"{f.code} {f.sub_item}", "text": describe(f.kind, f.params)}
            for f in check.findings
        ],
        "unmatched": [entry.name for entry in check.parse.unmatched],
        "refused": None,
    }


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as error:
        raise CommandError(
            _("Cannot read %(path)s: %(error)s")
            % {
                "path": path,
                "error": error.strerror,
            }
        ) from error


def _pool(path: Path, formats: dict[str, str]) -> PoolIndex:
    text, unreadable = decode_pool_file(_read(path))
    if unreadable is not None:
        raise CommandError(unreadable)
    read = read_pool(file_rows(text), formats)
    if not read.ok:
        raise CommandError(
            "\n".join(
                _("Pool file, line %(line)s: %(message)s") % {"line": line, "message": message}
                for line, message in read.errors
            )
        )
    return PoolIndex.of(
        CardInfo(
            id=number,
            name=card.name,
            features=frozenset(card.features),
            legal_in=frozenset(card.legal_in),
            banned_in=frozenset(card.banned_in),
            elements=frozenset(card.elements),
            is_hero=card.is_hero,
        )
        for number, card in enumerate(read.cards, start=1)
    )
