"""Input shapes of the federation's screens."""

from typing import Any

from django import forms
from django.core.files.uploadedfile import UploadedFile
from django.utils.translation import gettext_lazy as _

from federation.files import MAX_FILE_BYTES, too_large


class FileForm(forms.Form):
    """One JSON file, refused by its size before it is read."""

    file = forms.FileField(label=_("File (JSON)"))

    def clean_file(self) -> UploadedFile:
        upload: Any = self.cleaned_data["file"]
        if (upload.size or 0) > MAX_FILE_BYTES:
            raise forms.ValidationError(str(too_large().message), code="too_large")
        return upload

    def content(self) -> bytes:
        upload: UploadedFile = self.cleaned_data["file"]
        return b"".join(upload.chunks())


class SuspendForm(forms.Form):
    starts_on = forms.DateField(label=_("Starts on"))
    ends_on = forms.DateField(label=_("Ends on"), required=False)
    reason = forms.CharField(label=_("Reason"), max_length=2000, widget=forms.Textarea)


class TermForm(forms.Form):
    ends_on = forms.DateField(label=_("Ends on"))
    reason = forms.CharField(label=_("Reason"), max_length=2000)


class LiftForm(forms.Form):
    reason = forms.CharField(label=_("Why it is lifted"), max_length=2000)


class SearchForm(forms.Form):
    q = forms.CharField(label=_("Name or membership id"), max_length=100, required=False)


class ApiKeyForm(forms.Form):
    name = forms.CharField(
        label=_("Who uses it"),
        max_length=120,
        help_text=_("For example: the stream's overlay, the club's site."),
    )
