"""The ceiling bench (bench/ceiling.py): its strong is told the hidden cards in the phases
it names and guesses them in the others, so what it measures is what guessing costs."""

from __future__ import annotations

import random

from bench.ceiling import PHASES, SeeingStrongBot
from games.bots import BasicBot, Budget
from games.bots.knowledge import knowledge_of
from games.bots.reading import Plays
from games.engine import Deal, Match, Options, Phase
from games.engine.dealing import deal_cards

BUDGET = Budget(seconds=None, samples=3)


def _match_at_first_lead(seed: int) -> Match:
    """A deal among basic bots, stopped where the first card is to be played."""
    rng = random.Random(seed)
    while True:
        match = Match.empty(Options.preset("classic"), first_dealer=0)
        match.start_deal(*deal_cards(rng, 3, 0))
        bots = [BasicBot(s) for s in range(3)]
        while match.phase is not Phase.PLAY and not match.awaiting_deal:
            seat = match.to_act
            assert seat is not None
            match.apply(bots[seat].decide(match.view(seat)), seat=seat)
        if match.phase is Phase.PLAY:
            return match


def _seer(match: Match, variant: str) -> SeeingStrongBot:
    def real() -> Deal:
        assert match.deal is not None
        return match.deal

    return SeeingStrongBot(1, BUDGET, real, PHASES[variant])


def test_a_strong_bot_that_sees_the_play_samples_the_true_layout() -> None:
    match = _match_at_first_lead(7)
    view = match.view(match.to_act)
    search = _seer(match, "sees-play").search(view)
    assert match.deal is not None
    assert search._played_world(knowledge_of(view), Plays(view)) == list(match.deal.hands)


def test_a_strong_bot_that_sees_only_the_bidding_still_guesses_in_the_play() -> None:
    match = _match_at_first_lead(7)
    view = match.view(match.to_act)
    search = _seer(match, "sees-bidding").search(view)
    assert match.deal is not None
    guesses = [search._played_world(knowledge_of(view), Plays(view)) for _ in range(3)]
    assert any(g != list(match.deal.hands) for g in guesses)
