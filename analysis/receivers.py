"""What the analysis app does when a match finishes: note the practice hints used in its
record."""

from __future__ import annotations

from typing import Any

from analysis.hints import hints_note


def on_match_finished(sender: Any, *, table_id: int, **kwargs: Any) -> None:
    hints_note(table_id=table_id)
