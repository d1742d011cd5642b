"""Uploaded text files (a CSV of players, a card pool): their size, encoding and characters.

One helper for every upload, so each import refuses the same things the same way:

- ``UploadField`` refuses a file over ``MAX_UPLOAD_BYTES`` from its size as the server received
  it (``upload.size``), before anything reads it into memory; Django keeps a file larger than
  ``FILE_UPLOAD_MAX_MEMORY_SIZE`` on disk while it arrives, so a 20 MB upload costs no memory.
- ``decode_upload`` reads the text whatever a spreadsheet saved: UTF-8 with or without its BOM,
  UTF-16 («Unicode text», with its BOM, or without it when the zero bytes say so), or the Windows
  Cyrillic code page; and it refuses a NUL or another control character (PostgreSQL refuses NUL
  in text, and no one types the others) naming the line it is on.
"""

import codecs
from typing import Any

from django import forms
from django.core.files.uploadedfile import UploadedFile
from django.utils.translation import gettext as _

from core.inputs import CONTROL_CHARACTERS

MAX_UPLOAD_BYTES = 2_000_000


class UnreadableUpload(ValueError):
    """A file the import cannot take; ``message`` says why (with the line, where there is one)."""

    def __init__(self, message: str, *, line: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


def too_large_message() -> str:
    return _("The file is too large (at most %(megabytes)s MB).") % {
        "megabytes": MAX_UPLOAD_BYTES // 1_000_000
    }


class UploadField(forms.FileField):
    """A file field that refuses a file over ``MAX_UPLOAD_BYTES`` from its size alone."""

    def clean(self, data: Any, initial: Any = None) -> UploadedFile | None:
        upload: UploadedFile | None = super().clean(data, initial)
        if upload is not None and (upload.size or 0) > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(too_large_message(), code="too_large")
        return upload


def _encoding(content: bytes) -> str:
    """The encoding the bytes announce (a BOM) or show (UTF-16's zero bytes), else UTF-8."""
    if content.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if content.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    # Text in UTF-16 without a BOM has a zero byte in every pair of a Latin letter, a digit, a
    # separator or a line end, always on the same side; UTF-8 and cp1251 text has none (a stray
    # NUL in such a file stays one and is refused below with its line).
    odd, even = content[1::2].count(0), content[0::2].count(0)
    enough = max(2, len(content) // 40)
    if len(content) % 2 == 0 and odd >= enough and even * 10 <= odd:
        return "utf-16-le"
    if len(content) % 2 == 0 and even >= enough and odd * 10 <= even:
        return "utf-16-be"
    return "utf-8"


def decode_upload(content: bytes) -> str:
    """The text of an uploaded file; ``UnreadableUpload`` when it is too large, not text in a
    known encoding, or holds a control character (the line is named)."""
    if len(content) > MAX_UPLOAD_BYTES:
        raise UnreadableUpload(too_large_message())
    encoding = _encoding(content)
    try:
        text = content.decode(encoding)
    except UnicodeDecodeError:
        if encoding != "utf-8":
            raise UnreadableUpload(
                _("The file cannot be read as %(encoding)s text.") % {"encoding": "UTF-16"}
            ) from None
        try:
            text = content.decode("cp1251")
        except UnicodeDecodeError:
            raise UnreadableUpload(
                _("The file is neither UTF-8 nor Windows-1251 text; save it as CSV again.")
            ) from None
    found = CONTROL_CHARACTERS.search(text)
    if found is not None:
        line = text.count("\n", 0, found.start()) + 1
        raise UnreadableUpload(
            _(
                "Line %(line)s holds a control character (such as a NUL byte) that a CSV file "
                "does not have; save the file as CSV again."
            )
            % {"line": line},
            line=line,
        )
    return text
