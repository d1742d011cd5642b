"""Forms of the deck screens: the shape of the input; the services rule."""

import datetime
from typing import TYPE_CHECKING, Any

from django import forms
from django.core.validators import MaxLengthValidator
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from core.bounds import BoundedDateTimeField, near_event
from core.uploads import UploadField
from decks.models import CardPool, DeckFormat
from decks.parsing import MAX_COPIES
from decks.rules import ListedCard

if TYPE_CHECKING:
    from django.utils.functional import _StrOrPromise as StrOrPromise
from decks.services import MAX_TEXT


def _size(label: "StrOrPromise") -> forms.IntegerField:
    return forms.IntegerField(label=label, min_value=0, max_value=1000, required=False)


class ListTextField(forms.CharField):
    """A pasted list: a browser sends each line break as CRLF, the player typed one character.
    Line breaks are made single before the length is checked, so the limit and the figure the
    message names are what the player sees in the box."""

    def to_python(self, value: Any) -> str:
        text = super().to_python(value) or ""
        return text.replace("\r\n", "\n").replace("\r", "\n")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        for validator in self.validators:
            if isinstance(validator, MaxLengthValidator):
                validator.message = ngettext_lazy(
                    "The list has %(show_value)d character; at most %(limit_value)d.",
                    "The list has %(show_value)d characters; at most %(limit_value)d.",
                    "show_value",
                )


class DeckListForm(forms.Form):
    text = ListTextField(
        label=_("Deck list"),
        max_length=MAX_TEXT,
        widget=forms.Textarea(attrs={"rows": 14, "spellcheck": "false"}),
        help_text=_(
            "One card a line: «3 Вампир». A line «Дополнительная колода:» starts the extra deck."
        ),
        error_messages={"required": _("Type or paste the list.")},
    )
    accept_unmatched = forms.BooleanField(
        label=_("Save names that are not cards of the pool as written (for a 1.4 decision)"),
        required=False,
    )
    reason = forms.CharField(
        label=_("Why it is corrected (needed once lists are locked)"),
        max_length=500,
        required=False,
    )


class SubmitForm(forms.Form):
    code = forms.CharField(label=_("Your personal code"), max_length=20)
    text = ListTextField(
        label=_("Your deck list"),
        max_length=MAX_TEXT,
        widget=forms.Textarea(attrs={"rows": 16, "spellcheck": "false"}),
        help_text=_(
            "One card a line: «3 Вампир». A line «Дополнительная колода:» starts the extra deck."
        ),
    )


class PoolForm(forms.Form):
    name = forms.CharField(label=_("Name of the pool"), max_length=200, required=False)
    file = UploadField(
        label=_("CSV file"),
        help_text=_(
            "A header row names the columns, in any order: «название» (required), "
            "«особенности» (such as «Орда»), «стихия», «тип» («герой» for a hero), «выпуск», "
            "«запрещена в» or «разрешена в» (format names). Several values in one cell: separate "
            "them with commas. Other columns, such as a deck builder's, are ignored."
        ),
    )


class RulesForm(forms.Form):
    """The deck rules; the pools offered are the organiser's own and the one in use."""

    def __init__(
        self,
        *args: Any,
        pools: QuerySet[CardPool] | None = None,
        event_day: datetime.date | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.event_day = event_day
        if pools is not None:
            field = self.fields["pool"]
            assert isinstance(field, forms.ModelChoiceField)
            field.queryset = pools

    deck_format = forms.ModelChoiceField(
        label=_("Format"), queryset=DeckFormat.objects.all(), empty_label=None
    )
    pool = forms.ModelChoiceField(
        label=_("Card pool"), queryset=CardPool.objects.all(), required=False
    )
    main_min = _size(_("Main deck: at least"))
    main_max = _size(_("Main deck: at most"))
    extra_max = _size(_("Extra deck: at most"))
    copy_limit = _size(_("Copies of one card: at most"))
    lifting_feature = forms.CharField(
        label=_("Feature that lifts the copy limit"), max_length=60, required=False
    )
    combine_sections = forms.BooleanField(
        label=_("Main and extra deck copies count together"), required=False
    )
    check_legality = forms.BooleanField(
        label=_("Cards must be legal in the format"), required=False
    )
    hero_rule = forms.BooleanField(
        label=_("A list with a hero holds only the hero's element and neutral cards"),
        required=False,
    )
    self_submission = forms.BooleanField(
        label=_("Players may submit their own list with a personal code"), required=False
    )
    deadline = BoundedDateTimeField(
        label=_("Deck list deadline"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=_("Empty: lists lock when the first round is paired."),
    )

    def clean_deadline(self) -> datetime.datetime | None:
        deadline: datetime.datetime | None = self.cleaned_data["deadline"]
        if deadline is not None and self.event_day and not near_event(deadline, self.event_day):
            raise forms.ValidationError(
                _("The deadline must be within a year of the tournament's day."),
                code="far_from_event",
            )
        return deadline


class PickForm(forms.Form):
    count = forms.IntegerField(label=_("Tables"), min_value=1, max_value=50, initial=2)
    seed = forms.IntegerField(
        label=_("Seed (empty: a new one)"), min_value=0, max_value=10**12, required=False
    )


class DeckCheckForm(forms.Form):
    """The deck as the judge finds it: copies per card of the list, and cards not on it."""

    client_key = forms.UUIDField(widget=forms.HiddenInput)
    not_on_list = forms.CharField(
        label=_("Cards in the deck that are not on the list"),
        max_length=2000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("One a line: «1 Богарт»."),
    )
    note = forms.CharField(label=_("Note"), max_length=2000, required=False)

    def __init__(self, *args: Any, cards: list[ListedCard], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.cards = cards
        for number, card in enumerate(cards):
            for section, listed in (("main", card.main), ("extra", card.extra)):
                self.fields[f"{section}_{number}"] = forms.IntegerField(
                    min_value=0, max_value=MAX_COPIES, initial=listed
                )

    def rows(self) -> list[tuple[ListedCard, forms.BoundField, forms.BoundField]]:
        return [
            (card, self[f"main_{number}"], self[f"extra_{number}"])
            for number, card in enumerate(self.cards)
        ]

    def counted(self) -> dict[str, tuple[int, int]]:
        data = self.cleaned_data
        return {
            card.key: (data[f"main_{number}"], data[f"extra_{number}"])
            for number, card in enumerate(self.cards)
        }


class ChecklistForm(forms.Form):
    """1.3 at a tournament without deck lists: the judge ticks what the deck shows."""

    client_key = forms.UUIDField(widget=forms.HiddenInput)
    items = forms.MultipleChoiceField(
        label=_("What the deck shows"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        choices=[
            ("а", _("а) too few cards in the deck, or too many in the extra deck")),
            ("б", _("б) a card not legal in the format")),
            ("в", _("в) construction broken (such as the copy limit)")),
            ("г", _("г) cards that are not the player's")),
        ],
    )
    note = forms.CharField(label=_("Note"), max_length=2000, required=False)
