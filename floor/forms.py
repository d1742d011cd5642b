"""Input shapes of the floor's forms; the rules are the services'."""

from collections.abc import Mapping

from django import forms
from django.utils.translation import gettext_lazy as _

from core.inputs import IdField
from floor.models import ExtensionReason


class ExtensionForm(forms.Form):
    minutes = forms.IntegerField(
        label=_("Minutes"),
        min_value=1,
        max_value=30,
        error_messages={
            "invalid": _("An extension is from 1 to 30 minutes."),
            "min_value": _("An extension is from 1 to 30 minutes."),
            "max_value": _("An extension is from 1 to 30 minutes."),
            "required": _("An extension is from 1 to 30 minutes."),
        },
    )
    reason = forms.ChoiceField(
        label=_("Reason"),
        choices=ExtensionReason.choices,
        error_messages={
            "invalid_choice": _("Choose a reason: deck check, ruling or other."),
            "required": _("Choose a reason: deck check, ruling or other."),
        },
    )
    client_key = forms.UUIDField(widget=forms.HiddenInput)


class PlayerSearchForm(forms.Form):
    q = forms.CharField(
        label=_("Your name"),
        required=False,
        max_length=100,
        error_messages={"max_length": _("Search with at most 100 characters.")},
    )


class FloorQuery(forms.Form):
    """The floor page's query: which fragment, and which table's extension buttons are open.
    Which page of tables it shows (``show``, ``after``, ``before``, ``table``) is read by the
    view, which takes a cursor that is no table number for the first page rather than refuse."""

    fragment = forms.ChoiceField(
        required=False,
        choices=[
            (name, name)
            for name in ("", "judge-calls", "floor-tables", "table-row", "floor-glance")
        ],
    )
    extend = IdField(required=False)
    row = IdField(required=False)


class ProjectorQuery(forms.Form):
    """The projector page's query: which fragment, and how long each page of the rotating
    pairings and standings stays on screen (the organiser may slow it for a large hall)."""

    fragment = forms.ChoiceField(
        required=False,
        choices=[
            (name, name)
            for name in ("", "projector-clock", "projector-rotation", "projector-bracket")
        ],
    )
    seconds = forms.IntegerField(
        required=False,
        min_value=3,
        max_value=120,
        error_messages={
            "invalid": _("A page stays on screen from 3 to 120 seconds."),
            "min_value": _("A page stays on screen from 3 to 120 seconds."),
            "max_value": _("A page stays on screen from 3 to 120 seconds."),
        },
    )


class ReportForm(forms.Form):
    """A player's report or confirmation at their table. The games are read by the view from
    ``game_<n>`` (the winner's seat, 0 a draw, empty: not played) for the games still to be
    reported; their rules are the service's."""

    action = forms.ChoiceField(choices=[("report", "report"), ("confirm", "confirm")])
    seat = forms.TypedChoiceField(
        coerce=int,
        choices=[("1", "1"), ("2", "2")],
        error_messages={
            "required": _("Choose which player you are."),
            "invalid_choice": _("Choose which player you are."),
        },
    )
    code = forms.CharField(required=False, max_length=20)
    client_key = forms.UUIDField(
        error_messages={
            "required": _("Reload the page and try again."),
            "invalid": _("Reload the page and try again."),
        }
    )


def reported_games(data: Mapping[str, object], numbers: list[int]) -> list[int] | str:
    """The winners of the games ``numbers`` as a list (stopping at the first not played), or
    the error's code: a value that is no seat, or a game after one not played."""
    games: list[int] = []
    gap = False
    for number in numbers:
        value = str(data.get(f"game_{number}", "")).strip()
        if not value:
            gap = True
            continue
        if value not in ("0", "1", "2"):
            return "bad_games"
        if gap:
            return "games_in_order"
        games.append(int(value))
    return games


class CheckInForm(forms.Form):
    name = forms.CharField(
        label=_("Your name"),
        max_length=200,
        error_messages={"required": _("Write your name as registered.")},
    )
    code = forms.CharField(
        label=_("Your check-in code"),
        max_length=20,
        error_messages={"required": _("Type the code the desk gave you.")},
    )
