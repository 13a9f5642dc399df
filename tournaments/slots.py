"""The tournaments' part of a live table's page (core/slots.py): on a tournament table,
the panel that says which tournament and round it belongs to, why it ended, where the
player placed and where he goes next (nothing for other tables)."""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string

from core import slots
from tournaments import selectors


def table_top(context: Any, table: Any) -> str:
    request = context.get("request")
    user = getattr(request, "user", None)
    panel = selectors.table_panel(table_id=table.pk, user=user)
    if panel is None:
        return ""
    return render_to_string(
        "tournaments/_table_panel.html", {"panel": panel, "table_id": table.pk}, request=request
    )


def register() -> None:
    slots.fill("table_top", table_top)
