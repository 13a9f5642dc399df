"""One deal as a state machine: (dark decision →) bidding → talon → gives → contract →
play → scored (docs/spec.md §2, §4, §5, §6).

A :class:`Deal` knows the cards and the calls of one deal; the match (``match.py``) tells
it what the scores imply for this deal (who sits on the barrel, who is below the red
threshold, whether the deal is golden or dark may be played) and applies its result.
Cards are integers and hands are bitmasks (see ``cards.py``); :meth:`Deal.copy` is cheap,
for bots that simulate thousands of deals.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum, IntEnum

from .actions import (
    BIDS,
    CHOOSE_TALONS,
    CONTRACTS,
    DARK,
    GIVES,
    LOOK,
    MAX_VALUE,
    PASS,
    PLAYS,
    REDEAL,
    WRITE_OFF,
    Action,
    Bid,
    ChooseTalon,
    Contract,
    Dark,
    Give,
    Look,
    Pass,
    Play,
    Redeal,
    WriteOff,
)
from .cards import (
    ACE_MARRIAGE_VALUE,
    ACES_MASK,
    CARD_POINTS,
    CARDS,
    JACKS_MASK,
    KQ_MASKS,
    MARRIAGE_VALUES,
    NINES_MASK,
    SUIT_MASKS,
    Card,
    Suit,
    mask_cards,
    mask_marriages,
    mask_points,
    round5,
    round5_int,
)
from .errors import IllegalAction, MalformedAction, NotYourTurn
from .events import (
    BidMade,
    CardGiven,
    CardPlayed,
    ContractNamed,
    DarkChosen,
    DealScored,
    DealWrittenOff,
    DeclarerKnown,
    Event,
    ForcedBid,
    LookChosen,
    MarriageDeclared,
    Passed,
    RedealAsked,
    ScoreLine,
    TalonTaken,
    TrickWon,
)
from .options import BarrelBidding, Options


class Phase(IntEnum):
    DARK_DECISION = 0
    BIDDING = 1
    TALON = 2  # two players: choose one of the two talons (§4)
    GIVING = 3  # the talon redeal is asked here, before the first give (§2.9)
    CONTRACT = 4
    PLAY = 5
    COMPLETE = 6


_DARK_DECISION = Phase.DARK_DECISION
_BIDDING = Phase.BIDDING
_TALON = Phase.TALON
_GIVING = Phase.GIVING
_CONTRACT = Phase.CONTRACT
_PLAY = Phase.PLAY
_COMPLETE = Phase.COMPLETE


class Outcome(str, Enum):
    MADE = "made"
    FAILED = "failed"
    WRITTEN_OFF = "written_off"
    REDEAL = "redeal"


FORCED_BID = 100
BARREL_BID = 120  # a sitter's bids (and a dark or golden contract) are at least this (§3, §6)
_KING = 3
_QUEEN = 2
_ACE = 5

# Next seat clockwise among the deal's active seats, per (players, dealer).
_ACTIVE: dict[tuple[int, int], tuple[int, ...]] = {}
for _n in (2, 3, 4):
    for _d in range(_n):
        if _n == 4:
            _ACTIVE[_n, _d] = ((_d + 1) % 4, (_d + 2) % 4, (_d + 3) % 4)
        else:
            _ACTIVE[_n, _d] = tuple((_d + 1 + i) % _n for i in range(_n))


_ACTIVE_MASK: dict[tuple[int, int], int] = {
    key: sum(1 << s for s in seats) for key, seats in _ACTIVE.items()
}
_NEXT: dict[tuple[int, int], list[int]] = {}
for (_n, _d), _seats in _ACTIVE.items():
    _NEXT[_n, _d] = [-1] * _n
    for _i, _s in enumerate(_seats):
        _NEXT[_n, _d][_s] = _seats[(_i + 1) % len(_seats)]


def active_seats(players: int, dealer: int) -> tuple[int, ...]:
    """The seats that play a deal, clockwise from the forced bidder (left of the dealer);
    with four players the dealer rests (§5)."""
    return _ACTIVE[players, dealer]


def hand_allows_redeal(dealt: int) -> bool:
    """§2.9 and §9.1: the dealt hand is worth ≤ 13 points, or holds ≥ 3 nines, or 4 jacks."""
    return (
        mask_points(dealt) <= 13
        or (dealt & NINES_MASK).bit_count() >= 3
        or dealt & JACKS_MASK == JACKS_MASK
    )


def talon_allows_redeal(talon: int) -> bool:
    """§2.9 and §9.1: the talon is worth ≤ 5 points, or holds ≥ 2 nines, or ≥ 3 jacks."""
    return (
        mask_points(talon) <= 5
        or (talon & NINES_MASK).bit_count() >= 2
        or (talon & JACKS_MASK).bit_count() >= 3
    )


def talon_score(talon: int) -> int:
    """The resting dealer's score with four players: round5 of the talon's card points,
    plus a marriage's value if K and Q of one suit lie in it (§5, §9.7)."""
    score = round5_int(mask_points(talon))
    for s in range(4):
        if talon & KQ_MASKS[s] == KQ_MASKS[s]:
            score += MARRIAGE_VALUES[s]
    return score


# The Play actions of every 6-bit pattern of each suit: a legal-card mask becomes a tuple
# of actions with four look-ups (one when following suit).
_SUIT_PLAYS: tuple[tuple[tuple[Play, ...], ...], ...] = tuple(
    tuple(tuple(PLAYS[6 * s + r] for r in range(6) if pattern >> r & 1) for pattern in range(64))
    for s in range(4)
)
_P0, _P1, _P2, _P3 = _SUIT_PLAYS
_SUIT_GIVES: tuple[tuple[tuple[tuple[Give, ...], ...], ...], ...] = tuple(
    tuple(
        tuple(
            tuple(GIVES[to][6 * s + r] for r in range(6) if pattern >> r & 1)
            for pattern in range(64)
        )
        for s in range(4)
    )
    for to in range(4)
)
_SHIFT = (0, 6, 12, 18)
# _TRICK_KEYS[trump + 1][led suit][card]: a trump beats the suit led, which beats the rest;
# within a suit the rank decides (§2.6).
_TRICK_KEYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(
            100 + c % 6 if c // 6 == trump else (10 + c % 6 if c // 6 == led else -1)
            for c in range(24)
        )
        for led in range(4)
    )
    for trump in range(-1, 4)
)
_PASS_ONLY: tuple[Action, ...] = (PASS,)
_PASS_REDEAL: tuple[Action, ...] = (PASS, REDEAL)
_WRITE_OFF_ONLY: tuple[Action, ...] = (WRITE_OFF,)
_DARK_OR_LOOK: tuple[Action, ...] = (DARK, LOOK)
_ACTION_KINDS = frozenset(
    {Bid, Pass, Redeal, Dark, Look, ChooseTalon, Give, Contract, WriteOff, Play}
)
_CARD_PLAYED: tuple[tuple[CardPlayed, ...], ...] = tuple(
    tuple(CardPlayed(seat, c) for c in CARDS) for seat in range(4)
)
# Events that carry no more than a seat and a number are made once and shared (events are
# read-only by convention, see events.py).
_BID_MADE = tuple(tuple(BidMade(seat, v) for v in range(0, MAX_VALUE + 1, 5)) for seat in range(4))
_CONTRACT_NAMED = tuple(
    tuple(ContractNamed(seat, v) for v in range(0, MAX_VALUE + 1, 5)) for seat in range(4)
)
_PASSED = tuple(Passed(seat) for seat in range(4))
_CARD_GIVEN = tuple(tuple(CardGiven(seat, to) for to in range(4)) for seat in range(4))
_PLAYED_ONLY: tuple[tuple[tuple[Event, ...], ...], ...] = tuple(
    tuple((event,) for event in row) for row in _CARD_PLAYED
)


_new_deal = object.__new__


class Deal:
    """One deal. Build it with the dealt cards and the match's circumstances; then
    :meth:`legal_actions` and :meth:`apply` until :attr:`phase` is ``COMPLETE``."""

    __slots__ = (
        "active",
        "active_mask",
        "any_bid",
        "bid",
        "bidder",
        "bids",
        "bolts",
        "called",
        "caps",
        "contract",
        "dark",
        "dark_game",
        "dark_said",
        "dealer",
        "dealt",
        "declarer",
        "deltas",
        "forced",
        "given",
        "golden",
        "hands",
        "history",
        "k",
        "last_trick",
        "leader",
        "marriages",
        "n_tricks",
        "nxt",
        "options",
        "outcome",
        "passed",
        "phase",
        "played",
        "players",
        "points",
        "receivers_left",
        "red_limited",
        "redeal_ok",
        "resting",
        "sitter",
        "talon_index",
        "talon_open",
        "talons",
        "to_act",
        "trick",
        "trick_no",
        "trick_seats",
        "tricks",
        "trump",
    )  # fmt: skip

    players: int
    dealer: int
    options: Options
    golden: bool
    sitter: int  # the seat on the barrel if it plays this deal, else -1
    red_limited: int  # mask of seats below the red threshold (§6.3)
    resting: int
    active: tuple[int, ...]
    active_mask: int
    nxt: list[int]
    k: int
    forced: int
    n_tricks: int
    redeal_ok: bool
    dealt: tuple[int, ...]
    talons: tuple[int, ...]
    hands: list[int]
    caps: list[int]
    phase: Phase
    to_act: int
    bid: int
    bidder: int
    any_bid: bool
    passed: int
    called: int
    dark: bool
    dark_said: bool
    dark_game: bool
    declarer: int
    contract: int
    talon_index: int
    talon_open: bool
    receivers_left: int
    given: list[int]
    trump: int
    leader: int
    trick: list[int]
    trick_seats: list[int]
    trick_no: int
    points: list[int]
    tricks: list[int]
    marriages: list[int]
    outcome: Outcome | None
    deltas: list[int]
    bolts: list[int]
    bids: list[tuple[int, int | None]]
    last_trick: tuple[tuple[int, int], ...]
    played: int
    history: list[tuple[tuple[int, int], ...]]  # completed tricks: (seat, card) in play order

    def __init__(
        self,
        *,
        options: Options,
        dealer: int,
        hands: list[int],
        talons: tuple[int, ...],
        golden: bool = False,
        sitter: int | None = None,
        red_limited: int = 0,
    ) -> None:
        n = options.players
        self.players = n
        self.dealer = dealer
        self.options = options
        self.golden = golden
        self.resting = dealer if n == 4 else -1
        self.sitter = sitter if sitter is not None and sitter != self.resting else -1
        self.red_limited = red_limited
        self.active = active = _ACTIVE[n, dealer]
        self.active_mask = _ACTIVE_MASK[n, dealer]
        self.nxt = _NEXT[n, dealer]  # shared, never mutated
        self.k = len(active)
        self.forced = active[0]
        self.n_tricks = 11 if n == 2 else 8
        self.redeal_ok = options.redeal and not golden
        self.dealt = tuple(hands)
        self.talons = talons
        self.hands = list(hands)
        ace = options.ace_marriage
        self.caps = [120 + mask_marriages(h, ace) for h in hands]
        self.bid = 0
        self.bidder = -1
        self.any_bid = False
        self.passed = 0
        self.called = 0
        self.dark = self.dark_said = self.dark_game = False
        self.declarer = -1
        self.contract = 0
        self.talon_index = -1
        self.talon_open = False
        self.receivers_left = 0
        self.given = [-1] * n
        self.trump = -1
        self.leader = -1
        self.trick = []
        self.trick_seats = []
        self.trick_no = 0
        self.points = [0] * n
        self.tricks = [0] * n
        self.marriages = [0] * n
        self.outcome = None
        self.deltas = [0] * n
        self.bolts = [0] * n
        self.bids = []
        self.last_trick = ()
        self.played = 0
        self.history = []
        self.phase = _BIDDING
        self.to_act = -1

    # -- starting ---------------------------------------------------------------------

    def start(self, dark_allowed: bool) -> list[Event]:
        """The automatic first steps: golden or closed-barrel declarer, the dark decision,
        or the forced opening."""
        events: list[Event] = []
        forced = self.forced
        if self.golden:
            # §6.2: the forced bidder is declarer at 120 with no bidding and plays dark.
            self.dark_said = self.dark = True
            self.bid, self.bidder = BARREL_BID, forced
            self._declarer_known(forced, events)
        elif self.sitter >= 0 and self.options.barrel_bidding is BarrelBidding.CLOSED:
            # §3: with closed barrel bidding the sitter is declarer at 120 without bidding.
            self.bid, self.bidder = BARREL_BID, self.sitter
            self._declarer_known(self.sitter, events)
        elif dark_allowed:
            self.phase = _DARK_DECISION
            self.to_act = forced
        else:
            self._open_bidding(events)
        return events

    def _open_bidding(self, events: list[Event]) -> None:
        forced = self.forced
        # A sitter who opens sits on 120, not 100 (§3).
        self.bid = BARREL_BID if forced == self.sitter else FORCED_BID
        self.bidder = forced
        self.bids.append((forced, self.bid))
        events.append(ForcedBid(forced, self.bid))
        self.phase = _BIDDING
        self.to_act = self.nxt[forced]

    # -- queries ----------------------------------------------------------------------

    def copy(self) -> Deal:
        """An independent copy (cheap: bots copy deals thousands of times)."""
        o = _new_deal(Deal)
        o.players = self.players
        o.dealer = self.dealer
        o.options = self.options
        o.golden = self.golden
        o.sitter = self.sitter
        o.red_limited = self.red_limited
        o.resting = self.resting
        o.active = self.active
        o.nxt = self.nxt
        o.k = self.k
        o.forced = self.forced
        o.n_tricks = self.n_tricks
        o.redeal_ok = self.redeal_ok
        o.dealt = self.dealt
        o.talons = self.talons
        o.hands = self.hands[:]
        o.caps = self.caps
        o.phase = self.phase
        o.to_act = self.to_act
        o.bid = self.bid
        o.bidder = self.bidder
        o.any_bid = self.any_bid
        o.passed = self.passed
        o.called = self.called
        o.dark = self.dark
        o.dark_said = self.dark_said
        o.dark_game = self.dark_game
        o.declarer = self.declarer
        o.contract = self.contract
        o.talon_index = self.talon_index
        o.talon_open = self.talon_open
        o.receivers_left = self.receivers_left
        o.given = self.given[:]
        o.trump = self.trump
        o.leader = self.leader
        o.trick = self.trick[:]
        o.trick_seats = self.trick_seats[:]
        o.trick_no = self.trick_no
        o.points = self.points[:]
        o.tricks = self.tricks[:]
        o.marriages = self.marriages[:]
        o.outcome = self.outcome
        o.deltas = self.deltas[:]
        o.bolts = self.bolts[:]
        o.bids = self.bids[:]
        o.last_trick = self.last_trick
        o.played = self.played
        o.history = self.history[:]
        o.active_mask = self.active_mask
        return o

    @property
    def complete(self) -> bool:
        return self.phase is _COMPLETE

    def bid_range(self, seat: int) -> tuple[int, int]:
        """Lowest and highest bid ``seat`` may make now (empty when lo > hi)."""
        if self.red_limited >> seat & 1:
            return (1, 0)
        lo = self.bid + 5
        if seat == self.sitter and lo < BARREL_BID:
            lo = BARREL_BID
        hi = self.caps[seat]
        if not self.options.bid_jumps and hi > lo:
            hi = lo
        return lo, hi

    def can_redeal(self) -> bool:
        """Whether the seat to act may ask for a redeal now (§2.9, §9.1)."""
        if not self.redeal_ok or self.dark_said:
            return False
        seat = self.to_act
        if self.phase is _BIDDING:
            return (
                not (self.called >> seat & 1)
                and not (self.red_limited >> seat & 1)
                and hand_allows_redeal(self.dealt[seat])
            )
        if self.phase is _GIVING:
            # Only the hand rule applies with two players.
            return (
                self.players != 2
                and self.receivers_left == self._receivers()
                and talon_allows_redeal(self.talons[0])
            )
        return False

    def contract_range(self) -> tuple[int, int]:
        if self.dark_game:
            return BARREL_BID, BARREL_BID
        cap = 120 + mask_marriages(self.hands[self.declarer], self.options.ace_marriage)
        return self.bid, max(self.bid, cap)

    def can_write_off(self) -> bool:
        # §9.8: only the sitter himself may never write off.
        return self.options.write_off and self.declarer != self.sitter

    def playable_mask(self) -> int:
        """The cards the seat to act may play (§2.6)."""
        hand = self.hands[self.to_act]
        if not self.trick:
            return hand
        m = hand & SUIT_MASKS[self.trick[0] // 6]
        if m:
            return m
        if self.trump >= 0:
            m = hand & SUIT_MASKS[self.trump]
            if m:
                return m
        return hand

    def legal_actions(self) -> Sequence[Action]:
        phase = self.phase
        if phase is _PLAY:
            hand = self.hands[self.to_act]
            trick = self.trick
            if trick:
                suit = trick[0] // 6
                pattern = hand >> _SHIFT[suit] & 63
                if pattern:
                    return _SUIT_PLAYS[suit][pattern]
                suit = self.trump
                if suit >= 0:
                    pattern = hand >> _SHIFT[suit] & 63
                    if pattern:
                        return _SUIT_PLAYS[suit][pattern]
            return _P0[hand & 63] + _P1[hand >> 6 & 63] + _P2[hand >> 12 & 63] + _P3[hand >> 18]
        if phase is _BIDDING:
            seat = self.to_act
            lo, hi = self.bid_range(seat)
            # Only a seat's first call can be a redeal: skip the check after it (§2.9).
            calls = _PASS_ONLY if self.called >> seat & 1 or not self.can_redeal() else _PASS_REDEAL
            return BIDS[lo // 5 : hi // 5 + 1] + calls if lo <= hi else calls
        if phase is _GIVING:
            out: list[Action] = []
            if self.can_redeal():
                out.append(REDEAL)
            hand = self.hands[self.declarer]
            left = self.receivers_left
            for to in self.active:
                if left >> to & 1:
                    g0, g1, g2, g3 = _SUIT_GIVES[to]
                    out += g0[hand & 63]
                    out += g1[hand >> 6 & 63]
                    out += g2[hand >> 12 & 63]
                    out += g3[hand >> 18]
            return out
        if phase is _CONTRACT:
            lo, hi = self.contract_range()
            contracts = CONTRACTS[lo // 5 : hi // 5 + 1]
            return contracts + _WRITE_OFF_ONLY if self.can_write_off() else contracts
        if phase is _TALON:
            return CHOOSE_TALONS
        if phase is _DARK_DECISION:
            return _DARK_OR_LOOK
        return ()

    # -- applying ---------------------------------------------------------------------

    def apply(self, action: Action, seat: int | None = None) -> Sequence[Event]:
        """Apply ``action`` for the seat to act; ``seat``, when given, must be that seat.
        Returns the events it caused. Raises :class:`NotYourTurn` or
        :class:`IllegalAction` and then changes nothing.

        Playing a card is written out here rather than in a helper: it is the engine's
        hottest path (bots play out thousands of deals per decision)."""
        if not (
            type(action) is Play and self.phase is _PLAY and (seat is None or seat == self.to_act)
        ):
            return self._apply_call(action, seat)
        seat = self.to_act
        card = action.card.index
        bit = 1 << card
        hands = self.hands
        hand = hands[seat]
        trick = self.trick
        marriage: MarriageDeclared | None = None
        if trick:
            # §2.6: follow suit; else trump if a trump is set and held; else anything.
            legal = hand & SUIT_MASKS[trick[0] // 6]
            if not legal:
                trump = self.trump
                if trump >= 0:
                    legal = hand & SUIT_MASKS[trump]
                if not legal:
                    legal = hand
            if not legal & bit:
                if not hand & bit:
                    raise IllegalAction(f"{CARDS[card]} is not in your hand")
                raise IllegalAction(f"{CARDS[card]} may not be played: follow suit, else trump")
        else:
            if not hand & bit:
                raise IllegalAction(f"{CARDS[card]} is not in your hand")
            if self.trick_no:
                # §2.7: leading K or Q from the second trick on, holding its partner,
                # declares the marriage; leading an ace holding all four, the ace marriage.
                rank = card % 6
                if rank == _KING or rank == _QUEEN:
                    suit = card // 6
                    if hand & KQ_MASKS[suit] == KQ_MASKS[suit]:
                        value = MARRIAGE_VALUES[suit]
                        self.marriages[seat] += value
                        self.trump = suit
                        marriage = MarriageDeclared(seat, Suit(suit), value)
                elif rank == _ACE and hand & ACES_MASK == ACES_MASK and self.options.ace_marriage:
                    self.marriages[seat] += ACE_MARRIAGE_VALUE
                    marriage = MarriageDeclared(seat, None, ACE_MARRIAGE_VALUE)
        hands[seat] = hand ^ bit
        trick.append(card)
        self.trick_seats.append(seat)
        self.played |= bit
        if len(trick) < self.k:
            self.to_act = self.nxt[seat]
            if marriage is None:
                return _PLAYED_ONLY[seat][card]  # the common case: one prebuilt event
            return [marriage, _CARD_PLAYED[seat][card]]
        events: list[Event] = [_CARD_PLAYED[seat][card]]
        self._close_trick(events)
        return events

    def _apply_call(self, action: Action, seat: int | None) -> Sequence[Event]:
        """Every action but a card played in turn."""
        to_act = self.to_act
        phase = self.phase
        kind = type(action)
        if seat is not None and seat != to_act and phase is not _COMPLETE:
            raise NotYourTurn(f"seat {to_act} is to act, not seat {seat}")
        events: list[Event] = []
        if kind not in _ACTION_KINDS:
            raise MalformedAction(f"not an action: {action!r}")
        elif phase is _COMPLETE:
            raise IllegalAction("the deal is complete")
        elif kind is Play:
            raise IllegalAction("no card can be played now")
        elif phase is _BIDDING:
            if kind is Bid:
                self._bid(to_act, action.value, events)  # type: ignore[union-attr]
            elif kind is Pass:
                self._pass(to_act, events)
            elif kind is Redeal and self.can_redeal():
                self.phase = _COMPLETE
                self.outcome = Outcome.REDEAL
                events.append(RedealAsked(to_act, False))
            else:
                raise IllegalAction(f"{action.type} is not a bidding call now")
        elif phase is _GIVING:
            if kind is Give:
                self._give(action.to, action.card.index, events)  # type: ignore[union-attr]
            elif kind is Redeal and self.can_redeal():
                self.phase = _COMPLETE
                self.outcome = Outcome.REDEAL
                events.append(RedealAsked(to_act, True))
            else:
                raise IllegalAction(f"{action.type} is not allowed now: give a card")
        elif phase is _CONTRACT:
            if kind is Contract:
                lo, hi = self.contract_range()
                value = action.value  # type: ignore[union-attr]
                if value % 5 or not lo <= value <= hi:
                    raise IllegalAction(f"contract {value} is outside {lo}..{hi} in steps of 5")
                self.contract = value
                self.phase = _PLAY
                self.leader = self.declarer
                events.append(_CONTRACT_NAMED[to_act][value // 5])
            elif kind is WriteOff:
                if not self.can_write_off():
                    raise IllegalAction("writing off is not allowed")
                self.contract = self.bid
                self._write_off(events)
            else:
                raise IllegalAction(f"{action.type} is not allowed now: name the contract")
        elif phase is _TALON:
            if kind is not ChooseTalon or action.index not in (0, 1):  # type: ignore[union-attr]
                raise IllegalAction("choose talon 0 or 1")
            self._take_talon(action.index, events)  # type: ignore[union-attr]
        elif phase is _DARK_DECISION:
            if kind is Dark:
                # §6.1: a blind bid of 120; no redeal in this deal even if outbid (§9.1).
                self.dark = self.dark_said = True
                self.bid, self.bidder = BARREL_BID, to_act
                self.bids.append((to_act, BARREL_BID))
                events.append(DarkChosen(to_act))
                self.phase = _BIDDING
                self.to_act = self.nxt[to_act]
            elif kind is Look:
                events.append(LookChosen(to_act))
                self._open_bidding(events)
            else:
                raise IllegalAction("say dark or look first")
        else:
            raise IllegalAction(f"{action.type} is not allowed now")
        return events

    def _bid(self, seat: int, value: int, events: list[Event]) -> None:
        lo, hi = self.bid_range(seat)
        if value % 5 or not lo <= value <= hi:
            if lo > hi:
                raise IllegalAction("you can only pass")
            raise IllegalAction(f"bid {value} is outside {lo}..{hi} in steps of 5")
        self.bid = value
        self.bidder = seat
        self.any_bid = True
        self.called |= 1 << seat
        if self.dark:
            self.dark = False  # outbid: a normal deal, the blind 120 an ordinary bid (§6.1)
        self.bids.append((seat, value))
        events.append(_BID_MADE[seat][value // 5])
        self.to_act = self._next_bidder(seat)

    def _pass(self, seat: int, events: list[Event]) -> None:
        self.passed |= 1 << seat
        self.called |= 1 << seat
        self.bids.append((seat, None))
        events.append(_PASSED[seat])
        if (self.active_mask & ~self.passed).bit_count() == 1:
            # The last one standing holds the highest bid (§2.2).
            self.dark_game = self.dark
            self._declarer_known(self.bidder, events)
        else:
            self.to_act = self._next_bidder(seat)

    def _next_bidder(self, seat: int) -> int:
        nxt = self.nxt
        s = nxt[seat]
        while self.passed >> s & 1:
            s = nxt[s]
        return s

    def _receivers(self) -> int:
        return self.active_mask & ~(1 << self.declarer)

    def _declarer_known(self, seat: int, events: list[Event]) -> None:
        self.declarer = seat
        self.to_act = seat
        if self.golden:
            self.dark_game = True
        events.append(DeclarerKnown(seat, self.bid, self.dark_game))
        if self.players == 2:
            self.phase = _TALON
        else:
            self._take_talon(0, events)

    def _take_talon(self, index: int, events: list[Event]) -> None:
        """Taking the talon is automatic with three players (§2.10). It is shown unless
        taken at the forced 100 with no other bid, or in a dark game (§2.3, §4, §6.1).

        A sitter who wins at his forced 120 with no other bid has his talon shown, as after
        any bid of 120: only the forced 100 keeps it closed (docs/spec.md §2.3)."""
        talon = self.talons[index]
        self.talon_index = index
        self.hands[self.declarer] |= talon
        self.talon_open = not self.dark_game and (
            self.bid != FORCED_BID or self.options.show_talon_on_100
        )
        events.append(
            TalonTaken(self.declarer, index, mask_cards(talon) if self.talon_open else None)
        )
        self.receivers_left = self._receivers()
        self.phase = _GIVING

    def _give(self, to: int, card: int, events: list[Event]) -> None:
        if not (0 <= to < self.players) or not (self.receivers_left >> to & 1):
            raise IllegalAction(f"cannot give a card to seat {to}")
        bit = 1 << card
        decl = self.declarer
        if not self.hands[decl] & bit:
            raise IllegalAction(f"{CARDS[card]} is not in your hand")
        self.hands[decl] ^= bit
        self.hands[to] |= bit
        self.given[to] = card
        self.receivers_left &= ~(1 << to)
        events.append(_CARD_GIVEN[decl][to])
        if not self.receivers_left:
            self.phase = _CONTRACT

    def _close_trick(self, events: list[Event]) -> None:
        """The trick goes to the highest trump in it, else the highest card of the suit
        led (§2.6)."""
        trick = self.trick
        seats = self.trick_seats
        first = trick[0]
        keys = _TRICK_KEYS[self.trump + 1][first // 6]
        last: tuple[tuple[int, int], ...]
        if self.k == 3:
            a, b, c = trick
            ka, kb, kc = keys[a], keys[b], keys[c]
            best = (0 if ka > kc else 2) if ka > kb else (1 if kb > kc else 2)
            pts = CARD_POINTS[a] + CARD_POINTS[b] + CARD_POINTS[c]
            cards: tuple[Card, ...] = (CARDS[a], CARDS[b], CARDS[c])
            sa, sb, sc = seats
            last = ((sa, a), (sb, b), (sc, c))
        else:
            a, b = trick
            best = 0 if keys[a] > keys[b] else 1
            pts = CARD_POINTS[a] + CARD_POINTS[b]
            cards = (CARDS[a], CARDS[b])
            sa, sb = seats
            last = ((sa, a), (sb, b))
        winner = seats[best]
        self.points[winner] += pts
        self.tricks[winner] += 1
        self.trick_no += 1
        self.last_trick = last
        self.history.append(last)
        events.append(TrickWon(winner, cards, pts))
        self.trick = []
        self.trick_seats = []
        self.leader = self.to_act = winner
        if self.trick_no == self.n_tricks:
            self._score(events)

    # -- scoring ----------------------------------------------------------------------

    def _score(self, events: list[Event]) -> None:
        """§2.8 with the dark doubling of §6.1 and the resting dealer of §5."""
        decl = self.declarer
        dark = self.dark_game
        need = BARREL_BID if dark else self.contract
        stake = 2 * BARREL_BID if dark else self.contract
        made = self.points[decl] + self.marriages[decl] >= need
        deltas = self.deltas
        bolt = 2 if dark else 1
        for s in self.active:
            if s == decl:
                deltas[s] = stake if made else -stake
            else:
                r = round5_int(self.points[s])
                deltas[s] = (2 * r if dark else r) + self.marriages[s]
            if not self.tricks[s]:
                self.bolts[s] = bolt
        if self.resting >= 0:
            deltas[self.resting] = talon_score(self.talons[0])
        self.outcome = Outcome.MADE if made else Outcome.FAILED
        self.phase = _COMPLETE
        events.append(self._sheet())

    def _write_off(self, events: list[Event]) -> None:
        decl = self.declarer
        dark = self.dark_game
        events.append(DealWrittenOff(decl, self.bid))
        for s in self.active:
            if s == decl:
                if self.options.write_off_penalty:
                    self.deltas[s] = -2 * BARREL_BID if dark else -self.bid
                else:
                    self.bolts[s] = 2 if dark else 1  # §2.8, §9.8
            else:
                self.deltas[s] = BARREL_BID if dark else round5(self.bid)
        if self.resting >= 0:
            self.deltas[self.resting] = talon_score(self.talons[0])
        self.outcome = Outcome.WRITTEN_OFF
        self.phase = _COMPLETE
        events.append(self._sheet())

    def rescored(self, contract: int | None) -> Deal:
        """This completed, played deal as it would have scored had the declarer named
        ``contract`` instead (``None``: had he written off at his bid). The play is the
        same; only the scoring of §2.8 changes. For bots weighing contracts."""
        if self.phase is not _COMPLETE or self.outcome not in (Outcome.MADE, Outcome.FAILED):
            raise IllegalAction("only a played deal can be scored again")
        other = self.copy()
        other.deltas = [0] * self.players
        other.bolts = [0] * self.players
        events: list[Event] = []
        if contract is None:
            if not self.can_write_off():
                raise IllegalAction("writing off is not allowed")
            other.contract = self.bid
            other._write_off(events)
        else:
            # The hand the cap was read from is played out: only the floor is checked.
            lo = BARREL_BID if self.dark_game else self.bid
            if contract % 5 or contract < lo or (self.dark_game and contract != lo):
                raise IllegalAction(f"contract {contract} is below {lo} or not in steps of 5")
            other.contract = contract
            other._score(events)
        return other

    def _sheet(self) -> DealScored:
        lines = []
        for s in range(self.players):
            role = (
                "resting"
                if s == self.resting
                else ("declarer" if s == self.declarer else "defender")
            )
            lines.append(
                ScoreLine(
                    s,
                    role,
                    self.points[s],
                    self.marriages[s],
                    self.tricks[s],
                    self.deltas[s],
                    self.bolts[s],
                )
            )
        assert self.outcome is not None
        return DealScored(
            self.outcome.value, self.declarer, self.contract, self.dark_game, tuple(lines)
        )
