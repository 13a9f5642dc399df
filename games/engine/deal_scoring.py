"""The score sheet of one deal: a played deal scored (§2.8, with the dark doubling of §6.1
and the resting dealer of §5), a deal written off (§2.8, §9.8), and a played deal scored
again as if another contract had been named."""

from __future__ import annotations

from typing import Self

from .cards import KQ_MASKS, MARRIAGE_VALUES, mask_points, round5, round5_int
from .deal_state import BARREL_BID, DealState, Outcome, Phase
from .errors import IllegalAction
from .events import DealScored, DealWrittenOff, Event, ScoreLine


def talon_score(talon: int) -> int:
    """The resting dealer's score with four players: round5 of the talon's card points,
    plus a marriage's value if K and Q of one suit lie in it (§5, §9.7)."""
    score = round5_int(mask_points(talon))
    for s in range(4):
        if talon & KQ_MASKS[s] == KQ_MASKS[s]:
            score += MARRIAGE_VALUES[s]
    return score


class DealScoring(DealState):
    """The scoring of a deal, over its state."""

    __slots__ = ()

    def can_write_off(self) -> bool:
        # §9.8: only the sitter himself may never write off.
        return self.options.write_off and self.declarer != self.sitter

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
        self.phase = Phase.COMPLETE
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
        self.phase = Phase.COMPLETE
        events.append(self._sheet())

    def rescored(self, contract: int | None) -> Self:
        """This completed, played deal as it would have scored had the declarer named
        ``contract`` instead (``None``: had he written off at his bid). The play is the
        same; only the scoring of §2.8 changes. For bots weighing contracts."""
        if self.phase is not Phase.COMPLETE or self.outcome not in (Outcome.MADE, Outcome.FAILED):
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
