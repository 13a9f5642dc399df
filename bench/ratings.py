"""How well the ratings order players, and how fast the service processes them.

Part 1, quality (pure Python, no database):

- *Bots*: a population with a known order of strength plays whole matches of Thousand with
  the real engine. Player ``i`` is the ``basic`` bot that plays a uniformly random legal
  action with probability ``ε_i`` (ten values, 0.0 … 0.9 by default): a lower ε is a
  stronger player. Random threes are seated so that everyone plays as often as everyone
  else. After 10, 30 and 100 matches per player, each system is scored on the same
  matches: the Spearman correlation of its ratings with the true order, and the log loss
  and accuracy of its prediction of the winner of held-out matches (a separate set of
  random threes that no system trains on). Several independent populations (``--reps``)
  are averaged. Generated matches are cached under ``bench/.cache/``.
- *Synthetic*: many more players with hidden strengths θ ~ N(0, 1); the finishing order of
  a match is drawn from the Plackett–Luce model with weights ``exp(spread · θ)``.

Systems: the issue's plain Elo (K 32, 64 while provisional), the service's default
(``ratings.elo.DEFAULT``: a K that shrinks with games), the default with the final-score
margin, the default with a K floor of 8, a Glicko-1 rating deviation in place of the
provisional K (two floors), and OpenSkill's Plackett–Luce model (``openskill``; ordered by
μ, winner predicted with its ``predict_win``). Besides the checkpoints, each run's first
third is scored match by match, each predicted before it is learnt from ("early loss"),
and every system is compared with the default population by population.

Part 2, speed (PostgreSQL): ``--speed`` runs ``bench/ratings_speed.py`` after part 1
(or run that script alone).

Run: ``python -m bench.ratings`` (a few minutes on 2 cores);
     ``python -m bench.ratings --reps 10 --heldout 400 --synthetic-players 5000`` (bigger);
     ``python -m bench.ratings --strong`` adds a ``strong`` bot on top (slow: about 150 ms
     a decision, so about a minute a match; use with ``--per-player 10 --reps 1``).
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from bench.rating_population import (
    MAX_DEALS,
    Played,
    generate,
    population,
    schedule,
)
from ratings import elo

CHECKPOINTS = (10, 30, 100)


# ---------------------------------------------------------------- the bot population: bench/rating_population.py


# ---------------------------------------------------------------- the rating systems


class System:
    name: str

    def update(self, played: Played) -> None: ...

    def strength(self, player: int) -> float: ...

    def win_probabilities(self, seats: Sequence[int]) -> list[float]: ...


class EloSystem(System):
    def __init__(self, name: str, players: int, config: elo.EloConfig, margin: bool = True) -> None:
        self.name = name
        self.config = config
        self.margin = margin
        self.ratings = [config.start] * players
        self.games = [0] * players

    def update(self, played: Played) -> None:
        scores = played.scores if self.margin else None
        # Without scores (the synthetic population) the margin is off altogether.
        config = self.config if scores is not None else replace(self.config, margin_weight=0.0)
        standings = [
            elo.Standing(
                self.ratings[p],
                self.games[p],
                played.places[s],
                None if scores is None else float(scores[s]),
            )
            for s, p in enumerate(played.seats)
        ]
        for p, change in zip(played.seats, elo.rate(standings, config)):
            self.ratings[p] = change.after
            self.games[p] += 1

    def strength(self, player: int) -> float:
        return self.ratings[player]

    def win_probabilities(self, seats: Sequence[int]) -> list[float]:
        return elo.win_probabilities([self.ratings[p] for p in seats], self.config.scale)


class GlickoSystem(System):
    """A rating deviation (Glicko-1) on the same pairwise decomposition: each match is a
    rating period of n − 1 pairwise games whose information is shared like K (divided by
    n − 1, since the games come from one finishing order); RD starts at 350, never falls
    below ``floor`` and grows by ``c`` a match (skill drifts)."""

    Q = math.log(10) / 400

    def __init__(self, name: str, players: int, floor: float = 50.0, c: float = 10.0) -> None:
        self.name = name
        self.ratings = [1500.0] * players
        self.rd = [350.0] * players
        self.floor = floor
        self.c = c

    def _g(self, rd: float) -> float:
        return 1 / math.sqrt(1 + 3 * self.Q**2 * rd**2 / math.pi**2)

    def update(self, played: Played) -> None:
        n = len(played.seats)
        new = []
        for i, p in enumerate(played.seats):
            rd = math.sqrt(min(350.0**2, self.rd[p] ** 2 + self.c**2))
            info = 0.0
            total = 0.0
            for j, o in enumerate(played.seats):
                if i == j:
                    continue
                g = self._g(self.rd[o])
                e = 1 / (1 + 10 ** (-g * (self.ratings[p] - self.ratings[o]) / 400))
                s = elo.pairwise_result(played.places[i], played.places[j])
                info += g * g * e * (1 - e) / (n - 1)
                total += g * (s - e) / (n - 1)
            var = 1 / (1 / rd**2 + self.Q**2 * info)
            new.append((p, self.ratings[p] + self.Q * var * total, max(self.floor, math.sqrt(var))))
        for p, r, d in new:
            self.ratings[p] = r
            self.rd[p] = d

    def strength(self, player: int) -> float:
        return self.ratings[player]

    def win_probabilities(self, seats: Sequence[int]) -> list[float]:
        return elo.win_probabilities([self.ratings[p] for p in seats])


class OpenSkillSystem(System):
    def __init__(self, players: int) -> None:
        from openskill.models import PlackettLuce

        self.name = "OpenSkill PL"
        self.model = PlackettLuce()
        self.ratings = [self.model.rating() for _ in range(players)]

    def update(self, played: Played) -> None:
        teams = [[self.ratings[p]] for p in played.seats]
        rated = self.model.rate(teams, ranks=[float(x) for x in played.places])
        for p, team in zip(played.seats, rated):
            self.ratings[p] = team[0]

    def strength(self, player: int) -> float:
        return float(self.ratings[player].mu)

    def win_probabilities(self, seats: Sequence[int]) -> list[float]:
        return [float(x) for x in self.model.predict_win([[self.ratings[p]] for p in seats])]


K_FLOOR_8 = replace(elo.DEFAULT, k_floor=8.0)
"""A candidate: the default's K, but shrinking towards 8 instead of 16."""


def systems(players: int, extra: Sequence[tuple[str, elo.EloConfig]] = ()) -> list[System]:
    margin = replace(elo.DEFAULT, margin_weight=1.0)
    out: list[System] = [
        EloSystem("plain Elo (K 32/64)", players, elo.PLAIN, margin=False),
        EloSystem("shrinking K (default)", players, elo.DEFAULT, margin=False),
        EloSystem("shrinking K + margin", players, margin),
        EloSystem("K floor 8", players, K_FLOOR_8, margin=False),
        GlickoSystem("Glicko RD (floor 50)", players),
        GlickoSystem("Glicko RD (floor 30)", players, floor=30.0, c=5.0),
        OpenSkillSystem(players),
    ]
    out[3:3] = [EloSystem(name, players, config) for name, config in extra]
    return out


# ---------------------------------------------------------------- scoring


def spearman(a: Sequence[float], b: Sequence[float]) -> float:
    from scipy.stats import spearmanr

    rho = spearmanr(a, b).statistic
    return float(rho) if math.isfinite(rho) else 0.0


EARLY = 0
"""The results key (in place of a checkpoint) of the first third's prequential log loss."""


def match_loss(system: System, m: Played) -> float:
    """The log loss of one winner prediction (a shared first place counts for each of
    its winners, weighted to one match)."""
    probs = system.win_probabilities(m.seats)
    firsts = [s for s, place in enumerate(m.places) if place == 1]
    if not firsts:
        return 0.0
    return -sum(math.log(max(probs[s], 1e-12)) for s in firsts) / len(firsts)


def predict(system: System, heldout: Sequence[Played]) -> tuple[float, float]:
    """Log loss (natural log) and accuracy of the winner predictions; a match with a
    shared first place counts for each of its winners, weighted to one match."""
    loss = 0.0
    hits = 0.0
    for m in heldout:
        probs = system.win_probabilities(m.seats)
        firsts = [s for s, place in enumerate(m.places) if place == 1]
        loss += match_loss(system, m)
        best = max(range(len(probs)), key=probs.__getitem__)
        hits += (best in firsts) / 1.0
    return loss / len(heldout), hits / len(heldout)


@dataclass(slots=True)
class Scores:
    rho: list[float]
    loss: list[float]
    acc: list[float]


def evaluate(
    extra: Sequence[tuple[str, elo.EloConfig]],
    truth: Sequence[float],
    train: Sequence[Played],
    heldout: Sequence[Played],
    checkpoints: Sequence[int],
    results: dict[tuple[str, int], Scores],
) -> None:
    """Feed ``train`` in order to every system; at each checkpoint (matches per player,
    the fewest anyone has played) score it. ``truth``: true strength, higher is better."""
    players = len(truth)
    sys_list = systems(players, extra)
    games = [0] * players
    pending = list(checkpoints)
    early = len(train) // 3
    early_loss = {s.name: 0.0 for s in sys_list}
    for index, m in enumerate(train):
        if index < early:
            # The first third of the run, each match predicted before it is learnt from
            # (the phase where a newcomer's rating is still settling).
            for s in sys_list:
                early_loss[s.name] += match_loss(s, m) / early
        for s in sys_list:
            s.update(m)
        for p in m.seats:
            games[p] += 1
        while pending and min(games) >= pending[0]:
            cp = pending.pop(0)
            for s in sys_list:
                loss, acc = predict(s, heldout)
                rho = spearman([s.strength(p) for p in range(players)], truth)
                r = results.setdefault((s.name, cp), Scores([], [], []))
                r.rho.append(rho)
                r.loss.append(loss)
                r.acc.append(acc)
    for s in sys_list:
        results.setdefault((s.name, EARLY), Scores([], [], [])).loss.append(early_loss[s.name])


def summary(
    title: str,
    results: dict[tuple[str, int], Scores],
    checkpoints: Sequence[int],
    names: Sequence[str],
) -> None:
    """One line per system: Spearman (mean ± sd over the populations) at each checkpoint,
    the held-out log loss at the first checkpoint and the first third's prequential log
    loss (mean ± sd), the figures a choice of system rests on."""
    print(f"\n{title}")
    cps = " ".join(f"{'ρ@' + str(cp):>15}" for cp in checkpoints)
    print(f"  {'system':<24} {cps} {'loss@' + str(checkpoints[0]):>9} {'early loss':>17}")
    for name in names:
        cells = []
        for cp in checkpoints:
            r = results.get((name, cp))
            sd = statistics.stdev(r.rho) if r and len(r.rho) > 1 else 0.0
            cells.append(f"{statistics.fmean(r.rho):>7.3f} ± {sd:<5.3f}" if r else f"{'':>15}")
        first = results.get((name, checkpoints[0]))
        e = results.get((name, EARLY))
        esd = statistics.stdev(e.loss) if e and len(e.loss) > 1 else 0.0
        loss = f"{statistics.fmean(first.loss):>9.4f}" if first else f"{'':>9}"
        early = f"{statistics.fmean(e.loss):>8.4f} ± {esd:<6.4f}" if e else ""
        print(f"  {name:<24} {' '.join(cells)} {loss} {early}")
    base = "shrinking K (default)"
    print("\n  paired with the default, population by population (mean ± sd of the differences; "
          "ρ up is better, loss down is better):")  # fmt: skip
    print(f"  {'system':<24} {'Δρ@' + str(checkpoints[0]):>17} {'Δρ@' + str(checkpoints[-1]):>17} "
          f"{'Δloss@' + str(checkpoints[0]):>19} {'Δearly loss':>19}")  # fmt: skip
    for name in names:
        if name == base:
            continue
        cells = []
        for key, field in (
            (checkpoints[0], "rho"),
            (checkpoints[-1], "rho"),
            (checkpoints[0], "loss"),
            (EARLY, "loss"),
        ):
            mine, theirs = results.get((name, key)), results.get((base, key))
            if not mine or not theirs:
                cells.append(f"{'':>17}")
                continue
            diffs = [
                a - b for a, b in zip(getattr(mine, field), getattr(theirs, field), strict=True)
            ]
            sd = statistics.stdev(diffs) if len(diffs) > 1 else 0.0
            cells.append(f"{statistics.fmean(diffs):>+8.4f} ± {sd:<7.4f}")
        print(f"  {name:<24} {' '.join(cells)}")


def table(
    title: str,
    results: dict[tuple[str, int], Scores],
    checkpoints: Sequence[int],
    names: Sequence[str],
) -> None:
    print(f"\n{title}")
    print(
        f"  {'system':<24} {'matches/player':>14} {'Spearman':>16} {'log loss':>9} {'accuracy':>9}"
    )
    for cp in checkpoints:
        for name in names:
            r = results.get((name, cp))
            if r is None:
                continue
            sd = statistics.stdev(r.rho) if len(r.rho) > 1 else 0.0
            print(
                f"  {name:<24} {cp:>14} {statistics.fmean(r.rho):>8.3f} ± {sd:<5.3f} "
                f"{statistics.fmean(r.loss):>9.4f} {statistics.fmean(r.acc):>9.3f}"
            )
        print()


# ---------------------------------------------------------------- synthetic


def pl_draw(seats: list[int], weights: Sequence[float], rng: random.Random) -> Played:
    """A Plackett–Luce finishing order: Gumbel-perturbed log-weights, sorted."""
    keys = [math.log(weights[p]) - math.log(-math.log(rng.random())) for p in seats]
    order = sorted(range(len(seats)), key=lambda s: -keys[s])
    places = [0] * len(seats)
    for rank, s in enumerate(order, start=1):
        places[s] = rank
    return Played(seats, places, None)


def synthetic(
    args: argparse.Namespace, extra: Sequence[tuple[str, elo.EloConfig]]
) -> dict[tuple[str, int], Scores]:
    results: dict[tuple[str, int], Scores] = {}
    for rep in range(args.synthetic_reps):
        rng = random.Random(7000 + rep)
        n = args.synthetic_players
        theta = [rng.gauss(0.0, 1.0) for _ in range(n)]
        weights = [math.exp(args.spread * t) for t in theta]

        train = [pl_draw(three, weights, rng) for three in schedule(n, max(args.checkpoints), rng)]
        heldout = [
            pl_draw(rng.sample(range(n), 3), weights, rng) for _ in range(args.synthetic_heldout)
        ]
        evaluate(extra, theta, train, heldout, args.checkpoints, results)
    return results


# ---------------------------------------------------------------- main


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return f"{cpu}, {os.cpu_count()} cores, load {load:.2f}; Python {platform.python_version()} ({platform.python_implementation()})"


def parse_config(text: str) -> tuple[str, elo.EloConfig]:
    """``name:k=40,k_floor=20,...`` → an extra Elo configuration to compare."""
    name, _, spec = text.partition(":")
    fields: dict[str, Any] = {}
    for part in filter(None, spec.split(",")):
        key, _, value = part.partition("=")
        fields[key] = int(value) if key == "provisional_games" else float(value)
    return name, replace(elo.DEFAULT, **fields)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--reps", type=int, default=4, help="independent bot populations (default 4)"
    )
    parser.add_argument(
        "--heldout", type=int, default=150, help="held-out matches per population (default 150)"
    )
    parser.add_argument(
        "--checkpoints", type=lambda s: [int(x) for x in s.split(",")], default=list(CHECKPOINTS)
    )
    parser.add_argument(
        "--workers", type=int, default=2, help="processes generating matches (at most 2 here)"
    )
    parser.add_argument("--strong", action="store_true", help="add a strong bot at the top (slow)")
    parser.add_argument(
        "--eps-max", type=float, default=0.18, help="the weakest bot's ε (ten evenly from 0)"
    )
    parser.add_argument("--synthetic-players", type=int, default=1000)
    parser.add_argument("--synthetic-reps", type=int, default=2)
    parser.add_argument("--synthetic-heldout", type=int, default=3000)
    parser.add_argument(
        "--spread", type=float, default=1.0, help="synthetic: PL weight = exp(spread·θ)"
    )
    parser.add_argument("--config", action="append", default=[], type=parse_config,
                        help="an extra Elo configuration, e.g. 'k40:k=40,k_floor=20'")  # fmt: skip
    parser.add_argument("--skip-bots", action="store_true")
    parser.add_argument("--skip-synthetic", action="store_true")
    parser.add_argument(
        "--speed", action="store_true", help="also part 2 (PostgreSQL; see bench/ratings_speed.py)"
    )
    parser.add_argument(
        "--speed-args", default="", help="arguments for part 2, e.g. '--worker --players 200000'"
    )
    args = parser.parse_args(argv)
    args.checkpoints = sorted(args.checkpoints)
    workers = max(1, min(args.workers, 2))

    print(f"machine: {machine()}")
    print(
        "figures taken on a shared machine are noisy (timing only; quality figures are deterministic)"
    )
    extra: list[tuple[str, elo.EloConfig]] = args.config
    names = [s.name for s in systems(1, extra)]

    if not args.skip_bots:
        players = population(args.strong, args.eps_max)
        truth = [-float(i) for i in range(len(players))]
        results: dict[tuple[str, int], Scores] = {}
        t0 = time.perf_counter()
        undecided = 0
        for rep in range(args.reps):
            train, heldout, secs = generate(
                rep, players, max(args.checkpoints), args.heldout, workers
            )
            undecided += sum(1 for m in train + heldout if 1 not in m.places)
            print(
                f"population {rep}: {len(train)} training + {len(heldout)} held-out matches ({secs:.1f} s)"
            )
            evaluate(extra, truth, train, heldout, args.checkpoints, results)
        print(f"bots: {', '.join(p.name for p in players)} (strongest first); {args.reps} populations, "
              f"{time.perf_counter() - t0:.0f} s in all; matches without a winner in {MAX_DEALS} deals: {undecided}")  # fmt: skip
        table(
            "Part 1a: bots playing Thousand (mean over populations; Spearman ± sd)",
            results,
            args.checkpoints,
            names,
        )
        summary(f"Part 1a in one line each (populations {', '.join(str(1000 + r) for r in range(args.reps))} are the schedule seeds)",
                results, args.checkpoints, names)  # fmt: skip

    if not args.skip_synthetic:
        t0 = time.perf_counter()
        results = synthetic(args, extra)
        print(f"synthetic: {args.synthetic_players} players, θ ~ N(0,1), PL weight exp({args.spread}·θ), "
              f"{args.synthetic_reps} populations, {args.synthetic_heldout} held-out matches each "
              f"({time.perf_counter() - t0:.0f} s)")  # fmt: skip
        table(
            "Part 1b: synthetic Plackett–Luce population (no scores, so the margin is off)",
            results,
            args.checkpoints,
            names,
        )
        summary("Part 1b in one line each", results, args.checkpoints, names)

    if args.speed:
        import shlex

        from bench import ratings_speed

        print()
        ratings_speed.main(shlex.split(args.speed_args))


if __name__ == "__main__":
    main()
