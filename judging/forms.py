"""Forms of the judges' screens: they check the shape of the input; the services rule."""

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from core.inputs import IdField
from core.people import display_name
from judging.models import Availability, RecordStatus, StatementRole
from judging.penalties import Moment, Rank
from judging.selectors import LogFilters
from judging.services.guards import REASON_MAX_LENGTH, may_suspend
from judging.services.rulings import AUTHOR_NAME_MAX_LENGTH, STATEMENT_MAX_LENGTH
from tournaments.models import Staff, StaffRole, Tournament


class InfractionForm(forms.Form):
    player = IdField(widget=forms.HiddenInput)
    client_key = forms.UUIDField(widget=forms.HiddenInput)
    infraction = forms.CharField(
        max_length=20, error_messages={"required": _("Choose the infraction.")}
    )
    # "1.4:а": the sub-item with its infraction, since letters repeat across infractions.
    sub_item = forms.CharField(max_length=30, required=False)
    moment = forms.ChoiceField(choices=Moment.choices)
    deferred = forms.BooleanField(required=False)
    note = forms.CharField(
        max_length=2000, required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
    # Sent only by the button of the explicit confirmation (``second_penalty_unconfirmed``): the
    # judge saw their first record of this infraction and means a second one.
    confirm_second = forms.BooleanField(required=False)
    # Filled by the tablet's script (static/js/log_form.js) when the judge submits: its clock then
    # (and again when a penalty kept offline is sent, static/js/desk_sw.js), and the round the
    # page showed (0: none yet). Without the script the record is entered when it is issued.
    entered_at = forms.DateTimeField(required=False, widget=forms.HiddenInput)
    sent_at = forms.DateTimeField(required=False, widget=forms.HiddenInput)
    round_seen = forms.IntegerField(required=False, min_value=0, widget=forms.HiddenInput)

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        code, _sep, letter = str(data.get("sub_item") or "").partition(":")
        if letter and code != data.get("infraction"):
            self.add_error("sub_item", _("This sub-item belongs to another infraction."))
        data["sub_item_letter"] = letter if code == data.get("infraction") else ""
        return data


class LogPrefillForm(forms.Form):
    """What a link into the log flow may fill in: from a deck-list finding, a judge call, etc.

    Other apps link here with query parameters (``?player=&infraction=&sub_item=&note=``) rather
    than importing judging's views, so the log flow stays the one place a penalty is chosen.
    ``sub_item`` is the letter alone (``а``); it only counts with its infraction.
    """

    infraction = forms.CharField(max_length=20, required=False)
    sub_item = forms.CharField(max_length=5, required=False)
    note = forms.CharField(max_length=2000, required=False, strip=True)


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"),
        max_length=REASON_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 2}),
        error_messages={"required": _("Write the reason for this decision.")},
    )


class StatementForm(forms.Form):
    """A statement of a disqualification's investigation, typed on the judge's tablet."""

    client_key = forms.UUIDField(widget=forms.HiddenInput)
    role = forms.ChoiceField(
        label=_("Who is speaking"),
        choices=StatementRole.choices,
        error_messages={"required": _("Choose who is speaking.")},
    )
    author_name = forms.CharField(
        label=_("Name"),
        max_length=AUTHOR_NAME_MAX_LENGTH,
        error_messages={"required": _("Write the name of the person speaking.")},
    )
    text = forms.CharField(
        label=_("Statement"),
        max_length=STATEMENT_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 6}),
        error_messages={
            "required": _("Write the statement."),
            "max_length": _(
                "Keep the statement under %(limit_value)d characters; add a second one for the "
                "rest."
            ),
        },
    )


class AcknowledgementForm(forms.Form):
    answer = forms.ChoiceField(
        choices=[("acknowledged", "acknowledged"), ("declined", "declined")],
        error_messages={"required": _("Tap the player's name, or mark that they declined.")},
    )


class ConsoleReasonForm(forms.Form):
    """The head judge's reason, which some decisions may leave empty (the services decide)."""

    reason = forms.CharField(
        max_length=REASON_MAX_LENGTH,
        required=False,
        error_messages={
            "max_length": _("Keep the reason under %(limit_value)d characters."),
        },
    )


class AmendForm(forms.Form):
    to_rank = forms.TypedChoiceField(label=_("New penalty"), coerce=int, choices=Rank.choices)

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not may_suspend(tournament, StaffRole.HEAD_JUDGE):
            # Suspension is out of reach here (rules.md §4): do not offer it.
            _choice_field(self, "to_rank").choices = [
                choice for choice in Rank.choices if choice[0] != Rank.SUSPENSION
            ]


class LogFilterForm(forms.Form):
    round = forms.TypedChoiceField(label=_("Round"), coerce=int, required=False, empty_value=None)
    judge = forms.TypedChoiceField(label=_("Judge"), coerce=int, required=False, empty_value=None)
    # A search, not a list of every player: a 2,000-option select on every re-fetch is the size
    # of the whole event. ``player`` (a registration id) is kept for links to one player's log.
    player_name = forms.CharField(label=_("Player"), required=False, max_length=100)
    player = IdField(required=False, widget=forms.HiddenInput)
    rank = forms.TypedChoiceField(
        label=_("Penalty"),
        coerce=int,
        required=False,
        empty_value=None,
        choices=[("", "—"), *Rank.choices],
    )
    status = forms.ChoiceField(
        label=_("Status"), required=False, choices=[("", "—"), *RecordStatus.choices]
    )

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        rounds = tournament.rounds.values_list("number", flat=True)
        _choice_field(self, "round").choices = [("", "—"), *((n, n) for n in rounds)]
        judges = Staff.objects.filter(
            tournament=tournament, role__in=[StaffRole.HEAD_JUDGE, StaffRole.FLOOR_JUDGE]
        ).select_related("user")
        _choice_field(self, "judge").choices = [
            ("", "—"),
            *sorted({(s.user_id, display_name(s.user)) for s in judges}),
        ]

    def filters(self) -> LogFilters:
        data = self.cleaned_data
        return LogFilters(
            round=data.get("round"),
            judge=data.get("judge"),
            player=data.get("player"),
            player_name=(data.get("player_name") or "").strip(),
            rank=data.get("rank"),
            status=data.get("status") or "",
        )


class InfractionDataForm(forms.Form):
    """An infraction the shipped edition does not hold: code, name, base penalty per level."""

    PENALTY_CHOICES = [("", _("— (not available)")), *((rank.key, rank.label) for rank in Rank)]

    code = forms.RegexField(
        label=_("Code"),
        regex=r"^\d+(\.\d+)*$",
        max_length=20,
        error_messages={"invalid": _("A code is numbers with dots, e.g. 4.2.")},
    )
    name = forms.CharField(label=_("Name"), max_length=300)
    section_name = forms.CharField(
        label=_("Section name"),
        max_length=200,
        required=False,
        help_text=_("Needed when the code opens a section this guideline does not name yet."),
    )
    availability = forms.ChoiceField(label=_("Availability"), choices=Availability.choices)
    amateur = forms.ChoiceField(label=_("Amateur"), choices=PENALTY_CHOICES, required=False)
    professional = forms.ChoiceField(
        label=_("Professional"), choices=PENALTY_CHOICES, required=False
    )
    highest = forms.ChoiceField(label=_("Highest"), choices=PENALTY_CHOICES, required=False)
    replacement_reason = forms.CharField(
        label=_("Reason for the replacement"),
        max_length=REASON_MAX_LENGTH,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Needed when the code exists already: the judge report shows it."),
    )

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if not any(data.get(level) for level in ("amateur", "professional", "highest")):
            raise forms.ValidationError(_("Give a penalty for at least one level."))
        return data


def _choice_field(form: forms.Form, name: str) -> forms.ChoiceField:
    field = form.fields[name]
    assert isinstance(field, forms.ChoiceField)  # the form declares it so
    return field
