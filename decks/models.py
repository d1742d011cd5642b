"""Card pools, formats' deck rules, deck lists, their findings, and deck checks at the table.

Glossary: дек-лист = deck list, основная колода = main deck, дополнительная колода = extra deck,
особенность «Орда» = the feature «Орда» (lifts the copy limit), проверка колоды = deck check.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.bounds import moments_constraint
from tournaments.models import Format, Registration, Round, Tournament


class CardPool(models.Model):
    """The cards the app knows for a tournament, imported by an organiser from a CSV."""

    name = models.CharField(_("name"), max_length=200)
    is_demo = models.BooleanField(_("demo pool"), default=False)
    # The organiser who imported it; their rules form offers only their own pools. Empty for a
    # demo pool and for pools imported before pools had owners.
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("organiser"),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("card pool")
        verbose_name_plural = _("card pools")

    def __str__(self) -> str:
        return self.name


class Card(models.Model):
    pool = models.ForeignKey(CardPool, on_delete=models.CASCADE, related_name="cards")
    name = models.CharField(_("name"), max_length=200)
    # The name as the parser compares it: lower case, ё as е, no punctuation, single spaces.
    key = models.CharField(max_length=200)
    set_name = models.CharField(_("set"), max_length=100, blank=True)
    features = models.JSONField(_("features"), default=list, blank=True)
    # Slugs of the formats where the card is legal; empty: legal in every format.
    legal_in = models.JSONField(_("legal in"), default=list, blank=True)
    # Slugs of the formats where the card is banned, whatever ``legal_in`` says.
    banned_in = models.JSONField(_("banned in"), default=list, blank=True)
    # The card's elements (стихии) as the pool writes them; empty: the pool does not say.
    elements = models.JSONField(_("elements"), default=list, blank=True)
    is_hero = models.BooleanField(_("hero"), default=False)

    class Meta:
        ordering = ["pool", "name"]
        verbose_name = _("card")
        verbose_name_plural = _("cards")
        constraints = [models.UniqueConstraint(fields=["pool", "key"], name="card_key_unique")]

    def __str__(self) -> str:
        return self.name


class DeckFormat(models.Model):
    """A format and its deck rules: constructed and its named variants, draft, sealed, other.

    The shipped rows carry the defaults of decklists.md; a tournament copies them into its own
    ``DeckRules``, which the organiser may edit.
    """

    slug = models.SlugField(_("slug"), max_length=40, unique=True)
    name = models.CharField(_("name"), max_length=100)
    kind = models.CharField(_("kind"), max_length=20, choices=Format.choices)
    main_min = models.PositiveSmallIntegerField(_("main deck: at least"), null=True, blank=True)
    main_max = models.PositiveSmallIntegerField(_("main deck: at most"), null=True, blank=True)
    extra_max = models.PositiveSmallIntegerField(_("extra deck: at most"), null=True, blank=True)
    copy_limit = models.PositiveSmallIntegerField(
        _("copies of one card: at most"), null=True, blank=True
    )
    lifting_feature = models.CharField(
        _("feature that lifts the copy limit"), max_length=60, blank=True
    )
    combine_sections = models.BooleanField(
        _("main and extra deck copies count together"), default=False
    )
    check_legality = models.BooleanField(_("cards must be legal in the format"), default=False)
    hero_rule = models.BooleanField(
        _("a list with a hero holds only the hero's element and neutral cards"), default=False
    )

    class Meta:
        ordering = ["kind", "name"]
        verbose_name = _("format")
        verbose_name_plural = _("formats")

    def __str__(self) -> str:
        return self.name


class DeckRules(models.Model):
    """One tournament's deck rules, card pool and the players' own submission."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, primary_key=True, related_name="deck_rules"
    )
    pool = models.ForeignKey(
        CardPool, on_delete=models.PROTECT, null=True, blank=True, verbose_name=_("card pool")
    )
    main_min = models.PositiveSmallIntegerField(_("main deck: at least"), null=True, blank=True)
    main_max = models.PositiveSmallIntegerField(_("main deck: at most"), null=True, blank=True)
    extra_max = models.PositiveSmallIntegerField(_("extra deck: at most"), null=True, blank=True)
    copy_limit = models.PositiveSmallIntegerField(
        _("copies of one card: at most"), null=True, blank=True
    )
    lifting_feature = models.CharField(
        _("feature that lifts the copy limit"), max_length=60, blank=True
    )
    combine_sections = models.BooleanField(
        _("main and extra deck copies count together"), default=False
    )
    check_legality = models.BooleanField(_("cards must be legal in the format"), default=False)
    hero_rule = models.BooleanField(
        _("a list with a hero holds only the hero's element and neutral cards"), default=False
    )
    self_submission = models.BooleanField(
        _("players may submit their own list with a personal code"), default=False
    )
    deadline = models.DateTimeField(_("deck list deadline"), null=True, blank=True)

    class Meta:
        verbose_name = _("deck rules")
        verbose_name_plural = _("deck rules")
        constraints = [
            # A moment both databases store and read back (core/bounds.py): year 1 once saved
            # on PostgreSQL took every deck page down.
            models.CheckConstraint(
                condition=moments_constraint("deadline"), name="deck_deadline_in_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.format}"

    @property
    def format(self) -> DeckFormat:
        """The tournament's format: one setting for the tournament and its deck rules, so the
        report never names a format the lists were not checked against."""
        slug = self.tournament.format
        cached: DeckFormat | None = getattr(self, "_format", None)
        if cached is None or slug not in (cached.slug, cached.kind):
            cached = (
                DeckFormat.objects.filter(slug=slug).first()
                or DeckFormat.objects.filter(kind=slug).first()
                or DeckFormat.objects.get(slug="other")
            )
            self._format = cached
        return cached

    @format.setter
    def format(self, value: DeckFormat) -> None:
        # Setting the rules' format sets the tournament's (saved with the tournament).
        self.tournament.format = value.slug
        self._format = value

    @property
    def deadline_passed(self) -> bool:
        return self.deadline is not None and timezone.now() >= self.deadline


class Section(models.TextChoices):
    MAIN = "main", _("Main deck")
    EXTRA = "extra", _("Extra deck")


class DeckList(models.Model):
    """A player's deck list as last saved; its earlier versions are kept in ``versions``."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="decklists")
    registration = models.OneToOneField(
        Registration, on_delete=models.CASCADE, related_name="decklist"
    )
    text = models.TextField(_("deck list"))
    version = models.PositiveIntegerField(default=1)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["registration__player__name"]
        verbose_name = _("deck list")
        verbose_name_plural = _("deck lists")

    def __str__(self) -> str:
        return str(self.registration)


class DeckListLine(models.Model):
    decklist = models.ForeignKey(DeckList, on_delete=models.CASCADE, related_name="lines")
    number = models.PositiveIntegerField(_("line"))
    section = models.CharField(_("section"), max_length=10, choices=Section.choices)
    written_name = models.CharField(_("as written"), max_length=200)
    # The card the line was read as, by its key (``Card.key``) in the tournament's pool; empty:
    # not a card of the pool. A key, not a reference to a row: a re-imported pool (a ban, a new
    # set) gives every card a new row but the same key, so the lines already saved read the new
    # pool's cards as they stand, and a re-check rewrites only the lines whose reading changed.
    card_key = models.CharField(max_length=200, blank=True, default="")
    # None: the line has no number of copies (1.1 г).
    count = models.PositiveSmallIntegerField(_("copies"), null=True, blank=True)

    class Meta:
        ordering = ["decklist", "number"]
        verbose_name = _("deck list line")
        verbose_name_plural = _("deck list lines")

    def __str__(self) -> str:
        return f"{self.count or '?'} {self.written_name}"


class DeckListVersion(models.Model):
    """One saved version of a list: who saved it (a staff member, or the player by code)."""

    decklist = models.ForeignKey(DeckList, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    text = models.TextField()
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    by_player = models.BooleanField(default=False)
    reason = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["decklist", "-number"]
        verbose_name = _("deck list version")
        verbose_name_plural = _("deck list versions")
        constraints = [
            models.UniqueConstraint(fields=["decklist", "number"], name="decklist_version_unique")
        ]

    def __str__(self) -> str:
        return f"{self.decklist}: {self.number}"


class Finding(models.Model):
    """A problem the app found in a list, named with its infraction and sub-item.

    Findings are made again each time the list is saved; ``kind`` and ``params`` say what was
    found, and ``decks.describe`` puts it into words in the reader's language.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="+")
    decklist = models.ForeignKey(DeckList, on_delete=models.CASCADE, related_name="findings")
    code = models.CharField(_("infraction"), max_length=10)
    sub_item = models.CharField(_("sub-item"), max_length=4)
    kind = models.CharField(max_length=40)
    params = models.JSONField(default=dict)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("finding")
        verbose_name_plural = _("findings")
        indexes = [models.Index(fields=["tournament", "-created_at"], name="finding_newest")]

    def __str__(self) -> str:
        return f"{self.code} {self.sub_item}: {self.kind}"


class SubmissionCode(models.Model):
    """A player's personal code for submitting their own list (no account needed)."""

    registration = models.OneToOneField(
        Registration, on_delete=models.CASCADE, related_name="submission_code"
    )
    code = models.CharField(max_length=16)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("submission code")
        verbose_name_plural = _("submission codes")

    def __str__(self) -> str:
        return str(self.registration)


class CheckOutcome(models.TextChoices):
    CORRECT = "correct", _("Deck is correct")
    PROBLEMS = "problems", _("Problems found")


class DeckCheck(models.Model):
    """A deck check at the table: what the judge found, with the sub-items the app named."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="+")
    round = models.ForeignKey(Round, on_delete=models.SET_NULL, null=True, blank=True)
    table = models.PositiveIntegerField(_("table"), null=True, blank=True)
    judge = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    with_lists = models.BooleanField()
    outcome = models.CharField(_("outcome"), max_length=20, choices=CheckOutcome.choices)
    # [{"code": "1.2", "sub_item": "в", "kind": ..., "params": {...}}]
    findings = models.JSONField(default=list)
    note = models.TextField(_("note"), blank=True)
    checked_at = models.DateTimeField(default=timezone.now)
    # One key per form shown: a double tap or a resend on bad Wi-Fi records once.
    client_key = models.UUIDField(null=True, blank=True, unique=True)

    class Meta:
        ordering = ["-checked_at", "-id"]
        verbose_name = _("deck check")
        verbose_name_plural = _("deck checks")
        constraints = [
            models.CheckConstraint(
                condition=Q(outcome="correct") | Q(outcome="problems"), name="deck_check_outcome"
            )
        ]

    def __str__(self) -> str:
        return f"{self.registration}: {self.outcome}"

    @property
    def found_problems(self) -> bool:
        return self.outcome == CheckOutcome.PROBLEMS


class DeckCheckPick(models.Model):
    """Tables the app picked at random for deck checks, with the seed that reproduces them."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")
    seed = models.BigIntegerField()
    tables = models.JSONField(default=list)
    picked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    picked_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-picked_at", "-id"]
        verbose_name = _("deck check pick")
        verbose_name_plural = _("deck check picks")

    def __str__(self) -> str:
        return f"{self.round}: {self.tables}"


class RecheckRun(models.Model):
    """One re-check of every list of a tournament, after its pool or rules changed: how far it
    has got, for the progress shown on the deck screens. A newer run supersedes an older one."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    total = models.PositiveIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)
    # Whether the lists' lines are compared and written again too: only when the pool changed
    # (a name may now read as another card, or as none); a change of rules or format rewrites
    # the findings only.
    rewrite_lines = models.BooleanField(default=True)
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("re-check of the lists")
        verbose_name_plural = _("re-checks of the lists")

    def __str__(self) -> str:
        return f"{self.tournament}: {self.done}/{self.total}"

    @property
    def is_running(self) -> bool:
        return self.finished_at is None

    @property
    def percent(self) -> int:
        return 100 if not self.total else min(100, self.done * 100 // self.total)
