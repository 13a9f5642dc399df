"""One deal as a state machine: (dark decision →) bidding → talon → gives → contract →
play → scored (docs/spec.md §2, §4, §5, §6).

A :class:`Deal` knows the cards and the calls of one deal; the match (``match.py``) tells
it what the scores imply for this deal (who sits on the barrel, who is below the red
threshold, whether the deal is golden or dark may be played) and applies its result.
Cards are integers and hands are bitmasks (see ``cards.py``); :meth:`Deal.copy` is cheap,
for bots that simulate thousands of deals.

The class is built in layers, each module on the one below: the fields and the copy
(``deal_state.py``), the score sheet (``deal_scoring.py``), the talon, gives and contract
(``talon.py``), the bidding and redeals (``bidding.py``); this module adds the play of the
tricks, the legal actions of every phase and :meth:`Deal.apply`, the one way in.
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import (
    BIDS,
    CHOOSE_TALONS,
    CONTRACTS,
    DARK,
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
from .bidding import DealBidding, hand_allows_redeal, talon_allows_redeal
from .cards import (
    ACE_MARRIAGE_VALUE,
    ACES_MASK,
    CARD_POINTS,
    CARDS,
    KQ_MASKS,
    MARRIAGE_VALUES,
    SUIT_MASKS,
    Card,
    Suit,
)
from .deal_scoring import talon_score
from .deal_state import BARREL_BID, FORCED_BID, Outcome, Phase, active_seats
from .errors import IllegalAction, MalformedAction, NotYourTurn
from .events import (
    CardPlayed,
    ContractNamed,
    DarkChosen,
    Event,
    LookChosen,
    MarriageDeclared,
    RedealAsked,
    TrickWon,
)

__all__ = [
    "BARREL_BID",
    "FORCED_BID",
    "Deal",
    "Outcome",
    "Phase",
    "active_seats",
    "hand_allows_redeal",
    "talon_allows_redeal",
    "talon_score",
]

_DARK_DECISION = Phase.DARK_DECISION
_BIDDING = Phase.BIDDING
_TALON = Phase.TALON
_GIVING = Phase.GIVING
_CONTRACT = Phase.CONTRACT
_PLAY = Phase.PLAY
_COMPLETE = Phase.COMPLETE
_KING = 3
_QUEEN = 2
_ACE = 5

# The Play actions of every 6-bit pattern of each suit: a legal-card mask becomes a tuple
# of actions with four look-ups (one when following suit).
_SUIT_PLAYS: tuple[tuple[tuple[Play, ...], ...], ...] = tuple(
    tuple(tuple(PLAYS[6 * s + r] for r in range(6) if pattern >> r & 1) for pattern in range(64))
    for s in range(4)
)
_P0, _P1, _P2, _P3 = _SUIT_PLAYS
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
_CONTRACT_NAMED = tuple(
    tuple(ContractNamed(seat, v) for v in range(0, MAX_VALUE + 1, 5)) for seat in range(4)
)
_PLAYED_ONLY: tuple[tuple[tuple[Event, ...], ...], ...] = tuple(
    tuple((event,) for event in row) for row in _CARD_PLAYED
)


class Deal(DealBidding):
    """One deal. Build it with the dealt cards and the match's circumstances; then
    :meth:`legal_actions` and :meth:`apply` until :attr:`phase` is ``COMPLETE``."""

    __slots__ = ()

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
            gives = self.give_actions()
            return [REDEAL, *gives] if self.can_redeal() else gives
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
            if self.tricks_played:
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
        if len(trick) < self.trick_size:
            self.to_act = self.next_seat[seat]
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
                self.to_act = self.next_seat[to_act]
            elif kind is Look:
                events.append(LookChosen(to_act))
                self._open_bidding(events)
            else:
                raise IllegalAction("say dark or look first")
        else:
            raise IllegalAction(f"{action.type} is not allowed now")
        return events

    def _close_trick(self, events: list[Event]) -> None:
        """The trick goes to the highest trump in it, else the highest card of the suit
        led (§2.6)."""
        trick = self.trick
        seats = self.trick_seats
        first = trick[0]
        keys = _TRICK_KEYS[self.trump + 1][first // 6]
        last: tuple[tuple[int, int], ...]
        if self.trick_size == 3:
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
        self.tricks_played += 1
        self.last_trick = last
        self.history.append(last)
        events.append(TrickWon(winner, cards, pts))
        self.trick = []
        self.trick_seats = []
        self.leader = self.to_act = winner
        if self.tricks_played == self.total_tricks:
            self._score(events)
