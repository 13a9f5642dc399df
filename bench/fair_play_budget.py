"""Fair play: does a larger screening budget tell an engine user from a strong player?

Tables of three ``strong`` bots (8 worlds, the bench's honest strong level) where seat 0
plays master's choice at every decision (``--samples`` worlds, the bench's engine user at
100%). Every match is screened at each budget of ``--budgets`` (the screening master's
worlds a decision, as ``FAIRPLAY_HIGH_LEVEL_SAMPLES`` would set for players of a high
level), and the agreement with that master is printed for the engine user and for the
honest strong players, on all the decisions asked and where master's choice differs from
the reference bot's (the engine score's decisions), with the screening's CPU seconds a
match at each budget (every seat at it) — docs/fair-play.md, "Engine users among strong
players".

Run: ``python -m bench.fair_play_budget --budgets 6,24,48 --matches 20 --deals 10``
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.arena import yardstick
from bench.fair_play import Job, _policies, play_match, screen_seed
from fairplay import screen as sc


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--budgets", default="6,24,48", help="screening worlds, comma-separated")
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--samples", type=int, default=12, help="the engine user's worlds")
    parser.add_argument("--seed", type=int, default=777)
    args = parser.parse_args(argv)
    budgets = [int(b) for b in args.budgets.split(",")]
    print(yardstick())
    job = Job("engine-100", ("strong",) * 3, args.seed, args.matches, args.deals, args.samples)
    # Per budget: [engine, honest] × (agreed, checked, split agreed, split); CPU a match.
    counts = {b: [[0, 0, 0, 0], [0, 0, 0, 0]] for b in budgets}
    cpu: dict[int, list[float]] = {b: [] for b in budgets}
    for m in range(args.matches):
        record = play_match(_policies(job, m, []), seed=args.seed * 1000 + m, deals=args.deals)
        for b in budgets:
            started = time.process_time()
            screening = sc.screen(record, seed=screen_seed(job, m), samples=b)
            cpu[b].append(time.process_time() - started)
            for seat, c in screening.seats.items():
                into = counts[b][0 if seat == 0 else 1]
                for k, n in enumerate((c.agreed, c.checked, c.split_agreed, c.split)):
                    into[k] += n
    print(f"{args.matches} matches of {args.deals} deals; engine user: master at {args.samples}"
          " worlds, every decision; honest: two strong bots (8 worlds) a table")  # fmt: skip
    for b in budgets:
        (ea, ec, esa, es), (ha, hc, hsa, hs) = counts[b]
        gap = esa / es - hsa / hs if es and hs else float("nan")
        # The gap in standard errors of the two shares (binomial, pooled).
        pooled = (esa + hsa) / (es + hs) if es + hs else 0.0
        se = math.sqrt(pooled * (1 - pooled) * (1 / es + 1 / hs)) if es and hs else float("nan")
        print(
            f"  {b:3} worlds: all decisions engine {ea / ec:.3f} honest {ha / hc:.3f};"
            f" where master and the reference differ engine {esa}/{es} = {esa / es:.3f},"
            f" honest {hsa}/{hs} = {hsa / hs:.3f}, gap {gap:+.3f} ({gap / se:+.1f} s.e.);"
            f" screening CPU s a match (3 seats) median {statistics.median(cpu[b]):.2f},"
            f" max {max(cpu[b]):.2f}"
        )
    print(yardstick())


if __name__ == "__main__":
    main()
