"""The round on the floor: the round clock, time extensions, judge calls and the public pages.

Glossary: время тура = round clock, дополнительное время = time extension, вызов судьи = judge
call, бланк матча = match slip, стол = table.
"""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models import Match, Round, Tournament


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


class JudgeCall(models.Model):
    """A player's "Call a judge" from a table's page."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="calls")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="calls")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="calls")
    table = models.PositiveIntegerField(_("table"))
    status = models.CharField(
        _("status"), max_length=20, choices=CallStatus.choices, default=CallStatus.OPEN
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
