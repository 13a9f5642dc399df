"""A duplicate round's table in the event's words (docs/duplicate.md): its match of N
deals is the round's N boards, and the table's top score wins nothing by itself — the
event ranks by comparing each board with the other tables."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.pages.options import deals_label


def boards_label(n: int) -> str:
    return ngettext("%(n)s board", "%(n)s boards", n) % {"n": n}


def in_boards(text: str, deals: int | None) -> str:
    """``text`` with the match length said in boards ("2 deals" → "2 boards")."""
    if not deals:
        return text
    return text.replace(deals_label(deals), boards_label(deals))


def duplicate_strings(strings: dict[str, object]) -> dict[str, object]:
    """The table's client strings for a duplicate round's table."""
    return {
        **strings,
        "winner_is": _(
            "{name} scored most at this table. The event ranks nobody by it: each board "
            "is compared with everyone who held the same cards."
        ),
        "note_match_won": _(
            "{name} ends the table's boards with {score}; the event compares each board."
        ),
    }


def duplicate_words(
    options: dict[str, Any], *, strings: dict[str, object], preset: str, lines: list[str]
) -> tuple[dict[str, object], str, list[str]]:
    """The strings, the rules' title and lines of a duplicate round's table."""
    deals = options.get("deals")
    return (
        duplicate_strings(strings),
        in_boards(preset, deals),
        [in_boards(line, deals) for line in lines],
    )
