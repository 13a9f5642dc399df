"""The declarer's part between the bidding and the play: the talon taken (or chosen, with
two players, §4), a card given to each other active seat (§2.4) and the contract named
(§2.5)."""

from __future__ import annotations

from .actions import GIVES, Action, Give
from .cards import CARDS, mask_cards, mask_marriages
from .deal_scoring import DealScoring
from .deal_state import BARREL_BID, FORCED_BID, Phase
from .errors import IllegalAction
from .events import CardGiven, DeclarerKnown, Event, TalonTaken

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
_CARD_GIVEN = tuple(tuple(CardGiven(seat, to) for to in range(4)) for seat in range(4))


class DealTalon(DealScoring):
    """The talon, the gives and the contract, over the scoring."""

    __slots__ = ()

    def _receivers(self) -> int:
        return self.active_mask & ~(1 << self.declarer)

    def _declarer_known(self, seat: int, events: list[Event]) -> None:
        self.declarer = seat
        self.to_act = seat
        if self.golden:
            self.dark_game = True
        events.append(DeclarerKnown(seat, self.bid, self.dark_game))
        if self.players == 2:
            self.phase = Phase.TALON
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
        self.phase = Phase.GIVING

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
            self.phase = Phase.CONTRACT

    def contract_range(self) -> tuple[int, int]:
        if self.dark_game:
            return BARREL_BID, BARREL_BID
        cap = 120 + mask_marriages(self.hands[self.declarer], self.options.ace_marriage)
        return self.bid, max(self.bid, cap)

    def give_actions(self) -> list[Action]:
        """Every card of the declarer's hand to each seat still waiting for one."""
        out: list[Action] = []
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
