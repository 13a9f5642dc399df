"""What the search bots decide in telling positions: bidding sanity and the
match in the objective. Time-free budgets: each decision is a pure function of the seed."""

from __future__ import annotations

import pytest

from games.bots import Budget, make_bot
from games.bots.objective import WIN, MatchValue
from games.engine import Bid, Bolts, Contract, Match, Options, Pass, Phase, Redeal, WriteOff
from games.engine.cards import parse_card
from games.engine.position import deal_at_first_lead

BUDGET = Budget(seconds=None, samples=60)


def _mask(cards: str) -> int:
    m = 0
    for text in cards.split():
        m |= parse_card(text).mask
    return m


def _three(seat1: str, seat2: str, seat0: str, talon: str, *, options: Options | None = None,
           scores: list[int] | None = None, sitter: int | None = None) -> Match:  # fmt: skip
    """Seat 0 deals: seat 1 sits on the forced 100, seat 2 speaks first."""
    match = Match.empty(options or Options(), first_dealer=0)
    if scores is not None:
        match.scores = list(scores)
    if sitter is not None:
        match.sitter = sitter
    match.start_deal([_mask(seat0), _mask(seat1), _mask(seat2)], (_mask(talon),))
    return match


STRONG_HAND = "AH KH QH AD KD QD AS"  # two marriages (♥ 100, ♦ 80) and three aces
NOTHING = "9S JS QS 9C JC QC KD"  # 14 points, no ace, no marriage


@pytest.mark.parametrize("level", ["strong", "master"])
def test_a_hand_with_two_marriages_and_aces_bids_above_120(level: str) -> None:
    match = _three(
        seat1="TS KS 9H JH TH TC KC",
        seat2=STRONG_HAND,
        seat0="AC JD TD 9D 9C QC JC",
        talon="9S JS QS",
    )
    bot = make_bot(level, seed=3, budget=BUDGET)
    first = bot.decide(match.view(2))
    assert isinstance(first, Bid)
    match.apply(first, seat=2)
    match.apply(Bid(120), seat=0)  # a rival goes to 120
    if match.to_act == 1:
        match.apply(Pass(), seat=1)
    assert match.to_act == 2
    again = bot.decide(match.view(2))
    assert isinstance(again, Bid) and again.value > 120


@pytest.mark.parametrize("level", ["strong", "master"])
def test_a_hand_with_nothing_passes(level: str) -> None:
    match = _three(
        seat1="TS KS 9H JH TH TC KC", seat2=NOTHING, seat0="AC AH KH QH AD TD 9D", talon="AS JD QD"
    )
    decision = make_bot(level, seed=3, budget=BUDGET).decide(match.view(2))
    assert isinstance(decision, Pass)


@pytest.mark.parametrize("seed", [3, 5, 8])
def test_a_hand_that_makes_its_bid_on_any_talon_bids_rather_than_defends(seed: int) -> None:
    """A♠ cashes the first trick and K♥ led to the second declares the ♥ marriage: 111
    and more on any talon, so going on at 105 beats defending. Valued at one contract for
    every talon (the old bidding), going on looked worse than defending with the
    marriage, and the hand passed; the declarer names his contract after the talon."""
    match = _three(
        seat1="JS KS JC TC KD JH AH", seat2="TS AS QD TD 9H QH KH", seat0="9S QS 9C QC 9D JD TH",
        talon="KC AC AD",
    )  # fmt: skip
    decision = make_bot("strong", seed=seed, budget=BUDGET).decide(match.view(2))
    assert decision == Bid(105)


def _contract_choice(sitter: int | None) -> int | None:
    """Seat 2 holds a hand that makes far more than 120 and names its contract."""
    match = _three(
        seat1="9S JS QS 9C JC QC 9D", seat2="AH KH QH TH AD KD QD", seat0="AC TC KC JD TD 9H JH",
        talon="AS TS KS", scores=[300, 200, 880] if sitter is not None else None, sitter=sitter,
    )  # fmt: skip
    bot = make_bot("strong", seed=5, budget=BUDGET)
    while match.deal is not None and match.deal.phase is not Phase.CONTRACT:
        seat = match.to_act
        assert seat is not None
        view = match.view(seat)
        if seat == 2:
            action = bot.decide(view)
            assert not isinstance(action, Redeal)
        else:
            action = Pass() if Pass() in view.legal else view.legal[0]
        match.apply(action, seat=seat)
    decision = bot.decide(match.view(2))
    assert not isinstance(decision, WriteOff)
    assert isinstance(decision, Contract)
    return decision.value


def test_a_player_at_880_on_the_barrel_plays_for_120_where_off_it_he_names_more() -> None:
    """On the barrel any made contract wins the match (docs/spec.md §3): the sitter names 120
    where the same hand off the barrel names more."""
    assert _contract_choice(sitter=2) == 120
    assert (_contract_choice(sitter=None) or 0) > 120


def _one_deal_both_ways(options: Options) -> tuple[object, object]:
    """One played deal in which seat 1 declared and took at least 100, scored at a
    contract of 100 (made) and at one above his take (failed)."""
    hands = [
        _mask("AC TC KC QC AD TD KD QD"),
        _mask("AH TH KH QH JH 9H AS TS"),
        _mask("KS QS JS 9S JC 9C JD 9D"),
    ]
    deal = deal_at_first_lead(options, dealer=2, hands=hands, declarer=1, contract=100)
    while deal.phase is Phase.PLAY:
        deal.apply(deal.legal_actions()[0])
    take = deal.points[1] + deal.marriages[1]
    assert take >= 100
    return deal.rescored(100), deal.rescored((take // 5 + 1) * 5)


def _stake_of_stopping(rival_score: int) -> float:
    """What seat 0, a defender, gains when seat 1 (at ``rival_score``) fails his 100."""
    options = Options(barrel=False, bolts=Bolts.OFF, samosval=False)
    match = Match.empty(options, first_dealer=2)
    match.scores = [600, rival_score, 100]
    value = MatchValue(match.view(0))
    made, failed = _one_deal_both_ways(options)
    return value.of(failed) - value.of(made)  # type: ignore[arg-type]


def test_a_defender_values_stopping_a_rival_at_950_above_everything_else() -> None:
    """At 950 a made 100 wins the match for the rival (docs/spec.md §9.10): stopping him is
    worth a whole match to the defender, far more than stopping a rival far behind."""
    near = _stake_of_stopping(950)
    far = _stake_of_stopping(300)
    assert near >= WIN / 2
    assert near > 2 * far > 0


def test_on_the_barrel_only_making_the_contract_counts() -> None:
    """A sitter's made contract wins whatever its card points; a failed one costs an
    attempt, not points (docs/spec.md §3.2)."""
    options = Options()
    match = Match.empty(options, first_dealer=2)
    match.scores = [300, 880, 200]
    match.sitter = 1
    value = MatchValue(match.view(1))
    made, failed = _one_deal_both_ways(options)
    assert value.of(made) - value.of(failed) >= WIN / 3  # type: ignore[arg-type]
    assert abs(value.of(failed)) < 100  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("limits", "expected"),
    [
        ([0, 0], (1, 100)),  # nobody goes on: the holder declares at his bid
        ([130, 0], (0, 105)),  # a rival outbids him by one step
        ([130, 115], (0, 120)),  # the holder would go to 115: the rival pays just over it
        ([110, 140], (1, 115)),  # the holder goes furthest and pays just over the rival
    ],
)
def test_stopping_hands_the_auction_to_the_rival_who_would_go_furthest(
    monkeypatch: pytest.MonkeyPatch, limits: list[int], expected: tuple[int, int]
) -> None:
    """Seat 1 holds the standing 100; seat 0 has not passed; seat 2 (me) weighs a pass."""
    from games.bots import reading

    monkeypatch.setattr(reading, "limit", lambda view, seat, hand: limits[seat])
    match = _three(
        seat1="TS KS 9H JH TH TC KC", seat2=NOTHING, seat0="AC AH KH QH AD TD 9D", talon="AS JD QD"
    )
    view = match.view(2)
    assert reading.auction_without_me(view, [0, 1], 1, [0, 0, 0]) == expected


def test_a_defender_reads_a_contract_named_above_the_bid_into_the_declarers_hand() -> None:
    """Seat 1 declares at the forced 100 and names 160: most of a defender's sampled
    worlds give him a hand the basic contract rule would name 160 with (an estimate of
    at least 160 + 25 less the slack); of worlds drawn without reading the contract,
    fewer than one in five do."""
    from games.bots import reading, strong
    from games.bots.knowledge import knowledge_of
    from games.bots.policy import estimate_points
    from games.bots.sampling import sample_hands

    match = _three(
        seat1="AH KH QH TH AD TD AS", seat2="9S JS QS 9C JC QC 9D", seat0="KS TS AC TC KC JD QD",
        talon="KD 9H JH",
    )  # fmt: skip
    match.apply(Pass(), seat=2)
    match.apply(Pass(), seat=0)
    for _ in range(2):  # the declarer makes his first legal give twice
        match.apply(next(a for a in match.view(1).legal if a.type == "give"), seat=1)
    match.apply(Contract(160), seat=1)
    view = match.view(2)
    search = strong._Search(strong.StrongBot(seed=1, budget=BUDGET), view)
    know = knowledge_of(view)
    floor = 160 + reading.CONTRACT_READ - reading.CALL_SLACK

    def share(draw: object) -> float:
        hands = [draw()[0][1] for _ in range(200)]  # type: ignore[operator]
        return sum(estimate_points(h, True) >= floor for h in hands) / len(hands)

    read = share(lambda: search._world(know))
    unread = share(lambda: sample_hands(know, search.rng))
    assert read >= 0.5
    assert unread <= 0.2


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_true_layout_fits_every_play_of_the_policy(players: int) -> None:
    """Reading the cards played: at every turn of deals played by basic bots, the real
    hidden cards are a world in which every other seat played what the policy would."""
    import random

    from games.bots import reading
    from games.engine.dealing import deal_cards

    options = Options().replace(players=players)
    checked = 0
    for seed in range(12):
        rng = random.Random(seed)
        dealer = seed % players
        match = Match.empty(options, first_dealer=dealer)
        match.start_deal(*deal_cards(rng, players, dealer))
        bots = [make_bot("basic", seed=s) for s in range(players)]
        while not match.awaiting_deal:
            seat = match.to_act
            assert seat is not None
            view = match.view(seat)
            if view.phase == "play" and view.played_tricks:
                assert match.deal is not None
                assert reading.Plays(view).misfits(match.deal.hands) == 0
                checked += 1
            match.apply(bots[seat].decide(view), seat=seat)
    assert checked > 50


def test_the_contract_named_is_the_best_of_every_value_not_only_of_coarse_steps() -> None:
    """Of many contract values a few evenly spread ones are scored first, then every
    value next to the best of them: of two worlds, the contract named is the highest the
    poorer one makes, not the nearest coarse step below it."""
    from games.bots import strong

    options = Options()
    match = Match.empty(options, first_dealer=2)
    search = strong._Search(strong.StrongBot(seed=1, budget=BUDGET), match.view(1))
    made, _ = _one_deal_both_ways(options)
    poorer = made.copy()  # the same world with 60 card points fewer for the declarer
    poorer.points[1] -= 60
    poorer.points[0] += 60
    take = poorer.points[1] + poorer.marriages[1]
    values = list(range(100, 305, 5))
    _, named = search._best_contract([made, poorer], values, write_off=False)
    assert named == take // 5 * 5
