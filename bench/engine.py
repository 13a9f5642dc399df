"""Engine speed through the public API: random legal self-play.

Prints, each the median of 5 runs of about a second:

- complete 3-player deals per second: every deal is shuffled and dealt, then goes through
  bidding, the talon, both gives, the contract, all eight tricks and the score sheet (the
  random player never writes off or asks for a redeal, so no deal is cut short) — through
  the ``Deal`` API that bots simulate with, and again inside whole matches through
  the ``Match`` API (action log, the §3 match steps, events);
- complete matches per second (3 players, barrel off, first to 300: see
  :func:`matches_per_second`);
- legal-action queries per second (``match.legal_actions()`` on positions met in play).

Run: ``python -m bench.engine``.
"""

from __future__ import annotations

import os
import platform
import random
import statistics
import time
from collections.abc import Callable

from games.engine import Deal, Match, Options, Outcome, Phase, deal_cards
from games.engine.actions import REDEAL, WRITE_OFF

COMPLETE = Phase.COMPLETE

RUNS = 5
SECONDS = 1.0
MAX_DEALS = 100


def _player(seed: int) -> Callable[[Match], None]:
    """A uniformly random player that never writes off or asks for a redeal (legal-action
    lists hold the engine's one ``WriteOff`` and one ``Redeal`` instance)."""
    rnd = random.Random(seed).random

    def act(match: Match) -> None:
        legal = match.legal_actions()
        action = legal[int(rnd() * len(legal))]
        while action is WRITE_OFF or action is REDEAL:
            action = legal[int(rnd() * len(legal))]
        match.apply(action)

    return act


def deals_per_second() -> float:
    """Whole deals through the ``Deal`` API, the one bots simulate with: deal the cards,
    then random legal actions from the first bid to the score sheet."""
    options = Options()
    rng = random.Random(1)
    rnd = rng.random
    played = 0
    dealer = 0
    start = time.process_time()
    end = start + SECONDS
    while time.process_time() < end:
        for _ in range(50):
            hands, talons = deal_cards(rng, 3, dealer)
            deal = Deal(options=options, dealer=dealer, hands=hands, talons=talons)
            deal.start(False)
            while deal.phase is not COMPLETE:
                legal = deal.legal_actions()
                action = legal[int(rnd() * len(legal))]
                while action is WRITE_OFF or action is REDEAL:
                    action = legal[int(rnd() * len(legal))]
                deal.apply(action)
            played += 1
            dealer = (dealer + 1) % 3
    return played / (time.process_time() - start)


def match_deals_per_second() -> float:
    """Whole deals inside a match through the ``Match`` API: as above, plus the action
    log, the match steps of docs/spec.md §3 after each deal and the next deal's shuffle."""
    options = Options(barrel=False, target=10**9)
    act = _player(1)
    match = Match.new(options, seed=1)
    start = time.process_time()
    end = start + SECONDS
    played = 0
    while time.process_time() < end:
        before = len(match.results)
        for _ in range(100):
            act(match)
        played += sum(
            1 for r in match.results[before:] if r.outcome in (Outcome.MADE, Outcome.FAILED)
        )
        if len(match.results) > 1_000:
            match = Match.new(options, seed=played)
    return played / (time.process_time() - start)


def matches_per_second() -> float:
    """Whole matches between random players. Random players drift below zero (a random
    declarer rarely makes his contract), so the match is short — barrel off, first to
    300 — and a match still undecided after ``MAX_DEALS`` deals is abandoned: its time
    counts, the match does not."""
    options = Options(barrel=False, target=300)
    act = _player(2)
    matches = 0
    seed = 0
    start = time.process_time()
    end = start + SECONDS
    while time.process_time() < end:
        match = Match.new(options, seed=seed)
        seed += 1
        while not match.over and len(match.results) < MAX_DEALS:
            act(match)
        matches += match.over
    return matches / (time.process_time() - start)


def legal_queries_per_second() -> float:
    options = Options()
    rnd = random.Random(3).random
    match = Match.new(options, seed=3)
    queries = 0
    start = time.process_time()
    end = start + SECONDS
    while time.process_time() < end:
        for _ in range(100):
            legal = match.legal_actions()
            legal = match.legal_actions()
            legal = match.legal_actions()
            legal = match.legal_actions()
            queries += 4
            match.apply(legal[int(rnd() * len(legal))])
            if match.over:
                match = Match.new(options, seed=queries)
    return queries / (time.process_time() - start)


def main() -> None:
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}; "
        f"Python {platform.python_version()} ({platform.python_implementation()}); one process"
    )
    for label, fn in (
        ("complete 3-player deals/s", deals_per_second),
        ("  the same inside matches/s", match_deals_per_second),
        ("complete matches/s", matches_per_second),
        ("legal-action queries/s", legal_queries_per_second),
    ):
        runs = sorted(fn() for _ in range(RUNS))
        print(
            f"{label:>26}: {statistics.median(runs):>10,.0f}   (median of {RUNS}; {runs[0]:,.0f}..{runs[-1]:,.0f})"
        )


if __name__ == "__main__":
    main()
