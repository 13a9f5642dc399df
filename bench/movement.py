"""Round-robin movement planning speed and quality (docs/duplicate.md "Movement").

Plans ``--rounds`` rounds for ``--players`` entrants at tables of ``--seats`` with
``tournaments.pairing.movement_plan`` under several seeds, and prints for each the time to
plan, the pairs meeting more than once (and the most meetings of one pair), the spread of
the bot-filled seats and of the positions held. Then the same for a re-plan after one
entrant withdraws half-way (``movement_round``).

Run: ``python -m bench.movement`` (defaults: 60 players, tables of 3, 10 rounds)
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import statistics
import time
from collections import Counter

from tournaments.pairing import TableSeats, movement_plan, movement_round
from tournaments.pairing.movement import _plan


def quality(rounds: list[list[TableSeats]], seats: int) -> tuple[int, int, int, int]:
    met: Counter[frozenset[int]] = Counter()
    bots: Counter[int] = Counter()
    held: dict[int, list[int]] = {}
    for rnd in rounds:
        for table in rnd:
            humans = [p for p in table if p is not None]
            met.update(frozenset(pair) for pair in itertools.combinations(humans, 2))
            for position, p in enumerate(table):
                if p is not None:
                    bots[p] += seats - len(humans)
                    held.setdefault(p, [0] * seats)[position] += 1
    repeats = sum(1 for c in met.values() if c > 1)
    bot_spread = max(bots.values()) - min(bots.values()) if bots else 0
    position_spread = max(max(c) - min(c) for c in held.values())
    return repeats, max(met.values()), bot_spread, position_spread


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=60)
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--seeds", type=int, default=5)
    args = parser.parse_args()
    print(
        f"{platform.python_implementation()} {platform.python_version()} on "
        f"{platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}"
    )
    ids = list(range(1, args.players + 1))
    for label, replan in (("plan", False), ("re-plan after a withdrawal", True)):
        times = []
        for seed in range(args.seeds):
            _plan.cache_clear()
            start = time.perf_counter()
            plan = movement_plan(ids, args.rounds, seats=args.seats, seed=seed)
            if replan:
                half = args.rounds // 2
                played = plan[:half]
                _plan.cache_clear()
                start = time.perf_counter()
                while len(played) < args.rounds:
                    played.append(
                        movement_round(
                            ids[1:], played, rounds=args.rounds, seats=args.seats, seed=seed
                        )
                    )
                plan = played
            times.append(time.perf_counter() - start)
            repeats, most, bots, positions = quality(plan, args.seats)
            print(
                f"{label}, seed {seed}: {times[-1]:.3f} s; pairs meeting twice or more "
                f"{repeats} (most {most}); bot seats spread {bots}; positions spread {positions}"
            )
        print(f"{label}: median {statistics.median(times):.3f} s, max {max(times):.3f} s")


if __name__ == "__main__":
    main()
