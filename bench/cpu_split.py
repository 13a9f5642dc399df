"""The same Python work split over 1 to N processes: what the machine charges for it.

``bench/table_load/`` measures the servers' CPU per action with 1, 2, 3 and 4 ASGI processes on this
2-core machine (docs/benchmarks.md section 4). This script takes
the server out of the picture: a fixed amount of pure-Python work a second (bursts of
complete engine deals, as many bursts a second in total as the table benchmark's actions)
is done by 1, 2, ... N processes at once, each doing its share, every process sleeping
between its bursts as a server waits for its sockets. The work is the same in every row;
what changes is how many interpreters take turns on the cores. It prints the CPU time a
burst took (``time.process_time`` of the workers, so waiting for a core is not counted)
and its change from one process.

With ``--heap MB`` every process also keeps that many megabytes of small Python objects
and reads a few thousand of them at random in each burst, as a server walks its own
objects (Django, the channel layer, its sockets' state): a larger working set per process
makes the processes evict each other's data from the caches when they take turns.

Run: ``python -m bench.cpu_split --rate 300 --deals 25 --heap 60 --seconds 30``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import random
import time

from games.engine import Deal, Options, Phase, deal_cards
from games.engine.actions import REDEAL, WRITE_OFF

TOUCHES = 4000  # objects of the heap read each burst


def _burst(rng: random.Random, options: Options, deals: int, heap: list[dict[str, int]]) -> int:
    """``deals`` complete random deals through the ``Deal`` API, then ``TOUCHES`` reads of
    the heap at random; returns a checksum so that nothing is optimised away."""
    rnd = rng.random
    total = 0
    for dealer in range(deals):
        hands, talons = deal_cards(rng, 3, dealer % 3)
        deal = Deal(options=options, dealer=dealer % 3, hands=hands, talons=talons)
        deal.start(False)
        while deal.phase is not Phase.COMPLETE:
            legal = deal.legal_actions()
            action = legal[int(rnd() * len(legal))]
            while action is WRITE_OFF or action is REDEAL:
                action = legal[int(rnd() * len(legal))]
            deal.apply(action)
        total += len(deal.tricks)
    if heap:
        size = len(heap)
        for _ in range(TOUCHES):
            total += heap[int(rnd() * size)]["v"]
    return total


def _worker(
    index: int,
    rate: float,
    deals: int,
    heap_mb: int,
    start_at: float,
    seconds: float,
    out: multiprocessing.Queue,
) -> None:
    rng = random.Random(index)
    options = Options()
    # ~ 100 bytes a small dict with one int: heap_mb megabytes of them.
    heap = [{"v": i} for i in range(heap_mb * 10_000)]
    _burst(rng, options, deals, heap)  # warm the code paths
    interval = 1.0 / rate
    # Processes start their bursts at spread-out phases, as sockets' messages arrive.
    next_at = start_at + rng.random() * interval
    end_at = start_at + seconds
    bursts = 0
    cpu = 0.0
    late = 0
    while True:
        now = time.monotonic()
        if now >= end_at:
            break
        if now < next_at:
            time.sleep(next_at - now)
        elif now - next_at > 1.0:
            late += 1  # more than a second behind: the machine cannot keep up
            next_at = now
        before = time.process_time()
        _burst(rng, options, deals, heap)
        cpu += time.process_time() - before
        bursts += 1
        next_at += interval
    out.put((index, bursts, cpu, late))


def run(
    processes: int, rate: float, deals: int, heap_mb: int, seconds: float
) -> tuple[int, float, int]:
    ctx = multiprocessing.get_context("spawn")
    out: multiprocessing.Queue = ctx.Queue()
    start_at = time.monotonic() + 2.0 + 0.3 * processes  # room for spawning and the heap
    workers = [
        ctx.Process(
            target=_worker, args=(i, rate / processes, deals, heap_mb, start_at, seconds, out)
        )
        for i in range(processes)
    ]
    for w in workers:
        w.start()
    results = [out.get() for _ in workers]
    for w in workers:
        w.join()
    bursts = sum(r[1] for r in results)
    cpu = sum(r[2] for r in results)
    late = sum(r[3] for r in results)
    return bursts, cpu, late


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--processes", default="1,2,3,4", help="process counts (comma-separated)")
    p.add_argument(
        "--rate", type=float, default=300.0, help="bursts a second, all processes together"
    )
    p.add_argument("--deals", type=int, default=25, help="complete engine deals a burst")
    p.add_argument(
        "--heap", type=int, default=60, help="megabytes of small objects a process keeps"
    )
    p.add_argument("--seconds", type=float, default=30.0, help="measured seconds a row")
    p.add_argument("--repeat", type=int, default=1, help="run the whole list this many times")
    args = p.parse_args()
    counts = [int(x) for x in args.processes.split(",") if x.strip()]
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}; "
        f"Python {platform.python_version()}; {args.rate:g} bursts/s of {args.deals} deals, "
        f"heap {args.heap} MB a process, {args.seconds:g} s a row"
    )
    print(
        "| processes | bursts/s | CPU ms a burst | change from 1 | cores busy | bursts > 1 s late |"
    )
    print("|---:|---:|---:|---:|---:|---:|")
    first: float | None = None
    for _ in range(args.repeat):
        for n in counts:
            bursts, cpu, late = run(n, args.rate, args.deals, args.heap, args.seconds)
            per = 1000 * cpu / bursts
            if first is None:
                first = per
            print(
                f"| {n} | {bursts / args.seconds:.0f} | {per:.3f} | {100 * (per / first - 1):+.0f}% "
                f"| {cpu / args.seconds:.2f} | {late} |",
                flush=True,
            )
    print(f"load at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
