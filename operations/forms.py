"""The first organiser's form on the set-up page."""

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.utils.translation import gettext_lazy as _


class FirstOrganiserForm(forms.Form):
    username = forms.CharField(
        label=_("Login"),
        max_length=150,
        validators=[UnicodeUsernameValidator()],
        help_text=_("Letters, digits and @ . + - _ only; you sign in with it."),
    )
    full_name = forms.CharField(label=_("Your name"), max_length=150, required=False)
    password = forms.CharField(label=_("Password"), widget=forms.PasswordInput, strip=False)
    password_again = forms.CharField(
        label=_("Password again"), widget=forms.PasswordInput, strip=False
    )

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        password, again = data.get("password"), data.get("password_again")
        if isinstance(password, str) and isinstance(again, str):
            if password != again:
                self.add_error("password_again", _("The two passwords differ."))
            else:
                user = get_user_model()(
                    username=str(data.get("username", "")),
                    first_name=str(data.get("full_name", "")),
                )
                try:
                    validate_password(password, user)
                except forms.ValidationError as error:
                    self.add_error("password", error)
        return data
