"""The score sheet as the clubs keep it: one row per completed deal (redeals included),
built from the engine's deal result and the events of the deal's end (docs/protocol.md §6)."""

from __future__ import annotations

from typing import Any

SHEET_NOTES = {
    "BarrelAttempt",
    "BarrelArrived",
    "BarrelFell",
    "BoltPenalty",
    "Samosval",
    "GoldenReset",
    "MatchWon",
    "MatchFinished",
}


def sheet_row(
    number: int, result: Any, bid: int | None, pending: list[dict[str, Any]]
) -> dict[str, Any]:
    """One score-sheet row: the engine's deal result, the score lines of its DealScored
    event (card points, marriages, tricks, delta, bolts per seat) and what the docs/spec.md §3 steps
    did after it (barrel, bolt penalties, samosval)."""
    scored = pending[0] if pending and pending[0]["type"] == "deal_scored" else None
    row = result.to_dict()
    row.update(
        deal=number,
        bid=bid if result.outcome.value != "redeal" else None,
        golden=result.golden,
        dark=result.dark,
        lines=scored["lines"] if scored else [],
        notes=pending[1:] if scored else [],
    )
    return row
