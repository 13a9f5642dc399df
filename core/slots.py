"""Slots: places in a lower app's page that a higher app fills.

A page of a lower app (a table in ``games``, a tournament, a player's ratings) must not
name a higher app's templates or tags: the layers the Python keeps hold for templates
too (``tests/test_template_layers.py``). So the lower page offers a named slot,
``{% load slots %}{% slot "table_chat" %}``, and a higher app fills it from its
``AppConfig.ready``::

    slots.fill("table_chat", render_table_chat)

A filler takes the template context and the slot's arguments and returns HTML that is
already safe (``render_to_string``, ``format_html``). A slot nobody fills renders
nothing; several fillers render in the order they were registered.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

Filler = Callable[..., str]

_fillers: dict[str, list[Filler]] = {}


def fill(name: str, filler: Filler) -> None:
    """Register ``filler`` for the slot ``name`` (once: registering it again is a no-op,
    so an app's ``ready`` may run twice)."""
    fillers = _fillers.setdefault(name, [])
    if filler not in fillers:
        fillers.append(filler)


def render(name: str, context: Any, *args: Any) -> SafeString:
    """Everything the fillers of ``name`` give, one after another."""
    return mark_safe(
        "".join(str(conditional_escape(f(context, *args))) for f in _fillers.get(name, ()))
    )
