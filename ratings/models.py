"""Ratings: who is rated, their current rating per table size, every change, corrections.

- :class:`Competitor` — a user, or a bot level (bots are rated too: they give the scale a
  fixed point, and the leaderboards can hide them).
- :class:`Rating` — the current rating of a competitor in one pool (2, 3 or 4 players at
  the table), with the columns the leaderboards filter on kept beside it.
- :class:`RatingChange` — one per competitor per match result; the UNIQUE constraint on
  (competitor, result) is what makes processing a result exactly-once. It also keeps the
  player's line of that match (place, points, contracts, bolts, barrels), derived by
  replaying the match record with the engine, for the profile's stats.
- :class:`ResultCorrection` — an organiser's annulment or amendment of a result (the
  result itself belongs to the games app and is never edited).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from ratings import elo

PLAYER_COUNTS = (2, 3, 4)


class BotLevel(models.TextChoices):
    RANDOM = "random", _("random bot")
    BASIC = "basic", _("basic bot")
    STRONG = "strong", _("strong bot")
    MASTER = "master", _("master bot")


class Competitor(models.Model):
    """Exactly one of ``user`` and ``bot_level`` is set; one competitor per user and one
    per bot level."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="competitor",
    )
    bot_level = models.CharField(
        _("bot level"), max_length=16, blank=True, default="", choices=BotLevel.choices
    )

    class Meta:
        verbose_name = _("competitor")
        verbose_name_plural = _("competitors")
        constraints = [
            models.CheckConstraint(
                condition=(Q(user__isnull=False) & Q(bot_level=""))
                | (Q(user__isnull=True) & ~Q(bot_level="")),
                name="ratings_competitor_user_xor_bot",
            ),
            models.UniqueConstraint(
                fields=["bot_level"],
                condition=Q(user__isnull=True),
                name="ratings_competitor_one_per_bot_level",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_bot(self) -> bool:
        return self.user_id is None

    @property
    def name(self) -> str:
        if self.user is not None:
            return self.user.get_display_name()
        return (
            str(BotLevel(self.bot_level).label)
            if self.bot_level in BotLevel.values
            else self.bot_level
        )


class Rating(models.Model):
    # db_index off: the unique (competitor, players) index serves lookups by competitor.
    competitor = models.ForeignKey(
        Competitor, on_delete=models.CASCADE, related_name="ratings", db_index=False
    )
    players = models.PositiveSmallIntegerField(_("players at the table"))
    rating = models.FloatField(_("rating"), default=elo.START_RATING)
    games = models.PositiveIntegerField(_("rated matches"), default=0)
    wins = models.PositiveIntegerField(_("wins"), default=0)
    provisional = models.BooleanField(_("provisional"), default=True)
    is_bot = models.BooleanField(_("bot"), default=False)
    last_played = models.DateTimeField(_("last played"), null=True, blank=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(
                fields=["competitor", "players"], name="ratings_rating_one_per_pool"
            ),
            models.CheckConstraint(
                condition=Q(players__in=PLAYER_COUNTS), name="ratings_rating_players_2_3_4"
            ),
        ]
        indexes = [
            # The leaderboard and "my rank": one range scan of a pool by rating, the
            # filters (provisional, bots, activity) answered from the index itself.
            models.Index(
                fields=["players", "-rating", "id"],
                name="ratings_board_idx",
                include=["provisional", "is_bot", "last_played"],
            ),
        ]

    def __str__(self) -> str:
        return f"{self.competitor} ({self.players}p): {self.rating:.0f}"


class RatingChange(models.Model):
    # db_index off: the unique (competitor, result) index serves lookups by competitor.
    competitor = models.ForeignKey(
        Competitor, on_delete=models.CASCADE, related_name="changes", db_index=False
    )
    result = models.ForeignKey(
        "games.MatchResult", on_delete=models.CASCADE, related_name="rating_changes"
    )
    players = models.PositiveSmallIntegerField(_("players at the table"))
    played_at = models.DateTimeField(_("played at"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    place = models.PositiveSmallIntegerField(_("place"))
    before = models.FloatField(_("rating before"))
    after = models.FloatField(_("rating after"))
    delta = models.FloatField(_("change"))
    created_at = models.DateTimeField(auto_now_add=True)
    # The player's line of the match, from the engine's replay of the record.
    deals = models.PositiveSmallIntegerField(_("deals played"), default=0)
    points = models.IntegerField(_("points from deals"), default=0)
    contracts_made = models.PositiveSmallIntegerField(_("contracts made"), default=0)
    contracts_failed = models.PositiveSmallIntegerField(_("contracts failed"), default=0)
    bolts = models.PositiveSmallIntegerField(_("bolts"), default=0)
    barrels = models.PositiveSmallIntegerField(_("times on the barrel"), default=0)
    barrel_won = models.BooleanField(_("won from the barrel"), default=False)

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [
            # Exactly once: a second processing of the same result cannot insert.
            models.UniqueConstraint(
                fields=["competitor", "result"], name="ratings_change_once_per_result"
            ),
        ]
        indexes = [
            models.Index(fields=["competitor", "players", "played_at"], name="ratings_history_idx"),
            models.Index(fields=["played_at", "result"], name="ratings_change_time_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.competitor}: {self.before:.0f} → {self.after:.0f} (result {self.result_id})"

    @property
    def won(self) -> bool:
        return self.place == 1


class ResultCorrection(models.Model):
    """An organiser's word on a result: annul it (it no longer counts) or amend its
    placements (by seat, 1 = first). Saving one recomputes the ratings from that match on."""

    result = models.OneToOneField(
        "games.MatchResult", on_delete=models.CASCADE, related_name="correction"
    )
    annulled = models.BooleanField(_("annulled"), default=False)
    placements = models.JSONField(
        _("amended placements"),
        null=True,
        blank=True,
        help_text=_("Places by seat, 1 = winner, e.g. [2, 1, 3]. Empty keeps the result's own."),
    )
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("result correction")
        verbose_name_plural = _("result corrections")

    def __str__(self) -> str:
        return f"{'annulled' if self.annulled else 'amended'}: result {self.result_id}"


class DuplicateRound(models.Model):
    """A rated duplicate round's board comparison, as its tournament gave it when the
    round was over (docs/ratings.md, "Duplicate events"). The round's tables are rated
    together, at ``played_at`` (its last table's finish), from these groups: each is the
    results of those who held the same dealing at the same position, as
    ``[result id, seat, points, played for]`` (the last: the clock or a bot chose for the
    absent person in that seat; a round recorded before it has three items). The results
    of the round's tables are in ``results``."""

    key = models.CharField(_("round"), max_length=64, unique=True)
    players = models.PositiveSmallIntegerField(_("players at the table"))
    played_at = models.DateTimeField(_("played at"))
    groups = models.JSONField(_("board groups"), default=list)
    results = models.ManyToManyField(
        "games.MatchResult", related_name="duplicate_rounds", verbose_name=_("results")
    )

    class Meta:
        verbose_name = _("duplicate round")
        verbose_name_plural = _("duplicate rounds")
        indexes = [models.Index(fields=["players", "played_at"], name="ratings_dup_round_time_idx")]

    def __str__(self) -> str:
        return f"duplicate round {self.key[:12]} ({self.players}p)"


# A rated match won: first place at a table rated by its places. A duplicate round's table
# is rated by comparing boards (docs/ratings.md), so its first place is no win.
WON = Q(place=1) & Q(result__duplicate_rounds__isnull=True)
