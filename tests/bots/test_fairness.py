"""A bot decides from its seat's view only: it cannot reach hidden cards."""

from __future__ import annotations

import dataclasses
import gc
import inspect
import random

import pytest

from games.bots import LEVELS, make_bot
from games.bots.base import Bot
from games.engine import Deal, Match, Options
from games.engine.views import View

from .helpers import TEST_BUDGET, bots_for, random_cards


def _reachable(root: object, limit: int = 20_000) -> list[object]:
    seen: dict[int, object] = {}
    stack = [root]
    while stack and len(seen) < limit:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, type):
            continue
        seen[id(obj)] = obj
        stack.extend(gc.get_referents(obj))
    return list(seen.values())


def test_decide_takes_a_view_and_nothing_else() -> None:
    for level in LEVELS:
        bot = make_bot(level, seed=1)
        params = list(inspect.signature(bot.decide).parameters.values())
        assert [p.name for p in params] == ["view"]


def test_a_view_holds_no_reference_to_the_match_or_the_deal() -> None:
    match = Match.new(Options(), seed=3)
    view = match.view(match.to_act)
    assert all(
        not isinstance(getattr(view, f.name), (Match, Deal)) for f in dataclasses.fields(View)
    )
    assert not any(isinstance(o, (Match, Deal)) for o in _reachable(view))


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_keeps_no_reference_to_the_match(level: str) -> None:
    match = Match.new(Options(), seed=5)
    bot = make_bot(level, seed=1, budget=TEST_BUDGET)
    for _ in range(12):
        seat = match.to_act
        assert seat is not None
        match.apply(bot.decide(match.view(seat)), seat=seat)
    assert not any(isinstance(o, (Match, Deal)) for o in _reachable(bot))


def _swap_hidden(
    hands: list[int], talons: tuple[int, ...], seat: int, rng: random.Random
) -> tuple[list[int], tuple[int, ...]]:
    """Move cards between the hands (and talons) ``seat`` cannot see, keeping sizes."""
    piles = [s for s in range(len(hands)) if s != seat and hands[s]]
    groups = [hands[s] for s in piles] + list(talons)
    cards = [c for g in groups for c in range(24) if g >> c & 1]
    rng.shuffle(cards)
    out = []
    i = 0
    for g in groups:
        size = g.bit_count()
        m = 0
        for c in cards[i : i + size]:
            m |= 1 << c
        out.append(m)
        i += size
    new_hands = list(hands)
    for s, m in zip(piles, out):
        new_hands[s] = m
    return new_hands, tuple(out[len(piles) :])


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_hidden_cards_do_not_change_a_decision(level: str, players: int) -> None:
    """Same view, different hidden cards: the same decision."""
    rng = random.Random(players)
    options = Options(players=players)
    for trial in range(15):
        dealer = trial % players
        hands, talons = random_cards(rng, players, dealer)
        one = Match.empty(options, first_dealer=dealer)
        one.start_deal(hands, talons)
        seat = one.to_act
        assert seat is not None
        other_hands, other_talons = _swap_hidden(hands, talons, seat, rng)
        two = Match.empty(options, first_dealer=dealer)
        two.start_deal(other_hands, other_talons)
        v1, v2 = one.view(seat), two.view(seat)
        assert v1 == v2
        bot: Bot = bots_for([level], trial)[0]
        assert bot.decide(v1) == bot.decide(v2)
