"""The contract decision measured against the exact solver: does master name the contract
that best play makes, and does the analysis judge it so?

Positions: the declarer's contract decision (after the talon and the gives) in the first
deals of matches of basic bots, three players (the classic rules). For each position:

- **The reference**: ``--layouts`` layouts of the unseen cards drawn as the seat could
  face them (the bots' own sampling, read by the calls), each played from the first lead
  with best play on both sides by the exact solver from ``--exact`` tricks left (the first
  tricks, if any, by the policy); the best contract is the one of highest mean value in
  the match objective over those layouts (the same worlds for every contract).
- **Master's contract** (a cap of ``--samples`` worlds, no clock), as it was (named on
  play-outs by the policy with best play from three tricks left) and as it is.
- Printed per version: the share of positions where master's contract is the same as,
  lower than or higher than the reference's, the mean regret (the reference's value of
  its best contract less that of master's, in points), and how often the analysis (the
  master search at ``--samples`` worlds) calls the reference's own best contract an
  inaccuracy or worse.

Run: ``nice python -m bench.contract --positions 16 --seed 4101 --workers 2``
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from analysis.core import INACCURACY
from bench.arena import run_jobs, yardstick
from games.bots import Budget, make_bot
from games.bots.appraisal import NOISE, appraise
from games.bots.knowledge import knowledge_of
from games.bots.strong import MasterBot, _scored_at
from games.engine import Match, Options
from games.engine.actions import Contract
from games.engine.views import View


def positions(seed: int, count: int) -> list[View]:
    """Contract decisions of the declarer in matches of basic bots."""
    out: list[View] = []
    s = seed
    while len(out) < count:
        match = Match.new(Options(players=3), seed=s)
        bots = [make_bot("basic", seed=s + i) for i in range(3)]
        while not match.over and len(match.results) < 4 and len(out) < count:
            seat = match.to_act
            assert seat is not None
            view = match.view(seat)
            if view.phase == "contract" and sum(isinstance(a, Contract) for a in view.legal) > 1:
                out.append(view)
            match.apply(bots[seat].decide(view), seat=seat)
        s += 1
    return out


class _Before(MasterBot):
    contract_tricks = None  # the contract named on the leaf play-outs, as before


def reference(view: View, layouts: int, exact: int, seed: int) -> dict[int, float]:
    """The mean value of every contract over ``layouts`` worlds played with best play."""
    bot = MasterBot(seed, Budget(seconds=None, samples=layouts))
    search = bot.search(view)
    know = knowledge_of(view)
    worlds = []
    for _ in range(layouts):
        hands, _piles = search._world(know)
        worlds.append(search._play_contract(hands, exact))
    values = [a.value for a in view.legal if isinstance(a, Contract)]
    return {c: statistics.fmean(search.value.of(_scored_at(d, c)) for d in worlds) for c in values}


def job(args: tuple[View, int, int, int, int]) -> dict[str, Any]:
    view, layouts, exact, samples, seed = args
    t0 = time.process_time()
    ref = reference(view, layouts, exact, seed)
    ref_cpu = time.process_time() - t0
    best = max(ref, key=lambda c: (ref[c], -c))
    out: dict[str, Any] = {"best": best, "ref_cpu": ref_cpu}
    for name, cls in (("before", _Before), ("after", MasterBot)):
        budget = Budget(seconds=None, samples=samples)
        t0 = time.process_time()
        chosen = cls(seed + 1, budget).decide(view)
        cpu = time.process_time() - t0
        value = chosen.value if isinstance(chosen, Contract) else None
        noise = 0.0 if name == "before" else NOISE  # before: no sampling-noise rule
        appraisal = appraise(cls(seed + 2, budget), view, Contract(best), noise=noise)
        loss = appraisal.loss(Contract(best)) if appraisal is not None else 0.0
        out[name] = {
            "contract": value,
            "regret": ref[best] - ref[value] if value is not None else None,
            "best_called_inaccuracy": loss >= INACCURACY,
            "cpu": cpu,
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=16)
    parser.add_argument("--seed", type=int, default=4101)
    parser.add_argument("--layouts", type=int, default=16, help="reference layouts a position")
    parser.add_argument(
        "--exact", type=int, default=6, help="reference: best play from N tricks left"
    )
    parser.add_argument("--samples", type=int, default=60, help="master's worlds a decision")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    print(yardstick(), flush=True)
    views = positions(args.seed, args.positions)
    jobs = [(v, args.layouts, args.exact, args.samples, args.seed + i) for i, v in enumerate(views)]
    t0 = time.perf_counter()
    results = run_jobs(job, jobs, args.workers, chunksize=1)
    wall = time.perf_counter() - t0
    n = len(results)
    print(
        f"{n} contract decisions, reference: {args.layouts} layouts, best play from "
        f"{args.exact} tricks left; master: {args.samples} worlds; {wall:.0f} s wall"
    )
    for name in ("before", "after"):
        rows = [r[name] for r in results]
        same = sum(r["contract"] == x["best"] for r, x in zip(rows, results))
        lower = sum(
            r["contract"] is None or r["contract"] < x["best"] for r, x in zip(rows, results)
        )
        higher = n - same - lower
        regrets = [r["regret"] for r in rows if r["regret"] is not None]
        called = sum(r["best_called_inaccuracy"] for r in rows)
        cpu = statistics.fmean(r["cpu"] for r in rows)
        print(
            f"{name:>6}: same {same / n:.0%}  lower {lower / n:.0%}  higher {higher / n:.0%}  "
            f"mean regret {statistics.fmean(regrets):.1f} points  "
            f"best contract called an inaccuracy {called / n:.0%}  "
            f"CPU a decision {cpu:.2f} s"
        )
    print(f"\n{yardstick()}")


if __name__ == "__main__":
    main()
