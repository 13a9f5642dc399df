"""What the search thinks of a decision already taken: the value of the action taken and of
the search's best, from the seat's view as it was (the analysis of a match).

:func:`appraise` runs the ``strong``/``master`` search of one decision
(:meth:`StrongBot.search`) and returns the mean value of every candidate it weighed, in
the match objective the bots play for (:mod:`games.bots.objective`: the change in the
seat's standing, in points), with the action taken among them even where the search would
not have looked at it (a jump bid, a give of a card it thought useful). The same worlds
serve every candidate and the action taken, and the worlds are drawn exactly as the bot
draws them, so an action equal to the bot's own choice at the same seed and budget is the
best (loss 0).

Per phase: dark or look (declaring blind against a normal deal, worth 0); bidding (each
bid as declarer at that price, naming the contract after the talon, against passing and
defending, and a redeal worth 0); gives (each plan of gives valued at its best contract; a
give is worth its best plan); contract and write-off (one play-out per world rescored at
the value named); play (every legal card). The two-player talon choice and a decision with
one legal action have nothing to judge (``None``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from games.engine.actions import DARK, LOOK, PASS, REDEAL, WRITE_OFF, Action, Bid, Contract, Give
from games.engine.views import View

from .knowledge import Knowledge, knowledge_of
from .strong import StrongBot, _scored_at, _Search

# A contract whose mean value is within this many standard errors of the best contract's
# (the paired difference over the same worlds) is judged as good as the best.
NOISE = 2.0


@dataclass(frozen=True, slots=True)
class Appraisal:
    """The candidates' mean values (points of standing in the match), best first."""

    values: tuple[tuple[Action, float], ...]
    samples: int

    @property
    def best(self) -> Action:
        return self.values[0][0]

    @property
    def best_value(self) -> float:
        return self.values[0][1]

    def value_of(self, action: Action) -> float:
        for a, v in self.values:
            if a == action:
                return v
        raise KeyError(action)

    def loss(self, action: Action) -> float:
        """How much worse ``action`` is than the best (0 for the best)."""
        return max(0.0, self.best_value - self.value_of(action))


def appraise(
    bot: StrongBot, view: View, taken: Action, *, noise: float = NOISE
) -> Appraisal | None:
    """The search's values of ``view``'s decision, with ``taken`` among the candidates;
    ``None`` where there is nothing to choose (one legal action, the face-down talons)."""
    if view.seat is None or taken not in view.legal:
        raise ValueError("the action taken is not one of this view's legal actions")
    if len(view.legal) == 1 or view.phase == "talon":
        return None
    values = _Appraiser(bot, view, taken, noise).values()
    if values is None:
        return None
    ordered = sorted(values.items(), key=lambda item: (-item[1], item[0] != taken))
    return Appraisal(values=tuple(ordered), samples=bot.budget.samples)


class _Appraiser(_Search):
    def __init__(self, bot: StrongBot, view: View, taken: Action, noise: float) -> None:
        super().__init__(bot, view)
        self.taken = taken
        self.noise = noise

    def values(self) -> dict[Action, float] | None:
        phase = self.view.phase
        if phase == "dark_decision":
            return self._dark_values()
        know = knowledge_of(self.view)
        if phase == "play":
            return self._play_values(know)
        if phase == "bidding":
            return self._bid_values(know)
        if phase == "giving":
            return self._give_values(know)
        if phase == "contract":
            return self._contract_values(know)
        return None

    def _dark_values(self) -> dict[Action, float]:
        return {DARK: self.dark_value(), LOOK: 0.0}

    def _bid_values(self, know: Knowledge) -> dict[Action, float]:
        legal = self.legal
        bids = sorted(a.value for a in legal if isinstance(a, Bid))
        prices = [bids[0]] if bids else []
        if isinstance(self.taken, Bid) and self.taken.value not in prices:
            prices.append(self.taken.value)
        going, stop = self.bid_values(know, prices)
        out: dict[Action, float] = {Bid(p): v for p, v in going.items()}
        if PASS in legal:
            out[PASS] = stop
        if REDEAL in legal:
            out[REDEAL] = 0.0
        return out

    def _give_values(self, know: Knowledge) -> dict[Action, float]:
        taken = self.taken
        chosen = (taken.to, taken.card.index) if isinstance(taken, Give) else None
        valued = self.give_plan_values(
            know,
            also=chosen[1] if chosen else None,
            keep=lambda plan: chosen in plan,  # the player's own plan is valued to the end
        )
        gives = [a for a in self.legal if isinstance(a, Give)]
        out: dict[Action, float] = {}
        for plan, ev in valued:
            for g in gives:  # a plan is worth as much whichever of its gives comes first
                if (g.to, g.card.index) in plan and ev > out.get(g, float("-inf")):
                    out[g] = ev
        if REDEAL in self.legal:
            out[REDEAL] = 0.0
        return out

    def _contract_values(self, know: Knowledge) -> dict[Action, float]:
        values = [a.value for a in self.legal if isinstance(a, Contract)]
        worlds = self.contract_worlds(know)
        best_ev, choice = self._best_contract(worlds, values)
        out: dict[Action, float] = {}
        if choice is None:
            out[WRITE_OFF if WRITE_OFF in self.legal else Contract(min(values))] = best_ev
        else:
            out[Contract(choice)] = best_ev
        taken = self.taken
        if taken not in out and worlds:
            named = taken.value if isinstance(taken, Contract) else None
            diffs = [
                self.value.of(_scored_at(d, choice)) - self.value.of(_scored_at(d, named))
                for d in worlds
            ]
            loss = sum(diffs) / len(diffs)
            # Within the sampling noise of the best (two standard errors of the paired
            # difference over the worlds), a contract is as good as the best: the worlds
            # cannot tell them apart.
            out[taken] = best_ev if loss <= self.noise * _standard_error(diffs) else best_ev - loss
        return out

    def _play_values(self, know: Knowledge) -> dict[Action, float]:
        totals, n = self.play_totals(know)
        return {a: t / max(n, 1) for a, t in zip(self.legal, totals)}


def _standard_error(xs: list[float]) -> float:
    n = len(xs)
    if n < 2:
        return 0.0
    mean = sum(xs) / n
    return math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1) / n)


__all__ = ["Appraisal", "appraise"]
