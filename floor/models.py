"""The round on the floor: the round clock, time extensions, judge calls and the public pages.

Glossary: время тура = round clock, дополнительное время = time extension, вызов судьи = judge
call, бланк матча = match slip, стол = table.
"""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models import Match, Registration, Round, Tournament


def new_token() -> str:
    """An unguessable link token: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


class PublicPages(models.Model):
    """A tournament's pages for players (no login): reached by a token in the link, which the
    organiser may replace (the old link and the QR codes printed with it then stop working)."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, primary_key=True, related_name="public_pages"
    )
    token = models.CharField(max_length=40, unique=True, default=new_token)
    # Players check in before round 1 always; with this, before every round.
    check_in_every_round = models.BooleanField(
        _("players check in before every round"), default=False
    )
    # Standings are shown to players only once the organiser publishes them, through a round.
    standings_through = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("public pages")
        verbose_name_plural = _("public pages")

    def __str__(self) -> str:
        return str(self.tournament)


class RoundClock(models.Model):
    """The clock of one round. The time left is derived (``floor.clock``) from these moments."""

    round = models.OneToOneField(
        Round, on_delete=models.CASCADE, primary_key=True, related_name="clock"
    )
    minutes = models.PositiveSmallIntegerField(_("round length, minutes"))
    started_at = models.DateTimeField(null=True, blank=True)
    paused_at = models.DateTimeField(null=True, blank=True)
    paused_seconds = models.PositiveIntegerField(default=0)
    # Set when the organiser or the head judge ends the round early: time is called then.
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("round clock")
        verbose_name_plural = _("round clocks")

    def __str__(self) -> str:
        return str(self.round)


class ExtensionReason(models.TextChoices):
    DECK_CHECK = "deck_check", _("Deck check")
    RULING = "ruling", _("Ruling")
    OTHER = "other", _("Other")


class TimeExtension(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="extensions")
    # The match's round, kept beside it (as the players' reports keep it): the floor page finds
    # the round's few extensions by it, without walking the round's thousands of matches.
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")
    minutes = models.PositiveSmallIntegerField(_("minutes"))
    reason = models.CharField(_("reason"), max_length=20, choices=ExtensionReason.choices)
    given_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    given_at = models.DateTimeField(auto_now_add=True)
    # A double tap or a retry on bad Wi-Fi records once.
    client_key = models.UUIDField()

    class Meta:
        ordering = ["match", "given_at", "id"]
        verbose_name = _("time extension")
        verbose_name_plural = _("time extensions")
        constraints = [
            models.UniqueConstraint(fields=["match", "client_key"], name="extension_key_once"),
            models.CheckConstraint(condition=Q(minutes__gte=1), name="extension_minutes_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.match}: +{self.minutes}"


class CallStatus(models.TextChoices):
    OPEN = "open", _("Not taken yet")
    CLAIMED = "claimed", _("Taken")
    ESCALATED = "escalated", _("Sent to the head judge")
    RESOLVED = "resolved", _("Resolved")


class CallReason(models.TextChoices):
    PLAYER = "player", _("Called by a player")
    DISPUTE = "dispute", _("The players' reports of the result differ")


class JudgeCall(models.Model):
    """A player's "Call a judge" from a table's page, or a disputed result reported there."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="calls")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="calls")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="calls")
    table = models.PositiveIntegerField(_("table"))
    status = models.CharField(
        _("status"), max_length=20, choices=CallStatus.choices, default=CallStatus.OPEN
    )
    reason = models.CharField(
        _("why"), max_length=20, choices=CallReason.choices, default=CallReason.PLAYER
    )
    created_at = models.DateTimeField(auto_now_add=True)
    claimed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    claimed_at = models.DateTimeField(null=True, blank=True)
    escalated_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    resolved_at = models.DateTimeField(null=True, blank=True)
    # A keyed hash of the caller's address, for the rate limit; never the address itself.
    caller = models.CharField(max_length=64, blank=True, db_index=True)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("judge call")
        verbose_name_plural = _("judge calls")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "table"],
                condition=~Q(status="resolved"),
                name="one_open_call_per_table",
            )
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.table}"

    @property
    def is_open(self) -> bool:
        return self.status != CallStatus.RESOLVED

    @property
    def is_claimed(self) -> bool:
        return self.status == CallStatus.CLAIMED

    @property
    def is_escalated(self) -> bool:
        return self.status == CallStatus.ESCALATED

    @property
    def is_dispute(self) -> bool:
        return self.reason == CallReason.DISPUTE


class ReportState(models.TextChoices):
    """Where the players' own report of a table's result stands."""

    REPORTED = "reported", _("Reported, not yet confirmed")
    CONFIRMED = "confirmed", _("Confirmed by both players")
    DISPUTED = "disputed", _("Disputed: a judge is called")


class TableReport(models.Model):
    """The players' report of one match's result, as it stands (one per match).

    ``games`` lists the winner of each game the players played and the desk has not recorded,
    in order: 1 or 2 (the seat), 0 a draw. Games decided by a penalty are not the players' to
    report; they land where the rules put them. Every step is also a ``ReportEntry``."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="player_report")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")
    state = models.CharField(_("state"), max_length=20, choices=ReportState.choices)
    seat = models.PositiveSmallIntegerField(_("reported by seat"))
    games = models.JSONField(default=list)
    # A disputed report: what the other player reported instead.
    other_games = models.JSONField(default=list, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("players' report of a result")
        verbose_name_plural = _("players' reports of results")
        indexes = [models.Index(fields=["round", "state"], name="table_report_round_state")]

    def __str__(self) -> str:
        return f"{self.match}: {self.state}"

    @property
    def is_reported(self) -> bool:
        return self.state == ReportState.REPORTED

    @property
    def is_confirmed(self) -> bool:
        return self.state == ReportState.CONFIRMED

    @property
    def is_disputed(self) -> bool:
        return self.state == ReportState.DISPUTED


class ReportAction(models.TextChoices):
    REPORTED = "reported", _("reported the result")
    CONFIRMED = "confirmed", _("confirmed the result")
    DISPUTED = "disputed", _("reported a different result")


class ReportEntry(models.Model):
    """One player's step in reporting a match's result: the match's history and the report."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="report_entries")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField(_("seat"))
    action = models.CharField(_("action"), max_length=20, choices=ReportAction.choices)
    games = models.JSONField(default=list)
    # A keyed hash of the phone's own cookie: one phone reports for one table a round.
    phone = models.CharField(max_length=64, blank=True)
    client_key = models.UUIDField()
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "at", "id"]
        verbose_name = _("step of a players' report")
        verbose_name_plural = _("steps of players' reports")
        constraints = [
            models.UniqueConstraint(fields=["match", "client_key"], name="report_entry_key_once")
        ]
        indexes = [models.Index(fields=["round", "phone"], name="report_entry_round_phone")]

    def __str__(self) -> str:
        return f"{self.match}: {self.seat} {self.action}"


class CheckIn(models.Model):
    """A player is in the hall before a round (``round_number``): by their phone or at the desk."""

    registration = models.ForeignKey(
        Registration, on_delete=models.CASCADE, related_name="check_ins"
    )
    round_number = models.PositiveSmallIntegerField(_("before round"))
    # None: the player checked in on their own phone.
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round_number", "at", "id"]
        verbose_name = _("check-in")
        verbose_name_plural = _("check-ins")
        constraints = [
            models.UniqueConstraint(
                fields=["registration", "round_number"], name="one_check_in_per_round"
            )
        ]

    def __str__(self) -> str:
        return f"{self.registration}: {self.round_number}"
