"""Bots against bots on duplicate deals.

For a pairing ``A:B`` every *group* is one layout of the cards (seeded), played once per
seating of the two levels, so that each level plays each seat's cards and the luck of the
deal cancels out:

- ``--seatings all`` (default for cheap pairings): every seating with both levels present
  (3 players: AAB ABA BAA ABB BAB BBA, six plays a group);
- ``--seatings rotate``: one seat of A, rotated (ABB BAB BBA, three plays a group), the
  default when ``strong`` plays, to keep the run short.

Each play is one complete deal from a fresh match (scores 0), with the group's dealer.
Printed per pairing:

- ``A-B pts/deal``: the mean over groups of (A's mean deal delta − B's mean deal delta)
  over the group's plays, with a 95% confidence interval (normal, over groups);
- ``A win rate``: the share of groups in which A's seats scored more in total than B's
  (ties count half), with a 95% confidence interval;
- with ``--matches M``: M whole matches (the preset's rules, barrel and all), one seat of
  A and the others B, A's seat rotating; the share of finished matches A won, with a 95%
  Wilson interval (equal strength would win 1/players);
- per level, the CPU time per decision (median, 99th percentile, max) over decisions with
  more than one legal action, measured inside ``decide``.

Levels: ``random``, ``basic``, ``strong``, ``master`` and, in this bench only,
``strong-v1`` (the previous strong bot, ``bench/strong_v1.py``). ``strong`` and
``strong-v1`` think with ``--seconds``/``--samples`` (default: the live budget), ``master``
with ``--master-seconds``/``--master-samples``. ``--memory N`` also measures the peak
memory of N decisions per level (tracemalloc, one process). ``--json FILE`` writes every
figure for ``manage.py bots_report``. The engine yardstick (complete deals per second of
``bench/engine.py``, one process) and the load average are printed before and after, so
that figures from a loaded machine can be read as such.

Run: ``python -m bench.arena --pairs basic:random --deals 2000 --seed 1``
     ``python -m bench.arena --pairs strong:basic --deals 300 --seed 1 --workers 2``
     ``python -m bench.arena --pairs strong:strong-v1 --deals 100 --matches 30 --json out.json``
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import platform
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from bench.engine import deals_per_second
from bench.strong_v1 import StrongV1Bot
from games.bots import LEVELS, LIVE_BUDGET, MASTER_BUDGET, Bot, Budget, make_bot
from games.bots_report import mean_interval, wilson
from games.engine import Match, Options
from games.engine.dealing import deal_cards

BENCH_LEVELS = (*LEVELS, "strong-v1")
SEARCH_LEVELS = ("strong", "master", "strong-v1")
Budgets = dict[str, tuple[float | None, int]]
# Bots' time limits count CPU time (Budget.cpu) unless --wall-clock: see main().
CPU_CLOCK = [True]


def make_level(level: str, seed: int, budgets: Budgets) -> Bot:
    """A bot of any bench level, with that level's budget from ``budgets``."""
    seconds, samples = budgets.get(level, (None, 1))
    # A time limit of 0 or less means none: the sample cap alone, reproducible anywhere.
    budget = Budget(
        seconds=seconds if seconds and seconds > 0 else None, samples=samples, cpu=CPU_CLOCK[0]
    )
    if level == "strong-v1":
        return StrongV1Bot(seed, budget)
    return make_bot(level, seed=seed, budget=budget)


def yardstick() -> str:
    return f"engine yardstick {deals_per_second():,.0f} complete deals/s (bench/engine.py), load {os.getloadavg()[0]:.2f}"


def table_options(preset: str) -> Options:
    """``name`` or ``name/players`` (e.g. ``classic/4``)."""
    name, _, players = preset.partition("/")
    options = Options.preset(name)
    return options.replace(players=int(players)) if players else options


def seatings(players: int, mode: str) -> list[tuple[int, ...]]:
    """Tuples of 0 (level A) / 1 (level B) per seat."""
    if mode == "rotate":
        return [tuple(0 if s == a else 1 for s in range(players)) for a in range(players)]
    return [t for t in itertools.product((0, 1), repeat=players) if 0 in t and 1 in t]


def bot_turn(
    match: Match, bots: list[Bot], levels: list[str], times: dict[str, list[float]]
) -> None:
    """The seat to act decides from its view; the decision's time (CPU time of this
    process, or wall-clock time with ``--wall-clock``) is kept when it had a choice."""
    seat = match.to_act
    assert seat is not None
    view = match.view(seat)
    clock = time.process_time if CPU_CLOCK[0] else time.perf_counter
    t0 = clock()
    action = bots[seat].decide(view)
    dt = clock() - t0
    if len(view.legal) > 1:
        times[levels[seat]].append(dt)
    match.apply(action, seat=seat)


def play_group(
    args: tuple[str, str, int, int, str, str, Budgets],
) -> tuple[float, float, dict[str, list[float]]]:
    """One group: (A minus B points per deal, A's group win (1, ½, 0), decision times)."""
    level_a, level_b, seed, group, preset, mode, budgets = args
    options = table_options(preset)
    n = options.players
    rng = random.Random(seed * 1_000_003 + group)
    dealer = group % n
    hands, talons = deal_cards(rng, n, dealer)
    times: dict[str, list[float]] = {level_a: [], level_b: []}
    diffs = []
    tot_a = tot_b = 0.0
    for seating in seatings(n, mode):
        levels = [level_a if x == 0 else level_b for x in seating]
        bots = [
            make_level(lv, seed * 7919 + group * 31 + s, budgets) for s, lv in enumerate(levels)
        ]
        match = Match.empty(options, first_dealer=dealer)
        match.start_deal(list(hands), talons)
        while not match.awaiting_deal:
            bot_turn(match, bots, levels, times)
        deltas = match.results[-1].deltas
        active = [s for s in range(n) if not (n == 4 and s == dealer)]
        a = [deltas[s] for s in active if seating[s] == 0]
        b = [deltas[s] for s in active if seating[s] == 1]
        if not a or not b:
            continue  # four players: a level only on the resting seat
        diffs.append(statistics.fmean(a) - statistics.fmean(b))
        tot_a += statistics.fmean(a)
        tot_b += statistics.fmean(b)
    win = 1.0 if tot_a > tot_b else 0.5 if tot_a == tot_b else 0.0
    return statistics.fmean(diffs) if diffs else 0.0, win, times


MAX_MATCH_DEALS = 300


def play_match(
    args: tuple[str, str, int, int, str, Budgets],
) -> tuple[int, int, dict[str, list[float]]]:
    """One whole match with one seat of A (seat ``index % players``) and B elsewhere:
    (1 if A won, 0 if B won, -1 if nobody won within the deal cap; deals played; times)."""
    level_a, level_b, seed, index, preset, budgets = args
    options = table_options(preset)
    n = options.players
    a_seat = index % n
    levels = [level_a if s == a_seat else level_b for s in range(n)]
    bots = [make_level(lv, seed * 104_729 + index * 31 + s, budgets) for s, lv in enumerate(levels)]
    match = Match.new(options, seed=seed * 1_000_033 + index // n, first_dealer=(index // n) % n)
    times: dict[str, list[float]] = {level_a: [], level_b: []}
    while match.winner is None and len(match.results) < MAX_MATCH_DEALS:
        bot_turn(match, bots, levels, times)
    won = -1 if match.winner is None else int(match.winner == a_seat)
    return won, len(match.results), times


def run_jobs[J, R](fn: Callable[[J], R], jobs: list[J], workers: int, *, chunksize: int) -> list[R]:
    """``fn`` over ``jobs``, in ``workers`` processes when more than one."""
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            return list(pool.map(fn, jobs, chunksize=chunksize))
    out = []
    for i, j in enumerate(jobs, 1):
        out.append(fn(j))
        if i % 10 == 0:
            print(f"  {i}/{len(jobs)}", file=sys.stderr, flush=True)
    return out


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    if not s:
        return float("nan")
    i = min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))
    return s[i]


def memory_per_decision(
    level: str, count: int, preset: str, seed: int, budgets: Budgets
) -> list[float]:
    """Peak memory (KiB, tracemalloc) of ``count`` decisions of ``level`` with a choice,
    met in deals played by that level against basic bots."""
    options = table_options(preset)
    n = options.players
    peaks: list[float] = []
    rng = random.Random(seed)
    game = 0
    while len(peaks) < count and game < 10 * count:
        levels = [level] + ["basic"] * (n - 1)
        bots = [make_level(lv, seed + game * 7 + s, budgets) for s, lv in enumerate(levels)]
        dealer = rng.randrange(n)
        match = Match.empty(options, first_dealer=dealer)
        match.start_deal(*deal_cards(rng, n, dealer))
        while not match.awaiting_deal and len(peaks) < count:
            seat = match.to_act
            assert seat is not None
            view = match.view(seat)
            if seat == 0 and len(view.legal) > 1:
                tracemalloc.start()
                action = bots[seat].decide(view)
                peaks.append(tracemalloc.get_traced_memory()[1] / 1024)
                tracemalloc.stop()
            else:
                action = bots[seat].decide(view)
            match.apply(action, seat=seat)
        game += 1
    return peaks


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--pairs", default="basic:random,strong:basic", help="A:B pairings, comma separated"
    )
    ap.add_argument("--deals", type=int, default=200, help="duplicate groups per pairing")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--preset", default="classic")
    ap.add_argument(
        "--players", type=int, choices=(2, 3, 4), default=None, help="override the preset's players"
    )
    ap.add_argument("--seatings", choices=("auto", "all", "rotate"), default="auto")
    ap.add_argument(
        "--seconds",
        type=float,
        default=LIVE_BUDGET.seconds,
        help="strong: seconds per decision (0: no time limit, the sample cap alone)",
    )
    ap.add_argument(
        "--samples", type=int, default=LIVE_BUDGET.samples, help="strong: sample cap per decision"
    )
    ap.add_argument("--master-seconds", type=float, default=MASTER_BUDGET.seconds)
    ap.add_argument("--master-samples", type=int, default=MASTER_BUDGET.samples)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument(
        "--matches",
        type=int,
        default=0,
        help="also play this many whole matches per pairing (one seat of A, rotated)",
    )
    ap.add_argument(
        "--memory",
        type=int,
        default=0,
        help="measure the peak memory of this many decisions per level",
    )
    ap.add_argument(
        "--json", default=None, help="write every figure to this file (for manage.py bots_report)"
    )
    ap.add_argument(
        "--wall-clock",
        action="store_true",
        help="time limits and timings in wall-clock time (default: CPU time, fair on a loaded machine)",
    )
    args = ap.parse_args()
    CPU_CLOCK[0] = not args.wall_clock
    if args.players is not None:
        args.preset = f"{args.preset}/{args.players}"
    budgets: Budgets = {
        "strong": (args.seconds, args.samples),
        "strong-v1": (args.seconds, args.samples),
        "master": (args.master_seconds, args.master_samples),
    }

    machine = (f"{platform.machine()} {platform.processor() or ''} cpus={os.cpu_count()} "
               f"python={platform.python_version()} {platform.system()} {platform.release()}")  # fmt: skip
    print(f"machine: {machine}")
    print(f"preset={args.preset} seed={args.seed} groups={args.deals} workers={args.workers} "
          f"strong budget: {args.seconds}s / {args.samples} samples; "
          f"master budget: {args.master_seconds}s / {args.master_samples} samples; "
          f"{'wall-clock' if args.wall_clock else 'CPU'} time")  # fmt: skip
    before = yardstick()
    print(f"before: {before}")
    all_times: dict[str, list[float]] = {}
    rows = []
    match_rows: list[tuple[str, int, int, float, float, float, float, float]] = []
    group_diffs: dict[str, list[float]] = {}  # per layout, to compare two runs layout by layout
    for pair in args.pairs.split(","):
        level_a, level_b = pair.split(":")
        assert level_a in BENCH_LEVELS and level_b in BENCH_LEVELS, pair
        mode = args.seatings
        if mode == "auto":
            mode = "rotate" if {level_a, level_b} & set(SEARCH_LEVELS) else "all"
        jobs = [
            (level_a, level_b, args.seed, g, args.preset, mode, budgets) for g in range(args.deals)
        ]
        t0 = time.perf_counter()
        results = run_jobs(play_group, jobs, args.workers, chunksize=4)
        wall = time.perf_counter() - t0
        diffs = [r[0] for r in results]
        wins = [r[1] for r in results]
        for r in results:
            for lv, ts in r[2].items():
                all_times.setdefault(lv, []).extend(ts)
        if results:
            m, h = mean_interval(diffs)
            w, wh = mean_interval(wins)
            plays = len(results) * len(seatings(table_options(args.preset).players, mode))
            rows.append((f"{level_a} vs {level_b}", len(results), plays, mode, m, h, w, wh, wall))
            group_diffs[f"{level_a} vs {level_b}"] = diffs
        if args.matches:
            mjobs = [
                (level_a, level_b, args.seed, i, args.preset, budgets) for i in range(args.matches)
            ]
            t0 = time.perf_counter()
            mres = run_jobs(play_match, mjobs, args.workers, chunksize=1)
            for r in mres:
                for lv, ts in r[2].items():
                    all_times.setdefault(lv, []).extend(ts)
            finished = [float(r[0]) for r in mres if r[0] >= 0]
            mw = statistics.fmean(finished) if finished else float("nan")
            lo, hi = wilson(sum(finished), len(finished))
            match_rows.append((f"{level_a} vs {level_b}", len(mres), len(finished), mw, lo, hi,
                               statistics.fmean(r[1] for r in mres), time.perf_counter() - t0))  # fmt: skip
    memory: dict[str, list[float]] = {}
    if args.memory:
        for lv in sorted({lv for pair in args.pairs.split(",") for lv in pair.split(":")}):
            memory[lv] = memory_per_decision(lv, args.memory, args.preset, args.seed, budgets)
    after = yardstick()
    print()
    print(f"{'pairing':<18}{'groups':>7}{'deals':>7}  {'seatings':<8}{'A-B pts/deal [95% CI]':>30}"
          f"{'A win rate [95% CI]':>26}{'wall s':>9}")  # fmt: skip
    for name, g, plays, mode, m, h, w, wh, wall in rows:
        print(f"{name:<18}{g:>7}{plays:>7}  {mode:<8}{m:>+10.1f} [{m - h:+7.1f}, {m + h:+7.1f}]"
              f"{w:>10.3f} [{w - wh:.3f}, {w + wh:.3f}]{wall:>9.0f}")  # fmt: skip
    n = table_options(args.preset).players
    if match_rows:
        print()
        print(
            f"whole matches, one seat of A among {n} (equal strength would win 1/{n} = {1 / n:.3f}):"
        )
        print(f"{'pairing':<18}{'matches':>8}{'won by someone':>15}{'A match win rate [95% CI]':>32}"
              f"{'deals/match':>12}{'wall s':>8}")  # fmt: skip
        for name, total, fin, mw, lo, hi, dpm, wall in match_rows:
            print(
                f"{name:<18}{total:>8}{fin:>15}{mw:>14.3f} [{lo:.3f}, {hi:.3f}]{dpm:>12.1f}{wall:>8.0f}"
            )
    print()
    print(
        f"{'level':<10}{'decisions':>10}{'median ms':>11}{'p99 ms':>9}{'max ms':>9}{'peak KiB med/max':>18}"
    )
    timing = {}
    for lv in BENCH_LEVELS:
        level_times = all_times.get(lv)
        if level_times:
            timing[lv] = {
                "decisions": len(level_times),
                "median_ms": 1000 * statistics.median(level_times),
                "p99_ms": 1000 * pct(level_times, 0.99),
                "max_ms": 1000 * max(level_times),
            }
            mem = memory.get(lv)
            if mem:
                timing[lv]["memory_median_kib"] = statistics.median(mem)
                timing[lv]["memory_max_kib"] = max(mem)
            mem_text = f"{statistics.median(mem):>9.0f}/{max(mem):.0f}" if mem else ""
            print(f"{lv:<10}{len(level_times):>10}{1000 * statistics.median(level_times):>11.2f}"
                  f"{1000 * pct(level_times, 0.99):>9.1f}{1000 * max(level_times):>9.1f}{mem_text:>18}")  # fmt: skip
    print(f"after: {after}")
    if args.json:
        out = {
            "machine": machine,
            "preset": args.preset,
            "players": n,
            "seed": args.seed,
            "budgets": budgets,
            "clock": "wall" if args.wall_clock else "cpu",
            "yardstick_before": before,
            "yardstick_after": after,
            "deals": [
                {"pairing": name, "groups": g, "deals": plays, "seatings": mode, "mean": m, "half_width": h,
                 "win_rate": w, "win_half_width": wh}
                for name, g, plays, mode, m, h, w, wh, _ in rows
            ],
            "matches": [
                {"pairing": name, "matches": total, "finished": fin, "win_rate": mw, "low": lo, "high": hi,
                 "deals_per_match": dpm}
                for name, total, fin, mw, lo, hi, dpm, _ in match_rows
            ],
            "timing": timing,
            # A − B per layout, in layout order: two runs on one seed compared layout by layout.
            "per_layout": group_diffs,
        }  # fmt: skip
        Path(args.json).write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
