"""Fair-play signals: one screening a rated match, the counts accumulated per player and
per ordered pair of players, and the flags a moderator reviews (docs/fair-play.md).
Nothing here is shown to players: the admin's fair-play queue is its only page."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.models import MatchResult


class MatchScreen(models.Model):
    """One rated match screened: the counts of every seat (``screen.Screening``)."""

    result = models.OneToOneField(
        MatchResult, on_delete=models.CASCADE, related_name="fairplay_screen"
    )
    people = models.JSONField(_("people"), help_text=_("Each seat's user id (null: a bot)."))
    data = models.JSONField(_("counts"))
    cpu_seconds = models.FloatField(_("CPU seconds"))
    created_at = models.DateTimeField(_("screened"), auto_now_add=True)

    class Meta:
        verbose_name = _("screened match")
        verbose_name_plural = _("screened matches")

    def __str__(self) -> str:
        return f"{self.result_id}"


class PlayerSignal(models.Model):
    """A player's agreement with master, over his screened matches."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="fairplay_signal"
    )
    matches = models.PositiveIntegerField(_("matches"), default=0)
    checked = models.PositiveIntegerField(_("decisions checked"), default=0)
    agreed = models.PositiveIntegerField(_("decisions agreeing with master"), default=0)
    # Of the decisions checked, those where master's choice differs from the reference
    # bot's (``screen.REFERENCE``), and of them those where he chose master's.
    split = models.PositiveIntegerField(
        _("decisions where master and the reference differ"), default=0
    )
    split_agreed = models.PositiveIntegerField(_("... of which master's choice"), default=0)
    # The same four counts from the matches screened at the larger budget of a high level
    # (``FAIRPLAY_HIGH_LEVEL_RATING``), kept apart: agreement with a stronger master is
    # weighed only against other players' agreement with it.
    high_checked = models.PositiveIntegerField(
        _("decisions checked at a high level's budget"), default=0
    )
    high_agreed = models.PositiveIntegerField(_("... agreeing with master"), default=0)
    high_split = models.PositiveIntegerField(
        _("... where master and the reference differ"), default=0
    )
    high_split_agreed = models.PositiveIntegerField(
        _("... of which master's choice (high level)"), default=0
    )
    # The clock (``scoring.clock_counts``): decisions timed, and of them those taken
    # within a narrow band of his usual time; seconds spent on hard and on easy ones.
    timed = models.PositiveIntegerField(_("decisions timed"), default=0)
    steady = models.PositiveIntegerField(_("decisions in his usual time"), default=0)
    hard = models.PositiveIntegerField(_("hard decisions timed"), default=0)
    hard_seconds = models.FloatField(_("seconds on hard decisions"), default=0.0)
    easy = models.PositiveIntegerField(_("easy decisions timed"), default=0)
    easy_seconds = models.FloatField(_("seconds on easy decisions"), default=0.0)

    class Meta:
        verbose_name = _("player signal")
        verbose_name_plural = _("player signals")

    def __str__(self) -> str:
        return f"{self.user_id}"


class PairSignal(models.Model):
    """What one player's decisions did to another, over the matches they shared."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="fairplay_pairs"
    )
    other = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    matches = models.PositiveIntegerField(_("matches"), default=0)
    chances = models.PositiveIntegerField(_("answers to the other's bid"), default=0)
    stood = models.PositiveIntegerField(_("the other's bid let stand"), default=0)
    chances_rest = models.PositiveIntegerField(_("answers to the rest's bids"), default=0)
    stood_rest = models.PositiveIntegerField(_("the rest's bids let stand"), default=0)
    fed = models.FloatField(_("points fed to the other"), default=0.0)
    fed_rest = models.FloatField(_("points fed to the rest"), default=0.0)
    diff_sq = models.FloatField(default=0.0)
    # The answers with a hand the reference bot would bid on, and the passes among them.
    contest = models.PositiveIntegerField(_("the other's bid, a hand to contest it"), default=0)
    yielded = models.PositiveIntegerField(_("... let stand all the same"), default=0)
    contest_rest = models.PositiveIntegerField(_("the rest's bids, a hand to contest"), default=0)
    yielded_rest = models.PositiveIntegerField(
        _("... let stand all the same (the rest)"), default=0
    )

    class Meta:
        verbose_name = _("pair signal")
        verbose_name_plural = _("pair signals")
        constraints = [
            models.UniqueConstraint(fields=["user", "other"], name="fairplay_pair_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}→{self.other_id}"


class Flag(models.Model):
    """A player or a pair whose score passed its threshold, for a moderator to review.
    Nothing follows from a flag by itself."""

    class Kind(models.TextChoices):
        PAIR = "pair", _("collusion (a pair)")
        ENGINE = "engine", _("engine help")
        CLOCK = "clock", _("no clock pressure")

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        DISMISSED = "dismissed", _("dismissed")
        WARNED = "warned", _("warned")
        CHEATING = "cheating", _("cheating")

    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="fairplay_flags",
        verbose_name=_("player"),
    )
    partner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("partner"),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    score = models.FloatField(_("score"))
    threshold = models.FloatField(_("threshold"))
    matches = models.PositiveIntegerField(_("matches"))
    evidence = models.JSONField(_("evidence"))
    created_at = models.DateTimeField(_("flagged"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("reviewed by"),
    )
    reviewed_at = models.DateTimeField(_("reviewed"), null=True, blank=True)
    note = models.TextField(_("moderator's note"), blank=True)
    # The full analysis of the flagged player's (pair's) matches, queued when the flag
    # is raised (``fairplay.analysis``): kept apart from the screening's evidence, which
    # each new match rewrites.
    analysis = models.JSONField(_("full analysis"), null=True, blank=True)

    class Meta:
        verbose_name = _("fair-play flag")
        verbose_name_plural = _("fair-play flags")
        ordering = ["-score"]
        permissions = [("review_flag", _("Can review fair-play flags"))]
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "user", "partner"],
                condition=Q(status="open"),
                nulls_distinct=False,
                name="fairplay_one_open_flag",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind}: {self.user_id}" + (f"+{self.partner_id}" if self.partner_id else "")


class Voiding(models.Model):
    """A flag marked as cheating voided the player's rated results from a date: the
    results annulled here (those already annulled are left alone), so that undoing it
    restores exactly these."""

    flag = models.ForeignKey(Flag, on_delete=models.CASCADE, related_name="voidings")
    since = models.DateTimeField(_("voided from"))
    results = models.JSONField(_("results annulled"), default=list)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(_("voided"), auto_now_add=True)
    undone_at = models.DateTimeField(_("undone"), null=True, blank=True)

    class Meta:
        verbose_name = _("voiding")
        verbose_name_plural = _("voidings")
        constraints = [
            models.UniqueConstraint(
                fields=["flag"], condition=Q(undone_at__isnull=True), name="fairplay_one_voiding"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.flag_id} from {self.since:%Y-%m-%d}"


class EntryClosure(models.Model):
    """An entry of a player marked as cheating closed in an event not over: he was
    disqualified there (``tournaments.services.registration_disqualify``). Unmarking the
    flag reinstates the entry where the event still allows it; a resignation at a table
    that was in play stays."""

    flag = models.ForeignKey(Flag, on_delete=models.CASCADE, related_name="closures")
    registration = models.ForeignKey(
        "tournaments.Registration", on_delete=models.CASCADE, related_name="+"
    )
    status_before = models.CharField(_("entry before"), max_length=12)
    tables = models.JSONField(_("tables resigned"), default=list)
    at = models.DateTimeField(_("closed"), auto_now_add=True)
    undone_at = models.DateTimeField(_("reinstated"), null=True, blank=True)
    kept = models.CharField(_("not reinstated, because"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("closed entry")
        verbose_name_plural = _("closed entries")
        constraints = [
            models.UniqueConstraint(
                fields=["flag", "registration"],
                condition=Q(undone_at__isnull=True),
                name="fairplay_entry_closed_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.flag_id}: {self.registration_id}"
