"""What a record does now (rules.md §8), decided once for every screen.

A record's columns mirror its history (``PenaltyRecord.rank`` and ``status`` follow the latest
change; ``applies_to``, ``served_game``, ``served_match`` and ``loss_cancelled`` say what its loss
became). From them this module decides the record's status, its rank after every amendment, its
loss (none, pending, served or cancelled) and whether the judge tells the player anything, and
words each of them. The judge's card, the head judge's console and record page, the player's page,
«Мои пенальти», the judge report and their live re-renders all read ``RecordState``; no template
or view compares a status or a rank again.

The module is pure: it takes plain values (``record_state``), so a list reads them with the rows it
already loads, and the report, which reads ``.values()`` in chunks, builds states without model
instances (``state_from_values``).
"""

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from judging.explanations import penalty_label, takes_text
from judging.penalties import AppliesTo, Rank, RecordStatus

if TYPE_CHECKING:
    from judging.models import PenaltyRecord


class Loss(StrEnum):
    """The loss the record schedules now (rules.md §6)."""

    NONE = "none"  # The record takes no game or match (or, not in force, never took one).
    PENDING = "pending"  # It waits for a game or a match that does not exist yet.
    SERVED = "served"  # It took a game or a match; that stays in the results.
    CANCELLED = "cancelled"  # It was scheduled and will never be taken.


class Amendment(StrEnum):
    NONE = "none"
    LOWERED = "lowered"
    RAISED = "raised"


GAME_LOSSES = frozenset({AppliesTo.CURRENT_GAME, AppliesTo.NEXT_GAME})
MATCH_LOSSES = frozenset({AppliesTo.CURRENT_MATCH, AppliesTo.NEXT_MATCH})
# The statuses in which a record never took effect: nothing of it was ever served.
NEVER_IN_FORCE = frozenset({RecordStatus.AWAITING_HEAD_JUDGE, RecordStatus.DECLINED})


@dataclass(frozen=True, slots=True)
class RecordState:
    """What one record does now, with the words every screen shows for it."""

    status: RecordStatus
    rank: Rank
    issued_rank: Rank
    # The loss the record schedules now: its kind is ``applies_to`` ("" for none).
    applies_to: str
    loss: Loss
    # The game or the match the record took, whichever kind it took (numbers when known).
    served_game: bool
    served_game_number: int | None
    served_match: bool
    served_match_round: int | None
    revocation_requested: bool
    # The infraction's base penalty at the tournament's level; none for a record made by stacking.
    base_rank: Rank | None = None

    # Status.

    @property
    def is_in_force(self) -> bool:
        return self.status == RecordStatus.IN_FORCE

    @property
    def is_awaiting_head_judge(self) -> bool:
        return self.status == RecordStatus.AWAITING_HEAD_JUDGE

    @property
    def is_declined(self) -> bool:
        return self.status == RecordStatus.DECLINED

    @property
    def is_revoked(self) -> bool:
        return self.status == RecordStatus.REVOKED

    @property
    def status_label(self) -> str:
        """The status in a few words, for a list's column."""
        label = str(self.status.label)
        if self.revocation_requested:
            return _("%(status)s · revocation requested") % {"status": label}
        return label

    @property
    def status_line(self) -> str:
        """The status and what it means for the player, in one sentence."""
        line = {
            RecordStatus.IN_FORCE: _("In force."),
            RecordStatus.AWAITING_HEAD_JUDGE: _(
                "Awaiting the head judge: not in force until confirmed; the game goes on as it is."
            ),
            RecordStatus.DECLINED: _("Declined by the head judge: it never took effect."),
            RecordStatus.REVOKED: _("Revoked by the head judge: no longer in force."),
        }[self.status]
        if self.revocation_requested:
            line += " " + _("A judge asked the head judge to revoke it.")
        return line

    @property
    def confirms_in_two_steps(self) -> bool:
        """A request for a disqualification or above is confirmed in a second, deliberate step
        with the head judge's reasoning (rules.md §7, issue 17)."""
        return self.is_awaiting_head_judge and self.rank.disqualifies

    def confirmation_effects(self, *, player: str) -> list[str]:
        """What confirming a disqualification request does at once, for the deliberate step
        (rules.md §7); nothing for a request below a disqualification."""
        if not self.rank.disqualifies:
            return []
        effects = [
            _("%(player)s leaves the tournament at once and is not paired again.")
            % {"player": player},
            _("A match of theirs in progress is lost; finished results and points stay."),
            _("They receive no further penalties in this tournament."),
        ]
        if self.rank.takes_prize:
            effects.append(_("They get no prize; the judge report names it."))
        else:
            effects.append(_("They keep the right to the prizes of the place they finish in."))
        if self.rank == Rank.SUSPENSION:
            effects.append(
                _(
                    "Their membership is suspended; the game coordinator sets its length later, "
                    "and until then they cannot be registered for another official tournament."
                )
            )
        return effects

    # Rank.

    @property
    def rank_label(self) -> str:
        """«Поражение в партии (включает: предупреждение)»: the rank now and what it includes."""
        return penalty_label(self.rank)

    @property
    def rank_name(self) -> str:
        return str(self.rank.label)

    @property
    def rank_key(self) -> str:
        """A CSS class per rank, e.g. ``rank-game_loss``."""
        return f"rank-{self.rank.key}"

    @property
    def base_differs(self) -> bool:
        """Stacking or an amendment made the record other than its infraction's base penalty."""
        return self.base_rank is not None and self.base_rank != self.rank

    @property
    def base_name(self) -> str:
        return "" if self.base_rank is None else str(self.base_rank.label)

    @property
    def amendment(self) -> Amendment:
        if self.rank < self.issued_rank:
            return Amendment.LOWERED
        if self.rank > self.issued_rank:
            return Amendment.RAISED
        return Amendment.NONE

    @property
    def is_amended(self) -> bool:
        return self.amendment != Amendment.NONE

    @property
    def amendment_text(self) -> str:
        words = {"issued": self.issued_rank.label, "now": self.rank.label}
        if self.amendment == Amendment.LOWERED:
            return _("Issued as %(issued)s; the head judge lowered it to %(now)s.") % words
        if self.amendment == Amendment.RAISED:
            return _("Issued as %(issued)s; the head judge raised it to %(now)s.") % words
        return ""

    # Loss.

    @property
    def loss_is_pending(self) -> bool:
        return self.loss == Loss.PENDING

    @property
    def loss_is_served(self) -> bool:
        return self.loss == Loss.SERVED

    @property
    def loss_is_cancelled(self) -> bool:
        return self.loss == Loss.CANCELLED

    @property
    def waits_for(self) -> str:
        """What a pending loss waits for («Следующая партия»), "" for a loss that does not wait."""
        if self.loss != Loss.PENDING:
            return ""
        return str(AppliesTo(self.applies_to).label)

    @property
    def loss_text(self) -> str:
        """What the loss is now, for the card, the console, the player's page and the report."""
        text = self._scheduled_loss_text()
        earlier = self._earlier_loss_text()
        return f"{text} {earlier}".strip()

    def _scheduled_loss_text(self) -> str:
        if self.loss == Loss.PENDING:
            if self.applies_to == AppliesTo.NEXT_MATCH:
                return _("The next match is lost: waiting for the next round's pairings.")
            return _("The next game is lost: waiting for that game.")
        if self.loss == Loss.CANCELLED:
            if self.applies_to in MATCH_LOSSES:
                return _("Loss cancelled: no match is lost.")
            return _("Loss cancelled: no game is lost.")
        if self.loss == Loss.SERVED:
            return self._served_text(match=self.applies_to in MATCH_LOSSES)
        return ""

    def _earlier_loss_text(self) -> str:
        """A loss of the other kind the record took before an amendment changed it: a served game
        loss raised to a match loss keeps the game it took."""
        if self.applies_to in GAME_LOSSES and self.served_match:
            return self._served_text(match=True)
        if self.applies_to in MATCH_LOSSES and self.served_game:
            return self._served_text(match=False)
        return ""

    @property
    def _loss_outlived_record(self) -> bool:
        """The record no longer stands, or no longer takes a game, yet took one: what it took
        stays in the results until the head judge corrects them (rules.md §4, §6)."""
        return not self.is_in_force or self.rank < Rank.GAME_LOSS

    def _served_text(self, *, match: bool) -> str:
        if match:
            if self.served_match_round is None:
                text = _("A match is lost by this penalty.")
            else:
                text = _("The match of round %(number)s is lost by this penalty.") % {
                    "number": self.served_match_round
                }
        elif self.served_game_number is None:
            text = _("A game is lost by this penalty.")
        else:
            text = _("Game %(number)s is lost by this penalty.") % {
                "number": self.served_game_number
            }
        if self._loss_outlived_record:
            text += " " + _("It stays in the results until the head judge corrects them.")
        return text

    # What the judge tells the player.

    @property
    def tells_player(self) -> bool:
        """«Скажите игроку» is shown only for a record in force (rules.md §8)."""
        return self.is_in_force

    @property
    def tell(self) -> str:
        """What the judge tells the player, saying only what stands; "" when nothing stands."""
        if not self.is_in_force:
            return ""
        if self.rank == Rank.CAUTION:
            return _("This is an oral caution; it counts when penalties stack.")
        if self.rank == Rank.WARNING:
            return _("This warning is officially recorded.")
        if self.rank in (Rank.GAME_LOSS, Rank.MATCH_LOSS):
            takes = self._tell_takes()
            if takes:
                return _("A warning is recorded, and %(takes)s.") % {"takes": takes}
            if self.loss == Loss.CANCELLED:
                return _("A warning is recorded; no game or match is lost.")
            return _("A warning is recorded.")
        if self.rank == Rank.DISQUALIFICATION:
            return _(
                "You are disqualified and leave the tournament now; your results so far stay, "
                "and so does the right to the prizes of your place."
            )
        if self.rank == Rank.DISQUALIFICATION_WITHOUT_PRIZE:
            return _("You are disqualified without prize and leave the tournament now.")
        return _(
            "You are disqualified without prize and your membership is suspended; the game "
            "coordinator will set its length."
        )

    def _tell_takes(self) -> str:
        if self.loss == Loss.PENDING:
            return takes_text(self.applies_to)
        if self.loss != Loss.SERVED:
            return ""
        if self.applies_to in (AppliesTo.CURRENT_GAME, AppliesTo.CURRENT_MATCH):
            return takes_text(self.applies_to)
        if self.applies_to == AppliesTo.NEXT_GAME and self.served_game_number is not None:
            return _("game %(number)s is lost") % {"number": self.served_game_number}
        if self.applies_to == AppliesTo.NEXT_MATCH and self.served_match_round is not None:
            return _("the match of round %(number)s is lost") % {"number": self.served_match_round}
        return takes_text(self.applies_to)


def record_state(
    *,
    status: str,
    rank: int,
    issued_rank: int,
    applies_to: str,
    served_game: bool,
    served_match: bool,
    loss_cancelled: bool,
    revocation_requested: bool = False,
    served_game_number: int | None = None,
    served_match_round: int | None = None,
    base_rank: int | None = None,
) -> RecordState:
    """Decide what a record does now from its columns (rules.md §6, §8)."""
    record_status = RecordStatus(status)
    penalty = Rank(rank)
    return RecordState(
        status=record_status,
        rank=penalty,
        issued_rank=Rank(issued_rank),
        applies_to=applies_to,
        loss=_loss(
            status=record_status,
            rank=penalty,
            applies_to=applies_to,
            served_game=served_game,
            served_match=served_match,
            loss_cancelled=loss_cancelled,
        ),
        served_game=served_game,
        served_game_number=served_game_number if served_game else None,
        served_match=served_match,
        served_match_round=served_match_round if served_match else None,
        revocation_requested=revocation_requested,
        base_rank=None if base_rank is None else Rank(base_rank),
    )


def _loss(
    *,
    status: RecordStatus,
    rank: Rank,
    applies_to: str,
    served_game: bool,
    served_match: bool,
    loss_cancelled: bool,
) -> Loss:
    if applies_to in GAME_LOSSES:
        served = served_game
    elif applies_to in MATCH_LOSSES:
        served = served_match
    else:
        return Loss.NONE
    if served:
        # A served loss stays in the results whatever became of the record since.
        return Loss.SERVED
    if status in NEVER_IN_FORCE:
        # A request takes nothing until it is confirmed; a declined one never did.
        return Loss.NONE
    if status == RecordStatus.REVOKED or loss_cancelled or rank < Rank.GAME_LOSS:
        return Loss.CANCELLED
    return Loss.PENDING


def state_of(record: "PenaltyRecord") -> RecordState:
    """The state of a record in hand. A served game's number and a served match's round are read
    from the related rows, so a list selects them with the record (``served_game``,
    ``served_match__round``): no query per record."""
    game = record.served_game if record.served_game_id is not None else None
    match = record.served_match if record.served_match_id is not None else None
    return record_state(
        status=record.status,
        rank=record.rank,
        issued_rank=record.issued_rank,
        applies_to=record.applies_to,
        served_game=game is not None,
        served_match=match is not None,
        loss_cancelled=record.loss_cancelled,
        revocation_requested=record.revocation_requested,
        served_game_number=game.number if game is not None else None,
        served_match_round=match.round.number if match is not None else None,
        base_rank=record.base_rank,
    )


# The record's own fields ``state_of`` reads (beside the served game's and match's rows): a list
# that loads only some fields of its records (``.only()``) loads these.
STATE_FIELDS = (
    "status",
    "rank",
    "issued_rank",
    "applies_to",
    "served_game",
    "served_match",
    "loss_cancelled",
    "revocation_requested",
    "base_rank",
)


# The columns ``state_from_values`` reads: a report adds them to its ``.values()``.
STATE_VALUES = (
    "status",
    "rank",
    "issued_rank",
    "applies_to",
    "served_game_id",
    "served_game__number",
    "served_match_id",
    "served_match__round__number",
    "loss_cancelled",
    "revocation_requested",
    "base_rank",
)


def state_from_values(value: Mapping[str, Any]) -> RecordState:
    """The state of a record read as ``.values(*STATE_VALUES)``."""
    return record_state(
        status=value["status"],
        rank=value["rank"],
        issued_rank=value["issued_rank"],
        applies_to=value["applies_to"],
        served_game=value["served_game_id"] is not None,
        served_match=value["served_match_id"] is not None,
        loss_cancelled=value["loss_cancelled"],
        revocation_requested=value["revocation_requested"],
        served_game_number=value["served_game__number"],
        served_match_round=value["served_match__round__number"],
        base_rank=value["base_rank"],
    )
