"""An independent model of the rules (docs/spec.md §2-§6), followed through the events:
it predicts the legal actions and the results, and never asks the engine what the rules
are. The property tests check the engine against it."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from games.engine import (
    BarrelBidding,
    Bid,
    Bolts,
    ChooseTalon,
    Contract,
    Dark,
    Give,
    Look,
    Match,
    Outcome,
    Pass,
    Phase,
    Play,
    Redeal,
    WriteOff,
)
from games.engine import events as ev
from tests.engine.spec_cards import (
    BY_NAME,
    MARRIAGE,
    marriages,
    names,
    points,
    round5,
    trick_winner,
)


@dataclass
class DealModel:
    """docs/spec.md §2, §4, §5, §6 for the deal in progress, followed through the events."""

    dealer: int
    active: tuple[int, ...]
    resting: int | None
    golden: bool
    sitter: int | None  # the sitter if he plays this deal
    red: set[int]
    dark_allowed: bool
    bid: int = 0
    bidder: int | None = None
    called: set[int] = field(default_factory=set)
    passed: set[int] = field(default_factory=set)
    last_caller: int | None = None
    dark_said: bool = False
    dark_standing: bool = False
    declarer: int | None = None
    dark_game: bool = False
    talon_index: int | None = None
    talon_public: bool = False
    receivers_left: set[int] = field(default_factory=set)
    contract: int | None = None
    trump: str | None = None
    trick: list[tuple[int, str]] = field(default_factory=list)
    leader: int | None = None
    tricks_played: int = 0
    points: dict[int, int] = field(default_factory=dict)
    tricks: dict[int, int] = field(default_factory=dict)
    marr: dict[int, int] = field(default_factory=dict)
    outcome: Outcome | None = None
    talon_redeal: bool = False

    @property
    def forced(self) -> int:
        return self.active[0]

    def next_seat(self, seat: int) -> int:
        i = self.active.index(seat)
        return self.active[(i + 1) % len(self.active)]


class Model:
    """An independent model of one match: predicts the legal actions and the results."""

    def __init__(self, match: Match, check: bool = True) -> None:
        self.o = match.options
        self.n = match.players
        self.check = check
        self.scores = [0] * self.n
        self.bolts = [0] * self.n
        self.sitter: int | None = None
        self.attempts = 0
        self.falls = [0] * self.n
        self.deals_played = 0
        self.golden_made = False
        self.winner: int | None = None
        self.finished_by: str | None = None
        self.dealer = match.view(None).dealer
        assert self.dealer is not None
        self.d = self.begin_deal(match)

    # -- a new deal ---------------------------------------------------------------

    def begin_deal(self, match: Match) -> DealModel:
        n, o = self.n, self.o
        v = match.view(None)
        assert v.dealer == self.dealer, "§2.1: the dealer rotates left, not after a redeal"
        dealer = self.dealer
        if n == 4:
            active = tuple((dealer + i) % 4 for i in (1, 2, 3))
        else:
            active = tuple((dealer + 1 + i) % n for i in range(n))
        resting = dealer if n == 4 else None
        golden = o.golden and self.deals_played < n
        sitter = self.sitter if self.sitter != resting else None
        # §3.8: under boards_from_zero every deal starts from 0:0:0 (and nobody ever sits).
        start = [0] * n if o.boards_from_zero else self.scores
        red = set()
        if o.red_threshold is not None:
            red = {s for s in range(n) if start[s] < o.red_threshold}
        forced = active[0]
        dark_allowed = o.dark and not golden and start[forced] >= 0 and self.sitter is None
        d = DealModel(dealer, active, resting, golden, sitter, red, dark_allowed)
        d.points = dict.fromkeys(range(n), 0)
        d.tricks = dict.fromkeys(range(n), 0)
        d.marr = dict.fromkeys(range(n), 0)
        assert v.golden == golden, "§6.2: the first n deals (redeals not counted) are golden"
        assert v.forced == forced
        assert v.resting == resting
        closed = sitter is not None and o.barrel_bidding is BarrelBidding.CLOSED
        if golden or closed:
            # §6.2 / §3: a declarer at 120 without bidding.
            d.bid, d.bidder = 120, forced if golden else sitter
            d.declarer = d.bidder
            d.dark_said = d.dark_game = golden
            assert v.declarer == d.declarer and v.bid == 120
            assert v.phase == ("talon" if n == 2 else "giving")
            assert v.dark == golden
            if n != 2:
                d.talon_index = 0
                d.talon_public = not golden
                d.receivers_left = set(active) - {d.declarer}
            assert match.to_act == d.declarer
        elif dark_allowed:
            assert v.phase == "dark_decision", "§6.1: the forced bidder decides dark or look"
            assert match.to_act == forced
        else:
            self._forced_bid(d)
            assert v.phase == "bidding"
            assert list(v.bids) == [(forced, d.bid)], "§2.2 / §3: the forced opening"
            assert match.to_act == active[1]
        return d

    def _forced_bid(self, d: DealModel) -> None:
        d.bid = 120 if d.forced == d.sitter else 100
        d.bidder = d.forced
        d.last_caller = d.forced

    # -- predictions --------------------------------------------------------------

    def expected_legal(self, match: Match) -> set[Any]:
        d, o = self.d, self.o
        deal = match.deal
        assert deal is not None
        phase = deal.phase
        seat = match.to_act
        assert seat is not None
        hands = [names(h) for h in deal.hands]
        if phase is Phase.DARK_DECISION:
            return {Dark(), Look()}
        if phase is Phase.BIDDING:
            out: set[Any] = {Pass()}
            if seat not in d.red:
                lo = d.bid + 5
                if seat == d.sitter:
                    lo = max(lo, 120)
                hi = 120 + marriages(names(deal.dealt[seat]), o.ace_marriage)
                if not o.bid_jumps:
                    hi = min(hi, lo)
                out |= {Bid(v) for v in range(lo, hi + 1, 5)}
            dealt = names(deal.dealt[seat])
            hand_rule = (
                points(dealt) <= 13
                or sum(c[0] == "9" for c in dealt) >= 3
                or sum(c[0] == "J" for c in dealt) == 4
            )
            if (
                o.redeal
                and not d.golden
                and not d.dark_said
                and seat not in d.called
                and seat not in d.red
                and hand_rule
            ):
                out.add(Redeal())
            return out
        if phase is Phase.TALON:
            return {ChooseTalon(0), ChooseTalon(1)}
        if phase is Phase.GIVING:
            assert seat == d.declarer
            out = {Give(to, BY_NAME[c]) for to in d.receivers_left for c in hands[seat]}
            talon = names(deal.talons[0])
            talon_rule = (
                points(talon) <= 5
                or sum(c[0] == "9" for c in talon) >= 2
                or sum(c[0] == "J" for c in talon) >= 3
            )
            first_give = d.receivers_left == set(d.active) - {seat}
            if (
                o.redeal
                and not d.golden
                and not d.dark_said
                and self.n != 2
                and first_give
                and talon_rule
            ):
                out.add(Redeal())
            return out
        if phase is Phase.CONTRACT:
            assert seat == d.declarer
            if d.dark_game:
                out = {Contract(120)}
            else:
                cap = 120 + marriages(hands[seat], o.ace_marriage)
                out = {Contract(v) for v in range(d.bid, max(d.bid, cap) + 1, 5)}
            if o.write_off and seat != d.sitter:
                out.add(WriteOff())
            return out
        if phase is Phase.PLAY:
            hand = hands[seat]
            if d.trick:
                led = d.trick[0][1][1]
                follow = {c for c in hand if c[1] == led}
                trumps = {c for c in hand if c[1] == d.trump}
                hand = follow or trumps or hand
            return {Play(BY_NAME[c]) for c in hand}
        raise AssertionError(f"no actions expected in phase {phase}")

    def expected_to_act(self) -> int | None:
        d = self.d
        if d.declarer is not None:
            if d.leader is None:
                return d.declarer
            if not d.trick:
                return d.leader
            return d.next_seat(d.trick[-1][0])
        assert d.last_caller is not None
        s = d.next_seat(d.last_caller)
        while s in d.passed:
            s = d.next_seat(s)
        return s

    def before(self, match: Match, action: Any, legal: Any) -> None:
        """Check the legal actions and remember what the action should declare."""
        d = self.d
        if self.check:
            assert set(legal) == self.expected_legal(match)
            assert len(set(legal)) == len(legal), "legal actions are listed once"
            if match.phase is not Phase.DARK_DECISION:
                assert match.to_act == self.expected_to_act()
        self.expected_marriage: tuple[str | None, int] | None = None
        if type(action) is Play and not d.trick and d.tricks_played >= 1:
            # §2.7: leading K or Q with its partner, or an ace holding all four aces.
            assert match.deal is not None
            hand = names(match.deal.hands[match.to_act])  # type: ignore[index]
            card = str(action.card)
            partner = {"K": "Q", "Q": "K"}.get(card[0])
            if partner and partner + card[1] in hand:
                self.expected_marriage = (card[1], MARRIAGE[card[1]])
            elif card[0] == "A" and self.o.ace_marriage and all("A" + s in hand for s in MARRIAGE):
                self.expected_marriage = (None, 200)

    # -- following the events ----------------------------------------------------

    def after(self, match: Match, deal: Any, events: list[Any]) -> None:
        d, o = self.d, self.o
        declared: list[tuple[str | None, int]] = []
        for i, e in enumerate(events):
            t = type(e)
            if t is ev.DealStarted:
                self._finish(match, deal, events[:i])
                if self.finished_by is None:
                    self.d = self.begin_deal(match)
                return
            if t is ev.DarkChosen:
                d.dark_said = d.dark_standing = True
                d.bid, d.bidder, d.last_caller = 120, e.seat, e.seat
            elif t is ev.ForcedBid:
                self._forced_bid(d)
                assert (e.seat, e.value) == (d.forced, d.bid)
            elif t is ev.BidMade:
                assert e.value > d.bid
                d.bid, d.bidder = e.value, e.seat
                d.called.add(e.seat)
                d.last_caller = e.seat
                d.dark_standing = False
            elif t is ev.Passed:
                d.called.add(e.seat)
                d.passed.add(e.seat)
                d.last_caller = e.seat
            elif t is ev.RedealAsked:
                d.outcome = Outcome.REDEAL
                d.talon_redeal = e.by_talon
            elif t is ev.DeclarerKnown:
                assert len(set(d.active) - d.passed) == 1
                assert e.seat == d.bidder == (set(d.active) - d.passed).pop()
                assert e.bid == d.bid
                assert e.dark == d.dark_standing, "§6.1: a standing blind 120 is a dark game"
                d.declarer, d.dark_game = e.seat, e.dark
                if self.n != 2:
                    d.talon_index = 0
                d.receivers_left = set(d.active) - {e.seat}
            elif t is ev.TalonTaken:
                d.talon_index = e.index
                # §2.3, §4, §6.1: shown unless taken at the forced 100 or in a dark game.
                d.talon_public = not d.dark_game and (d.bid != 100 or o.show_talon_on_100)
                assert (e.cards is not None) == d.talon_public
                if e.cards is not None:
                    assert set(map(str, e.cards)) == names(deal.talons[e.index])
                d.receivers_left = set(d.active) - {e.seat}
            elif t is ev.CardGiven:
                assert e.seat == d.declarer
                d.receivers_left.remove(e.to)
            elif t is ev.ContractNamed:
                d.contract = e.value
                d.leader = d.declarer
            elif t is ev.DealWrittenOff:
                d.outcome = Outcome.WRITTEN_OFF
            elif t is ev.MarriageDeclared:
                declared.append((None if e.suit is None else e.suit.letter, e.value))
                d.marr[e.seat] += e.value
                if e.suit is not None:
                    d.trump = e.suit.letter
            elif t is ev.CardPlayed:
                d.trick.append((e.seat, str(e.card)))
            elif t is ev.TrickWon:
                assert [c for _, c in d.trick] == [str(c) for c in e.cards]
                winner = trick_winner(d.trick, d.trump)
                assert e.seat == winner, f"§2.6: {d.trick} trump {d.trump} goes to {winner}"
                assert e.points == points(e.cards)
                d.points[winner] += e.points
                d.tricks[winner] += 1
                d.tricks_played += 1
                d.trick = []
                d.leader = winner
            elif t is ev.DealScored:
                d.outcome = Outcome(e.outcome)
        if self.check and any(type(e) is ev.CardPlayed for e in events):
            assert declared == ([self.expected_marriage] if self.expected_marriage else []), "§2.7"
        if deal.phase is Phase.COMPLETE:
            self._finish(match, deal, events)

    # -- the end of a deal: §2.8, §5, §6.1, then §3 -------------------------------

    def deal_deltas(self, deal: Any) -> tuple[list[int], list[int]]:
        """Deltas and bolts earned, from docs/spec.md alone."""
        d, o, n = self.d, self.o, self.n
        deltas = [0] * n
        gains = [0] * n
        if d.outcome is Outcome.REDEAL:
            return deltas, gains
        assert d.declarer is not None
        dark = d.dark_game
        if d.resting is not None:
            talon = names(deal.talons[0])
            deltas[d.resting] = round5(points(talon)) + sum(
                v for s, v in MARRIAGE.items() if "K" + s in talon and "Q" + s in talon
            )
        if d.outcome is Outcome.WRITTEN_OFF:
            c = 120 if dark else d.bid
            for s in d.active:
                if s == d.declarer:
                    if o.write_off_penalty:
                        deltas[s] = -2 * c if dark else -c
                    else:
                        gains[s] = 2 if dark else 1
                else:
                    deltas[s] = 120 if dark else round5(Fraction(c, 2))
            return deltas, gains
        assert d.contract is not None
        need = 120 if dark else d.contract
        stake = 240 if dark else d.contract
        made = d.points[d.declarer] + d.marr[d.declarer] >= need
        assert d.outcome is (Outcome.MADE if made else Outcome.FAILED)
        for s in d.active:
            if s == d.declarer:
                deltas[s] = stake if made else -stake
            else:
                deltas[s] = (2 if dark else 1) * round5(d.points[s]) + d.marr[s]
            if d.tricks[s] == 0:
                gains[s] = 2 if dark else 1
        return deltas, gains

    def _fall(self, seat: int) -> None:
        self.falls[seat] += 1
        third = self.o.reset_after_third_barrel and self.falls[seat] == 3
        self.scores[seat] = 0 if third else 760
        self.sitter = None
        self.attempts = 0

    def match_steps(self, deltas: list[int], gains: list[int]) -> None:
        """docs/spec.md §3.1–§3.6 and §6.2's golden reset."""
        d, o, n = self.d, self.o, self.n
        self.deals_played += 1
        if d.golden and d.outcome is Outcome.MADE:
            self.golden_made = True
        if o.boards_from_zero:  # §3.8: the deltas add up and nothing else happens
            self.scores = [x + dx for x, dx in zip(self.scores, deltas)]
            self.end_by_deals()
            return
        began = self.sitter
        sitter = self.sitter
        for s in range(n):  # step 1
            if s != sitter:
                self.scores[s] += deltas[s]
        if sitter is not None and sitter != d.resting:  # step 2
            if sitter == d.declarer and d.outcome is Outcome.MADE:
                assert d.contract is not None
                self.scores[sitter] = 880 + d.contract
                self.winner = sitter
                self.finished_by = "won"
                return
            self.attempts += 1
            if self.attempts >= 3:
                self._fall(sitter)
        if o.bolts is not Bolts.OFF:  # step 3
            for s in range(n):
                if not gains[s] or (o.bolts is Bolts.NOT_ON_BARREL and s == began):
                    continue
                self.bolts[s] += gains[s]
                if self.bolts[s] >= 3:
                    self.bolts[s] = 0
                    if s == self.sitter:
                        self._fall(s)
                    else:
                        self.scores[s] -= 120
        if o.barrel:  # step 4
            arrived = [s for s in range(n) if s != self.sitter and self.scores[s] >= 880]
            if len(arrived) == 1:
                if self.sitter is not None:
                    self._fall(self.sitter)
                self.scores[arrived[0]] = 880
                self.sitter = arrived[0]
                self.attempts = 0
            for s in arrived if len(arrived) > 1 else ():
                self.scores[s] = 760
        if o.samosval:  # step 5
            self.scores = [0 if abs(x) == 555 else x for x in self.scores]
        if not o.barrel:  # step 6
            reached = [s for s in range(n) if self.scores[s] >= o.target]
            if len(reached) == 1:
                self.winner = reached[0]
            elif reached:
                if d.declarer in reached:
                    self.winner = d.declarer
                else:
                    top = max(self.scores[s] for s in reached)
                    tops = [s for s in reached if self.scores[s] == top]
                    if len(tops) == 1:
                        self.winner = tops[0]
            if self.winner is not None:
                self.finished_by = "won"
        if d.golden and self.deals_played == n and not self.golden_made and self.winner is None:
            self.scores = [0] * n
            self.bolts = [0] * n
            self.sitter = None
            self.attempts = 0
            self.falls = [0] * n
        self.end_by_deals()

    def end_by_deals(self) -> None:
        # §3.7: the N-th counted deal, fully scored, ends a match not won: the highest wins.
        o, n = self.o, self.n
        if o.deals is not None and self.winner is None and self.deals_played == o.deals:
            top = max(self.scores)
            tops = [s for s in range(n) if self.scores[s] == top]
            self.winner = tops[0] if len(tops) == 1 else None
            self.finished_by = "deals"

    def _finish(self, match: Match, deal: Any, events: list[Any]) -> None:
        d = self.d
        result = match.results[-1]
        deltas, gains = self.deal_deltas(deal)
        before = (list(self.scores), list(self.bolts), self.sitter)
        assert result.outcome is d.outcome
        assert result.dealer == d.dealer
        assert list(result.deltas) == deltas, f"§2.8/§5/§6.1 deltas of {result}"
        if d.outcome is Outcome.REDEAL:
            assert result.contract is None
            assert result.declarer == (d.declarer if d.talon_redeal else None)
            assert (list(result.scores), list(result.bolts), result.barrel) == before
        else:
            self.match_steps(deltas, gains)
            self.dealer = (self.dealer + 1) % self.n
            assert result.declarer == d.declarer
            assert result.contract == (d.bid if d.outcome is Outcome.WRITTEN_OFF else d.contract)
            assert result.dark == d.dark_game and result.golden == d.golden
            assert list(result.scores) == self.scores, f"§3 scores after {result}"
            assert list(result.bolts) == self.bolts, f"§3 bolts after {result}"
            assert result.barrel == self.sitter, f"§3 barrel after {result}"
        assert match.winner == self.winner
        assert (match.finished_by and match.finished_by.value) == self.finished_by
        assert list(match.scores) == self.scores
        if self.finished_by is not None:
            # §8: places by seat, the winner (or everyone sharing the top) first, ties shared.
            first = (
                {self.winner}
                if self.winner is not None
                else {s for s in range(self.n) if self.scores[s] == max(self.scores)}
            )
            order = [(s not in first, -self.scores[s]) for s in range(self.n)]
            assert match.placements == [1 + sorted(order).index(k) for k in order]
        scored = [e for e in events if type(e) is ev.DealScored]
        if scored:
            lines = scored[0].lines
            assert [ln.delta for ln in lines] == deltas
            for ln in lines:
                if ln.role != "resting":
                    assert (ln.card_points, ln.tricks, ln.marriages) == (
                        d.points[ln.seat],
                        d.tricks[ln.seat],
                        d.marr[ln.seat],
                    )
