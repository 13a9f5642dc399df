"""The ``strong`` and ``master`` bots: determinized search that bids and plays the match.

Every decision samples the cards its seat cannot see, consistently with what the seat
knows (:mod:`games.bots.knowledge`, :mod:`games.bots.sampling`; in the bidding also with
the calls made so far, read as information), builds each sampled world with the engine
(:func:`games.engine.position.deal_from_view`) and plays the rest of the deal out for every
candidate: the :mod:`games.bots.policy` heuristics while many cards remain, then the exact
endgame solver (:mod:`games.bots.endgame`) for the last tricks. The same samples serve
every candidate (common random numbers). A finished world is valued by what it does to the
match (:mod:`games.bots.objective`: the barrel, bolts, samosval, the red threshold, a rival
near the target), not by raw points, and the candidate with the best mean wins.

- Dark or look (§6.1): the blind seat's whole deal is sampled; ``dark`` when declaring
  blind at 120 is worth more than a normal deal (valued 0).
- Bidding: going on (the lowest legal bid, as declarer: talon taken, heuristic gives,
  played out) against stopping (the standing bidder declares at his bid and I defend);
  bid while going on is worth more; a redeal when both are worth less than a new deal.
- Gives (and the talon redeal): pairs of the least useful cards with both receivers, each
  plan valued at its best contract or write-off over the samples.
- Contract and write-off: one play-out per sample, scored again at every contract value
  (:meth:`Deal.rescored`) and as a write-off.
- Play: every legal card on every sample; with few tricks left the whole rest is solved
  exactly on each sample.
- The two-player talon choice stays the first talon: both lie face down, nothing tells
  them apart.

``master`` is the same search with a larger budget and exact play from one trick earlier.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations

from games.engine.actions import (
    DARK,
    LOOK,
    PASS,
    REDEAL,
    WRITE_OFF,
    Action,
    Bid,
    Contract,
    Give,
)
from games.engine.deal import Deal, Outcome, Phase
from games.engine.position import deal_at_first_lead, deal_from_view
from games.engine.views import View

from .base import Budget, SampleClock, decision_rng, require_turn
from .basic import BasicBot
from .endgame import Solver, play_exactly
from .knowledge import Knowledge, knowledge_of
from .objective import MatchValue
from .policy import cards_to_give, estimate_points, rollout
from .reading import (
    CALL_SLACK,
    Plays,
    Told,
    active,
    auction_without_me,
    blind_world,
    contract_values,
    fits,
    kept,
    talons,
)
from .sampling import sample_hands

# The budget at live tables: well under a second at the 99th percentile on two busy cores.
LIVE_BUDGET = Budget(seconds=0.3, samples=400)
# Practice and analysis: about five times the search.
MASTER_BUDGET = Budget(seconds=1.5, samples=2000)
GIVE_CANDIDATES = 5
CALL_REDRAWS = 8
# In the play a sampled world is also read by the cards played: of this many draws the
# first in which every other seat played as the policy would with its cards is kept,
# else the one with the fewest plays it would not have made.
PLAY_REDRAWS = 8
# A declarer writes off, in a bidding simulation, when his hand after the talon and the
# gives is this far below the price (the rule the basic bot uses).
WRITE_OFF_GAP = 30
CONTRACT_STEPS = 8
# Bidding: going on is valued with the contract named after the talon, this far below
# what a sampled world's play-out takes (the declarer will not see the other hands).
CONTRACT_MARGIN = 0
# Master names its contract on worlds played exactly from this many tricks left (five of
# eight with three players: the first three tricks by the policy), measured by
# bench/contract.py against best play from six tricks left.
CONTRACT_TRICKS = 5
# Gives: every plan is played on the first PRUNE_AFTER samples, then the best KEEP_PLANS.
PRUNE_AFTER = 6
KEEP_PLANS = 4
# A plan of gives: (the seat given to, the card's index) for each other seat.
GivePlan = tuple[tuple[int, int], ...]
_PLAY = Phase.PLAY


class StrongBot:
    level = "strong"

    def __init__(
        self,
        seed: int = 0,
        budget: Budget = LIVE_BUDGET,
        *,
        leaf_tricks: int = 3,
        exact_tricks: int = 3,
    ) -> None:
        self.seed = seed
        self.budget = budget
        self.leaf_tricks = leaf_tricks  # play-outs switch to the exact solver here
        self.exact_tricks = exact_tricks  # a real decision is solved exactly from here
        self._fallback = BasicBot(seed)

    # The contract is named on worlds played with best play from this many tricks left
    # (None: the leaf depth, as every other play-out).
    contract_tricks: int | None = None

    # A live table must never stall on a bot: if the search fails (a bug), fall back to the
    # basic decision. The tests set this to True so that such a bug fails loudly.
    strict = False

    def decide(self, view: View) -> Action:
        require_turn(view)
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        try:
            return self.search(view).decide()
        except Exception:
            if self.strict:
                raise
            return self._fallback.decide(view)

    def search(self, view: View) -> _Search:
        """The search of one decision (the bench's ``bench/ceiling.py`` swaps in one that
        is told the hidden cards, to measure what not knowing them costs)."""
        return _Search(self, view)


class MasterBot(StrongBot):
    level = "master"

    def __init__(self, seed: int = 0, budget: Budget = MASTER_BUDGET) -> None:
        super().__init__(seed, budget, leaf_tricks=3, exact_tricks=4)

    contract_tricks: int | None = CONTRACT_TRICKS


class _Search:
    """One decision: the view, its knowledge, the random numbers, the clock, the value of
    results for the seat and the exact solvers (one per declarer)."""

    def __init__(self, bot: StrongBot, view: View) -> None:
        self.bot = bot
        self.view = view
        self.legal = view.legal
        self.rng = decision_rng(bot.seed, view)
        self.clock = SampleClock(bot.budget)
        self.value = MatchValue(view)
        self.solvers: dict[int, Solver] = {}
        assert view.seat is not None
        self.me = view.seat
        self._told: Told | None = None

    def decide(self) -> Action:
        phase = self.view.phase
        if phase == "dark_decision":
            return self._dark()
        if phase == "talon":
            return self.legal[0]  # both talons are face down: nothing to choose on
        know = knowledge_of(self.view)
        if phase == "play":
            return self._play(know)
        if phase == "bidding":
            return self._bid(know)
        if phase == "giving":
            return self._give(know)
        if phase == "contract":
            return self._contract(know)
        return self.bot._fallback.decide(self.view)

    # -- playing a world out ----------------------------------------------------------

    def _solver(self, deal: Deal) -> Solver:
        solver = self.solvers.get(deal.declarer)
        if solver is None:
            solver = self.solvers[deal.declarer] = Solver(
                declarer=deal.declarer, order=deal.active, ace_marriage=deal.options.ace_marriage
            )
        return solver

    def finish(self, deal: Deal, exact_from: int | None = None) -> Deal:
        """Play ``deal`` to its end (in place): the policy for every seat until
        ``exact_from`` tricks remain (default: the bot's leaf depth), then best play."""
        tricks = self.bot.leaf_tricks if exact_from is None else exact_from
        rollout(deal, stop=tricks * deal.trick_size)
        if deal.phase is _PLAY:
            play_exactly(deal, self._solver(deal))
        return deal

    def declare(
        self, declarer: int, hands: Sequence[int], talon: int, price: int, *, dark: bool = False
    ) -> Deal:
        """A sampled world played out with ``declarer`` at ``price``: he takes ``talon``,
        gives his least useful cards, names ``price`` (or writes off a hopeless hand, when
        he may) and everybody plays."""
        view = self.view
        options = view.options
        h = list(hands)
        h[declarer] |= talon
        dealer = view.dealer if view.dealer is not None else 0
        deal_seats = [s for s in active(view) if s != declarer]
        for to, c in zip(deal_seats, cards_to_give(h[declarer], len(deal_seats))):
            h[declarer] &= ~(1 << c)
            h[to] |= 1 << c
        deal = deal_at_first_lead(
            options, dealer=dealer, hands=h, declarer=declarer, contract=price, dark=dark, golden=view.golden,
            sitter=view.barrel, talons=talons(view, talon),
        )  # fmt: skip
        self.finish(deal)
        hopeless = estimate_points(h[declarer], options.ace_marriage) < price - WRITE_OFF_GAP
        if hopeless and not dark and deal.can_write_off():
            return deal.rescored(None)
        return deal

    # -- dark or look ------------------------------------------------------------------

    def _dark(self) -> Action:
        return DARK if self.dark_value() > 0 and DARK in self.legal else LOOK

    def dark_value(self) -> float:
        """The mean value of declaring blind at 120 over the sampled whole deals (a
        normal deal is worth 0)."""
        total = 0.0
        n = 0
        for _ in self.clock.samples():
            hands, talon = blind_world(self.view, self.rng)
            total += self.value.of(self.declare(self.me, hands, talon, 120, dark=True))
            n += 1
        return total / n if n else 0.0

    # -- bidding -----------------------------------------------------------------------

    def _bid(self, know: Knowledge) -> Action:
        legal = self.legal
        bids = sorted(a.value for a in legal if isinstance(a, Bid))
        can_pass = PASS in legal
        can_redeal = REDEAL in legal
        if not bids:
            return PASS if can_pass else legal[0]
        lo = bids[0]
        going, stop = self.bid_values(know, [lo])
        go = going[lo]
        if can_redeal and max(go, stop) < 0:
            return REDEAL
        if go > stop or not can_pass:
            return Bid(lo)
        return PASS

    def bid_values(self, know: Knowledge, prices: Sequence[int]) -> tuple[dict[int, float], float]:
        """The mean values, over the sampled worlds, of going on at each of ``prices``
        (declarer at that price, naming his contract after the talon) and of stopping (the
        auction goes on without me: a rival still bidding who would outbid the standing
        bid declares, else the holder of the standing bid, and I defend)."""
        view = self.view
        me = self.me
        standing = [s for s, v in view.bids if v is not None]
        holder = standing[-1] if standing else -1
        rivals = [s for s in active(view) if s != me and s not in view.passed]
        going = dict.fromkeys(prices, 0.0)
        stop = 0.0
        n = 0
        for _ in self.clock.samples():
            hands, piles = self._world(know)
            talon = piles[0] if piles else 0
            for price in prices:
                going[price] += self._named_after_talon(
                    self.declare(me, hands, talon, price), price
                )
            if holder in rivals:
                winner, price = auction_without_me(view, rivals, holder, hands)
                dark = view.dark and winner == holder
                stop += self.value.of(self.declare(winner, hands, talon, price, dark=dark))
            n += 1
        n = max(n, 1)
        return {p: v / n for p, v in going.items()}, stop / n

    def _named_after_talon(self, deal: Deal, price: int) -> float:
        """The value of a world played out at ``price`` when the declarer names his
        contract after taking the talon, as he will: what the world's play-out takes less
        :data:`CONTRACT_MARGIN` (he does not see the other hands), between the price and
        the cap of his marriages then. One contract for every world instead would value a hand
        that makes 180 with one talon and 120 with another at 120."""
        if deal.outcome is Outcome.WRITTEN_OFF:
            return self.value.of(deal)
        me = self.me
        take = deal.points[me] + deal.marriages[me]
        cap = deal.bid_caps[me]  # the marriages in his hand after the talon and the gives
        named = max(price, min(cap, (take - CONTRACT_MARGIN) // 5 * 5))
        return self.value.of(_scored_at(deal, named))

    def _world(self, know: Knowledge) -> tuple[list[int], list[int]]:
        """A layout of the unseen cards in which every other seat's hand fits what it
        said, in every phase: its bids and passes (a voluntary bid of v needs a basic
        estimate of at least v − slack, a pass an estimate below the price it passed at
        + slack), read on the cards it was dealt as far as I can tell them (its hand now,
        the cards it has played, less those I gave it); and a declarer who named more
        than his bid holds a hand that the basic contract rule would name it with (less
        the slack). Drawn again a few times, then taken as it is."""
        fits = self._fits
        layout = sample_hands(know, self.rng)
        for _ in range(CALL_REDRAWS):
            if fits(layout[0]):
                break
            layout = sample_hands(know, self.rng)
        return layout

    def _played_world(self, know: Knowledge, plays: Plays) -> list[int]:
        """A layout of the unseen cards read by the calls (as :meth:`_world`) and by the
        cards played: of :data:`PLAY_REDRAWS` draws, the first in which every other seat
        played what the policy would have played with its cards in that layout, else the
        one with the fewest such misfits (a world that does not fit the calls counts as
        misfitting every play)."""
        best: list[int] | None = None
        best_miss = 1 << 30
        for _ in range(PLAY_REDRAWS):
            hands = sample_hands(know, self.rng)[0]
            miss = plays.misfits(hands, best_miss) if self._fits(hands) else 1000
            if miss < best_miss:
                best, best_miss = hands, miss
                if miss == 0:
                    break
        assert best is not None
        return best

    def _fits(self, hands: Sequence[int]) -> bool:
        view = self.view
        told = self._told
        if told is None:
            told = self._told = Told(view)
        for s, bid, price in told.calls:
            if not fits(view, hands[s] & ~told.gave[s] | told.played[s], bid, price):
                return False
        if told.named:
            decl = view.declarer
            assert decl is not None
            held = hands[decl] | told.played[decl]
            if estimate_points(held, view.options.ace_marriage) < told.named - CALL_SLACK:
                return False
        return True

    # -- declarer: gives and contract --------------------------------------------------

    def _give(self, know: Knowledge) -> Action:
        valued = self.give_plan_values(know)
        best_plan, best_ev = valued[0][0], float("-inf")
        for plan, ev in valued:
            if ev > best_ev:
                best_plan, best_ev = plan, ev
        if best_ev < 0 and REDEAL in self.legal:
            return REDEAL
        to, card = best_plan[0]
        gives = [a for a in self.legal if isinstance(a, Give)]
        for g in gives:
            if g.to == to and g.card.index == card:
                return g
        return gives[0]

    def give_plan_values(
        self,
        know: Knowledge,
        *,
        also: int | None = None,
        keep: Callable[[GivePlan], bool] = lambda plan: False,
    ) -> list[tuple[GivePlan, float]]:
        """The plans of gives (a card to each other seat, from the likeliest cards to give
        and ``also``) with their values at their best contract, of the plans played to
        the end: the best :data:`KEEP_PLANS` after :data:`PRUNE_AFTER` samples, best
        first, then those ``keep`` asks for (the analysis: the plan a player chose)."""
        receivers = sorted({a.to for a in self.legal if isinstance(a, Give)})
        hand = know.hand
        me = self.me
        cands = cards_to_give(hand, GIVE_CANDIDATES + len(receivers) - 1)
        if also is not None and also not in cands:
            cands = [*cands, also]
        plans: list[GivePlan] = []
        if len(receivers) == 1:
            plans = [((receivers[0], c),) for c in cands]
        else:
            r0, r1 = receivers
            for a, b in combinations(cands, 2):
                plans.append(((r0, a), (r1, b)))
                plans.append(((r0, b), (r1, a)))
        # Every plan on the first samples, then only the best few: most plans are
        # plainly worse, and the search spends its budget telling the good ones apart.
        worlds: list[list[Deal]] = [[] for _ in plans]
        alive = list(range(len(plans)))
        for n, _ in enumerate(self.clock.samples()):
            if n == PRUNE_AFTER and len(alive) > KEEP_PLANS:
                evs = {i: self._plan_value(worlds[i], hand, plans[i]) for i in alive}
                top = sorted(alive, key=lambda i: -evs[i])[:KEEP_PLANS]
                alive = top + [i for i in alive if i not in top and keep(plans[i])]
            hands, _piles = self._world(know)
            for i in alive:
                h = list(hands)
                for to, c in plans[i]:
                    h[me] &= ~(1 << c)
                    h[to] |= 1 << c
                worlds[i].append(self._play_contract(h))
        return [(plans[i], self._plan_value(worlds[i], hand, plans[i])) for i in alive]

    def _plan_value(self, worlds: list[Deal], hand: int, plan: GivePlan) -> float:
        return self._best_contract(worlds, contract_values(self.view, kept(hand, plan)))[0]

    def _contract(self, know: Knowledge) -> Action:
        values = [a.value for a in self.legal if isinstance(a, Contract)]
        worlds = self.contract_worlds(know)
        _, choice = self._best_contract(worlds, values)
        if choice is None:
            return WRITE_OFF if WRITE_OFF in self.legal else Contract(min(values))
        return Contract(choice)

    def _play_contract(self, hands: list[int], exact_from: int | None = None) -> Deal:
        """A world played out from the first lead at the winning bid (after the gives),
        with best play from ``exact_from`` tricks left (default: the bot's leaf depth)."""
        view = self.view
        dealer = view.dealer if view.dealer is not None else 0
        bid = 120 if view.dark else (view.bid or 100)
        deal = deal_at_first_lead(
            view.options, dealer=dealer, hands=hands, declarer=self.me, contract=bid, dark=view.dark,
            golden=view.golden, sitter=view.barrel,
        )  # fmt: skip
        return self.finish(deal, exact_from)

    def contract_worlds(self, know: Knowledge) -> list[Deal]:
        """The worlds the contract is named on: each played out at the bid, with best play
        from the bot's :attr:`~StrongBot.contract_tricks` tricks left (the policy alone
        underrates the declarer's own play, so contracts came out too low)."""
        worlds = []
        for _ in self.clock.samples():
            hands, _piles = self._world(know)
            worlds.append(self._play_contract(hands, self.bot.contract_tricks))
        return worlds

    def _best_contract(
        self, worlds: list[Deal], values: Sequence[int], *, write_off: bool = True
    ) -> tuple[float, int | None]:
        """(mean value, contract) of the best contract over ``worlds`` (each played out at
        the bid; a world already written off stays so), ``None`` for a write-off. A
        contract above every world's take is never better than the highest one some world
        makes, so those are not scored, and of many values at most :data:`CONTRACT_STEPS`
        evenly spread ones are, then every value next to the best of them."""
        if not worlds:
            return 0.0, min(values)
        me = self.me
        top = max(d.points[me] + d.marriages[me] for d in worlds)
        useful = [c for c in values if c <= top] or [values[0]]
        coarse = useful
        if len(useful) > CONTRACT_STEPS:
            step = (len(useful) - 1) / (CONTRACT_STEPS - 1)
            coarse = sorted({useful[round(i * step)] for i in range(CONTRACT_STEPS)})
        evs: dict[int, float] = {}

        def ev_at(c: int) -> float:
            ev = evs.get(c)
            if ev is None:
                ev = evs[c] = sum(self.value.of(_scored_at(d, c)) for d in worlds) / len(worlds)
            return ev

        rough = max(coarse, key=lambda c: (ev_at(c), -c))
        # Then every value between the best coarse one's neighbours.
        i = coarse.index(rough)
        lo = coarse[i - 1] if i else rough
        hi = coarse[i + 1] if i + 1 < len(coarse) else rough
        fine = max((c for c in useful if lo <= c <= hi), key=lambda c: (ev_at(c), -c))
        best_ev: float = evs[fine]
        best_c: int | None = fine
        if write_off and worlds[0].can_write_off():
            wo = sum(self.value.of(_scored_at(d, None)) for d in worlds) / len(worlds)
            if wo > best_ev:
                best_ev, best_c = wo, None
        return best_ev, best_c

    # -- play --------------------------------------------------------------------------

    def _play(self, know: Knowledge) -> Action:
        actions = list(self.legal)
        totals, _ = self.play_totals(know)
        best = max(range(len(actions)), key=lambda i: (totals[i], -i))
        return actions[best]

    def play_totals(self, know: Knowledge) -> tuple[list[float], int]:
        """The summed value of every legal card over the sampled worlds, and how many
        worlds there were."""
        view = self.view
        actions = list(self.legal)
        totals = [0.0] * len(actions)
        left = sum(view.hand_sizes)
        k = len(active(view))
        exact = left <= self.bot.exact_tricks * k
        plays = Plays(view)
        n = 0
        for _ in self.clock.samples():
            hands = self._played_world(know, plays)
            try:
                world = deal_from_view(view, hands)
            except ValueError:
                continue  # a sample the knowledge could not make consistent
            n += 1
            for i, action in enumerate(actions):
                deal = world.copy()
                deal.apply(action)
                totals[i] += self.value.of(
                    self.finish(deal, self.bot.exact_tricks if exact else None)
                )
        return totals, n


def _scored_at(deal: Deal, contract: int | None) -> Deal:
    """``deal`` scored at ``contract`` (``None``: written off); a written-off deal as is."""
    if deal.outcome is Outcome.WRITTEN_OFF or (contract is not None and contract == deal.contract):
        return deal
    return deal.rescored(contract)


__all__ = ["LIVE_BUDGET", "MASTER_BUDGET", "MasterBot", "StrongBot"]
