"""§8's replay output (docs/spec.md §8): what ``python -m games.engine replay`` prints.

:func:`replay` takes a parsed record and returns the completed deals, the winner and the
next seat's legal actions, or ``{"error": {"deal": i, "action": j, "reason": …}}``.
"""

from __future__ import annotations

from typing import Any

from .match import Match
from .record import RecordError


def replay_match(match: Match) -> dict[str, Any]:
    """§8's replay output for a match."""
    out: dict[str, Any] = {
        "deals": [r.to_dict() for r in match.results],
        "winner": match.winner,
        "finished_by": None if match.finished_by is None else match.finished_by.value,
    }
    if match.over:
        out["placements"] = match.placements
    else:
        seat = match.to_act
        out["next"] = {"seat": seat, "legal": [a.to_dict() for a in match.legal_actions()]}
    return out


def replay(record: object) -> dict[str, Any]:
    """Replay a parsed record: §8's output object, or its error object."""
    try:
        match = Match.from_record(record)
    except RecordError as exc:
        return exc.to_dict()
    return replay_match(match)


__all__ = ["replay", "replay_match"]
