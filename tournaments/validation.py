"""What makes a tournament's settings valid (``Tournament.clean`` and the services)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from games import errors as game_errors
from games.engine.options import Options
from games.table_rules import MOVE_SECONDS_RANGE, table_options

if TYPE_CHECKING:
    from tournaments.models import Tournament


def tournament_errors(t: Tournament) -> dict[str, list[str]]:
    """Field name → messages; empty when the tournament can be scheduled."""
    errors: dict[str, list[str]] = {}

    def add(field: str, message: str) -> None:
        errors.setdefault(field, []).append(message)

    k = t.players_per_table
    if k not in (2, 3, 4):
        add("players_per_table", _("Tables seat 2, 3 or 4 players."))
        return errors
    try:
        opts = table_options(players=k, preset=t.preset, options=t.table_options())
    except game_errors.TableError as exc:
        add("options", exc.message)
    else:
        rules = Options.preset(t.preset).replace(players=k)
        if t.format == t.Format.DUPLICATE and t.boards:
            # A duplicate round's match is its boards (docs/duplicate.md), each from 0:0:0
            # if the organiser chose it: the format's own rules, rated or not.
            rules = rules.replace(deals=t.boards, boards_from_zero=t.boards_from_zero)
        if t.rated and opts != rules:
            add(
                "rated",
                _("A rated tournament plays its preset's rules unchanged (target included)."),
            )
    low, high = MOVE_SECONDS_RANGE
    if not low <= t.move_seconds <= high:
        add(
            "move_seconds",
            _("Seconds per action must be from %(low)s to %(high)s.") % {"low": low, "high": high},
        )
    # docs/spec.md §3.8: the pure duplicate, whether set by the field or in the options.
    pure = t.boards_from_zero or (t.options or {}).get("boards_from_zero") is True
    if pure and t.format != t.Format.DUPLICATE:
        add("boards_from_zero", _("Only a duplicate tournament plays every board from 0:0:0."))
    if t.format == t.Format.SWISS and not t.rounds:
        add("rounds", _("A Swiss tournament needs its number of rounds."))
    if t.format == t.Format.DUPLICATE:
        if not t.rounds:
            add("rounds", _("A duplicate tournament needs its number of rounds."))
        if not t.boards or not 1 <= t.boards <= 100:
            add("boards", _("A duplicate tournament needs 1 to 100 boards a round."))
    if t.format == t.Format.ARENA and not t.duration_minutes:
        add("duration_minutes", _("An arena needs its duration."))
    if t.format == t.Format.KNOCKOUT and not 1 <= t.advance < k:
        add("advance", _("From 1 to %(most)s players go through from a table.") % {"most": k - 1})
    points = t.placement_points
    if (
        not isinstance(points, list)
        or len(points) != k
        or any(not isinstance(p, int) or isinstance(p, bool) or p < 0 for p in points)
        or points != sorted(points, reverse=True)
    ):
        add(
            "placement_points",
            _("Give %(k)s whole numbers, from 1st place down, none below the next (e.g. 3, 1, 0).")
            % {"k": k},
        )
    if t.registration_opens_at and t.starts_at:
        if t.registration_opens_at > t.starts_at:
            add("registration_opens_at", _("Registration must open before the start."))
        closes = t.registration_closes_at
        if closes is not None and not t.registration_opens_at <= closes <= t.starts_at:
            add(
                "registration_closes_at",
                _("Registration closes between its opening and the start."),
            )
    if t.max_players is not None and t.max_players < 2:
        add("max_players", _("At least two players."))
    return errors
