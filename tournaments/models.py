"""Scheduled tournaments: the event, who entered, its rounds, the live tables of each
round with who sits where, and the standings.

- :class:`Tournament` — the event and its rules; ``status`` is its state machine
  (``tournaments.services``), moved by the Celery tick.
- :class:`Registration` — one per player and event.
- :class:`Round` — one per round (Swiss, knockout); an arena has one round that lasts
  the event.
- :class:`Assignment` — one live table of a round: who sits where (bots too), the
  ``games.Table`` once opened, and how it ended.
- :class:`AssignmentSeat` — one seat of an assignment, with the place and points it got:
  the facts the standings are computed from.
- :class:`Standing` — the standings as last computed (``tournaments.scoring``).
- :class:`DuplicateDealing` — a duplicate round's committed dealing secret, and
  :class:`EntrantSeed` the entrants' own seeds mixed into it (docs/duplicate.md).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.bots import LEVELS
from games.engine.options import PRESETS
from games.models import Table
from tournaments.scoring import DEFAULT_POINTS, placement_points


def default_points() -> list[int]:
    return list(DEFAULT_POINTS[3])


class Tournament(models.Model):
    class Format(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ARENA = "arena", _("arena")
        KNOCKOUT = "knockout", _("knockout")
        DUPLICATE = "duplicate", _("duplicate")

    class Movement(models.TextChoices):
        SWISS = "swiss", _("Swiss: players of similar standing meet")
        ROUND_ROBIN = "round_robin", _("round robin: a schedule fixed at the start, no pair twice")

    class DuplicateBots(models.TextChoices):
        COMPARE = "compare", _("compared like anyone")
        EXCLUDE = "exclude", _("left out of the comparison")

    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        SCHEDULED = "scheduled", _("scheduled")
        REGISTRATION = "registration", _("registration")
        CHECK_IN = "check_in", _("check-in")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")
        CANCELLED = "cancelled", _("cancelled")

    ACTIVE = (Status.SCHEDULED, Status.REGISTRATION, Status.CHECK_IN, Status.RUNNING)
    ENTERABLE = (Status.REGISTRATION, Status.CHECK_IN)

    name = models.CharField(_("name"), max_length=120)
    description = models.TextField(_("description"), blank=True)
    format = models.CharField(
        _("format"), max_length=10, choices=Format.choices, default=Format.SWISS
    )
    players_per_table = models.PositiveSmallIntegerField(
        _("players per table"), choices=[(2, "2"), (3, "3"), (4, "4")], default=3
    )
    preset = models.CharField(
        _("rules preset"),
        max_length=16,
        choices=[(name, name) for name in PRESETS],
        default="classic",
    )
    options = models.JSONField(
        _("rule changes"),
        default=dict,
        blank=True,
        help_text=_('Changes to the preset\'s options (unrated events only), e.g. {"dark": true}.'),
    )
    match_target = models.PositiveIntegerField(
        _("match target"),
        null=True,
        blank=True,
        help_text=_("Points that win a match; empty for the preset's (1000)."),
    )
    rated = models.BooleanField(_("rated"), default=True)
    move_seconds = models.PositiveIntegerField(
        _("seconds per action"),
        default=30,
        help_text=_("The clock for every action at the tables."),
    )
    round_minutes = models.PositiveIntegerField(
        _("round time limit (minutes)"),
        null=True,
        blank=True,
        help_text=_(
            "When it runs out, unfinished matches finish their current deal and are ranked "
            "by their scores. Empty for no limit."
        ),
    )
    rounds = models.PositiveSmallIntegerField(
        _("rounds"),
        null=True,
        blank=True,
        help_text=_("Swiss and duplicate: the number of rounds."),
    )
    boards = models.PositiveSmallIntegerField(
        _("boards per round"),
        null=True,
        blank=True,
        help_text=_(
            "Duplicate: the deals of each round's match; every table plays the same boards."
        ),
    )
    movement = models.CharField(
        _("movement"),
        max_length=12,
        choices=Movement.choices,
        default=Movement.SWISS,
        help_text=_(
            "Duplicate: who meets whom from round to round. Round robin plans every round "
            "from the entrants when round 1 is seated, whatever the results: each pair "
            "meets at most once while the rounds allow, and everyone holds each position "
            "in turn."
        ),
    )
    duplicate_bots = models.CharField(
        _("bot-filled seats"),
        max_length=8,
        choices=DuplicateBots.choices,
        default=DuplicateBots.COMPARE,
        help_text=_("Duplicate: whether the boards a bot played are compared with the players'."),
    )
    boards_from_zero = models.BooleanField(
        _("every board starts from 0:0:0"),
        default=False,
        help_text=_(
            "Duplicate: every board is played and scored as the first deal of a new match "
            "(no score, bolts or barrel carried), so the same cards are worth the same at "
            "every table."
        ),
    )
    duration_minutes = models.PositiveIntegerField(
        _("duration (minutes)"), null=True, blank=True, help_text=_("Arena: how long it lasts.")
    )
    advance = models.PositiveSmallIntegerField(
        _("players through from each table"),
        default=1,
        help_text=_("Knockout: the top players of each table who go through."),
    )
    break_seconds = models.PositiveIntegerField(
        _("seconds between seating and play"),
        default=60,
        help_text=_(
            "Players see their table this long before it starts; a round can be reseated meanwhile."
        ),
    )
    registration_opens_at = models.DateTimeField(_("registration opens"))
    registration_closes_at = models.DateTimeField(
        _("registration closes"), null=True, blank=True, help_text=_("Empty: at the start.")
    )
    starts_at = models.DateTimeField(_("starts"))
    check_in_minutes = models.PositiveIntegerField(
        _("check-in window (minutes)"),
        default=0,
        help_text=_(
            "Players confirm in this window before the start; those who do not are dropped. "
            "0: every registered player plays."
        ),
    )
    max_players = models.PositiveIntegerField(_("maximum players"), null=True, blank=True)
    min_rating = models.PositiveIntegerField(_("minimum rating"), null=True, blank=True)
    min_rated_matches = models.PositiveIntegerField(_("minimum rated matches"), default=0)
    bot_level = models.CharField(
        _("bot level for empty seats"),
        max_length=8,
        choices=[(level, level) for level in LEVELS],
        default="basic",
    )
    placement_points = models.JSONField(
        _("placement points"),
        default=default_points,
        help_text=_("Points for 1st, 2nd, … place at a table, e.g. [3, 1, 0]."),
    )
    arena_range = models.PositiveIntegerField(
        _("arena rating range"), default=150, help_text=_("Arena: the rating range at first.")
    )
    arena_widen = models.PositiveIntegerField(_("arena range widening per 10 s"), default=50)
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.DRAFT, db_index=True
    )
    paused = models.BooleanField(
        _("paused"), default=False, help_text=_("Nothing new is seated while paused.")
    )
    seed = models.PositiveIntegerField(_("seating seed"), default=0)
    cancel_reason = models.CharField(_("why cancelled"), max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournaments_created",
        verbose_name=_("organiser"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-starts_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(players_per_table__in=(2, 3, 4)), name="tournaments_table_size"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    # -- derived ---------------------------------------------------------------------

    @property
    def closes_at(self) -> Any:
        return self.registration_closes_at or self.starts_at

    @property
    def check_in_opens_at(self) -> Any:
        return self.starts_at - timedelta(minutes=self.check_in_minutes)

    @property
    def arena_ends_at(self) -> Any:
        """Arena: when no new table is seated."""
        start = self.started_at or self.starts_at
        return start + timedelta(minutes=self.duration_minutes or 0)

    @property
    def ends_at(self) -> Any:
        """When the event is over, or expected to be: an arena's end; a Swiss with a
        round time limit, its start plus each round's break and limit; when finished, the
        moment it finished. None when nobody can tell (a knockout, or no time limit)."""
        if self.finished_at is not None:
            return self.finished_at
        if self.format == self.Format.ARENA:
            return self.arena_ends_at
        if self.format == self.Format.SWISS and self.rounds and self.round_minutes:
            start = self.started_at or self.starts_at
            per_round = timedelta(seconds=self.break_seconds, minutes=self.round_minutes)
            return start + self.rounds * per_round
        return None

    def table_options(self) -> dict[str, Any]:
        """The changes to the preset every table of the event plays with; a duplicate
        round's match is its boards (docs/spec.md §3.7), each from 0:0:0 if the organiser
        chose it (§3.8)."""
        options = dict(self.options or {})
        if self.match_target:
            options["target"] = self.match_target
        if self.format == self.Format.DUPLICATE and self.boards:
            options["deals"] = self.boards
            if self.boards_from_zero:
                options["boards_from_zero"] = True
        return options

    def points_for(self, place: int) -> int:
        return int(placement_points(place, self.placement_points or []))

    def clean(self) -> None:
        from tournaments.validation import tournament_errors

        errors = tournament_errors(self)
        if errors:
            raise ValidationError(errors)


class Registration(models.Model):
    class Status(models.TextChoices):
        REGISTERED = "registered", _("registered")
        CHECKED_IN = "checked_in", _("checked in")
        WITHDRAWN = "withdrawn", _("withdrawn")
        DISQUALIFIED = "disqualified", _("disqualified")
        NO_SHOW = "no_show", _("did not check in")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="registrations"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="tournament_registrations",
        verbose_name=_("player"),
    )
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.REGISTERED
    )
    rating = models.FloatField(
        _("rating"), default=1500.0, help_text=_("At registration: seeds the first round.")
    )
    # Set by the service (the same moment as a check-in made with it), not auto_now_add.
    registered_at = models.DateTimeField(_("registered"), default=timezone.now)
    checked_in_at = models.DateTimeField(_("checked in"), null=True, blank=True)
    left_at = models.DateTimeField(_("withdrew or was disqualified"), null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    seed = models.PositiveIntegerField(
        _("seed"),
        null=True,
        blank=True,
        help_text=_(
            "Manual seed (1 = the top) for a knockout and the first Swiss round; "
            "empty: by rating, after the seeded players."
        ),
    )

    class Meta:
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        ordering = ["tournament", "registered_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"], name="tournaments_one_registration"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.tournament}"


class Round(models.Model):
    class Status(models.TextChoices):
        SEATED = "seated", _("seated")
        PLAYING = "playing", _("playing")
        FINISHED = "finished", _("finished")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField(_("round"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.SEATED
    )
    seated_at = models.DateTimeField(_("seated"), auto_now_add=True)
    starts_at = models.DateTimeField(_("starts"))
    ends_at = models.DateTimeField(
        _("time limit"), null=True, blank=True, help_text=_("Set when play starts.")
    )
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"], name="tournaments_round_unique_number"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} · {self.number}"


class Assignment(models.Model):
    """One live table of a round."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting to open")
        PLAYING = "playing", _("playing")
        STOPPING = "stopping", _("finishing its deal")
        FINISHED = "finished", _("finished")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="assignments")
    number = models.PositiveSmallIntegerField(_("table"))
    table = models.OneToOneField(
        Table,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournament_assignment",
        verbose_name=_("live table"),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING, db_index=True
    )
    deals_at_limit = models.PositiveIntegerField(
        _("deals done at the time limit"), null=True, blank=True
    )
    stopped_early = models.BooleanField(
        _("ranked by scores"),
        default=False,
        help_text=_("Ended by the round's time limit (or abandoned): ranked by the scores."),
    )
    amended = models.BooleanField(_("amended"), default=False)
    amend_reason = models.CharField(
        _("why amended"),
        max_length=200,
        blank=True,
        help_text=_("The organiser's reason, shown beside the amended places."),
    )
    in_standings = models.BooleanField(
        _("in the standings"), default=False, help_text=_("Counted by the last standings.")
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("table assignment")
        verbose_name_plural = _("table assignments")
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "number"], name="tournaments_assignment_unique_number"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} · {_('table')} {self.number}"


class AssignmentSeat(models.Model):
    assignment = models.ForeignKey(Assignment, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournament_seats",
        verbose_name=_("player"),
    )
    place = models.PositiveSmallIntegerField(_("place"), null=True, blank=True)
    score = models.IntegerField(_("game score"), null=True, blank=True)
    points = models.PositiveSmallIntegerField(_("points"), null=True, blank=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["assignment", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["assignment", "number"], name="tournaments_seat_unique_number"
            ),
            models.UniqueConstraint(
                fields=["assignment", "user"],
                name="tournaments_seat_unique_user",
                condition=Q(user__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.assignment} · {self.number}"


class Standing(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="standings")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="tournament_standings",
        verbose_name=_("player"),
    )
    rank = models.PositiveIntegerField(_("rank"), null=True, blank=True)
    position = models.PositiveIntegerField(_("position"))
    points = models.IntegerField(_("points"), default=0)
    matches = models.PositiveIntegerField(_("matches"), default=0)
    wins = models.PositiveIntegerField(_("wins"), default=0)
    opponents_points = models.IntegerField(_("opponents' points"), default=0)
    game_score = models.IntegerField(_("game score"), default=0)
    head_to_head = models.IntegerField(_("head-to-head"), default=0)
    stage = models.PositiveSmallIntegerField(_("round reached"), default=0)
    disqualified = models.BooleanField(_("disqualified"), default=False)

    class Meta:
        verbose_name = _("standing")
        verbose_name_plural = _("standings")
        ordering = ["tournament", "position"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="tournaments_one_standing"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.rank} {self.user}"


class Announcement(models.Model):
    """A short message from the organiser to every entrant of an event."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="announcements"
    )
    text = models.CharField(_("message"), max_length=500)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("organiser"),
    )
    created_at = models.DateTimeField(_("sent"), auto_now_add=True)

    class Meta:
        verbose_name = _("announcement")
        verbose_name_plural = _("announcements")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return self.text[:60]


class Notification(models.Model):
    """One line in a player's notification area (the site header): an announcement,
    check-in opening, his table being ready."""

    class Kind(models.TextChoices):
        ANNOUNCEMENT = "announcement", _("announcement")
        CHECK_IN = "check_in", _("check-in is open")
        TABLE_READY = "table_ready", _("your table is ready")
        CANCELLED = "cancelled", _("the tournament is cancelled")
        DISQUALIFIED = "disqualified", _("you were disqualified")
        AMENDED = "amended", _("your table's places were amended")
        STARTS_SOON = "starts_soon", _("starts soon")
        CHECK_IN_SOON = "check_in_soon", _("check-in closes soon")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="tournament_notifications",
        verbose_name=_("player"),
    )
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="notifications", null=True, blank=True
    )
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    # The organiser's own words (an announcement, a reason); a notice of the site's is
    # its ``kind`` and ``params``, put into words when it is read, in the reader's
    # language (older rows of the site's notices kept their words in ``text``).
    text = models.CharField(_("text"), max_length=600)
    params = models.JSONField(_("parameters"), default=dict, blank=True)
    url = models.CharField(_("link"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    read_at = models.DateTimeField(_("read"), null=True, blank=True)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["user", "read_at"], name="tournaments_notif_unread")]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.text[:40]}"


class DuplicateDealing(models.Model):
    """A duplicate round's one sequence of dealings (docs/fair-dealing.md, "Duplicate
    rounds"): the secret round seed, committed (its SHA-256 published) before the round is
    seated, sealed when its tables start (no more entrants' seeds), revealed when the
    round is over."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="duplicate_dealings"
    )
    round_number = models.PositiveSmallIntegerField(_("round"))
    round_seed = models.CharField(
        _("round seed"), max_length=64, help_text=_("Secret until revealed.")
    )
    commitment = models.CharField(_("commitment"), max_length=64)
    committed_at = models.DateTimeField(_("committed"))
    sealed_at = models.DateTimeField(_("sealed"), null=True, blank=True)
    revealed_at = models.DateTimeField(_("revealed"), null=True, blank=True)

    class Meta:
        verbose_name = _("duplicate dealing")
        verbose_name_plural = _("duplicate dealings")
        ordering = ["tournament", "round_number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "round_number"], name="tournaments_one_dealing_a_round"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} · {self.round_number}: {self.commitment[:12]}"


class EntrantSeed(models.Model):
    """An entrant's own seed for a duplicate round, given before the round starts."""

    dealing = models.ForeignKey(
        DuplicateDealing, on_delete=models.CASCADE, related_name="entrant_seeds"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("player"),
    )
    seed = models.CharField(_("seed"), max_length=128)
    given_at = models.DateTimeField(_("given"))

    class Meta:
        verbose_name = _("entrant's seed")
        verbose_name_plural = _("entrants' seeds")
        ordering = ["dealing", "user_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["dealing", "user"], name="tournaments_one_seed_a_round"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.dealing}: {self.user_id}"
