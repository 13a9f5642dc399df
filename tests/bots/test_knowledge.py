"""The knowledge a bot draws from its view is true, and samples respect it."""

from __future__ import annotations

import random

import pytest

from games.bots.knowledge import knowledge_of, suit_void_mask
from games.bots.sampling import sample_hands
from games.engine import Options
from games.engine.cards import mask_marriages

from .helpers import bots_for, table


@pytest.mark.parametrize(
    "options",
    [
        Options(),
        Options(players=2),
        Options(players=4),
        Options(show_talon_on_100=True),
        Options(dark=True),
    ],
    ids=["classic", "two", "four", "show_talon", "dark"],
)
def test_knowledge_never_contradicts_the_hidden_cards(options: Options) -> None:
    """Known cards are held, excluded cards and void suits are not, every sample has the
    right sizes and uses every card once."""
    rng = random.Random(1)
    for seed in range(60):
        match = table(options, seed)
        bots = bots_for(["random" if seed % 2 else "basic"] * options.players, seed)
        while not match.awaiting_deal:
            seat = match.to_act
            assert seat is not None
            view = match.view(seat)
            know = knowledge_of(view)
            deal = match.deal
            assert deal is not None
            for s in range(options.players):
                if s == seat:
                    continue
                true = deal.hands[s]
                assert not know.known[s] & ~true
                assert not know.excluded[s] & true
                assert not suit_void_mask(know.voids[s]) & true
            if view.phase == "bidding":
                for s in range(options.players):
                    if s != seat and know.marriage_floor[s]:
                        held = mask_marriages(deal.hands[s], options.ace_marriage)
                        assert held >= know.marriage_floor[s]
            if know.maybe_talon:
                assert not know.maybe_talon & ~(
                    deal.hands[know.declarer] | deal.hands[know.maybe_seat]
                )
            if view.hand is not None:
                hands, piles = sample_hands(know, rng)
                assert [h.bit_count() for h in hands] == list(know.sizes)
                union = 0
                for m in hands + piles:
                    assert not union & m
                    union |= m
                assert union | know.played == (1 << 24) - 1
            match.apply(bots[seat].decide(view), seat=seat)
