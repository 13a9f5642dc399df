"""The state of a deal (``games/engine/deal_state.py``): its copy, which bots make
thousands of times per decision, is equal to the original and shares no list with it."""

from __future__ import annotations

import random

from games.engine import Deal, Options, Phase, deal_cards
from games.engine.deal_state import DealState


def a_deal_in_play() -> Deal:
    hands, talons = deal_cards(random.Random(5), 3, 0)
    deal = Deal(options=Options(), dealer=0, hands=hands, talons=talons)
    deal.start(False)
    while deal.phase is not Phase.PLAY or not deal.history:
        deal.apply(deal.legal_actions()[0])
    return deal


def test_a_copy_has_every_field_and_shares_no_list_with_the_original():
    deal = a_deal_in_play()
    copy = deal.copy()
    assert type(copy) is Deal
    for name in DealState.__slots__:
        value = getattr(deal, name)
        assert getattr(copy, name) == value, name
        if isinstance(value, list):
            assert getattr(copy, name) is not value, name
    copy.apply(copy.legal_actions()[0])
    assert (deal.hands, deal.trick) != (copy.hands, copy.trick)
