"""Forms of the organiser's screens; they validate input only, the services decide."""

from typing import Any

from django import forms
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core import validators
from django.utils.translation import gettext_lazy as _

from core.bounds import validate_day
from core.inputs import IdField
from core.uploads import UploadField
from tournaments.models import (
    BEST_OF,
    FirstPlayer,
    Level,
    PlayoffSize,
    StaffRole,
    Tournament,
    decklists_default,
    decklists_required,
)
from tournaments.services.play import CORRECTION_REASON_MAX_LENGTH


class TournamentForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = [
            "name",
            "date",
            "venue",
            "level",
            "format",
            "uses_decklists",
            "best_of",
            "rounds_planned",
            "round_minutes",
            "head_judge_is_official",
        ]
        widgets = {"date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["uses_decklists"].required = False
        self.fields["uses_decklists"].help_text = _(
            "Off by default at the amateur level, on at the professional level, always on at "
            "the highest."
        )
        # static/js/app.js sets the box to the level's default whenever the level changes.
        self.fields["level"].widget.attrs["data-decklists-level"] = ""
        self.fields["uses_decklists"].widget.attrs["data-decklists-box"] = ""
        level = self.data.get("level") if self.is_bound else self.initial.get("level")
        if level is None and self.instance.pk:
            level = self.instance.level
        if level is not None and decklists_required(level):
            self.fields["uses_decklists"].widget.attrs["disabled"] = True
        # Best of 1, 3 or 5 only (rules.md §9): a choice, so no other number can be typed.
        self.fields["best_of"] = forms.TypedChoiceField(
            label=self.fields["best_of"].label,
            choices=[(count, str(count)) for count in BEST_OF],
            coerce=int,
            initial=3,
            error_messages={"invalid_choice": _("A match is best of 1, 3 or 5 games.")},
        )
        # Year 1 or 9999 parses as a date but is no event's day (see core/bounds.py).
        self.fields["date"].validators.append(validate_day)
        self.fields["date"].widget.attrs.update({"min": "2000-01-01", "max": "2100-12-31"})
        for name in ("round_minutes", "rounds_planned"):
            field = self.fields[name]
            field.validators.append(validators.MinValueValidator(1))
            field.widget.attrs.update({"min": 1})
        self.fields["round_minutes"].validators.append(validators.MaxValueValidator(600))
        self.fields["rounds_planned"].validators.append(validators.MaxValueValidator(30))

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if decklists_required(str(data.get("level"))) and not data.get("uses_decklists"):
            # Deck lists cannot be switched off at the highest level; say so instead of failing.
            data["uses_decklists"] = True
        return data


# Addresses under /t/ that belong to pages, not to tournaments.
RESERVED_SLUGS = {"new"}


class NewTournamentForm(TournamentForm):
    slug = forms.SlugField(
        label=_("Short address"),
        help_text=_("Latin letters, digits and hyphens, e.g. cup-2026-12."),
        max_length=80,
    )

    class Meta(TournamentForm.Meta):
        fields = ["slug", *TournamentForm.Meta.fields]

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            # A new tournament starts at the professional level, with its default for deck lists.
            level = self.initial.setdefault("level", Level.PROFESSIONAL)
            self.initial.setdefault("uses_decklists", decklists_default(str(level)))
            if decklists_required(str(level)):
                self.fields["uses_decklists"].widget.attrs["disabled"] = True

    def clean_slug(self) -> str:
        slug = self.cleaned_data["slug"]
        if slug in RESERVED_SLUGS:
            raise forms.ValidationError(_("This address is taken by the app; choose another."))
        if Tournament.objects.filter(slug=slug).exists():
            raise forms.ValidationError(_("A tournament with this address already exists."))
        return slug


class StaffForm(forms.Form):
    username = forms.CharField(
        label=_("Login"), max_length=150, validators=[UnicodeUsernameValidator()]
    )
    # No role is chosen in advance: a forgotten select would otherwise hand out a head judge's
    # rights, so the organiser picks one for every person added.
    role = forms.ChoiceField(
        label=_("Role"),
        choices=[("", _("Choose a role")), *StaffRole.choices],
        error_messages={
            "required": _("Choose the person's role."),
            "invalid_choice": _("Choose the person's role."),
        },
    )
    full_name = forms.CharField(
        label=_("Full name"),
        max_length=150,
        required=False,
        help_text=_("For a new account only."),
    )
    password = forms.CharField(
        label=_("Password"),
        required=False,
        widget=forms.PasswordInput,
        help_text=_("For a new account only: at least 8 characters."),
    )


class PlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    membership_id = forms.CharField(label=_("Membership id"), max_length=40)
    city = forms.CharField(label=_("City"), max_length=120, required=False)


class ImportForm(forms.Form):
    # Refused by its size before it is read (core/uploads.py).
    file = UploadField(
        label=_("CSV file"),
        help_text=_(
            "Columns: name, membership id, city. Comma or semicolon; UTF-8, UTF-16 or Windows-1251."
        ),
    )


# The most games any allowed match has (best of 5, rules.md §9) and the most wins in one (3): the
# forms refuse more at once; the service refuses what this tournament's best of does not allow.
MOST_GAMES = max(BEST_OF)
MOST_WINS = MOST_GAMES // 2 + 1


class ResultForm(forms.Form):
    player1_wins = forms.IntegerField(min_value=0, max_value=MOST_WINS)
    player2_wins = forms.IntegerField(min_value=0, max_value=MOST_WINS)
    draws = forms.IntegerField(min_value=0, max_value=MOST_GAMES, required=False, initial=0)


class SwapForm(forms.Form):
    first = IdField()
    second = IdField()


class RegistryPlayerForm(forms.Form):
    """A player chosen from the registry search (empty: a new player is entered instead)."""

    player = IdField(required=False)


class StandingsQueryForm(forms.Form):
    round = forms.IntegerField(
        min_value=1,
        max_value=999,
        required=False,
        error_messages={
            "invalid": _("Choose a round from the list."),
            "min_value": _("Choose a round from the list."),
            "max_value": _("Choose a round from the list."),
        },
    )


class GameForm(forms.Form):
    """One game of a match: which seat won it, or a draw."""

    winner = forms.ChoiceField(
        choices=[("player1", "player1"), ("player2", "player2"), ("draw", "draw")]
    )


class CorrectionForm(forms.Form):
    player1_wins = forms.IntegerField(min_value=0, max_value=MOST_WINS)
    player2_wins = forms.IntegerField(min_value=0, max_value=MOST_WINS)
    draws = forms.IntegerField(label=_("Drawn games"), min_value=0, max_value=MOST_GAMES, initial=0)
    reason = forms.CharField(
        label=_("Reason"),
        max_length=CORRECTION_REASON_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class PlayoffForm(forms.Form):
    """The playoff's setting: its size, its best of and the final's, who starts a match."""

    playoff = forms.ChoiceField(
        label=_("Playoff"),
        choices=PlayoffSize.choices,
        error_messages={"invalid_choice": _("Choose the playoff from the list.")},
    )
    playoff_best_of = forms.TypedChoiceField(
        label=_("Games in a playoff match (best of)"),
        choices=[(count, str(count)) for count in BEST_OF],
        coerce=int,
        initial=3,
        error_messages={"invalid_choice": _("A match is best of 1, 3 or 5 games.")},
    )
    playoff_final_best_of = forms.TypedChoiceField(
        label=_("Games in the final (best of)"),
        choices=[(count, str(count)) for count in BEST_OF],
        coerce=int,
        initial=3,
        error_messages={"invalid_choice": _("A match is best of 1, 3 or 5 games.")},
    )
    playoff_first_player = forms.ChoiceField(
        label=_("Who starts a playoff match"),
        choices=FirstPlayer.choices,
        required=False,
        error_messages={"invalid_choice": _("Choose who starts a playoff match from the list.")},
    )


class PlayoffResultForm(forms.Form):
    """A playoff match's result; with the games level, its winner and how it was decided."""

    player1_wins = forms.IntegerField(min_value=0, max_value=MOST_WINS)
    player2_wins = forms.IntegerField(min_value=0, max_value=MOST_WINS)
    draws = forms.IntegerField(min_value=0, max_value=MOST_GAMES, required=False, initial=0)
    winner = IdField(required=False)
    decided_how = forms.CharField(max_length=200, required=False)


class LevelWinnerForm(forms.Form):
    winner = IdField(required=False)
    decided_how = forms.CharField(max_length=200, required=False)
