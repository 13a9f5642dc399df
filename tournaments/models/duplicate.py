"""A duplicate round's dealing (docs/duplicate.md): :class:`DuplicateDealing`, the round's
committed dealing secret, and :class:`EntrantSeed`, the entrants' own seeds mixed into it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.event import Tournament


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
