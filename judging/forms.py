"""Forms of the judges' screens: they check the shape of the input; the services rule."""

from django import forms
from django.utils.translation import gettext_lazy as _

from judging.penalties import Moment


class InfractionForm(forms.Form):
    player = forms.IntegerField(widget=forms.HiddenInput)
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

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        code, _sep, letter = str(data.get("sub_item") or "").partition(":")
        data["sub_item_letter"] = letter if code == data.get("infraction") else ""
        return data


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"),
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
        error_messages={"required": _("Write the reason for this decision.")},
    )
