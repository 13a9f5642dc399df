"""Bot players for Thousand: pure Python on top of the engine (no Django).

A bot decides from its seat's :class:`~games.engine.views.View` only::

    bot = make_bot("strong", seed=7)
    action = bot.decide(match.view(seat))

Levels: ``random`` (a uniformly random legal action), ``basic`` (fast heuristics),
``strong`` (determinized search: samples the unseen cards consistently with what the seat
knows and the calls made, simulates the rest of the deal for every candidate action with
an exact endgame, and values the results by what they do to the match) and ``master``
(the same search with about five times the budget, for practice and analysis; never
picked by the clock or a tournament unless chosen). See docs/bots.md.
"""

from __future__ import annotations

from .base import Bot, Budget, RandomBot
from .basic import BasicBot
from .strong import LIVE_BUDGET, MASTER_BUDGET, MasterBot, StrongBot

LEVELS = ("random", "basic", "strong", "master")


def make_bot(level: str, *, seed: int = 0, budget: Budget | None = None) -> Bot:
    """A bot of ``level``; ``budget`` matters only for ``strong`` (default: the live-table
    budget, :data:`LIVE_BUDGET`) and ``master`` (default :data:`MASTER_BUDGET`)."""
    if level == "random":
        return RandomBot(seed)
    if level == "basic":
        return BasicBot(seed)
    if level == "strong":
        return StrongBot(seed, budget or LIVE_BUDGET)
    if level == "master":
        return MasterBot(seed, budget or MASTER_BUDGET)
    raise ValueError(f"unknown bot level {level!r}; choose one of {', '.join(LEVELS)}")


__all__ = [
    "LEVELS",
    "LIVE_BUDGET",
    "MASTER_BUDGET",
    "BasicBot",
    "Bot",
    "Budget",
    "MasterBot",
    "RandomBot",
    "StrongBot",
    "make_bot",
]
