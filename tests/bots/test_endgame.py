"""The endgame solver equals a brute-force search through the engine."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.bots.endgame import cards_left, solve, solver_for
from games.engine import Match, Options, Phase, Play
from games.engine.deal import Deal


def _brute(deal: Deal) -> int:
    """Declarer's future points and marriages under best team play: every line of play,
    through the engine's own ``apply``, no pruning, no table."""
    if deal.phase is not Phase.PLAY:
        return 0
    decl = deal.declarer
    before = deal.points[decl] + deal.marriages[decl]
    values = []
    for action in deal.legal_actions():
        child = deal.copy()
        child.apply(action)
        gained = child.points[decl] + child.marriages[decl] - before
        values.append(gained + _brute(child))
    return max(values) if deal.to_act == decl else min(values)


def _position(players: int, seed: int, tricks_left: int, ace_marriage: bool) -> Deal | None:
    """A random deal of ``players`` played at random until ``tricks_left`` tricks remain
    (mid-trick sometimes)."""
    rng = random.Random(seed)
    match = Match.new(Options(players=players, ace_marriage=ace_marriage, redeal=False), seed=seed)
    deal = match.deal
    assert deal is not None
    while deal.phase not in (Phase.PLAY, Phase.COMPLETE):
        deal.apply(rng.choice(list(deal.legal_actions())))
    stop = tricks_left * deal.trick_size - rng.randrange(deal.trick_size)
    while deal.phase is Phase.PLAY and cards_left(deal) > stop:
        deal.apply(rng.choice(list(deal.legal_actions())))
    return deal if deal.phase is Phase.PLAY else None


# The arguments of :func:`_position` for positions brute force still searches quickly.
small_positions = given(
    players=st.sampled_from([2, 3, 4]),
    seed=st.integers(0, 10**9),
    tricks_left=st.integers(1, 3),
    ace_marriage=st.booleans(),
)


@settings(max_examples=150, deadline=None)
@small_positions
def test_the_solver_equals_brute_force_on_small_positions(
    players: int, seed: int, tricks_left: int, ace_marriage: bool
) -> None:
    deal = _position(players, seed, tricks_left, ace_marriage)
    if deal is None:
        return
    assert solve(deal) == _brute(deal)


@settings(max_examples=100, deadline=None)
@small_positions
def test_the_card_a_solve_remembers_is_the_first_one_that_keeps_the_value(
    players: int, seed: int, tricks_left: int, ace_marriage: bool
) -> None:
    """What a play-out follows without searching again (``Solver.line_card``) is the card
    the search-per-card rule would pick: the first, high to low, whose value under best
    play (brute force) is the position's."""
    deal = _position(players, seed, tricks_left, ace_marriage)
    if deal is None or len(deal.legal_actions()) < 2:
        return
    solver = solver_for(deal)
    value = solve(deal, solver)
    remembered = solver.line_card(
        tuple(deal.hands), tuple(deal.trick), deal.to_act, deal.trump, deal.tricks_played > 0, value
    )
    decl = deal.declarer
    before = deal.points[decl] + deal.marriages[decl]
    keeping = []
    for action in deal.legal_actions():
        assert isinstance(action, Play)
        child = deal.copy()
        child.apply(action)
        if child.points[decl] + child.marriages[decl] - before + _brute(child) == value:
            keeping.append(action.card.index)
    assert remembered == max(keeping)


def test_a_shared_table_gives_the_same_values_as_fresh_ones() -> None:
    deals = [d for d in (_position(3, s, 3, True) for s in range(40)) if d is not None]
    shared = solver_for(deals[0])
    for d in deals:
        if d.declarer == deals[0].declarer and d.active == deals[0].active:
            assert solve(d, shared) == solve(d)


def test_a_declarer_with_every_trump_master_takes_every_point_left() -> None:
    """Spades trump; the declarer holds A♠ T♠ K♠ and leads: he takes the last three tricks."""
    options = Options(players=3)
    spades = [5, 4, 3]  # A, T, K of spades
    hands = [
        sum(1 << c for c in spades),
        (1 << 6) | (1 << 7) | (1 << 8),
        (1 << 12) | (1 << 13) | (1 << 14),
    ]
    from games.engine.position import deal_at_first_lead

    deal = deal_at_first_lead(
        options, dealer=2, hands=[0xFF, 0xFF << 8, 0xFF << 16], declarer=0, contract=100
    )
    deal.hands = hands
    deal.tricks_played = 5
    deal.trump = 0
    everything = sum(__import__("games.engine.cards", fromlist=["CARD_POINTS"]).CARD_POINTS[c]
                     for h in hands for c in range(24) if h >> c & 1)  # fmt: skip
    assert solve(deal) == everything
