"""The bot interface: a bot gets a seat's :class:`View` and returns one of its legal
actions. It never receives the match or the deal, so it cannot see a hidden card: the view
holds only what its seat may know (``games/engine/views.py``)."""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from games.engine.actions import Action
from games.engine.views import View


@dataclass(frozen=True, slots=True)
class Budget:
    """How long a bot may think per decision: a time limit (``None``: none) and a cap on
    sampled deals. With no time limit a decision is a pure function of the seed and the
    view; with one it is too whenever the sample cap is reached first.

    The limit is wall-clock time at live tables; ``cpu=True`` counts the process's CPU
    time instead, so that a bench on a shared, loaded machine gives every bot the thinking
    it would get on an idle core."""

    seconds: float | None = None
    samples: int = 1000
    cpu: bool = False


class Bot(Protocol):
    level: str

    def decide(self, view: View) -> Action: ...


def decision_rng(seed: int, view: View) -> random.Random:
    """A generator seeded from the bot's seed and the position, so that the same seed and
    view always give the same decision, whatever was decided before."""
    key = repr(
        (
            seed, view.seat, view.phase, view.dealer, view.hand, view.bids, view.trick,
            view.played_tricks, view.given_to_me, view.given_by_me, view.talon, view.scores,
            view.contract, len(view.legal),
        )
    )  # fmt: skip
    digest = hashlib.blake2b(key.encode(), digest_size=8).digest()
    return random.Random(int.from_bytes(digest, "big"))


def require_turn(view: View) -> None:
    if view.seat is None or not view.legal:
        raise ValueError("this view's seat has nothing to decide")


class RandomBot:
    """A uniformly random legal action: the floor, and a fuzzer for tests."""

    level = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def decide(self, view: View) -> Action:
        require_turn(view)
        rng = decision_rng(self.seed, view)
        return view.legal[rng.randrange(len(view.legal))]


class SampleClock:
    """Yields sample numbers until the sample cap or the deadline (at least one)."""

    def __init__(self, budget: Budget, now: Callable[[], float] | None = None) -> None:
        self.budget = budget
        self.now = now or (time.process_time if budget.cpu else time.perf_counter)
        self.start = self.now()

    def samples(self) -> range | _Timed:
        if self.budget.seconds is None:
            return range(self.budget.samples)
        return _Timed(self)


class _Timed:
    def __init__(self, clock: SampleClock) -> None:
        self.clock = clock
        self.i = 0

    def __iter__(self) -> _Timed:
        return self

    def __next__(self) -> int:
        c = self.clock
        seconds = c.budget.seconds
        assert seconds is not None
        if self.i >= c.budget.samples or (self.i > 0 and c.now() - c.start >= seconds):
            raise StopIteration
        self.i += 1
        return self.i - 1
