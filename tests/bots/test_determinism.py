"""The same seed, view and budget give the same decision."""

from __future__ import annotations

import pytest

from games.bots import LEVELS, Budget, make_bot
from games.engine import Match, Options

from .helpers import TEST_BUDGET


def _views(players: int, seed: int, count: int) -> list[object]:
    match = Match.new(Options(players=players), seed=seed)
    driver = make_bot("basic", seed=0)
    views = []
    while len(views) < count and match.to_act is not None:
        view = match.view(match.to_act)
        views.append(view)
        match.apply(driver.decide(view), seat=match.to_act)
    return views


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_same_seed_view_and_budget_same_decision(level: str, players: int) -> None:
    budget = Budget(seconds=None, samples=6) if level == "strong" else TEST_BUDGET
    for view in _views(players, seed=11, count=30):
        first = make_bot(level, seed=4, budget=budget).decide(view)  # type: ignore[arg-type]
        bot = make_bot(level, seed=4, budget=budget)
        assert bot.decide(view) == first  # type: ignore[arg-type]
        assert bot.decide(view) == first  # type: ignore[arg-type]


def test_random_bot_depends_on_its_seed() -> None:
    views = [v for v in _views(3, seed=2, count=40) if len(v.legal) > 3]  # type: ignore[attr-defined]
    picks = {tuple(make_bot("random", seed=s).decide(v) for v in views) for s in range(5)}  # type: ignore[arg-type]
    assert len(picks) > 1
