"""Tournaments, their staff, players, rounds, matches and games.

Glossary: турнир = tournament, уровень строгости правил = rules-enforcement level, дек-лист = deck
list, главный судья = head judge, судья = floor judge, организатор = organiser, тур = round,
матч = match, партия = game, стол = table.
"""

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import OuterRef, Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from core.bounds import days_constraint
from players.models import Player, search_text


class Level(models.TextChoices):
    AMATEUR = "amateur", _("Amateur")
    PROFESSIONAL = "professional", _("Professional")
    HIGHEST = "highest", _("Highest")


def decklists_default(level: str) -> bool:
    """Deck lists are off by default at the amateur level and on at every other (rules.md §1)."""
    return level != Level.AMATEUR


def decklists_required(level: str) -> bool:
    """Deck lists are always used at the highest level (rules.md §1)."""
    return level == Level.HIGHEST


class Format(models.TextChoices):
    CONSTRUCTED = "constructed", _("Constructed")
    # A named variant of constructed with its own legal cards: deck lists are checked against
    # the tournament's format, so the variant is the tournament's setting too.
    STANDARD = "standard", _("Constructed: Standard")
    DRAFT = "draft", _("Draft")
    SEALED = "sealed", _("Sealed")
    OTHER = "other", _("Other")


class TournamentStatus(models.TextChoices):
    SETUP = "setup", _("Being set up")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")


# Games in a match: best of 1, 3 or 5 only (rules.md §9); an even number is refused.
BEST_OF = (1, 3, 5)


class PlayoffSize(models.TextChoices):
    """How many players the playoff takes from the final Swiss standings (issue 32)."""

    NONE = "none", _("No playoff")
    TOP2 = "2", _("Top 2")
    TOP4 = "4", _("Top 4")
    TOP8 = "8", _("Top 8")
    TOP16 = "16", _("Top 16")
    TOP32 = "32", _("Top 32")
    HALF = "half", _("Half the field, rounded down to a power of two")


class FirstPlayer(models.TextChoices):
    """Who starts a playoff match, as the event decides it; the slip says it."""

    NOT_USED = "", _("Not used")
    HIGHER_SEED_STARTS = "higher_starts", _("The higher seed starts")
    HIGHER_SEED_CHOOSES = "higher_chooses", _("The higher seed chooses who starts")


class Tournament(models.Model):
    name = models.CharField(pgettext_lazy("title of a thing", "name"), max_length=200)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    date = models.DateField(_("date"))
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    level = models.CharField(_("rules-enforcement level"), max_length=20, choices=Level.choices)
    format = models.CharField(
        _("format"), max_length=20, choices=Format.choices, default=Format.CONSTRUCTED
    )
    uses_decklists = models.BooleanField(_("deck lists are used"))
    best_of = models.PositiveSmallIntegerField(_("games in a match (best of)"), default=3)
    rounds_planned = models.PositiveSmallIntegerField(
        _("Swiss rounds"), null=True, blank=True, help_text=_("Empty: suggested from the players.")
    )
    round_minutes = models.PositiveSmallIntegerField(_("round length, minutes"), default=50)
    head_judge_is_official = models.BooleanField(
        _("the head judge is an official representative of ООО «Мир Хобби»"), default=False
    )
    playoff = models.CharField(
        _("playoff"), max_length=8, choices=PlayoffSize.choices, default=PlayoffSize.NONE
    )
    playoff_best_of = models.PositiveSmallIntegerField(
        _("games in a playoff match (best of)"), default=3
    )
    playoff_final_best_of = models.PositiveSmallIntegerField(
        _("games in the final (best of)"), default=3
    )
    playoff_first_player = models.CharField(
        _("who starts a playoff match"),
        max_length=16,
        choices=FirstPlayer.choices,
        default=FirstPlayer.NOT_USED,
        blank=True,
    )
    status = models.CharField(
        _("status"), max_length=20, choices=TournamentStatus.choices, default=TournamentStatus.SETUP
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        # Given by the operator through the "organisers" group (see tournaments/permissions.py).
        permissions = [
            ("organise_tournaments", "Can create tournaments and use the player registry"),
            # Given by the operator (tournaments/permissions.py): a player's penalties at other
            # events are read by the federation's people only, never by whoever set up an event.
            (
                "official_representative",
                "Is an official representative: as an event's head judge, reads players' "
                "penalties from other events",
            ),
            ("federation_staff", "Is federation staff: reads players' penalties from other events"),
        ]
        constraints = [
            # The guideline makes deck lists mandatory at the highest level.
            models.CheckConstraint(
                condition=~Q(level="highest") | Q(uses_decklists=True),
                name="highest_level_uses_decklists",
            ),
            models.CheckConstraint(condition=Q(best_of__gte=1), name="best_of_at_least_one"),
            # A day both databases store and read back (core/bounds.py).
            models.CheckConstraint(
                condition=days_constraint("date"), name="tournament_date_in_range"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_finished(self) -> bool:
        return self.status == TournamentStatus.FINISHED

    @property
    def wins_needed(self) -> int:
        """Game wins that end a match: 2 in a best of three, 1 in a best of one."""
        return self.best_of // 2 + 1


class StaffRole(models.TextChoices):
    HEAD_JUDGE = "head_judge", _("Head judge")
    FLOOR_JUDGE = "floor_judge", _("Floor judge")
    ORGANISER = "organiser", _("Organiser")


class Staff(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="staff")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="staff_roles"
    )
    role = models.CharField(_("role"), max_length=20, choices=StaffRole.choices)

    class Meta:
        verbose_name = _("staff member")
        verbose_name_plural = _("staff")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user", "role"], name="one_role_per_user_per_tournament"
            ),
            models.UniqueConstraint(
                fields=["tournament"],
                condition=Q(role="head_judge"),
                name="one_head_judge_per_tournament",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.get_role_display()}"


class RegistrationStatus(models.TextChoices):
    PLAYING = "playing", _("Playing")
    DROPPED = "dropped", _("Dropped")
    DISQUALIFIED = "disqualified", _("Disqualified")


# Case-folded, a name may grow (ß → ss): the column is as wide as the registry's search text.
SORT_NAME_LENGTH = 260


def sort_name(name: str) -> str:
    """A player's name as the lists sort it: case-folded, with «ё» read as «е», so that «алиса»
    sorts beside «Алиса» in SQLite and PostgreSQL alike."""
    return search_text(name)[:SORT_NAME_LENGTH]


class RegistrationManager(models.Manager["Registration"]):
    def bulk_create(
        self, objs: Iterable["Registration"], *args: Any, **kwargs: Any
    ) -> list["Registration"]:
        """Registrations inserted at once get their sort name as one saved alone does: from the
        players' names, read in one query for those whose caller did not set it."""
        registrations = list(objs)
        unnamed = {r.player_id for r in registrations if not r.sort_name}
        if unnamed:
            names = dict(Player.objects.filter(pk__in=unnamed).values_list("pk", "name"))
            for registration in registrations:
                if not registration.sort_name:
                    registration.sort_name = sort_name(names[registration.player_id])
        return self.get_queryset().bulk_create(registrations, *args, **kwargs)


class Registration(models.Model):
    """A player's place in one tournament; the row judges lock while they issue a penalty."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="registrations"
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="registrations")
    status = models.CharField(
        _("status"),
        max_length=20,
        choices=RegistrationStatus.choices,
        default=RegistrationStatus.PLAYING,
    )
    prize_eligible = models.BooleanField(_("may receive a prize"), default=True)
    dropped_at = models.DateTimeField(_("dropped at"), null=True, blank=True)
    registered_at = models.DateTimeField(auto_now_add=True)
    # The player's name as the lists sort it (``sort_name``), kept beside the registration so that
    # a page of the players by name is read from an index, not sorted from the whole event. It is
    # the name at registration: the desk never renames a player of the registry.
    sort_name = models.CharField(max_length=SORT_NAME_LENGTH, editable=False, default="")

    objects = RegistrationManager()

    class Meta:
        ordering = ["player__name"]
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="one_registration_per_player"
            )
        ]
        # The players list and the pairings by name, a page at a time from where the last ended.
        indexes = [
            models.Index(fields=["tournament", "sort_name", "id"], name="registration_by_name")
        ]

    def __str__(self) -> str:
        return str(self.player.name)

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self.sort_name:
            self.sort_name = sort_name(self.player.name)
        super().save(*args, **kwargs)

    @property
    def is_playing(self) -> bool:
        return self.status == RegistrationStatus.PLAYING


class RoundDraft(models.Model):
    """Pairings generated for the next round that the organiser may still swap before publishing.

    ``pairings`` is a list of ``[registration_id, registration_id or null]`` in table order.
    """

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, primary_key=True, related_name="round_draft"
    )
    number = models.PositiveSmallIntegerField()
    pairings = models.JSONField(default=list)
    seed = models.BigIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("round draft")
        verbose_name_plural = _("round drafts")

    def __str__(self) -> str:
        return f"{self.tournament}: {self.number}"


class Round(models.Model):
    """A round of the tournament: a Swiss round, or a round of the playoff (``playoff``), whose
    matches are ordinary matches so that the penalty rules treat them as any other."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("number"))
    playoff = models.BooleanField(_("a round of the playoff"), default=False)
    # A playoff round's own best of (the final's may differ); empty: the tournament's.
    best_of = models.PositiveSmallIntegerField(_("games in a match (best of)"), null=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique")
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.number}"

    @property
    def games_best_of(self) -> int:
        """The best of this round's matches are played to (the caller has the tournament)."""
        return self.best_of or self.tournament.best_of

    @property
    def wins_needed(self) -> int:
        return self.games_best_of // 2 + 1


class PlayoffSeed(models.Model):
    """A player of the playoff cut: their seed, and their place in the final Swiss standings
    (what breaks ties in the final standings). Written once, when the cut is published."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="playoff_seeds"
    )
    registration = models.OneToOneField(
        Registration, on_delete=models.PROTECT, related_name="playoff_seed"
    )
    seed = models.PositiveSmallIntegerField(_("seed"))
    swiss_position = models.PositiveIntegerField(_("place after the Swiss rounds"))

    class Meta:
        ordering = ["tournament", "seed"]
        verbose_name = _("playoff seed")
        verbose_name_plural = _("playoff seeds")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "seed"], name="playoff_seed_unique")
        ]

    def __str__(self) -> str:
        return f"{self.seed}: {self.registration}"


class PublicChange(models.Model):
    """One change to what the players' pages show: a round paired, a match ended or corrected, a
    player registered, the clock started, paused, resumed or ended. The pages are built once per
    change and kept in the cache under the latest change's id (``floor/public_pages.py``).

    A change is a row inserted, never a counter updated: an insert waits for no lock, so marking
    a change inside a submit, a result or a round's publication adds no lock to their order. The
    tournament is referenced without a database constraint for the same reason (a foreign-key
    check would lock the tournament's row, which publishing a round holds)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, db_constraint=False, related_name="+"
    )

    class Meta:
        verbose_name = _("change of the players' pages")
        verbose_name_plural = _("changes of the players' pages")
        indexes = [models.Index(fields=["tournament", "-id"], name="public_change_latest")]

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.pk}"


class MatchEnd(models.TextChoices):
    WINS_NEEDED = "wins_needed", _("A player reached the wins needed")
    ALL_GAMES_PLAYED = "all_games_played", _("All games were played")
    TIME_CALLED = "time_called", _("Time was called")
    PENALTY = "penalty", _("Match loss by penalty")
    BYE = "bye", _("Bye")
    # A playoff match whose other player left the tournament before it (dropped, disqualified).
    WALKOVER = "walkover", _("The opponent left the tournament")


class MatchQuerySet(models.QuerySet["Match"]):
    def in_progress(self) -> "MatchQuerySet":
        return self.filter(ended_at__isnull=True)

    def of(self, registration: "Registration | int | OuterRef") -> "MatchQuerySet":
        """The player's matches; a registration's id, or a reference to it in an outer query,
        serves as well as the registration."""
        return self.filter(Q(player1=registration) | Q(player2=registration))


class Match(models.Model):
    """A pairing of one round; a bye is a match row without a second player and serves nothing."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    table = models.PositiveIntegerField(_("table"), null=True, blank=True)
    player1 = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="+")
    player2 = models.ForeignKey(
        Registration, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    player1_wins = models.PositiveSmallIntegerField(default=0)
    player2_wins = models.PositiveSmallIntegerField(default=0)
    draws = models.PositiveSmallIntegerField(default=0)
    # A match lost by penalty is lost whatever its score says; both flags set: both players lost.
    player1_lost_by_penalty = models.BooleanField(default=False)
    player2_lost_by_penalty = models.BooleanField(default=False)
    ended_at = models.DateTimeField(null=True, blank=True)
    end_reason = models.CharField(max_length=20, choices=MatchEnd.choices, blank=True)
    # A playoff match always has a winner: with the games level, the one the event's own
    # procedure named, and how it was decided (rules of the event, not of the app).
    decided_winner = models.ForeignKey(
        Registration, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    decided_how = models.CharField(_("how the winner was decided"), max_length=200, blank=True)

    objects = MatchQuerySet.as_manager()
    # Not a column: the number of games recorded as read with the match, set only by the reads
    # that count them (``tournaments.selectors.current_match``); a game added later in the same
    # transaction (``add_game``) does not change it.
    games_recorded: int

    class Meta:
        ordering = ["round", "table", "id"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        # A round's tables in order, a page at a time (the judges' start page, the pairings),
        # without sorting the whole round.
        indexes = [
            models.Index(fields=["round", "table", "id"], name="match_round_table"),
            # The floor page's tables still playing, and those done, in table order a page at a
            # time, and counted on every view of it from the index alone. The condition's own
            # columns close the key: SQLite checks a partial index's condition again on each
            # entry, and with them in the index it need not read the matches to count them.
            models.Index(
                fields=["round", "table", "id", "ended_at", "player2"],
                condition=Q(ended_at__isnull=True, player2__isnull=False),
                name="match_round_table_playing",
            ),
            models.Index(
                fields=["round", "table", "id", "ended_at", "player2"],
                condition=Q(ended_at__isnull=False, player2__isnull=False),
                name="match_round_table_ended",
            ),
            # Whether a player plays in a round, as either player: one look-up each, whatever the
            # round's size (the pairings by name walk the players and ask it of each).
            models.Index(fields=["player1", "round"], name="match_first_player_round"),
            models.Index(fields=["player2", "round"], name="match_second_player_round"),
            # The ended matches of a round and the open ones, counted from the index alone (the
            # standings' freshness, the rounds' summary).
            models.Index(fields=["round", "ended_at"], name="match_round_end"),
        ]

    def __str__(self) -> str:
        second = self.player2 if self.player2_id else _("bye")
        return f"{self.player1} — {second}"

    @property
    def is_bye(self) -> bool:
        return self.player2_id is None

    @property
    def has_ended(self) -> bool:
        return self.ended_at is not None

    def opponent_of(self, registration: Registration) -> Registration | None:
        if registration.pk == self.player1_id:
            return self.player2
        if registration.pk == self.player2_id:
            return self.player1
        raise ValueError("The registration does not play in this match.")

    @property
    def won_by(self) -> int | None:
        """Who won an ended match: a penalty's loss first, then the games, then the winner
        named with the games level; None for a draw (or both players lost by penalty)."""
        if self.ended_at is None:
            return None
        if self.player1_lost_by_penalty or self.player2_lost_by_penalty:
            if self.player1_lost_by_penalty and self.player2_lost_by_penalty:
                return None
            return self.player2_id if self.player1_lost_by_penalty else self.player1_id
        if self.player1_wins != self.player2_wins:
            return self.player1_id if self.player1_wins > self.player2_wins else self.player2_id
        return self.decided_winner_id

    @property
    def lost_by(self) -> int | None:
        winner = self.won_by
        if winner is None:
            return None
        return self.player2_id if winner == self.player1_id else self.player1_id

    @property
    def is_level(self) -> bool:
        """Games level with no penalty's loss: a playoff match then needs a named winner."""
        return (
            self.player1_wins == self.player2_wins
            and not self.player1_lost_by_penalty
            and not self.player2_lost_by_penalty
        )

    def wins_of(self, registration: Registration) -> int:
        return self.player1_wins if registration.pk == self.player1_id else self.player2_wins

    # A game's and a penalty's effect on the score, written once (rules.md §6): every writer of
    # games, the penalty rules' in-memory serving included, changes the score through these.

    def score_game(self, winner_id: int | None) -> None:
        """Count one more game in memory: ``winner_id`` None is a draw. The caller saves."""
        if winner_id is None:
            self.draws += 1
        elif winner_id == self.player1_id:
            self.player1_wins += 1
        elif winner_id == self.player2_id:
            self.player2_wins += 1
        else:
            raise ValueError("The winner does not play in this match.")

    def score_penalty_loss(self, losers: set[int], wins_needed: int) -> None:
        """A match lost by penalty, in memory: 0 games to the wins needed, whatever was played
        before; both players' match losses make it 0–0. The caller saves."""
        self.player1_lost_by_penalty = self.player1_id in losers
        self.player2_lost_by_penalty = self.player2_id in losers
        self.player1_wins = 0 if self.player1_lost_by_penalty else wins_needed
        self.player2_wins = 0 if self.player2_lost_by_penalty else wins_needed

    def decided_by_games(self, *, games_played: int, best_of: int, wins_needed: int) -> str | None:
        """Why the games recorded so far end the match, or None while it goes on (rules.md §6):
        a player reached the wins needed, or the last game of the best of N was played (draws
        can leave both players short of the wins needed)."""
        if max(self.player1_wins, self.player2_wins) >= wins_needed:
            return MatchEnd.WINS_NEEDED
        if games_played >= best_of:
            return MatchEnd.ALL_GAMES_PLAYED
        return None


class Game(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField(_("number"))
    winner = models.ForeignKey(
        Registration, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    decided_by_penalty = models.BooleanField(_("decided by a penalty"), default=False)
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "number"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="game_number_unique")
        ]

    def __str__(self) -> str:
        return f"{self.match}: {self.number}"

    @property
    def is_draw(self) -> bool:
        return self.winner_id is None


class ResultCorrection(models.Model):
    """A finished match's result corrected by the head judge or the organiser, with the reason.

    The games as they were recorded stay; the match row carries the corrected score, and this
    row keeps what it was before, so the match's history and the report show every change.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="corrections")
    # The match's round, kept beside it (as a time extension keeps it): the report finds the
    # event's few corrections through its rounds, without walking its thousands of matches.
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")
    corrected_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    reason = models.TextField(_("reason"))
    before_player1_wins = models.PositiveSmallIntegerField()
    before_player2_wins = models.PositiveSmallIntegerField()
    before_draws = models.PositiveSmallIntegerField()
    before_player1_lost_by_penalty = models.BooleanField(default=False)
    before_player2_lost_by_penalty = models.BooleanField(default=False)
    player1_wins = models.PositiveSmallIntegerField()
    player2_wins = models.PositiveSmallIntegerField()
    draws = models.PositiveSmallIntegerField()
    player1_lost_by_penalty = models.BooleanField(default=False)
    player2_lost_by_penalty = models.BooleanField(default=False)
    corrected_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "corrected_at", "id"]
        verbose_name = _("result correction")
        verbose_name_plural = _("result corrections")

    def __str__(self) -> str:
        return f"{self.match}: {self.before_score} → {self.score}"

    @property
    def lifts_penalty_loss(self) -> bool:
        return (self.before_player1_lost_by_penalty, self.before_player2_lost_by_penalty) != (
            self.player1_lost_by_penalty,
            self.player2_lost_by_penalty,
        )

    @property
    def before_score(self) -> str:
        return f"{self.before_player1_wins}–{self.before_player2_wins}" + (
            f" ({self.before_draws})" if self.before_draws else ""
        )

    @property
    def score(self) -> str:
        return f"{self.player1_wins}–{self.player2_wins}" + (
            f" ({self.draws})" if self.draws else ""
        )


class JobState(models.TextChoices):
    QUEUED = "queued", _("waiting to start")
    RUNNING = "running", _("running")
    DONE = "done", _("done")
    FAILED = "failed", _("failed")


class JobKind(models.TextChoices):
    PLAYER_IMPORT = "player_import", _("player import")


class Job(models.Model):
    """Long work for a tournament, run by the task worker off the request, with its progress.

    The request that starts the work answers at once with a page that follows this row; the
    worker moves ``done`` on after every short transaction, so the organiser sees the work
    advance and the judges' submits never wait behind it for long. ``errors`` are (line, message)
    pairs, as an import reports them.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="jobs")
    kind = models.CharField(max_length=32, choices=JobKind.choices)
    state = models.CharField(max_length=16, choices=JobState.choices, default=JobState.QUEUED)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    # What the worker needs (for an import: the checked rows), so nothing waits in memory.
    payload = models.JSONField(default=dict, blank=True)
    errors = models.JSONField(default=list, blank=True)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(done__lte=models.F("total")), name="job_done_within_total"
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk}: {self.get_state_display()}"

    @property
    def is_finished(self) -> bool:
        return self.state in {JobState.DONE, JobState.FAILED}

    @property
    def succeeded(self) -> bool:
        return self.state == JobState.DONE

    @property
    def failed(self) -> bool:
        return self.state == JobState.FAILED

    @property
    def percent(self) -> int:
        return 100 if not self.total else self.done * 100 // self.total
