"""The pasted list's box: a browser's CRLF is one line break, and the limit names what was typed."""

from django.utils import translation

from decks.forms import DeckListForm, SubmitForm
from decks.services import MAX_TEXT


def test_a_list_within_the_limit_as_typed_passes_though_crlf_doubles_its_breaks():
    text = "3 Вампир\r\n" * (MAX_TEXT // 9)
    assert len(text) > MAX_TEXT
    form = DeckListForm({"text": text})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["text"] == ("3 Вампир\n" * (MAX_TEXT // 9)).rstrip()


def test_a_list_over_the_limit_is_told_the_figure_the_player_typed():
    typed = MAX_TEXT + 3
    form = SubmitForm({"code": "X", "text": "я\r\n" * (typed // 2) + "я"})
    with translation.override("ru"):
        assert not form.is_valid()
        assert form.errors["text"] == [
            f"В дек-листе {typed} символа; допускается не больше {MAX_TEXT}."
        ]
