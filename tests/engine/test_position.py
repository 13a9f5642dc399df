"""The position constructors of ``games/engine/position.py``: a deal rebuilt from a seat's
view and the true hidden cards behaves exactly like the real deal from there on."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Match, Options, Phase
from games.engine.position import deal_at_first_lead, deal_from_view, match_at_standing
from tests.engine.shared import options_st

REBUILT_PHASES = (Phase.BIDDING, Phase.GIVING, Phase.CONTRACT, Phase.PLAY)


def _finish_both(real: Match, rebuilt_deal: object, rng: random.Random) -> None:
    """Play the rest of the real deal with random legal actions, applying each to the
    rebuilt deal too; the legal actions agree at every step and so do the results."""
    deal = real.deal
    assert deal is not None
    other = rebuilt_deal
    while deal.phase is not Phase.COMPLETE:
        legal = list(deal.legal_actions())
        assert sorted(map(repr, legal)) == sorted(map(repr, other.legal_actions()))  # type: ignore[attr-defined]
        assert deal.to_act == other.to_act  # type: ignore[attr-defined]
        action = rng.choice(legal)
        deal.apply(action)
        other.apply(action)  # type: ignore[attr-defined]
    assert other.phase is Phase.COMPLETE  # type: ignore[attr-defined]
    assert other.deltas == deal.deltas  # type: ignore[attr-defined]
    assert other.bolts == deal.bolts  # type: ignore[attr-defined]
    assert other.outcome == deal.outcome  # type: ignore[attr-defined]


@settings(max_examples=60, deadline=None)
@given(options=options_st, seed=st.integers(0, 10**6), stop=st.integers(0, 40))
def test_a_deal_rebuilt_from_a_view_and_the_true_cards_plays_on_like_the_real_one(
    options: Options, seed: int, stop: int
) -> None:
    rng = random.Random(seed)
    match = Match.new(options, seed=seed)
    for _ in range(stop):
        if match.to_act is None:
            break
        match.apply(rng.choice(list(match.legal_actions())))
    deal = match.deal
    if match.to_act is None or deal is None or deal.phase not in REBUILT_PHASES:
        return
    view = match.view(match.to_act)
    if view.hand is None:
        return  # playing blind: the seat's hand is not in its view
    rebuilt = deal_from_view(view, list(deal.hands), list(deal.talons))
    _finish_both(match, rebuilt, rng)


def _view_in_play(seed: int) -> tuple[Match, object]:
    rng = random.Random(seed)
    match = Match.new(Options(), seed=seed)
    while match.deal is not None and match.deal.phase is not Phase.PLAY:
        match.apply(rng.choice(list(match.legal_actions())))
    return match, match.view(match.to_act)


def test_a_guess_that_gives_the_seat_another_hand_is_refused() -> None:
    match, view = _view_in_play(3)
    assert match.deal is not None
    hands = list(match.deal.hands)
    me = view.seat  # type: ignore[attr-defined]
    other = next(s for s in range(3) if s != me and hands[s])
    # Swap one card between me and another seat: sizes stay right, my hand does not.
    mine = hands[me] & -hands[me]
    theirs = hands[other] & -hands[other]
    hands[me] ^= mine | theirs
    hands[other] ^= mine | theirs
    with pytest.raises(ValueError, match="own hand"):
        deal_from_view(view, hands)  # type: ignore[arg-type]


def test_a_guess_with_a_card_already_played_is_refused() -> None:
    rng = random.Random(5)
    match = Match.new(Options(), seed=5)
    while match.deal is not None and not (
        match.deal.phase is Phase.PLAY and match.deal.tricks_played >= 1
    ):
        match.apply(rng.choice(list(match.legal_actions())))
    assert match.deal is not None
    view = match.view(match.to_act)
    hands = list(match.deal.hands)
    me = match.to_act
    other = next(s for s in range(3) if s != me)
    played_card = match.deal.history[0][0][1]
    hands[other] = (hands[other] & ~(hands[other] & -hands[other])) | 1 << played_card
    with pytest.raises(ValueError, match="placed twice or already played"):
        deal_from_view(view, hands)


def test_a_position_is_built_only_in_the_phases_with_a_hand_to_play() -> None:
    match = Match.empty(Options(players=3), first_dealer=0)
    view = match.view(0)
    with pytest.raises(ValueError, match="no position"):
        deal_from_view(view, [0, 0, 0])


def test_the_first_lead_position_refuses_a_card_held_twice() -> None:
    full = (1 << 8) - 1
    with pytest.raises(ValueError, match="must hold 8 cards of its own"):
        deal_at_first_lead(
            Options(), dealer=0, hands=[full, full, full << 8], declarer=1, contract=100
        )


def test_a_standing_match_scores_a_deal_by_the_match_steps() -> None:
    """A sitter on the barrel who makes his contract wins the match (§3.2)."""
    match = Match.empty(Options(), first_dealer=0)
    match.scores = [880, 300, 200]
    match.sitter = 0
    view = match.view(0)
    standing = match_at_standing(view)
    hands = [0xFF, 0xFF << 8, 0xFF << 16]  # seat 0: every spade (a marriage) and two clubs
    deal = deal_at_first_lead(Options(), dealer=2, hands=hands, declarer=0, contract=120, sitter=0)
    while deal.phase is Phase.PLAY:
        deal.apply(deal.legal_actions()[0])
    assert deal.points[0] + deal.marriages[0] >= 120
    standing.score_deal(deal)
    assert standing.winner == 0


def test_a_dark_outbid_still_forbids_the_redeal_in_the_rebuilt_deal() -> None:
    """§9.1: no redeal in a deal in which dark was said, even after it is outbid."""
    from games.engine import Bid, Dark
    from games.engine.cards import parse_card

    def mask(text: str) -> int:
        return sum(parse_card(c).mask for c in text.split())

    match = Match.empty(Options(dark=True, redeal=True), first_dealer=0)
    match.start_deal(
        [mask("9S 9C 9D JS JC QS QC"), mask("AS TS KS AC TC KC 9H"), mask("KH QH AH TH KD QD AD")],
        (mask("JD TD JH"),),
    )
    match.apply(Dark(), seat=1)
    match.apply(Bid(125), seat=2)
    assert match.deal is not None and match.to_act == 0
    view = match.view(0)
    rebuilt = deal_from_view(view, list(match.deal.hands), list(match.deal.talons))
    assert "redeal" not in [a.type for a in rebuilt.legal_actions()]
    assert list(rebuilt.legal_actions()) == list(match.deal.legal_actions())
