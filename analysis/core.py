"""The computer analysis of a match: pure Python on the engine and the bots.

:func:`analyse` replays a ``thousand/1`` record with the engine and, for every decision of
the seats asked for, runs the ``master`` search from that seat's view as it was then (the
engine's :class:`~games.engine.views.View`: its hand, what was played and said, never the
other hands, the talon before it was shown or the deck) with a budget of samples and no
clock, so that the result is a function of the record, the seats, the budget and the seed.
Each decision gets the value of the action taken and of the search's best, in the match
objective the bots play for (the change in the seat's standing, in points), the loss
(best − taken, never below 0) and a label. Once the whole match is known, each played deal
also gets a *hindsight line*: what the declarer could have taken with every card known
(the exact endgame solver from the first lead).

No Django here: the app (``analysis.services``, ``analysis.tasks``) stores what this
returns. See docs/analysis.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from games.bots import Budget
from games.bots.appraisal import appraise
from games.bots.endgame import INF, solver_for
from games.bots.objective import loss_cap
from games.bots.strong import MasterBot
from games.engine.actions import DARK, Action, Bid, Contract, action_from_dict
from games.engine.deal import Deal, Outcome, Phase
from games.engine.errors import EngineError
from games.engine.match import Match
from games.engine.record import RecordError, dealt_cards, read_header
from games.engine.views import View

# The documented budget: worlds sampled a decision (no clock: reproducible by seed).
SAMPLES = 120

# Labels by the loss of a decision in points of standing (docs/analysis.md: chosen from
# the losses of the strong and basic bots measured by bench/analysis.py).
INACCURACY = 10.0
MISTAKE = 25.0
BLUNDER = 60.0


class Label(StrEnum):
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


class Stage(StrEnum):
    """The summary's three parts of a deal."""

    BIDDING = "bidding"  # dark or look, bids, passes, redeals in the auction
    CONTRACT = "contract"  # the talon, gives, contract and write-off
    PLAY = "play"  # the cards


_STAGES = {
    "dark_decision": Stage.BIDDING,
    "bidding": Stage.BIDDING,
    "talon": Stage.CONTRACT,
    "giving": Stage.CONTRACT,
    "contract": Stage.CONTRACT,
    "play": Stage.PLAY,
}


def label_for(loss: float) -> Label:
    if loss >= BLUNDER:
        return Label.BLUNDER
    if loss >= MISTAKE:
        return Label.MISTAKE
    if loss >= INACCURACY:
        return Label.INACCURACY
    return Label.GOOD


@dataclass(frozen=True, slots=True)
class Judged:
    """One decision: where it is in the record, what was done and what the search says."""

    deal: int  # the deal's index in the record
    action: int  # the action's index in that deal
    seat: int
    phase: str
    taken: Action
    best: Action
    value_taken: float
    value_best: float
    loss: float
    label: Label

    @property
    def stage(self) -> Stage:
        return _STAGES[self.phase]

    def to_dict(self) -> dict[str, Any]:
        return {
            "deal": self.deal,
            "action": self.action,
            "seat": self.seat,
            "phase": self.phase,
            "stage": self.stage.value,
            "taken": self.taken.to_dict(),
            "best": self.best.to_dict(),
            "value_taken": round(self.value_taken, 1),
            "value_best": round(self.value_best, 1),
            "loss": round(self.loss, 1),
            "label": self.label.value,
        }


@dataclass(frozen=True, slots=True)
class Hindsight:
    """A played deal with every card known: what the declarer took and could have taken
    (card points and marriages, best play on both sides from the first lead)."""

    deal: int
    declarer: int
    contract: int
    took: int
    could: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "deal": self.deal,
            "declarer": self.declarer,
            "contract": self.contract,
            "took": self.took,
            "could": self.could,
        }


@dataclass(slots=True)
class Summary:
    """A seat's decisions in short: the mean loss a decision, by stage, and the worst three."""

    seat: int
    decisions: int
    mean_loss: float
    by_stage: dict[str, float | None]
    labels: dict[str, int]
    worst: list[tuple[int, int]]  # (deal, action) of the three largest losses

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "decisions": self.decisions,
            "mean_loss": round(self.mean_loss, 2),
            "by_stage": {k: None if v is None else round(v, 2) for k, v in self.by_stage.items()},
            "labels": self.labels,
            "worst": [{"deal": d, "action": a} for d, a in self.worst],
        }


@dataclass(slots=True)
class MatchAnalysis:
    seats: tuple[int, ...]
    samples: int
    seed: int
    decisions: list[Judged] = field(default_factory=list)
    hindsight: list[Hindsight] = field(default_factory=list)

    def summary(self, seat: int) -> Summary:
        mine = [j for j in self.decisions if j.seat == seat]
        by_stage: dict[str, float | None] = {}
        for stage in Stage:
            losses = [j.loss for j in mine if j.stage is stage]
            by_stage[stage.value] = sum(losses) / len(losses) if losses else None
        worst = sorted(mine, key=lambda j: (-j.loss, j.deal, j.action))[:3]
        return Summary(
            seat=seat,
            decisions=len(mine),
            mean_loss=sum(j.loss for j in mine) / len(mine) if mine else 0.0,
            by_stage=by_stage,
            labels={lb.value: sum(1 for j in mine if j.label is lb) for lb in Label},
            worst=[(j.deal, j.action) for j in worst if j.loss > 0],
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "seats": list(self.seats),
            "samples": self.samples,
            "seed": self.seed,
            "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER},
            "decisions": [j.to_dict() for j in self.decisions],
            "hindsight": [h.to_dict() for h in self.hindsight],
            "summary": [self.summary(s).to_dict() for s in self.seats],
        }


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision of the record to judge: the seat's view just before it, and the action."""

    deal: int
    action: int
    seat: int
    view: View
    taken: Action


def _replay(
    record: object, seats: Iterable[int], *, hindsight: bool = True
) -> Iterator[Decision | Hindsight]:
    """Replay ``record``, yielding every decision of ``seats`` that had a choice (with the
    view before it) and, at the end of every played deal, its hindsight line."""
    options, first_dealer, deals = read_header(record)
    wanted = frozenset(seats)
    match = Match.empty(options, first_dealer=first_dealer)
    for i, data in enumerate(deals):
        hands, talons = dealt_cards(data, options.players, i)
        assert isinstance(data, dict)
        match.start_deal(hands, talons)
        first_lead: Deal | None = None
        actions = data.get("actions", [])
        for j, item in enumerate(actions):
            deal = match.deal
            assert deal is not None
            if hindsight and first_lead is None and deal.phase is Phase.PLAY:
                first_lead = deal.copy()
            seat = match.to_act
            if seat is None or not isinstance(item, dict) or item.get("seat") != seat:
                raise RecordError("an action out of turn", i, j)
            legal = match.legal_actions()
            try:
                taken = action_from_dict(item)
            except EngineError as exc:
                raise RecordError(str(exc), i, j) from None
            if taken not in legal:
                raise RecordError("an illegal action", i, j)
            # The two-player talon choice is no decision to judge: both talons lie face
            # down, nothing tells them apart (it is neither counted nor labelled).
            if seat in wanted and len(legal) > 1 and deal.phase is not Phase.TALON:
                yield Decision(i, j, seat, match.view(seat), taken)
            match.apply(taken, seat=seat)
        deal = match.deal
        if first_lead is None or deal is None or deal.phase is not Phase.COMPLETE:
            continue
        if deal.outcome is not Outcome.WRITTEN_OFF and deal.contract is not None:
            took = deal.points[deal.declarer] + deal.marriages[deal.declarer]
            could = best_take(first_lead, guess=took)
            yield Hindsight(i, deal.declarer, deal.contract, took, could)


def best_take(deal: Deal, *, guess: int = 0) -> int:
    """The declarer's card points and marriages from ``deal`` (in the play) with best play
    on both sides, every card known: the exact solver, asked by null windows from
    ``guess`` (MTD(f): from the real result a few narrow searches find the value at a
    fraction of one full-window search's nodes on a whole deal)."""
    solver = solver_for(deal)
    args = (
        tuple(deal.hands), tuple(deal.trick), tuple(deal.trick_seats), deal.to_act, deal.trump,
        deal.tricks_played > 0,
    )  # fmt: skip
    value, lo, hi = guess, -INF, INF
    while lo < hi:
        beta = value + 1 if value == lo else value
        value = solver.value(*args, alpha=beta - 1, beta=beta)
        if value < beta:
            hi = value
        else:
            lo = value
    return value


def decisions(record: object, seats: Iterable[int]) -> list[Decision]:
    """The decisions of ``seats`` in ``record`` that :func:`analyse` judges."""
    return [d for d in _replay(record, seats, hindsight=False) if isinstance(d, Decision)]


def judge(decision: Decision, *, samples: int = SAMPLES, seed: int = 0) -> Judged:
    """The master search's verdict on one decision (from its view only)."""
    bot = MasterBot(seed, Budget(seconds=None, samples=samples))
    bot.strict = True
    return _judge(bot, decision)


def _judge(bot: MasterBot, d: Decision) -> Judged:
    appraisal = appraise(bot, d.view, d.taken)
    if appraisal is None:  # nothing to choose on (the face-down talons)
        return Judged(d.deal, d.action, d.seat, str(d.view.phase), d.taken, d.taken, 0.0, 0.0,
                      0.0, Label.GOOD)  # fmt: skip
    loss = appraisal.loss(d.taken)
    cap = loss_cap(d.view.options, _stake(d.view, d.taken, appraisal.best))
    if cap is not None:  # a match of N deals: no more than one deal can swing
        loss = min(loss, cap)
    return Judged(
        deal=d.deal, action=d.action, seat=d.seat, phase=str(d.view.phase), taken=d.taken,
        best=appraisal.best, value_taken=appraisal.value_of(d.taken),
        value_best=appraisal.best_value, loss=loss, label=label_for(loss),
    )  # fmt: skip


def _stake(view: View, *actions: Action) -> int:
    """What the deal of ``view`` is played for, at most: its contract or the highest
    price bid or named (the actions weighed included), at least 120; doubled in a dark
    or golden deal."""
    values = [120, view.bid or 0, view.contract or 0]
    values += [a.value for a in actions if isinstance(a, (Bid, Contract))]
    dark = view.dark or view.golden or DARK in actions
    return max(values) * (2 if dark else 1)


def analyse(
    record: object,
    seats: Sequence[int],
    *,
    samples: int = SAMPLES,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> MatchAnalysis:
    """The analysis of ``seats``' decisions in ``record`` (a finished match's, or any
    prefix of one); ``progress(done, total)`` is called after every decision and may
    raise to stop. Raises :class:`RecordError` for a record that does not replay."""
    out = MatchAnalysis(seats=tuple(seats), samples=samples, seed=seed)
    steps = list(_replay(record, seats))
    total = sum(1 for s in steps if isinstance(s, Decision))
    bot = MasterBot(seed, Budget(seconds=None, samples=samples))
    bot.strict = True
    done = 0
    for step in steps:
        if isinstance(step, Hindsight):
            out.hindsight.append(step)
            continue
        out.decisions.append(_judge(bot, step))
        done += 1
        if progress is not None:
            progress(done, total)
    return out


__all__ = [
    "BLUNDER",
    "INACCURACY",
    "MISTAKE",
    "SAMPLES",
    "Decision",
    "Hindsight",
    "Judged",
    "Label",
    "MatchAnalysis",
    "Stage",
    "Summary",
    "analyse",
    "best_take",
    "decisions",
    "judge",
    "label_for",
]
