"""What a new table's settings may be: the preset, the option changes, the bounds.

Pure checks with no database, shared by the table services and by tournaments'
validation (a tournament's tables must be tables the games app would open), so that
tournaments need not import the table services for them.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games import errors
from games.engine import PRESETS, EngineError, InvalidOptions, Options
from games.engine.deal import BARREL_BID
from games.engine.match import BARREL_SCORE

MOVE_SECONDS_RANGE = (5, 600)
# docs/rules.md "Table options"; the engine only needs > 0. The top is far beyond a
# match people play, for bench/table_actions.py's endless matches (target 100,000).
TARGET_RANGE = (100, 100_000)
DEALS_RANGE = (1, 100)  # docs/spec.md §7: the option deals, when a table sets it
PRESET_NAMES = tuple(PRESETS)  # the engine's presets, in its order
# docs/spec.md §3.2, §3.6: with the barrel on, a match is won only from the barrel, with
# 880 + a contract of at least 120; the target is not used.
BARREL_WIN = BARREL_SCORE + BARREL_BID


def table_options(*, players: int, preset: str, options: dict[str, Any] | None) -> Options:
    """The engine options of a new table: the preset, then the given changes."""
    if preset not in PRESET_NAMES:
        raise errors.Malformed(
            f"unknown preset {preset!r}; choose one of {', '.join(PRESET_NAMES)}"
        )
    if options is not None and not isinstance(options, dict):
        raise errors.Malformed("options must be an object")
    data = {**Options.preset(preset).to_dict(), **(options or {}), "players": players}
    try:
        opts = Options.from_dict(data)
    except (InvalidOptions, EngineError) as exc:
        raise errors.Malformed(str(exc)) from None
    low, high = TARGET_RANGE
    if not low <= opts.target <= high:
        raise errors.Malformed(f"option target must be a whole number from {low} to {high}")
    low, high = DEALS_RANGE
    if opts.deals is not None and not low <= opts.deals <= high:
        raise errors.Malformed(f"option deals must be null or a whole number from {low} to {high}")
    return opts


def target_refusal(opts: Options) -> str | None:
    """Why a person may not open a table with this target, or None. With the barrel on
    a match is won only from the barrel, at 1000 or more (docs/spec.md §3.6): a lower
    target would be shown to the players and mean nothing (a table "to 200" played on
    to 1060). The lobby, the API and challenges refuse it; tournaments' tables and a
    script's own tables (bench/) are made by their services, unchecked."""
    if opts.barrel and opts.target < BARREL_WIN:
        return _(
            "With the barrel on, a match is won only from the barrel, with %(least)s or "
            "more: a target of %(target)s would mean nothing. Set the target to %(least)s "
            "or more, or turn the barrel off."
        ) % {"least": BARREL_WIN, "target": opts.target}
    return None
