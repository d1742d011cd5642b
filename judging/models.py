"""Guideline editions, infractions and penalty records.

Glossary: уложение о пенальти = penalty guideline, нарушение = infraction, подпункт = sub-item,
философия нарушения = philosophy, устранение нарушения = remedy, судейский отчёт = judge report.

A penalty record is never deleted and its issued facts are never changed: every confirmation,
amendment and revocation is a new ``PenaltyChange`` row, and the record's ``rank`` and ``status``
columns only mirror the latest change so that lists can be read without replaying history.
"""

import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from judging.explanations import explain, penalty_label
from judging.penalties import AppliesTo, Because, Moment, Rank, RecordStatus
from judging.record_state import RecordState, state_of
from players.models import MembershipSuspension
from tournaments.models import Game, Level, Match, Registration, Round, Tournament

# A tablet's clock further than this from the server's is flagged on the records it sends.
CLOCK_SKEW_FLAGGED = datetime.timedelta(minutes=2)
# A record that reached the server this long after the judge entered it was kept on the tablet.
ENTERED_LATE = datetime.timedelta(minutes=1)


def clock_was_off(tablet_clock_skew: int | None) -> bool:
    """Whether a record sent with this skew (seconds) came from a tablet whose clock was off by
    more than ``CLOCK_SKEW_FLAGGED``; lists that read a record's columns without the model ask
    this too."""
    return tablet_clock_skew is not None and abs(tablet_clock_skew) > int(
        CLOCK_SKEW_FLAGGED.total_seconds()
    )


class GuidelineEdition(models.Model):
    slug = models.SlugField(_("slug"), max_length=120, unique=True)
    name = models.CharField(pgettext_lazy("title of a thing", "name"), max_length=200)
    based_on = models.ForeignKey(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="derived"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("guideline edition")
        verbose_name_plural = _("guideline editions")

    def __str__(self) -> str:
        return self.name


class Availability(models.TextChoices):
    ANY = "any", _("Any tournament")
    DECKLISTS = "decklists", _("Only where deck lists are used")
    NO_DECKLISTS = "no_decklists", _("Only where deck lists are not used")


class Infraction(models.Model):
    edition = models.ForeignKey(
        GuidelineEdition, on_delete=models.CASCADE, related_name="infractions"
    )
    code = models.CharField(_("code"), max_length=20)
    section = models.CharField(_("section"), max_length=20)
    section_name = models.CharField(_("section name"), max_length=200, blank=True)
    name = models.CharField(pgettext_lazy("title of a thing", "name"), max_length=300)
    availability = models.CharField(
        _("availability"), max_length=20, choices=Availability.choices, default=Availability.ANY
    )
    description = models.TextField(_("description"), blank=True)
    sub_items = models.JSONField(_("sub-items"), default=list, blank=True)
    examples = models.JSONField(_("examples"), default=list, blank=True)
    philosophy = models.TextField(_("philosophy"), blank=True)
    remedy = models.TextField(_("remedy"), blank=True)
    # An empty level means "-": the infraction cannot be issued at that level.
    penalty_amateur = models.PositiveSmallIntegerField(
        _("penalty at the amateur level"), choices=Rank.choices, null=True, blank=True
    )
    penalty_professional = models.PositiveSmallIntegerField(
        _("penalty at the professional level"), choices=Rank.choices, null=True, blank=True
    )
    penalty_highest = models.PositiveSmallIntegerField(
        _("penalty at the highest level"), choices=Rank.choices, null=True, blank=True
    )
    # Why a tournament's own edition replaced the infraction its base edition holds under this
    # code (rules.md §3); empty for one it holds as shipped or added. The judge report shows it.
    replaced_because = models.TextField(_("reason for the replacement"), blank=True)

    class Meta:
        ordering = ["edition", "code"]
        verbose_name = _("infraction")
        verbose_name_plural = _("infractions")
        constraints = [
            models.UniqueConstraint(fields=["edition", "code"], name="infraction_code_unique")
        ]

    def __str__(self) -> str:
        return f"{self.code} {self.name}"

    def base_penalty(self, level: str) -> Rank | None:
        value = {
            Level.AMATEUR: self.penalty_amateur,
            Level.PROFESSIONAL: self.penalty_professional,
            Level.HIGHEST: self.penalty_highest,
        }[Level(level)]
        return None if value is None else Rank(value)

    def sub_item_letters(self) -> list[str]:
        return [item["letter"] for item in self.sub_items]

    @property
    def sort_key(self) -> tuple[int | str, ...]:
        """Orders 1.2 before 1.10, which a text sort would not."""
        return tuple(int(part) if part.isdecimal() else part for part in self.code.split("."))


class TournamentGuideline(models.Model):
    """Which edition a tournament judges by; a tournament without a row uses the shipped one."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, primary_key=True, related_name="guideline"
    )
    edition = models.ForeignKey(GuidelineEdition, on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("tournament guideline")
        verbose_name_plural = _("tournament guidelines")

    def __str__(self) -> str:
        return f"{self.tournament}: {self.edition}"


# What a pending loss is (rules.md §6), written once: a loss in force, not cancelled, that still
# waits for the game or the match it takes. A game loss is served by a game, or by a match that a
# pending match loss decided (which serves every game loss waiting for it). The database computes
# ``PenaltyRecord.is_pending_loss`` from it, so queries and a record in hand give the same answer.
PENDING_LOSS = Q(status=RecordStatus.IN_FORCE, loss_cancelled=False) & (
    Q(applies_to=AppliesTo.NEXT_GAME, served_game__isnull=True, served_match__isnull=True)
    | Q(applies_to=AppliesTo.NEXT_MATCH, served_match__isnull=True)
)


class PenaltyRecordQuerySet(models.QuerySet["PenaltyRecord"]):
    def in_force(self) -> "PenaltyRecordQuerySet":
        return self.filter(status=RecordStatus.IN_FORCE)

    def pending_losses(self) -> "PenaltyRecordQuerySet":
        """Losses that still wait for a game or a match (``PENDING_LOSS``)."""
        return self.filter(is_pending_loss=True)


class PenaltyRecord(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="penalty_records"
    )
    registration = models.ForeignKey(
        Registration, on_delete=models.PROTECT, related_name="penalty_records"
    )
    # Empty for a penalty made by stacking, which has no infraction of its own.
    infraction = models.ForeignKey(
        Infraction, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    sub_item = models.CharField(_("sub-item"), max_length=4, blank=True)
    # What 5.1 compares: the infraction code. A penalty made by stacking has none (null, never ""):
    # its reason is its own and never equals another record's (rules.md §5.2).
    reason = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001
    moment = models.CharField(_("moment"), max_length=20, choices=Moment.choices)
    deferred = models.BooleanField(_("next game / next match chosen"), default=False)
    round = models.ForeignKey(Round, on_delete=models.PROTECT, null=True, blank=True)
    # The player's match and game in progress when the record was made: a loss waiting for "the
    # next" game or match cannot be served by the one it was issued in.
    issued_in_match = models.ForeignKey(
        Match, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    issued_in_game = models.PositiveSmallIntegerField(null=True, blank=True)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("issued by"),
    )
    issued_at = models.DateTimeField(_("issued at"), auto_now_add=True)
    base_rank = models.PositiveSmallIntegerField(
        _("base penalty"), choices=Rank.choices, null=True, blank=True
    )
    issued_rank = models.PositiveSmallIntegerField(_("penalty as issued"), choices=Rank.choices)
    rank = models.PositiveSmallIntegerField(_("penalty"), choices=Rank.choices)
    because = models.CharField(max_length=20, choices=Because.choices)
    explanation = models.JSONField(default=dict, blank=True)
    repeat_of = models.ForeignKey(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="repeated_by"
    )
    # Set when rule 5.2 used this record; the stacked record lists its sources through it.
    stacked_into = models.ForeignKey(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="stacked_from"
    )
    applies_to = models.CharField(max_length=20, choices=AppliesTo.choices, blank=True)
    served_game = models.ForeignKey(
        Game, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    served_match = models.ForeignKey(
        Match, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    loss_cancelled = models.BooleanField(default=False)
    status = models.CharField(max_length=24, choices=RecordStatus.choices)
    is_pending_loss = models.GeneratedField(
        # django-stubs wants an Expression; Django takes a Q here (it resolves to one).
        expression=PENDING_LOSS,  # type: ignore[arg-type]
        output_field=models.BooleanField(),
        db_persist=True,
    )
    membership_suspension = models.OneToOneField(
        MembershipSuspension, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    note = models.TextField(_("note"), blank=True)
    # A judge asked the head judge to revoke this record (the floor judge's "undo").
    revocation_requested = models.BooleanField(default=False)
    client_key = models.UUIDField(null=True, blank=True)
    # The moment the judge entered the penalty on the tablet, by the server's clock: the tablet's
    # own moment moved by ``tablet_clock_skew``, the difference between the server's clock and the
    # tablet's measured when it was sent (a penalty kept on a tablet offline is sent later). Null
    # for a record made without the tablet's script (it was entered when it was issued).
    entered_at = models.DateTimeField(_("entered at"), null=True, blank=True)
    # Seconds: the server's clock minus the tablet's, when the penalty was sent.
    tablet_clock_skew = models.IntegerField(null=True, blank=True)

    objects = PenaltyRecordQuerySet.as_manager()

    class Meta:
        ordering = ["issued_at", "id"]
        verbose_name = _("penalty record")
        verbose_name_plural = _("penalty records")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "client_key"],
                condition=Q(client_key__isnull=False),
                name="penalty_client_key_unique",
            ),
            models.CheckConstraint(
                condition=Q(because=Because.STACKING, reason__isnull=True)
                | (~Q(because=Because.STACKING) & Q(reason__isnull=False)),
                name="penalty_reason_unless_stacked",
            ),
        ]
        indexes = [
            models.Index(fields=["registration", "status"]),
            # The report's lists in the order issued (the penalties in force, those for deck
            # problems): a page of them walks this index and stops, where the tournament's index
            # alone had every record joined and sorted for each page.
            models.Index(fields=["tournament", "issued_at", "id"], name="penalty_issue_order"),
            # The head judge's log, newest first, a page at a time from a record's id.
            models.Index(fields=["tournament", "id"], name="penalty_log_newest_first"),
            # The head judge's queue: a handful of rows among an event's 20,000 records.
            models.Index(
                fields=["tournament", "id"],
                condition=Q(status="awaiting_head_judge") | Q(revocation_requested=True),
                name="penalty_request_queue",
            ),
            # A judge's own records, newest first («my penalties»): a page is read from the
            # index, whatever the number of records of the event and of the other judges.
            models.Index(fields=["tournament", "issued_by", "id"], name="penalty_issued_by_judge"),
        ]

    def __str__(self) -> str:
        return f"{self.registration}: {self.get_rank_display()}"

    @property
    def penalty(self) -> Rank:
        return Rank(self.rank)

    @property
    def penalty_label(self) -> str:
        return penalty_label(self.rank)

    @property
    def explanation_text(self) -> str:
        return explain(self.explanation)

    @cached_property
    def state(self) -> RecordState:
        """What the record does now (rules.md §8): every screen shows this, none decides again."""
        return state_of(self)

    @property
    def is_in_force(self) -> bool:
        return self.status == RecordStatus.IN_FORCE

    @property
    def tablet_clock_was_off(self) -> bool:
        """The tablet's clock differed from the server's by more than ``CLOCK_SKEW_FLAGGED``
        when the penalty was sent: its moment of entry was moved to the server's clock, and the
        card says so rather than using either silently."""
        return clock_was_off(self.tablet_clock_skew)

    @property
    def tablet_clock_skew_minutes(self) -> int:
        """How far the tablet's clock was off, in whole minutes (rounded)."""
        return round(abs(self.tablet_clock_skew or 0) / 60)

    @property
    def entered_on_tablet_at(self) -> datetime.datetime | None:
        """The moment of entry as the tablet's own clock read it."""
        if self.entered_at is None or self.tablet_clock_skew is None:
            return None
        return self.entered_at - datetime.timedelta(seconds=self.tablet_clock_skew)

    @property
    def entered_before_sent(self) -> bool:
        """Entered on the tablet a while before it reached the server (kept offline)."""
        return self.entered_at is not None and self.issued_at - self.entered_at > ENTERED_LATE

    @property
    def is_awaiting_head_judge(self) -> bool:
        return self.status == RecordStatus.AWAITING_HEAD_JUDGE

    @property
    def may_request_revocation(self) -> bool:
        """A floor judge may ask the head judge to revoke a record that stands or waits for them,
        once (rules.md §4); the service refuses the rest, the card offers only this."""
        return (self.is_in_force or self.is_awaiting_head_judge) and not self.revocation_requested

    @property
    def is_investigated(self) -> bool:
        """A record that is, was issued as, or asks for a disqualification or above carries an
        investigation's statements (issue 17)."""
        return max(self.rank, self.issued_rank) >= Rank.DISQUALIFICATION

    @property
    def acknowledgement_or_none(self) -> "PenaltyAcknowledgement | None":
        try:
            return self.acknowledgement
        except PenaltyAcknowledgement.DoesNotExist:
            return None

    @property
    def may_be_acknowledged(self) -> bool:
        """The player confirms a penalty in force once; one waiting for the head judge is not
        issued yet."""
        return self.is_in_force and self.acknowledgement_or_none is None


class ChangeKind(models.TextChoices):
    ISSUED = "issued", _("Issued")
    REQUESTED = "requested", _("Sent to the head judge")
    CONFIRMED = "confirmed", _("Confirmed")
    DECLINED = "declined", _("Declined")
    AMENDED = "amended", _("Amended")
    REVOKED = "revoked", _("Revoked")
    REVOCATION_REQUESTED = "revocation_requested", _("Revocation requested")
    REVOCATION_DECLINED = "revocation_declined", _("Revocation declined")


class PenaltyChange(models.Model):
    """One entry of a record's append-only history."""

    record = models.ForeignKey(PenaltyRecord, on_delete=models.PROTECT, related_name="history")
    kind = models.CharField(max_length=20, choices=ChangeKind.choices)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    from_rank = models.PositiveSmallIntegerField(choices=Rank.choices, null=True, blank=True)
    to_rank = models.PositiveSmallIntegerField(choices=Rank.choices)
    from_status = models.CharField(max_length=24, choices=RecordStatus.choices, blank=True)
    to_status = models.CharField(max_length=24, choices=RecordStatus.choices)
    reason = models.TextField(_("reason"), blank=True)

    class Meta:
        ordering = ["at", "id"]
        verbose_name = _("penalty change")
        verbose_name_plural = _("penalty changes")

    def __str__(self) -> str:
        return f"{self.record_id}: {self.get_kind_display()}"


class AcknowledgementKind(models.TextChoices):
    ACKNOWLEDGED = "acknowledged", _("The player confirmed they were told")
    DECLINED = "declined", _("The player declined to confirm")


class PenaltyAcknowledgement(models.Model):
    """The player's confirmation, on the judge's tablet, that they were told of a penalty in force,
    or the judge's mark that they declined. One per record, written once and never changed."""

    record = models.OneToOneField(
        PenaltyRecord, on_delete=models.PROTECT, primary_key=True, related_name="acknowledgement"
    )
    kind = models.CharField(
        _("acknowledgement"), max_length=20, choices=AcknowledgementKind.choices
    )
    # The judge whose tablet the player tapped, or who marked the refusal.
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        verbose_name = _("acknowledgement")
        verbose_name_plural = _("acknowledgements")

    def __str__(self) -> str:
        return f"{self.record_id}: {self.get_kind_display()}"

    @property
    def is_declined(self) -> bool:
        return self.kind == AcknowledgementKind.DECLINED


class StatementRole(models.TextChoices):
    PLAYER = "player", _("The player")
    OPPONENT = "opponent", _("The opponent")
    WITNESS = "witness", _("A witness")
    JUDGE = "judge", _("A judge")


class InvestigationStatement(models.Model):
    """One statement of a disqualification's investigation: append-only, never changed or
    removed (a correction is a new statement). A player or witness types it on a judge's tablet
    without an account of their own: ``author_name`` is who speaks, ``taken_by`` whose tablet."""

    record = models.ForeignKey(PenaltyRecord, on_delete=models.PROTECT, related_name="statements")
    role = models.CharField(_("who is speaking"), max_length=20, choices=StatementRole.choices)
    author_name = models.CharField(_("name"), max_length=200)
    text = models.TextField(_("statement"))
    taken_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)
    # A double tap or a resend on bad Wi-Fi records the statement once.
    client_key = models.UUIDField()

    class Meta:
        ordering = ["at", "id"]
        verbose_name = _("investigation statement")
        verbose_name_plural = _("investigation statements")
        constraints = [
            models.UniqueConstraint(
                fields=["record", "client_key"], name="statement_client_key_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.record_id}: {self.author_name}"
