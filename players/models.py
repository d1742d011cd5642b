"""People who play, and the state of their membership.

Glossary: игрок = player, членский номер = membership id, приостановление членства = membership
suspension.
"""

import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Player(models.Model):
    name = models.CharField(_("name"), max_length=200)
    membership_id = models.CharField(_("membership id"), max_length=40, unique=True)
    city = models.CharField(_("city"), max_length=120, blank=True)
    # Name and membership id case-folded in Python: SQLite folds only Latin letters, so a search
    # for «алиса» would not find «Алиса» with the database's own case-insensitive match.
    search_text = models.CharField(max_length=260, editable=False, db_index=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "membership_id"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return f"{self.name} ({self.membership_id})"

    def save(self, *args: object, **kwargs: object) -> None:
        self.search_text = search_text(self.name, self.membership_id)
        super().save(*args, **kwargs)  # type: ignore[arg-type]


def search_text(*parts: str) -> str:
    """The form of text that searches compare: case-folded, with «ё» read as «е»."""
    return " ".join(parts).casefold().replace("ё", "е")


class MembershipSuspensionQuerySet(models.QuerySet["MembershipSuspension"]):
    def in_force_on(self, day: datetime.date) -> "MembershipSuspensionQuerySet":
        """Suspensions that stop a player from registering on that day.

        A suspension whose length the game coordinator has not set yet (no end date) is in force
        from its start until it is set or lifted.
        """
        return self.filter(
            Q(starts_on__lte=day),
            Q(ends_on__isnull=True) | Q(ends_on__gte=day),
            Q(lifted_on__isnull=True) | Q(lifted_on__gt=day),
        )


class MembershipSuspension(models.Model):
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="suspensions", verbose_name=_("player")
    )
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(
        _("ends on"), null=True, blank=True, help_text=_("Empty: the length is to be set.")
    )
    reason = models.TextField(_("reason"), blank=True)
    lifted_on = models.DateField(_("lifted on"), null=True, blank=True)
    lift_reason = models.TextField(_("why it was lifted"), blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = MembershipSuspensionQuerySet.as_manager()

    class Meta:
        ordering = ["-starts_on", "-id"]
        verbose_name = _("membership suspension")
        verbose_name_plural = _("membership suspensions")
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__isnull=True) | Q(ends_on__gte=models.F("starts_on")),
                name="suspension_ends_after_start",
            )
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.starts_on} – {self.ends_on or '…'}"


class SuspensionChangeKind(models.TextChoices):
    TERM_SET = "term_set", _("Term set")
    LIFTED = "lifted", _("Lifted")
    RECEIVED = "received", _("Received from the federation")


class MembershipSuspensionChange(models.Model):
    """One change to a suspension: its term set or changed, its lifting, or its arrival from the
    federation's list. The suspension row mirrors the latest; these rows keep the history."""

    suspension = models.ForeignKey(
        MembershipSuspension, on_delete=models.PROTECT, related_name="changes"
    )
    kind = models.CharField(max_length=20, choices=SuspensionChangeKind.choices)
    ends_on = models.DateField(_("ends on"), null=True, blank=True)
    lifted_on = models.DateField(_("lifted on"), null=True, blank=True)
    reason = models.TextField(_("reason"), blank=True)
    # Who made the change here; empty when a file (an event's or the federation's list) made it.
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["suspension", "at", "id"]
        verbose_name = _("change of a suspension")
        verbose_name_plural = _("changes of suspensions")

    def __str__(self) -> str:
        return f"{self.suspension_id}: {self.kind}"
