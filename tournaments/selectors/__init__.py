"""Reads for the tournament pages and API, in parts: ``lists`` (the lists, one tournament,
its rules in plain words), ``player`` (a player's own view: his entry, place, live table
and the table panel), ``rounds`` (entrants, standings, rounds with their tables),
``organiser`` (announcements, notifications, overlaps, sheets, CSV exports) and
``common``; everything public is re-exported here, so callers write
``selectors.standings(…)``."""

from __future__ import annotations

from tournaments.selectors.common import (
    ENTERED,
    MESSAGES,
)
from tournaments.selectors.lists import (
    bot_level,
    rules_in_words,
    status_label,
    tournament_get,
    tournament_lists,
)
from tournaments.selectors.organiser import (
    RESULTS_COLUMNS,
    STANDINGS_COLUMNS,
    NotificationArea,
    announcements,
    csv_text,
    notification_area,
    notification_text,
    overlap_warning,
    overlapping,
    result_rows,
    standings_rows,
    window,
)
from tournaments.selectors.player import (
    TablePanel,
    UserState,
    my_place,
    my_table,
    table_panel,
    user_state,
)
from tournaments.selectors.rounds import (
    RoundView,
    SeatView,
    TableView,
    disqualification_reasons,
    entrants,
    round_sheet,
    rounds,
    standings,
)

__all__ = [
    "ENTERED",
    "MESSAGES",
    "RESULTS_COLUMNS",
    "STANDINGS_COLUMNS",
    "NotificationArea",
    "RoundView",
    "SeatView",
    "TablePanel",
    "TableView",
    "UserState",
    "announcements",
    "bot_level",
    "csv_text",
    "disqualification_reasons",
    "entrants",
    "my_place",
    "my_table",
    "notification_area",
    "notification_text",
    "overlap_warning",
    "overlapping",
    "result_rows",
    "round_sheet",
    "rounds",
    "rules_in_words",
    "standings",
    "standings_rows",
    "status_label",
    "table_panel",
    "tournament_get",
    "tournament_lists",
    "user_state",
    "window",
]
