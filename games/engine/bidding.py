"""The bidding of one deal: the golden and closed-barrel declarers, the dark decision
(§6.1), the forced opening, bids and passes (§2.2), and the redeals a seat may ask for
(§2.9, §9.1)."""

from __future__ import annotations

from .actions import MAX_VALUE
from .cards import JACKS_MASK, NINES_MASK, mask_points
from .deal_state import BARREL_BID, FORCED_BID, Phase
from .errors import IllegalAction
from .events import BidMade, Event, ForcedBid, Passed
from .options import BarrelBidding
from .talon import DealTalon


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


# Events that carry no more than a seat and a number are made once and shared (events are
# read-only by convention, see events.py).
_BID_MADE = tuple(tuple(BidMade(seat, v) for v in range(0, MAX_VALUE + 1, 5)) for seat in range(4))
_PASSED = tuple(Passed(seat) for seat in range(4))


class DealBidding(DealTalon):
    """The bidding and the redeals, over the talon."""

    __slots__ = ()

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
            self.phase = Phase.DARK_DECISION
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
        self.phase = Phase.BIDDING
        self.to_act = self.next_seat[forced]

    def bid_range(self, seat: int) -> tuple[int, int]:
        """Lowest and highest bid ``seat`` may make now (empty when lo > hi)."""
        if self.red_limited >> seat & 1:
            return (1, 0)
        lo = self.bid + 5
        if seat == self.sitter and lo < BARREL_BID:
            lo = BARREL_BID
        hi = self.bid_caps[seat]
        if not self.options.bid_jumps and hi > lo:
            hi = lo
        return lo, hi

    def can_redeal(self) -> bool:
        """Whether the seat to act may ask for a redeal now (§2.9, §9.1)."""
        if not self.redeal_allowed or self.dark_said:
            return False
        seat = self.to_act
        if self.phase is Phase.BIDDING:
            return (
                not (self.called >> seat & 1)
                and not (self.red_limited >> seat & 1)
                and hand_allows_redeal(self.dealt[seat])
            )
        if self.phase is Phase.GIVING:
            # Only the hand rule applies with two players.
            return (
                self.players != 2
                and self.receivers_left == self._receivers()
                and talon_allows_redeal(self.talons[0])
            )
        return False

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
        next_seat = self.next_seat
        s = next_seat[seat]
        while self.passed >> s & 1:
            s = next_seat[s]
        return s
