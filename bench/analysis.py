"""The computer analysis of a match: what it costs and whether it can be trusted.

- **Cost**: CPU seconds to analyse one seat of a whole match (3 players, played to its end
  by basic bots) at the documented budget (``analysis.core.SAMPLES`` worlds a decision,
  no clock), decisions judged a second, and the peak memory (tracemalloc) of analysing one
  deal.
- **Agreement with itself**: every decision analysed twice, with two seeds; the share of
  decisions whose label is the same both times (a label that flips with the seed is
  noise), and the mean absolute difference of the loss.
- **It orders the players**: one seat of ``random``, ``basic`` or ``strong`` (a sample cap,
  no clock) against two basic bots, the same layouts for every level; the analysis's mean
  loss a decision of that seat, by stage, with a 95% interval over decisions. It must
  put random above basic above strong.
- **The thresholds**: percentiles of the losses of ``strong`` and ``basic``, and the share
  of each label per level under the thresholds of ``analysis.core`` (chosen from these:
  ``strong``'s own play should be mostly "good").

Run: ``nice python -m bench.analysis --games 6 --deals 6 --seed 3001 --workers 2``
"""

from __future__ import annotations

import argparse
import functools
import json
import statistics
import time
import tracemalloc
from pathlib import Path
from typing import Any

from analysis import core
from bench.arena import pct, run_jobs, yardstick
from games.bots import Budget, make_bot
from games.bots_report import mean_interval
from games.engine import Match, Options

LEVELS = ("random", "basic", "strong")


def play(seed: int, seat: int, level: str, deals: int, samples: int) -> dict[str, Any]:
    """The record of a match of ``level`` at ``seat`` against basic bots (``deals``: its
    first deals; 0: to the end)."""
    match = Match.new(Options(players=3), seed=seed)
    budget = Budget(seconds=None, samples=samples)
    bots = [
        make_bot(level if s == seat else "basic", seed=seed + s, budget=budget) for s in range(3)
    ]
    while match.winner is None and (deals == 0 or len(match.results) < deals):
        s = match.to_act
        assert s is not None
        match.apply(bots[s].decide(match.view(s)), seat=s)
    record = match.to_record()
    if deals:
        record["deals"] = record["deals"][:deals]
    return record


def judge_job(job: tuple[str, int, int, int, int, int]) -> dict[str, Any]:
    """One level's seat in one match, analysed with two seeds."""
    level, seed, seat, deals, samples, bot_samples = job
    record = play(seed, seat, level, deals, bot_samples)
    t0 = time.process_time()
    first = core.analyse(record, [seat], samples=samples, seed=seed)
    cpu = time.process_time() - t0
    second = core.analyse(record, [seat], samples=samples, seed=seed + 1)
    return {
        "level": level,
        "cpu": cpu,
        "decisions": [
            (a.loss, a.label.value, b.loss, b.label.value, a.stage.value)
            for a, b in zip(first.decisions, second.decisions)
        ],
    }


def whole_match(seed: int, samples: int) -> dict[str, Any]:
    record = play(seed, 0, "basic", 0, 0)
    t0 = time.process_time()
    result = core.analyse(record, [0], samples=samples, seed=seed)
    cpu = time.process_time() - t0
    return {"deals": len(record["deals"]), "decisions": len(result.decisions), "cpu": cpu}


def memory_of_a_deal(seed: int, samples: int) -> float:
    record = play(seed, 0, "basic", 1, 0)
    tracemalloc.start()
    core.analyse(record, [0, 1, 2], samples=samples, seed=seed)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 1024


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--games", type=int, default=6, help="matches per level")
    ap.add_argument("--deals", type=int, default=6, help="deals of each match analysed")
    ap.add_argument("--seed", type=int, default=3001)
    ap.add_argument(
        "--samples", type=int, default=core.SAMPLES, help="the analysis's worlds a decision"
    )
    ap.add_argument("--bot-samples", type=int, default=100, help="strong's sample cap as a player")
    ap.add_argument("--whole-matches", type=int, default=1, help="whole matches timed (0: none)")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()

    print(yardstick(), flush=True)
    started = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    jobs = [
        (level, args.seed + g, g % 3, args.deals, args.samples, args.bot_samples)
        for level in LEVELS
        for g in range(args.games)
    ]
    results = run_jobs(judge_job, jobs, args.workers, chunksize=1)
    wholes = run_jobs(
        functools.partial(whole_match, samples=args.samples),
        [args.seed + 1000 + i for i in range(args.whole_matches)],
        1,
        chunksize=1,
    )
    memory = memory_of_a_deal(args.seed, args.samples)

    out: dict[str, Any] = {"started": started, "args": {k: str(v) for k, v in vars(args).items()}}
    print(f"\nbudget: {args.samples} worlds a decision (no clock); thresholds "
          f"{core.INACCURACY:g} / {core.MISTAKE:g} / {core.BLUNDER:g}")  # fmt: skip
    cpu = sum(r["cpu"] for r in results)
    judged = sum(len(r["decisions"]) for r in results)
    print(f"decisions judged a second (one process): {judged / cpu:.2f} "
          f"({judged} decisions, {cpu:.0f} CPU s)")  # fmt: skip
    for w in wholes:
        print(f"a whole match: {w['deals']} deals, {w['decisions']} decisions of one seat, "
              f"{w['cpu']:.0f} CPU s ({w['decisions'] / w['cpu']:.2f} a second)")  # fmt: skip
    print(f"peak memory analysing one deal (three seats): {memory:,.0f} KiB")
    every = [d for r in results for d in r["decisions"]]
    same = sum(1 for d in every if d[1] == d[3])
    print(f"labels equal across two seeds: {same}/{len(every)} = {same / max(len(every), 1):.1%}; "
          f"mean |loss difference| {statistics.fmean(abs(d[0] - d[2]) for d in every):.2f}")  # fmt: skip
    out.update(decisions_per_second=judged / cpu, judged=judged, whole=wholes, memory_kib=memory,
               agreement=same / max(len(every), 1))  # fmt: skip

    print("\nmean loss a decision, by the analysis (± a 95% half-width over decisions)")
    print(f"{'level':8} {'n':>5} {'all':>22} {'bidding':>9} {'contract':>9} {'play':>9} "
          f"{'good':>6} {'inacc.':>6} {'mistake':>7} {'blunder':>7}")  # fmt: skip
    out["levels"] = {}
    for level in LEVELS:
        ds = [d for r in results if r["level"] == level for d in r["decisions"]]
        losses = [d[0] for d in ds]
        mean, half = mean_interval(losses or [float("nan")])
        stages = {
            st.value: statistics.fmean([d[0] for d in ds if d[4] == st.value] or [float("nan")])
            for st in core.Stage
        }
        shares = {
            lb.value: sum(1 for d in ds if d[1] == lb.value) / max(len(ds), 1) for lb in core.Label
        }
        print(f"{level:8} {len(ds):5} {mean:7.2f} ± {half:5.2f}       "
              f"{stages['bidding']:9.2f} {stages['contract']:9.2f} {stages['play']:9.2f} "
              f"{shares['good']:6.1%} {shares['inaccuracy']:6.1%} {shares['mistake']:7.1%} "
              f"{shares['blunder']:7.1%}")  # fmt: skip
        quantiles = {q: pct(losses, q) for q in (0.5, 0.75, 0.9, 0.95, 0.98, 0.99)}
        out["levels"][level] = {"n": len(ds), "mean": mean, "half_width": half, "stages": stages,
                                "labels": shares, "quantiles": quantiles,
                                "decisions": [[d[0], d[2], d[4]] for d in ds]}  # fmt: skip
    print("\nloss percentiles (the thresholds are chosen from these)")
    for level in LEVELS:
        q = out["levels"][level]["quantiles"]
        print(f"{level:8} " + "  ".join(f"p{round(k * 100)} {v:6.1f}" for k, v in q.items()))
    print(f"\n{yardstick()}")
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
