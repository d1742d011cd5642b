"""The penalty ladder and the words the guideline uses for it (rules.md §2).

Glossary: пенальти = penalty, замечание = caution, предупреждение = warning, поражение в партии =
game loss, поражение в матче = match loss, дисквалификация = disqualification, дисквалификация без
призов = disqualification without prize, приостановление членства = suspension, сложение пенальти =
stacking.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Rank(models.IntegerChoices):
    CAUTION = 1, _("Caution")
    WARNING = 2, _("Warning")
    GAME_LOSS = 3, _("Game loss")
    MATCH_LOSS = 4, _("Match loss")
    DISQUALIFICATION = 5, _("Disqualification")
    DISQUALIFICATION_WITHOUT_PRIZE = 6, _("Disqualification without prize")
    SUSPENSION = 7, _("Membership suspension")

    @property
    def key(self) -> str:
        """The stable English key used in data files and scenarios, e.g. ``game_loss``."""
        return self.name.lower()

    @classmethod
    def from_key(cls, key: str) -> "Rank":
        try:
            return cls[key.upper()]
        except KeyError:
            raise ValueError(f"unknown penalty {key!r}") from None

    @property
    def includes(self) -> "Rank | None":
        """The lower penalty the guideline always gives with this one (shown, never counted)."""
        return INCLUDED.get(self)

    @property
    def disqualifies(self) -> bool:
        return self >= Rank.DISQUALIFICATION

    @property
    def takes_prize(self) -> bool:
        return self >= Rank.DISQUALIFICATION_WITHOUT_PRIZE


INCLUDED = {
    Rank.GAME_LOSS: Rank.WARNING,
    Rank.MATCH_LOSS: Rank.WARNING,
    Rank.DISQUALIFICATION: Rank.MATCH_LOSS,
    Rank.DISQUALIFICATION_WITHOUT_PRIZE: Rank.MATCH_LOSS,
    Rank.SUSPENSION: Rank.DISQUALIFICATION_WITHOUT_PRIZE,
}

# Stacking never produces more than this (rules.md §5.3).
STACKING_CAP = Rank.DISQUALIFICATION


class Moment(models.TextChoices):
    IN_GAME = "in_game", _("During a game")
    BETWEEN_GAMES = "between_games", _("Between games")
    BETWEEN_MATCHES = "between_matches", _("Between matches")


class AppliesTo(models.TextChoices):
    CURRENT_GAME = "current_game", _("This game")
    NEXT_GAME = "next_game", _("The next game")
    CURRENT_MATCH = "current_match", _("This match")
    NEXT_MATCH = "next_match", _("The next match")


class Because(models.TextChoices):
    BASE = "base", _("Base penalty")
    REPEAT = "repeat", _("Repeat for the same reason")
    STACKING = "stacking", _("Three penalties of the same strength")


class RecordStatus(models.TextChoices):
    """Where a record stands (rules.md §4); kept beside the ladder so that the pure reading of a
    record's state (``judging/record_state.py``) needs no model."""

    IN_FORCE = "in_force", _("In force")
    AWAITING_HEAD_JUDGE = "awaiting_head_judge", _("Awaiting the head judge")
    DECLINED = "declined", _("Declined by the head judge")
    REVOKED = "revoked", _("Revoked")
