"""What makes a tournament's settings valid (``Tournament.clean`` and the services)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol

from django.utils.translation import gettext as _

from games import errors as game_errors
from games.engine.options import Options
from games.table_rules import MOVE_SECONDS_RANGE, table_options
from tournaments.formats import Format


class TournamentSettings(Protocol):
    """What the checks read of a tournament (``tournaments.models.Tournament``)."""

    @property
    def players_per_table(self) -> int: ...
    @property
    def preset(self) -> str: ...
    @property
    def format(self) -> str: ...
    @property
    def options(self) -> Any: ...
    @property
    def rated(self) -> bool: ...
    @property
    def move_seconds(self) -> int: ...
    @property
    def rounds(self) -> int | None: ...
    @property
    def boards(self) -> int | None: ...
    @property
    def boards_from_zero(self) -> bool: ...
    @property
    def duration_minutes(self) -> int | None: ...
    @property
    def advance(self) -> int: ...
    @property
    def placement_points(self) -> Any: ...
    @property
    def registration_opens_at(self) -> datetime: ...
    @property
    def registration_closes_at(self) -> datetime | None: ...
    @property
    def starts_at(self) -> datetime: ...
    @property
    def max_players(self) -> int | None: ...
    def table_options(self) -> dict[str, Any]: ...


def tournament_errors(tournament: TournamentSettings) -> dict[str, list[str]]:
    """Field name → messages; empty when the tournament can be scheduled."""
    errors: dict[str, list[str]] = {}

    def add(field: str, message: str) -> None:
        errors.setdefault(field, []).append(message)

    k = tournament.players_per_table
    if k not in (2, 3, 4):
        add("players_per_table", _("Tables seat 2, 3 or 4 players."))
        return errors
    try:
        opts = table_options(
            players=k, preset=tournament.preset, options=tournament.table_options()
        )
    except game_errors.TableError as exc:
        add("options", exc.message)
    else:
        rules = Options.preset(tournament.preset).replace(players=k)
        if tournament.format == Format.DUPLICATE and tournament.boards:
            # A duplicate round's match is its boards (docs/duplicate.md), each from 0:0:0
            # if the organiser chose it: the format's own rules, rated or not.
            rules = rules.replace(
                deals=tournament.boards, boards_from_zero=tournament.boards_from_zero
            )
        if tournament.rated and opts != rules:
            add(
                "rated",
                _("A rated tournament plays its preset's rules unchanged (target included)."),
            )
    low, high = MOVE_SECONDS_RANGE
    if not low <= tournament.move_seconds <= high:
        add(
            "move_seconds",
            _("Seconds per action must be from %(low)s to %(high)s.") % {"low": low, "high": high},
        )
    # docs/spec.md §3.8: the pure duplicate, whether set by the field or in the options.
    pure = tournament.boards_from_zero or (tournament.options or {}).get("boards_from_zero") is True
    if pure and tournament.format != Format.DUPLICATE:
        add("boards_from_zero", _("Only a duplicate tournament plays every board from 0:0:0."))
    if tournament.format == Format.SWISS and not tournament.rounds:
        add("rounds", _("A Swiss tournament needs its number of rounds."))
    if tournament.format == Format.DUPLICATE:
        if not tournament.rounds:
            add("rounds", _("A duplicate tournament needs its number of rounds."))
        if not tournament.boards or not 1 <= tournament.boards <= 100:
            add("boards", _("A duplicate tournament needs 1 to 100 boards a round."))
    if tournament.format == Format.ARENA and not tournament.duration_minutes:
        add("duration_minutes", _("An arena needs its duration."))
    if tournament.format == Format.KNOCKOUT and not 1 <= tournament.advance < k:
        add("advance", _("From 1 to %(most)s players go through from a table.") % {"most": k - 1})
    points = tournament.placement_points
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
    if tournament.registration_opens_at and tournament.starts_at:
        if tournament.registration_opens_at > tournament.starts_at:
            add("registration_opens_at", _("Registration must open before the start."))
        closes = tournament.registration_closes_at
        if (
            closes is not None
            and not tournament.registration_opens_at <= closes <= tournament.starts_at
        ):
            add(
                "registration_closes_at",
                _("Registration closes between its opening and the start."),
            )
    if tournament.max_players is not None and tournament.max_players < 2:
        add("max_players", _("At least two players."))
    return errors
