"""Russian by default; English when the user chooses it."""

import ast
import gettext
import re
from pathlib import Path

from django.conf import settings
from django.urls import reverse


def test_russian_by_default_and_english_on_request(client, desk):
    client.force_login(desk.floor)
    home = reverse("judging:judge-home", args=[desk.tournament.slug])

    assert "Найти игрока" in client.get(home).content.decode()

    client.post(reverse("set_language"), {"language": "en", "next": home})

    assert "Find a player" in client.get(home).content.decode()


def _entries(path: Path) -> list[str]:
    """The catalogue's entries but its header, each as its block of lines."""
    return path.read_text(encoding="utf-8").split("\n\n")[1:]


def test_every_message_has_a_russian_translation_that_is_not_a_guess():
    """``makemessages`` marks a near match ``fuzzy`` and Django ignores it, so the English shows;
    an empty translation does the same. Either means a Russian user reads English."""
    catalogue = Path(settings.BASE_DIR) / "locale" / "ru" / "LC_MESSAGES" / "django.po"

    guessed = [entry for entry in _entries(catalogue) if "#, fuzzy" in entry]
    empty = [
        entry
        for entry in _entries(catalogue)
        if re.search(r'^msgstr(\[\d\])? ""$', entry, re.MULTILINE)
        and not re.search(r'^msgstr(\[\d\])? ""\n"', entry, re.MULTILINE)
    ]

    assert guessed == []
    assert empty == []


def test_the_compiled_russian_catalogue_is_as_new_as_its_source():
    folder = Path(settings.BASE_DIR) / "locale" / "ru" / "LC_MESSAGES"
    source = polib_free_messages(folder / "django.po")
    compiled = gettext.GNUTranslations((folder / "django.mo").open("rb"))

    missing = [msgid for msgid, msgstr in source.items() if compiled.gettext(msgid) != msgstr]

    assert missing == []


def polib_free_messages(path: Path) -> dict[str, str]:
    """Singular msgid → msgstr of a .po file, read without a library: enough for the check."""
    messages: dict[str, str] = {}
    for entry in _entries(path):
        if "msgid_plural" in entry or "msgctxt" in entry:
            continue
        pattern = r'^msgid ((?:".*"\n?)+)^msgstr ((?:".*"\n?)+)'
        match = re.search(pattern, entry + "\n", re.MULTILINE)
        if match:
            msgid, msgstr = (_joined(part) for part in match.groups())
            if msgid and msgstr:
                messages[msgid] = msgstr
    return messages


def _joined(quoted: str) -> str:
    return "".join(ast.literal_eval(line) for line in quoted.strip().splitlines() if line.strip())
