"""A finished match's computer analysis: one row a table, its result stored
once (``result``: :meth:`analysis.core.MatchAnalysis.to_dict`), and one row a person's
seat with his summary, for his average over his analysed matches."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.models import Table


class Analysis(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")
        CANCELLED = "cancelled", _("cancelled")

    table = models.OneToOneField(
        Table, on_delete=models.CASCADE, related_name="analysis", verbose_name=_("table")
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="analyses",
        verbose_name=_("requested by"),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    seats = models.JSONField(_("seats"), default=list, help_text=_("The people's seats analysed."))
    samples = models.PositiveIntegerField(_("worlds a decision"))
    seed = models.BigIntegerField(_("seed"))
    done = models.PositiveIntegerField(_("decisions analysed"), default=0)
    total = models.PositiveIntegerField(_("decisions to analyse"), default=0)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    result = models.JSONField(_("result"), null=True, blank=True)
    error = models.TextField(_("error"), blank=True)
    requested_at = models.DateTimeField(_("requested"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    progressed_at = models.DateTimeField(
        _("last progress"),
        null=True,
        blank=True,
        help_text=_("When the worker last finished a decision (or started)."),
    )
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("analysis")
        verbose_name_plural = _("analyses")
        indexes = [models.Index(fields=["requested_by", "requested_at"])]
        constraints = [
            # Never half-marked: a result exactly when done.
            models.CheckConstraint(
                condition=Q(status="done", result__isnull=False)
                | ~Q(status="done") & Q(result__isnull=True),
                name="analysis_result_iff_done",
            )
        ]

    def __str__(self) -> str:
        return f"{self.table_id}: {self.status}"

    @property
    def active(self) -> bool:
        return self.status in (self.Status.QUEUED, self.Status.RUNNING)


class PlayerAnalysis(models.Model):
    """One person's seat in an analysed match: his mean loss a decision, by stage."""

    analysis = models.ForeignKey(Analysis, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="analysed_matches",
        verbose_name=_("player"),
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    decisions = models.PositiveIntegerField(_("decisions"))
    mean_loss = models.FloatField(_("mean loss"))
    bidding = models.FloatField(_("bidding"), null=True)
    contract = models.FloatField(_("gives and contract"), null=True)
    play = models.FloatField(_("play"), null=True)
    finished_at = models.DateTimeField(_("match finished"))

    class Meta:
        verbose_name = _("analysed seat")
        verbose_name_plural = _("analysed seats")
        ordering = ["user", "finished_at"]
        constraints = [
            models.UniqueConstraint(fields=["analysis", "seat"], name="analysis_player_unique_seat")
        ]

    def __str__(self) -> str:
        return f"{self.analysis_id}/{self.seat}"


class HintUse(models.Model):
    """A "What would strong do?" asked at a practice table: the record of the
    match notes them (``meta.hints``)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hints")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hints"
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    version = models.PositiveIntegerField(_("version"))
    action = models.JSONField(_("the strong bot's choice"))
    created_at = models.DateTimeField(_("asked"), auto_now_add=True)

    class Meta:
        verbose_name = _("hint")
        verbose_name_plural = _("hints")

    def __str__(self) -> str:
        return f"{self.table_id}@{self.version}"
