"""The tournament lists and one tournament: what is visible, its rules in plain words,
its status in words."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Count, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.types import Visitor
from games.pages.options import BOT_LEVEL_WORDS, differences, preset_label
from tournaments.models import Tournament
from tournaments.selectors.common import ENTERED


def _visible() -> QuerySet[Tournament]:
    return Tournament.objects.exclude(status=Tournament.Status.DRAFT).annotate(
        entrants=Count("registrations", filter=Q(registrations__status__in=ENTERED))
    )


def tournament_lists(*, finished_limit: int = 30) -> dict[str, list[Tournament]]:
    """Upcoming (soonest first), running, finished (latest first) and cancelled."""
    qs = _visible()
    return {
        "upcoming": list(
            qs.filter(status__in=(Tournament.Status.SCHEDULED, *Tournament.ENTERABLE)).order_by(
                "starts_at", "pk"
            )
        ),
        "running": list(qs.filter(status=Tournament.Status.RUNNING).order_by("started_at", "pk")),
        "finished": list(
            qs.filter(status=Tournament.Status.FINISHED).order_by("-finished_at", "-pk")[
                :finished_limit
            ]
        ),
        "cancelled": list(
            qs.filter(status=Tournament.Status.CANCELLED).order_by("-starts_at", "-pk")[
                :finished_limit
            ]
        ),
    }


def tournament_get(*, tournament_id: int, user: Visitor | None = None) -> Tournament | None:
    """A tournament anyone may see (a draft only for staff)."""
    qs = Tournament.objects.annotate(
        entrants=Count("registrations", filter=Q(registrations__status__in=ENTERED))
    )
    tournament = qs.filter(pk=tournament_id).first()
    if tournament is None or (
        tournament.status == Tournament.Status.DRAFT and not getattr(user, "is_staff", False)
    ):
        return None
    return tournament


def boards_from_zero_words() -> str:
    """What "every board starts from 0:0:0" means (docs/spec.md §3.8), for the pages."""
    return _(
        "Every board starts from 0:0:0: no score, bolts or barrel are carried from one "
        "board to the next, so nobody is limited by them in the bidding; a table's match "
        "score is the sum of its boards' points."
    )


def duplicate_rules_in_words(tournament: Tournament) -> list[str]:
    """A duplicate event's format told to a player (docs/duplicate.md)."""
    lines = [
        ngettext(
            "Duplicate: %(n)s round of %(boards)s boards. Every table of a round plays the "
            "same deals, and each board you play is compared with everyone who held the same "
            "cards.",
            "Duplicate: %(n)s rounds of %(boards)s boards. Every table of a round plays the "
            "same deals, and each board you play is compared with everyone who held the same "
            "cards.",
            tournament.rounds or 0,
        )
        % {"n": tournament.rounds, "boards": tournament.boards},
        _(
            "Each board scores the points that deal gave you (not the match score): 2 "
            "matchpoints for each player with your cards you beat, 1 for each tie, as a "
            "percentage. The standings go by the sum of your percentages, then by "
            "matchpoints ÷ tops (the matchpoints scored out of the most that could be "
            "scored); players level on both share the place."
        ),
        _(
            "A board the clock or a bot played for you (you were away) scores you no "
            "matchpoints, whatever it made."
        ),
        _("Who meets whom — %(m)s; your seat moves so that you hold each position in turn.")
        % {"m": tournament.get_movement_display()},
    ]
    if tournament.duplicate_bots == Tournament.DuplicateBots.EXCLUDE:
        lines.append(_("The boards a bot played are compared with nobody."))
    else:
        lines.append(_("The boards a bot played are compared like anyone's."))
    return lines


def rules_in_words(tournament: Tournament) -> list[str]:
    """The event's rules as a new player would want them told."""
    k = tournament.players_per_table
    lines: list[str] = []
    if tournament.format == Tournament.Format.SWISS:
        lines.append(
            ngettext(
                "Swiss: %(n)s round. Each round seats players with similar results together, "
                "and nobody meets the same opponents again if it can be avoided.",
                "Swiss: %(n)s rounds. Each round seats players with similar results together, "
                "and nobody meets the same opponents again if it can be avoided.",
                tournament.rounds or 0,
            )
            % {"n": tournament.rounds}
        )
    elif tournament.format == Tournament.Format.ARENA:
        lines.append(
            _(
                "Arena: for %(minutes)s minutes, whenever you are free you are seated at the next "
                "table with players of similar rating. Play as many matches as you like; join late "
                "or leave early."
            )
            % {"minutes": tournament.duration_minutes}
        )
    elif tournament.format == Tournament.Format.DUPLICATE:
        lines += duplicate_rules_in_words(tournament)
        if tournament.boards_from_zero:
            lines.append(boards_from_zero_words())
    else:
        lines.append(
            ngettext(
                "Knockout: the winner of each table goes through to the next round, until the "
                "final table.",
                "Knockout: the top %(n)s of each table go through to the next round, until the "
                "final table.",
                tournament.advance,
            )
            % {"n": tournament.advance}
        )
    lines.append(
        _("Tables of %(k)s, rules “%(preset)s”%(target)s; %(seconds)s seconds for each action.")
        % {
            "k": k,
            "preset": preset_label(tournament.preset),
            "target": _(", matches to %(target)s points") % {"target": tournament.match_target}
            if tournament.match_target
            else "",
            "seconds": tournament.move_seconds,
        }
    )
    changes = differences(tournament.preset, tournament.options or {})
    if changes:
        lines.append(_("Rule changes: %(changes)s.") % {"changes": "; ".join(changes)})
    points = ", ".join(str(p) for p in tournament.placement_points)
    if tournament.format != Tournament.Format.DUPLICATE:  # a duplicate event goes by its boards
        lines.append(
            _(
                "Each match scores placement points by your place at the table: %(points)s. "
                "Ties in the standings go to the higher sum of your opponents' points, then the "
                "higher total game score, then head-to-head results."
            )
            % {"points": points}
        )
    if tournament.round_minutes:
        lines.append(
            _(
                "A round lasts at most %(minutes)s minutes: then unfinished matches finish the "
                "deal in play and are ranked by their scores."
            )
            % {"minutes": tournament.round_minutes}
        )
    lines.append(
        _(
            "Empty seats are played by %(level)s bots. Bots are never listed in the standings, "
            "so they take no places."
        )
        % {"level": bot_level(tournament)}
    )
    if not tournament.rated:
        lines.append(_("Not rated."))
    elif tournament.format == Tournament.Format.DUPLICATE:
        lines.append(
            _(
                "Rated by comparing boards, not by places at the table: each board you "
                "played yourself counts for your rating against everyone who held the same "
                "cards; a board the clock or a bot played for you does not."
            )
        )
    else:
        lines.append(_("Rated: the matches count for your rating."))
    if tournament.check_in_minutes:
        lines.append(
            _(
                "Check in during the %(minutes)s minutes before the start; players who do not "
                "are left out."
            )
            % {"minutes": tournament.check_in_minutes}
        )
    conditions = []
    if tournament.min_rating:
        conditions.append(_("a rating of at least %(n)s") % {"n": tournament.min_rating})
    if tournament.min_rated_matches:
        conditions.append(_("at least %(n)s rated matches") % {"n": tournament.min_rated_matches})
    if tournament.max_players:
        conditions.append(_("at most %(n)s players") % {"n": tournament.max_players})
    if conditions:
        lines.append(_("Entry: %(conditions)s.") % {"conditions": "; ".join(conditions)})
    lines.append(
        _(
            "If you lose your connection, the clock plays for you and then a bot, until you "
            "come back."
        )
    )
    return lines


def bot_level(tournament: Tournament) -> str:
    return str(BOT_LEVEL_WORDS.get(tournament.bot_level, tournament.bot_level))


def status_label(tournament: Tournament, now: datetime | None = None) -> str:
    """The tournament's state as a player needs it: registration closed early (or at
    its time) is said, although the tournament waits for its start in that state."""
    if (
        tournament.status == Tournament.Status.REGISTRATION
        and (now or timezone.now()) >= tournament.closes_at
    ):
        return _("Registration closed")
    return str(tournament.get_status_display())
