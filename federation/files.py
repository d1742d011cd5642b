"""Reading an event file or a suspension list: every check a file passes before anything is
written, each refusal a ``DomainError`` with a code and a message in the reader's language.

The checks, in order: the size (``MAX_FILE_BYTES``, from the upload's size before it is read),
the encoding (UTF-8 only, as JSON is exchanged; UTF-16 is named), the JSON itself (with the line
and column), the format and its version, the published schema (``federation/schemas/``), the
counts and the digest (a file edited by hand), and what the schema cannot say (a match naming a
player the file does not list, a membership id twice).
"""

import codecs
import datetime
import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
from django.utils.translation import gettext as _

from core.errors import DomainError
from federation.documents import (
    EVENT_FORMAT,
    SUSPENSIONS_FORMAT,
    VERSION,
    counts_of,
    digest_of,
)

SCHEMAS = Path(__file__).resolve().parent / "schemas"
# An event of 2,000 players and 15 rounds with its penalties is about 10 MB; a file over this is
# no event file, and is refused from its size before it is read.
MAX_FILE_BYTES = 25_000_000
SCHEMA_NAMES = {EVENT_FORMAT: "event-v1", SUSPENSIONS_FORMAT: "suspensions-v1"}


@cache
def schema(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((SCHEMAS / f"{name}.json").read_text(encoding="utf-8"))
    return loaded


def too_large() -> DomainError:
    return DomainError(
        "file_too_large",
        _("The file is too large (at most %(megabytes)s MB): it is not an event file.")
        % {"megabytes": MAX_FILE_BYTES // 1_000_000},
    )


def _text(content: bytes) -> str:
    if len(content) > MAX_FILE_BYTES:
        raise too_large()
    if content.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or (
        len(content) >= 2 and b"\x00" in content[:2]
    ):
        raise DomainError(
            "file_not_utf8",
            _(
                "The file is in UTF-16; the federation's files are UTF-8 JSON. Take the file "
                "the desk exported, not a copy saved by another program."
            ),
        )
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise DomainError(
            "file_not_utf8",
            _("The file is not UTF-8 text: it is not a file the desk exported."),
        ) from None


def _json(content: bytes) -> Any:
    text = _text(content)
    if not text.strip():
        raise DomainError("file_not_json", _("The file is empty."))
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise DomainError(
            "file_not_json",
            _("The file is not valid JSON (line %(line)s, column %(column)s): %(problem)s.")
            % {"line": error.lineno, "column": error.colno, "problem": error.msg},
        ) from None
    except RecursionError:
        raise DomainError("file_not_json", _("The file nests too deeply to be read.")) from None
    except ValueError:
        # Python refuses to read a number of more than 4,300 digits (a guard against slow
        # conversions); no file the desk exports holds one.
        raise DomainError(
            "file_not_json", _("The file holds a number too long to be a desk's file.")
        ) from None


def _checked(document: Any, expected: str) -> dict[str, Any]:
    """The format, the version and the schema."""
    if not isinstance(document, dict) or "format" not in document:
        raise DomainError(
            "file_wrong_format", _("The file is JSON but not a file of the judging desk.")
        )
    found = document.get("format")
    if found != expected:
        names = {
            EVENT_FORMAT: _("an event file"),
            SUSPENSIONS_FORMAT: _("a suspension list"),
        }
        raise DomainError(
            "file_wrong_format",
            _("This is %(found)s, and %(expected)s is expected here.")
            % {
                "found": names.get(found, _("a file of an unknown kind"))
                if isinstance(found, str)
                else _("a file of an unknown kind"),
                "expected": names[expected],
            },
        )
    if document.get("version") != VERSION:
        raise DomainError(
            "file_wrong_version",
            _(
                "The file is of version %(found)s; this desk reads version %(version)s. Export it "
                "again from a desk of the same version, or update this one."
            )
            % {"found": document.get("version"), "version": VERSION},
        )
    validator = jsonschema.Draft202012Validator(
        schema(SCHEMA_NAMES[expected]), format_checker=jsonschema.FormatChecker()
    )
    error = jsonschema.exceptions.best_match(validator.iter_errors(document))
    if error is not None:
        where = "/".join(str(part) for part in error.absolute_path) or "—"
        raise DomainError(
            "file_schema",
            _("The file does not follow its published schema at %(where)s: %(problem)s")
            % {"where": where, "problem": error.message[:300]},
        )
    return document


def _sealed(document: dict[str, Any], body_key: str, counts: dict[str, int]) -> None:
    if document["counts"] != counts:
        raise DomainError(
            "file_tampered",
            _(
                "The file's counts (%(stated)s) do not match what it holds (%(found)s): it was "
                "changed after it was exported."
            )
            % {"stated": _counts_text(document["counts"]), "found": _counts_text(counts)},
        )
    if document["digest"] != digest_of(document[body_key]):
        raise DomainError(
            "file_tampered",
            _(
                "The file's content does not match its digest: it was changed after it was "
                "exported."
            ),
        )


def _counts_text(counts: dict[str, int]) -> str:
    return ", ".join(f"{key} {value}" for key, value in sorted(counts.items()))


def read_event_file(content: bytes) -> dict[str, Any]:
    """The checked event file; ``DomainError`` with the reason otherwise."""
    document = _checked(_json(content), EVENT_FORMAT)
    event = document["event"]
    _sealed(document, "event", counts_of(event))
    refs = [player["ref"] for player in event["players"]]
    members = [player["membership_id"].strip() for player in event["players"]]
    if len(set(refs)) != len(refs) or len(set(members)) != len(members):
        raise DomainError(
            "file_inconsistent",
            _("The file lists a player twice (the same number or membership id)."),
        )
    known = set(refs)
    named = [
        ref
        for round_ in event["rounds"]
        for match in round_["matches"]
        for ref in (match["player1"], match["player2"])
        if ref is not None
    ] + [penalty["player"] for penalty in event["penalties"]]
    playoff = event["playoff"] or {}
    named += [row["player"] for part in ("seeds", "standings") for row in playoff.get(part, [])]
    named += [row["winner"] for row in playoff.get("decided", [])]
    unknown = sorted({ref for ref in named if ref not in known})
    if unknown:
        raise DomainError(
            "file_inconsistent",
            _("The file's matches, penalties or playoff name players it does not list (%(refs)s).")
            % {"refs": ", ".join(str(ref) for ref in unknown[:10])},
        )
    _days([penalty["suspension"] for penalty in event["penalties"] if penalty["suspension"]])
    return document


def read_suspension_list(content: bytes) -> dict[str, Any]:
    """The checked suspension list; ``DomainError`` with the reason otherwise."""
    document = _checked(_json(content), SUSPENSIONS_FORMAT)
    rows = document["body"]["suspensions"]
    _sealed(document, "body", {"suspensions": len(rows)})
    keys = [row["key"] for row in rows]
    if len(set(keys)) != len(keys):
        raise DomainError("file_inconsistent", _("The list names a suspension twice."))
    _days(rows)
    return document


def _days(rows: list[dict[str, Any]]) -> None:
    for row in rows:
        try:
            starts = datetime.date.fromisoformat(row["starts_on"])
            ends = datetime.date.fromisoformat(row["ends_on"]) if row["ends_on"] else None
            if row["lifted_on"]:
                datetime.date.fromisoformat(row["lifted_on"])
        except ValueError:
            raise DomainError(
                "file_schema",
                _("A suspension's date is not a date (%(key)s).") % {"key": row["key"]},
            ) from None
        if ends is not None and ends < starts:
            raise DomainError(
                "file_inconsistent",
                _("A suspension ends before it starts (%(key)s).") % {"key": row["key"]},
            )


def day(value: str | None) -> datetime.date | None:
    return datetime.date.fromisoformat(value) if value else None
