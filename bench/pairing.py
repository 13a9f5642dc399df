"""Swiss seating speed and quality.

Simulates a Swiss event: ``--players`` entrants of hidden strengths play ``--rounds`` rounds
at tables of ``--seats``; each table's finishing order is drawn from the strengths (a
stronger player finishes higher more often), placement points 3/1/0 (2/0 at tables of 2,
3/2/1/0 at tables of 4), standings by points. The same simulation runs once seated by
``tournaments.pairing.swiss_seating`` and once seated at random.

Printed: the time to seat each Swiss round (the bar: under 1 second), the repeated meetings
after the last round (a pair's meetings beyond its first; the bar: fewer than random), and
the mean spread of standings points at a table (similar standings sit together).

Run: ``python -m bench.pairing`` (defaults: 3,000 players, tables of 3, 7 rounds)
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time
from collections.abc import Callable, Sequence

from tournaments.pairing import (
    Entrant,
    History,
    PlayerId,
    TableSeats,
    check_round,
    swiss_seating,
    table_plan,
)

POINTS = {2: (2, 0), 3: (3, 1, 0), 4: (3, 2, 1, 0)}

Seater = Callable[[list[Entrant], History, int, int], list[TableSeats]]


def random_seating(
    entrants: list[Entrant], history: History, seats: int, rnd: int
) -> list[TableSeats]:
    rng = random.Random(rnd)
    ids: list[PlayerId | None] = [e.player for e in entrants]
    rng.shuffle(ids)
    tables: list[TableSeats] = []
    at = 0
    for humans in table_plan(len(ids), seats):
        tables.append(tuple(ids[at : at + humans]) + (None,) * (seats - humans))
        at += humans
    return tables


def swiss(entrants: list[Entrant], history: History, seats: int, rnd: int) -> list[TableSeats]:
    return swiss_seating(entrants, history, seats=seats, seed=rnd)


def simulate(
    seater: Seater, players: int, seats: int, rounds: int, seed: int
) -> tuple[History, list[float], list[float], dict[PlayerId, int]]:
    """Returns the history, the seconds each round took to seat, the mean point spread,
    and the standings points at the end."""
    rng = random.Random(seed)
    strength = {p: rng.gauss(0.0, 1.0) for p in range(players)}
    points = dict.fromkeys(strength, 0)
    history = History()
    times: list[float] = []
    spreads: list[float] = []
    for rnd in range(rounds):
        order = sorted(points, key=lambda p: (-points[p], p))
        entrants = [Entrant(p, points[p]) for p in order]
        started = time.perf_counter()
        tables = seater(entrants, history, seats, rnd)
        times.append(time.perf_counter() - started)
        check_round(tables, order, seats)
        spread = []
        for table in tables:
            humans = [p for p in table if p is not None]
            spread.append(max(points[p] for p in humans) - min(points[p] for p in humans))
            history.add(table)
            # A bot plays at strength 0; it takes its place but no points.
            drawn = sorted(
                table,
                key=lambda p: -((strength[p] if p is not None else 0.0) + rng.gauss(0.0, 1.5)),
            )
            for place, p in enumerate(drawn):
                if p is not None:
                    points[p] += POINTS[seats][place]
        spreads.append(statistics.fmean(spread))
    return history, times, spreads, points


def machine() -> str:
    load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    return (
        f"{platform.machine()} {platform.processor() or platform.system()}, "
        f"{os.cpu_count()} CPUs, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; "
        f"Python {platform.python_version()} ({platform.python_implementation()})"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=3000)
    parser.add_argument("--seats", type=int, default=3, choices=(2, 3, 4))
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    print(machine())
    print(
        f"Swiss: {args.players} players at tables of {args.seats}, {args.rounds} rounds, "
        f"seed {args.seed}"
    )
    history, times, spreads, points = simulate(
        swiss, args.players, args.seats, args.rounds, args.seed
    )
    r_history, _, r_spreads, _ = simulate(
        random_seating, args.players, args.seats, args.rounds, args.seed
    )
    print("seconds to seat each round: " + " ".join(f"{t:.3f}" for t in times))
    print(
        f"  median {statistics.median(times):.3f} s, slowest {max(times):.3f} s "
        f"(bar: under 1 s) -> {'ok' if max(times) < 1.0 else 'OVER'}"
    )
    print(
        f"repeated meetings after {args.rounds} rounds: swiss {history.repeats()}, "
        f"random {r_history.repeats()} (bar: fewer than random) -> "
        f"{'ok' if history.repeats() < r_history.repeats() else 'NOT FEWER'}"
    )
    # Reproducible: the last round's field seated again, twice, with one seed.
    order = sorted(points, key=lambda p: (-points[p], p))
    entrants = [Entrant(p, points[p]) for p in order]
    first = swiss(entrants, history, args.seats, args.rounds)
    second = swiss(entrants, history, args.seats, args.rounds)
    print(
        f"same field, same seed, seated twice: {'the same seating' if first == second else 'DIFFERENT'}"
    )
    print(
        "mean spread of standings points at a table, by round: swiss "
        + " ".join(f"{s:.2f}" for s in spreads)
        + "; random "
        + " ".join(f"{s:.2f}" for s in r_spreads)
    )


if __name__ == "__main__":
    main()
