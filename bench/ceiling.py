"""What limits ``strong``: the same bot told the hidden cards, and given more worlds.

``strong`` guesses the cards it cannot see (sampled worlds, read by the calls and the
plays) and values each candidate by playing the world out with the ``policy.py`` rules
for every seat. Two things can hold it back: the guess, and the play-outs. This bench
measures the first directly and the price of the budget alongside:

- ``strong``: the bot as it is (the reference);
- ``sees-all``: every sampled world is the true layout, in every phase: the bot knows
  every hand and the talon (a bot nobody could build; the ceiling of better guessing);
- ``sees-bidding``, ``sees-contract``, ``sees-play``: the true layout only in the
  bidding, only for the gives and the contract, only in the card play;
- ``samples-xN``: the bot as it is with N times the sample cap (does more search pay?).

Every variant plays the same layouts as ``bench/arena.py`` does for ``strong:basic``
(one seat of the variant, rotated, two ``basic`` bots; each a fresh match), with a
sample cap and no time limit, so that every decision is a pure function of the seed
and the layout. Printed per variant: its mean points a deal minus basic's with a 95%
interval over layouts, and its difference from ``strong`` paired layout by layout
(each layout played by both), with the number of layouts on which anything differed.

Run: ``python -m bench.ceiling --deals 150 --seed 7101 --samples 100 --workers 2``
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bench.arena import bot_turn, run_jobs, yardstick
from games.bots import BasicBot, Bot, Budget
from games.bots.knowledge import Knowledge
from games.bots.reading import Plays
from games.bots.strong import StrongBot, _Search
from games.bots_report import mean_interval
from games.engine import Deal, Match, Options, Phase
from games.engine.dealing import deal_cards
from games.engine.views import View

PHASES = {
    "sees-all": (Phase.BIDDING, Phase.GIVING, Phase.CONTRACT, Phase.PLAY),
    "sees-bidding": (Phase.BIDDING,),
    "sees-contract": (Phase.GIVING, Phase.CONTRACT),
    "sees-play": (Phase.PLAY,),
}


class _SeeingSearch(_Search):
    """A search whose sampled world is the true layout in the bot's chosen phases."""

    bot: SeeingStrongBot

    def _truth(self) -> Deal | None:
        deal = self.bot.deal()
        return deal if deal.phase in self.bot.phases else None

    def _world(self, know: Knowledge) -> tuple[list[int], list[int]]:
        deal = self._truth()
        if deal is None:
            return super()._world(know)
        # The talon is hidden only in the bidding; after it, nothing lies face down.
        return list(deal.hands), list(deal.talons) if deal.phase is Phase.BIDDING else []

    def _played_world(self, know: Knowledge, plays: Plays) -> list[int]:
        deal = self._truth()
        return super()._played_world(know, plays) if deal is None else list(deal.hands)


class SeeingStrongBot(StrongBot):
    """``strong`` told the hidden cards (``deal()``: the real deal now) in ``phases``."""

    def __init__(
        self, seed: int, budget: Budget, deal: Callable[[], Deal], phases: tuple[Phase, ...]
    ) -> None:
        super().__init__(seed, budget)
        self.deal = deal
        self.phases = phases

    def search(self, view: View) -> _Search:
        return _SeeingSearch(self, view)


def play_layout(args: tuple[str, int, int, int]) -> tuple[float, list[float]]:
    """One layout, the variant in each seat in turn against two basic bots: (the
    variant's mean points a deal minus basic's, the variant's decision times)."""
    variant, seed, group, samples = args
    options = Options.preset("classic")
    n = options.players
    rng = random.Random(seed * 1_000_003 + group)
    dealer = group % n
    hands, talons = deal_cards(rng, n, dealer)
    diffs: list[float] = []
    times: list[float] = []
    for a in range(n):
        match = Match.empty(options, first_dealer=dealer)
        match.start_deal(list(hands), talons)

        def real_deal(match: Match = match) -> Deal:
            assert match.deal is not None
            return match.deal

        seats_seed = (
            seed * 7919 + group * 31
        )  # a seat's bot seed is this + its seat, as in the arena
        cap = samples
        if variant.startswith("samples-x"):
            cap = samples * int(variant.removeprefix("samples-x"))
        budget = Budget(seconds=None, samples=cap, cpu=True)
        searcher: StrongBot
        if variant in PHASES:
            searcher = SeeingStrongBot(seats_seed + a, budget, real_deal, PHASES[variant])
        else:
            searcher = StrongBot(seats_seed + a, budget)
        searcher.strict = True
        bots: list[Bot] = [searcher if s == a else BasicBot(seats_seed + s) for s in range(n)]
        levels = [variant if s == a else "basic" for s in range(n)]
        turn_times: dict[str, list[float]] = {variant: [], "basic": []}
        while not match.awaiting_deal:
            bot_turn(match, bots, levels, turn_times)
        times.extend(turn_times[variant])
        deltas = match.results[-1].deltas
        diffs.append(deltas[a] - statistics.fmean(deltas[s] for s in range(n) if s != a))
    return statistics.fmean(diffs), times


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--variants",
        default="strong,sees-all,sees-bidding,sees-contract,sees-play,samples-x4",
        help="comma separated; strong is always played (the reference)",
    )
    ap.add_argument("--deals", type=int, default=100, help="layouts")
    ap.add_argument("--seed", type=int, default=7101)
    ap.add_argument("--samples", type=int, default=100, help="strong's sample cap")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json", default=None, help="write every figure to this file")
    args = ap.parse_args()
    variants = ["strong"] + [v for v in args.variants.split(",") if v and v != "strong"]
    for v in variants:
        assert v == "strong" or v in PHASES or v.startswith("samples-x"), v
    print(f"seed={args.seed} layouts={args.deals} sample cap={args.samples} (no time limit), "
          f"3 players, one seat of each variant against two basic bots, rotated")  # fmt: skip
    before = yardstick()
    print(f"before: {before}")
    per_layout: dict[str, list[float]] = {}
    timing: dict[str, dict[str, float]] = {}
    for v in variants:
        t0 = time.perf_counter()
        jobs = [(v, args.seed, g, args.samples) for g in range(args.deals)]
        results = run_jobs(play_layout, jobs, args.workers, chunksize=2)
        per_layout[v] = [r[0] for r in results]
        times = sorted(t for r in results for t in r[1])
        timing[v] = {
            "decisions": len(times),
            "median_ms": 1000 * statistics.median(times),
            "wall_s": time.perf_counter() - t0,
        }
        print(f"  {v}: {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    after = yardstick()
    ref = per_layout["strong"]
    print()
    print(f"{'variant':<15}{'vs basic, pts/deal [95% CI]':>30}{'minus strong, paired':>24}"
          f"{'layouts differing':>19}{'median ms':>11}")  # fmt: skip
    rows = []
    for v in variants:
        m, h = mean_interval(per_layout[v])
        d = [x - y for x, y in zip(per_layout[v], ref)]
        dm, dh = mean_interval(d)
        differing = sum(1 for x in d if x)
        rows.append({"variant": v, "mean": m, "half_width": h, "minus_strong": dm,
                     "minus_strong_half_width": dh, "layouts_differing": differing, **timing[v]})  # fmt: skip
        paired = "" if v == "strong" else f"{dm:>+12.1f} ± {dh:4.1f}"
        print(f"{v:<15}{m:>+13.1f} [{m - h:+6.1f}, {m + h:+6.1f}]{paired:>24}"
              f"{differing if v != 'strong' else '':>19}{timing[v]['median_ms']:>11.1f}")  # fmt: skip
    print(f"after: {after}")
    if args.json:
        out = {"seed": args.seed, "layouts": args.deals, "samples": args.samples,
               "machine_load": os.getloadavg()[0], "yardstick_before": before,
               "yardstick_after": after, "variants": rows, "per_layout": per_layout}  # fmt: skip
        Path(args.json).write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
