"""An event's rounds, their live tables and the standings:

- :class:`Round` — one per round (Swiss, knockout); an arena has one round that lasts
  the event.
- :class:`Assignment` — one live table of a round: who sits where (bots too), the
  ``games.Table`` once opened, and how it ended.
- :class:`AssignmentSeat` — one seat of an assignment, with the place and points it got:
  the facts the standings are computed from.
- :class:`Standing` — the standings as last computed (``tournaments.scoring``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.models import Table
from tournaments.models.event import Tournament


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
