"""Records to analyse: matches played by bots, cut where a test needs them."""

from __future__ import annotations

import copy
from typing import Any

from games.bots import make_bot
from games.engine import Match, Options


def bot_record(seed: int, deals: int, level: str = "basic", players: int = 3) -> dict[str, Any]:
    """The record of the first ``deals`` deals of a match of ``level`` bots."""
    match = Match.new(Options(players=players), seed=seed)
    bots = [make_bot(level, seed=seed + s) for s in range(players)]
    while match.winner is None and len(match.results) < deals:
        seat = match.to_act
        assert seat is not None
        match.apply(bots[seat].decide(match.view(seat)), seat=seat)
    record = match.to_record()
    record["deals"] = record["deals"][:deals]
    return record


def cut(record: dict[str, Any], deal: int, action: int) -> dict[str, Any]:
    """``record`` up to and including action ``action`` of deal ``deal``."""
    out = copy.deepcopy(record)
    out["deals"] = out["deals"][: deal + 1]
    out["deals"][deal]["actions"] = out["deals"][deal]["actions"][: action + 1]
    return out
