"""The federation: event files, the suspension list and the read-only API's keys.

Glossary: федерация = federation (the game's coordinator and staff, on their own installation),
файл турнира = event file, список приостановлений = suspension list, ключ API = API key.

The same app runs on an event laptop (it exports the event file, imports the suspension list,
answers the API) and on the federation's installation (it imports event files and exports the
list). Players and their suspensions stay in ``players``: an imported event names players of the
registry, and an imported list writes the registry's suspensions, so the one suspension rule
(``players.services.ensure_not_suspended``) refuses a registration whichever way the suspension
came.
"""

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from players.models import MembershipSuspension, Player
from tournaments.models import Tournament


class EventIdentity(models.Model):
    """The stable id of a tournament in event files: a tournament's id is only unique on its own
    laptop, this is unique everywhere. Made at the first export and never changed."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, primary_key=True, related_name="event_identity"
    )
    uid = models.UUIDField(unique=True, default=uuid.uuid4, editable=False)

    class Meta:
        verbose_name = _("event identity")
        verbose_name_plural = _("event identities")

    def __str__(self) -> str:
        return str(self.uid)


class ImportLedger(models.Model):
    """One row whose lock puts the imports of one installation in a line: two workers given two
    files naming the same new player, or the same file twice, import one after the other."""

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)

    class Meta:
        verbose_name = _("import ledger")
        verbose_name_plural = _("import ledgers")

    def __str__(self) -> str:
        return "ledger"


class ImportedEvent(models.Model):
    """An event file the federation has taken in: the file itself is kept as it came."""

    uid = models.UUIDField(unique=True)
    digest = models.CharField(max_length=64)
    name = models.CharField(max_length=200)
    date = models.DateField()
    venue = models.CharField(max_length=200, blank=True)
    level = models.CharField(max_length=20)
    players = models.PositiveIntegerField()
    rounds = models.PositiveIntegerField()
    penalties = models.PositiveIntegerField()
    content = models.JSONField()
    imported_at = models.DateTimeField(auto_now_add=True)
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("imported event")
        verbose_name_plural = _("imported events")
        permissions = [
            ("coordinate_suspensions", "Is the game's coordinator: sets and lifts suspensions"),
        ]

    def __str__(self) -> str:
        return self.name


class ImportedEntry(models.Model):
    """A player's part in an imported event: the final standing and every penalty, as the
    file gave them (``penalties``: the file's penalty objects of this player)."""

    event = models.ForeignKey(ImportedEvent, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="imported_entries")
    name = models.CharField(max_length=200)
    place = models.PositiveIntegerField(null=True, blank=True)
    points = models.IntegerField(default=0)
    status = models.CharField(max_length=20)
    prize_eligible = models.BooleanField(default=True)
    penalties = models.JSONField(default=list)

    class Meta:
        ordering = ["-event__date", "event_id"]
        verbose_name = _("player in an imported event")
        verbose_name_plural = _("players in imported events")
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="one_entry_per_event_player")
        ]

    def __str__(self) -> str:
        return f"{self.event}: {self.name}"


class SuspensionKey(models.Model):
    """The key by which event files and the federation's list name a suspension everywhere:
    ``<event uid>/<the suspension's id on the event's laptop>`` for one issued at an event,
    ``federation/<id>`` for one the coordinator made. A suspension imported twice is found by
    its key and changed, never made again."""

    key = models.CharField(max_length=80, unique=True)
    suspension = models.OneToOneField(
        MembershipSuspension, on_delete=models.PROTECT, related_name="federation_key"
    )
    event = models.ForeignKey(
        ImportedEvent, on_delete=models.PROTECT, null=True, blank=True, related_name="suspensions"
    )

    class Meta:
        verbose_name = _("suspension key")
        verbose_name_plural = _("suspension keys")

    def __str__(self) -> str:
        return self.key


class ListImport(models.Model):
    """A suspension list taken in on an event laptop, with what it changed."""

    digest = models.CharField(max_length=64)
    exported_at = models.DateTimeField()
    imported_at = models.DateTimeField(auto_now_add=True)
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    changes = models.JSONField(default=list)

    class Meta:
        ordering = ["-imported_at", "-id"]
        verbose_name = _("suspension list import")
        verbose_name_plural = _("suspension list imports")

    def __str__(self) -> str:
        return f"{self.imported_at:%Y-%m-%d %H:%M}"


class ApiKey(models.Model):
    """A key the organiser makes for a streaming overlay or a club's site: it reads the
    tournament's API, as the players' link does, until revoked. Only its hash is kept."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="api_keys")
    name = models.CharField(_("who uses it"), max_length=120)
    prefix = models.CharField(max_length=12)
    digest = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("API key")
        verbose_name_plural = _("API keys")

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None
