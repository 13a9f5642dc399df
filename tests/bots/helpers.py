"""Shared set-up for the bot tests: tables in unusual states, bots at test budgets."""

from __future__ import annotations

import random

from games.bots import Bot, Budget, make_bot
from games.engine import Match, Options
from games.engine.dealing import deal_cards as random_cards

# Tiny, time-free budget: fast, and a pure function of seed and view.
TEST_BUDGET = Budget(seconds=None, samples=2)


def table(
    options: Options, seed: int, scores: list[int] | None = None, sitter: int | None = None
) -> Match:
    """A match whose next deal starts from ``scores`` (and a sitter on the barrel)."""
    rng = random.Random(seed)
    dealer = rng.randrange(options.players)
    match = Match.empty(options, first_dealer=dealer)
    if scores is not None:
        match.scores = list(scores)
    if sitter is not None:
        match.scores[sitter] = 880
        match.sitter = sitter
    hands, talons = random_cards(rng, options.players, dealer)
    match.start_deal(hands, talons)
    return match


def bots_for(levels: list[str], seed: int, budget: Budget = TEST_BUDGET) -> list[Bot]:
    return [make_bot(lv, seed=seed + s, budget=budget) for s, lv in enumerate(levels)]


def play_out(match: Match, bots: list[Bot], max_deals: int = 1) -> int:
    """Let the bots play ``max_deals`` deals (new cards each deal); returns decisions made.
    Every decision must be one of the view's legal actions."""
    rng = random.Random(len(match.results))
    decisions = 0
    target = len(match.results) + max_deals
    while match.winner is None and len(match.results) < target:
        if match.awaiting_deal:
            hands, talons = random_cards(rng, match.players, match.dealer)
            match.start_deal(hands, talons)
            continue
        seat = match.to_act
        assert seat is not None
        view = match.view(seat)
        action = bots[seat].decide(view)
        assert action in view.legal, (bots[seat].level, action, view.legal)
        assert action in match.legal_actions()
        match.apply(action, seat=seat)
        decisions += 1
    return decisions
