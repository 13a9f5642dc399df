"""Rating duplicate events: by the places at each table, or by board comparison.

The population of ``bench/ratings.py`` (``basic`` bots playing a uniformly random legal
action with probability ε, evenly from 0 to ``--eps-max``; lower is stronger), with a
number of players divisible by three, plays duplicate events as the service runs them:

- every round, the players are seated at random tables of three and placed at the
  positions they have held least (``tournaments.duplicate.rotate_seats``);
- every table of a round plays the same sequence of dealings (the round's seed through
  ``games.engine.fair.duplicate_server_seed``), each dealt from the dealer
  (``duplicate_deal``), the first dealer at position 0, a redeal taking the next dealing;
  a match ends after M counted deals (the engine's option ``deals``): M boards;
- board k of a table is its k-th counted deal; the results of those who held the same
  dealing at the same position form a board group.

The same rounds are rated by each system, and each is scored as ``bench/ratings.py``
scores systems:

- ρ: the Spearman correlation of its ratings with the true order after 3, 10 and 30
  rounds per player (every player plays every round);
- *match loss*: the log loss of its prediction of the winner of held-out ordinary matches
  (whole matches to 1000 between random threes of the same bots; a duplicate table is in
  the same pool of three as every other table, so its ratings must mean the same there);
- *round order*: on held-out duplicate rounds, the share of pairs of players whose order
  by the round's matchpoints (``tournaments.duplicate.board_scores``) the ratings predict.

Systems: *table places* (what the service does for every other tournament table: each
table's places through ``ratings.elo.rate``), and *boards* (``ratings.elo.rate_boards``:
every pair in a board group a pairwise result, a player's terms averaged over the round
and his K applied once, with the expectation's scale and the round's weight as given).
The last column (sd) is the spread of the ratings at the end: a system whose
expectation is too steep for what it compares squeezes its ratings together.

Run: ``python -m bench.ratings_duplicate`` (about a minute on 2 cores, less from the
cache under ``bench/.cache/``); ``--players 12,24 --boards 4,8 --reps 12`` for more.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

from bench.rating_population import (  # noqa: E402
    CACHE,
    MAX_DEALS,
    NoisyBot,
    Played,
    play_match,
    population,
    run_jobs,
)
from bench.ratings import EloSystem, machine, predict, spearman  # noqa: E402
from games.engine import Match, Options, Outcome  # noqa: E402
from games.engine.fair import duplicate_deal, duplicate_server_seed  # noqa: E402
from ratings import elo  # noqa: E402
from tournaments.duplicate import BoardResult, board_scores, positions_held, rotate_seats  # noqa: E402

CHECKPOINTS = (3, 10, 30)


# ---------------------------------------------------------------- playing a round


def play_table(job: tuple[str, int, int, list[tuple[str, float]]]) -> dict[str, Any]:
    """One table of a duplicate round: its places, and the points of every board by
    position with the dealing it was dealt from."""
    round_seed, bot_seed, boards, seats = job
    bots = [NoisyBot(eps, bot_seed * 31 + s, level) for s, (level, eps) in enumerate(seats)]
    match = Match.empty(Options.preset("classic").replace(deals=boards), first_dealer=0)
    dealing = 0
    while not match.over and len(match.results) < MAX_DEALS:
        if match.awaiting_deal:
            server = duplicate_server_seed(bytes.fromhex(round_seed), {}, dealing)
            hands, talons = duplicate_deal(server, match.players, match.dealer)
            match.start_deal(hands, talons)
            dealing += 1
            continue
        seat = match.to_act
        assert seat is not None
        match.apply(bots[seat].decide(match.view(seat)), seat=seat)
    return {
        "places": match.placements or elo.placements(match.scores, winner=match.winner),
        "scores": list(match.scores),
        "boards": [
            [index, list(r.deltas)]
            for index, r in enumerate(match.results)
            if r.outcome is not Outcome.REDEAL
        ],
    }


@dataclass(slots=True)
class Round:
    tables: list[Played]  # seats by position
    groups: list[list[tuple[int, float]]]  # board groups: (player, points)
    results: list[BoardResult] = field(default_factory=list)


def seatings(players: int, rounds: int, rng: random.Random) -> list[list[list[int]]]:
    """Random tables of three each round, each table by position so that everyone holds
    the positions he has held least."""
    out: list[list[list[int]]] = []
    for _ in range(rounds):
        order = list(range(players))
        rng.shuffle(order)
        held = positions_held((t for r in out for t in r), 3)
        tables = [order[i : i + 3] for i in range(0, players, 3)]
        out.append([[p for p in rotate_seats(t, held) if p is not None] for t in tables])
    return out


def generate(
    rep: int, players: list[Any], rounds: int, heldout_rounds: int, boards: int,
    heldout: int, workers: int,
) -> tuple[list[Round], list[Round], list[Played], float]:  # fmt: skip
    """The training rounds, held-out rounds and held-out ordinary matches of one
    population (from the cache when there)."""
    n = len(players)
    rng = random.Random(2000 + rep)
    plan = seatings(n, rounds + heldout_rounds, rng)
    ordinary = [rng.sample(range(n), 3) for _ in range(heldout)]
    jobs: list[tuple[str, int, int, list[tuple[str, float]]]] = []
    for r, tables in enumerate(plan):
        round_seed = hashlib.sha256(f"duplicate/{rep}/{r}".encode()).hexdigest()
        for t, table in enumerate(tables):
            jobs.append((round_seed, rep * 1_000_003 + r * 101 + t, boards,
                         [(players[p].level, players[p].epsilon) for p in table]))  # fmt: skip
    match_jobs = [
        (rep * 7_000_003 + 500_000 + i, [(players[p].level, players[p].epsilon) for p in three])
        for i, three in enumerate(ordinary)
    ]
    key = json.dumps([1, jobs, match_jobs, MAX_DEALS])
    path = CACHE / f"duplicate-{hashlib.sha256(key.encode()).hexdigest()[:16]}.json"
    t0 = time.perf_counter()
    if path.exists():
        tables_played, matches = json.loads(path.read_text())
    else:
        tables_played = run_jobs(play_table, jobs, workers)
        matches = run_jobs(play_match, match_jobs, workers)
        CACHE.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps([tables_played, matches]))
    seconds = time.perf_counter() - t0
    out: list[Round] = []
    it = iter(tables_played)
    for r, tables in enumerate(plan):
        rnd = Round([], [])
        grouped: dict[tuple[int, int, int], list[tuple[int, float]]] = defaultdict(list)
        for t, table in enumerate(tables):
            played = next(it)
            rnd.tables.append(Played(table, played["places"], played["scores"]))
            for board, (dealing, deltas) in enumerate(played["boards"]):
                for position, player in enumerate(table):
                    grouped[(board, dealing, position)].append((player, deltas[position]))
                    rnd.results.append(
                        BoardResult(r, board, t, position, player, deltas[position], dealing)
                    )
        rnd.groups = list(grouped.values())
        out.append(rnd)
    held = [
        Played(three, elo.placements(m["scores"], winner=m["winner"]), m["scores"])
        for three, m in zip(ordinary, matches)
    ]
    return out[:rounds], out[rounds:], held, seconds


# ---------------------------------------------------------------- the systems


class TableSystem(EloSystem):
    """Each table of the round rated by its places, as every other tournament table."""

    def update_round(self, rnd: Round) -> None:
        for table in rnd.tables:
            self.update(table)


class BoardSystem(EloSystem):
    """The round rated by board comparison (``elo.rate_boards``)."""

    def __init__(
        self, name: str, players: int, config: elo.EloConfig, scale: float, weight: float
    ) -> None:
        super().__init__(name, players, config, margin=False)
        self.board_scale = scale
        self.weight = weight

    def update_round(self, rnd: Round) -> None:
        everyone = sorted({p for t in rnd.tables for p in t.seats})
        index = {p: i for i, p in enumerate(everyone)}
        changes = elo.rate_boards(
            [(self.ratings[p], self.games[p]) for p in everyone],
            [[(index[p], pts) for p, pts in g] for g in rnd.groups],
            self.config,
            scale=self.board_scale,
            weight=self.weight,
        )
        for p, change in zip(everyone, changes):
            if change is not None:
                self.ratings[p] = change.after
                self.games[p] += 1


def systems(
    players: int, scales: Sequence[float], weights: Sequence[float]
) -> list[TableSystem | BoardSystem]:
    out: list[TableSystem | BoardSystem] = [
        TableSystem("table places", players, elo.DEFAULT, margin=False)
    ]
    for scale in scales:
        for weight in weights:
            out.append(
                BoardSystem(f"boards s{scale:g} ×{weight:g}", players, elo.DEFAULT, scale, weight)
            )
    return out


# ---------------------------------------------------------------- scoring


def round_order(system: EloSystem, rounds: Sequence[Round]) -> float:
    """The share of pairs of players whose order by a held-out round's matchpoints the
    ratings predict (a tie on either side counts ½)."""
    right = 0.0
    total = 0
    for rnd in rounds:
        mp: dict[int, float] = defaultdict(float)
        for s in board_scores(rnd.results):
            assert s.result.entrant is not None
            mp[s.result.entrant] += s.percent
        ps = sorted(mp)
        for a_i, a in enumerate(ps):
            for b in ps[a_i + 1 :]:
                total += 1
                if mp[a] == mp[b] or system.ratings[a] == system.ratings[b]:
                    right += 0.5
                elif (mp[a] > mp[b]) == (system.ratings[a] > system.ratings[b]):
                    right += 1.0
    return right / total if total else 0.0


@dataclass(slots=True)
class Figures:
    rho: dict[int, list[float]] = field(default_factory=lambda: defaultdict(list))
    loss: list[float] = field(default_factory=list)
    order: list[float] = field(default_factory=list)
    spread: list[float] = field(default_factory=list)


def evaluate(
    systems_: Sequence[TableSystem | BoardSystem],
    truth: Sequence[float],
    train: Sequence[Round],
    heldout_rounds: Sequence[Round],
    heldout: Sequence[Played],
    checkpoints: Sequence[int],
    figures: dict[str, Figures],
) -> None:
    """Feed the rounds to every system and score it."""
    for done, rnd in enumerate(train, start=1):
        for s in systems_:
            s.update_round(rnd)
        if done in checkpoints:
            for s in systems_:
                rho = spearman(s.ratings, truth)
                figures.setdefault(s.name, Figures()).rho[done].append(rho)
    for s in systems_:
        f = figures.setdefault(s.name, Figures())
        f.loss.append(predict(s, heldout)[0])
        f.order.append(round_order(s, heldout_rounds))
        f.spread.append(statistics.pstdev(s.ratings))


def report(title: str, figures: dict[str, Figures], checkpoints: Sequence[int]) -> None:
    print(f"\n{title}")
    cps = " ".join(f"{'ρ@' + str(cp):>15}" for cp in checkpoints)
    print(f"  {'system':<20} {cps} {'match loss':>10} {'round order':>11} {'sd':>5}")
    for name, f in figures.items():
        cells = []
        for cp in checkpoints:
            v = f.rho[cp]
            sd = statistics.stdev(v) if len(v) > 1 else 0.0
            cells.append(f"{statistics.fmean(v):>7.3f} ± {sd:<5.3f}")
        print(f"  {name:<20} {' '.join(cells)} {statistics.fmean(f.loss):>10.4f} "
              f"{statistics.fmean(f.order):>11.3f} {statistics.fmean(f.spread):>5.0f}")  # fmt: skip
    base = figures.get("table places")
    if base is None:
        return
    print("  paired with table places (mean ± sd of the per-population differences):")
    for name, f in figures.items():
        if f is base:
            continue
        cells = []
        for cp in checkpoints:
            d = [a - b for a, b in zip(f.rho[cp], base.rho[cp], strict=True)]
            sd = statistics.stdev(d) if len(d) > 1 else 0.0
            cells.append(f"{statistics.fmean(d):>+7.3f} ± {sd:<5.3f}")
        dl = [a - b for a, b in zip(f.loss, base.loss, strict=True)]
        do = [a - b for a, b in zip(f.order, base.order, strict=True)]
        print(f"  {name:<20} {' '.join(cells)} {statistics.fmean(dl):>+10.4f} "
              f"{statistics.fmean(do):>+11.3f}")  # fmt: skip


def main(argv: Sequence[str] | None = None) -> None:
    def numbers(text: str) -> list[float]:
        return [float(x) for x in text.split(",")]

    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--reps", type=int, default=8, help="populations (default 8)")
    parser.add_argument("--players", type=lambda s: [int(x) for x in s.split(",")],
                        default=[12], help="players (multiples of 3), e.g. 12,24")  # fmt: skip
    parser.add_argument("--boards", type=lambda s: [int(x) for x in s.split(",")],
                        default=[6], help="boards a round, e.g. 4,8")  # fmt: skip
    parser.add_argument("--checkpoints", type=lambda s: [int(x) for x in s.split(",")],
                        default=list(CHECKPOINTS), help="rounds per player")  # fmt: skip
    parser.add_argument("--heldout-rounds", type=int, default=10)
    parser.add_argument("--heldout", type=int, default=100, help="held-out ordinary matches")
    parser.add_argument("--scales", type=numbers, default=[400.0, 1200.0, 2400.0],
                        help="board comparison scales to compare")  # fmt: skip
    parser.add_argument("--weights", type=numbers, default=[1.0, 2.0],
                        help="board comparison weights of a round")  # fmt: skip
    parser.add_argument("--eps-max", type=float, default=0.18)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    checkpoints = sorted(args.checkpoints)
    workers = max(1, min(args.workers, 2))
    print(f"machine: {machine()}")
    start = time.perf_counter()
    for n in args.players:
        if n % 3:
            parser.error("--players: multiples of 3")
        players = population(False, args.eps_max, n)
        truth = [-float(i) for i in range(n)]
        for boards in args.boards:
            figures: dict[str, Figures] = {}
            t0 = time.perf_counter()
            played = 0.0
            for rep in range(args.reps):
                train, held_rounds, held, secs = generate(
                    rep, players, max(checkpoints), args.heldout_rounds, boards,
                    args.heldout, workers,
                )  # fmt: skip
                played += secs
                evaluate(systems(n, args.scales, args.weights), truth, train, held_rounds,
                         held, checkpoints, figures)  # fmt: skip
            report(
                f"{n} players, {boards} boards a round, {args.reps} populations "
                f"({played:.0f} s playing or reading the cache, "
                f"{time.perf_counter() - t0:.0f} s in all)",
                figures,
                checkpoints,
            )
    print(f"\n{time.perf_counter() - start:.0f} s in all")


if __name__ == "__main__":
    main()
