"""The population the rating benches play: bots of known strength (a ``basic`` bot that
plays a uniformly random legal action with a probability of its own), their matches, and
the cache of generated matches under ``bench/.cache/``. ``bench/ratings.py`` and
``bench/ratings_duplicate.py`` rate it."""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from bench.stack import ROOT
from games.bots import Bot, Budget, make_bot
from games.engine import Action, Match, Options
from games.engine.views import View
from ratings import elo

CACHE = ROOT / "bench" / ".cache"
MAX_DEALS = 300


class NoisyBot:
    """``basic`` that plays a uniformly random legal action with probability ``epsilon``."""

    def __init__(self, epsilon: float, seed: int, level: str = "basic") -> None:
        self.epsilon = epsilon
        self.inner: Bot = make_bot(level, seed=seed, budget=Budget(seconds=None, samples=60))
        self.level = level
        self.rng = random.Random(seed ^ 0x5EED)

    def decide(self, view: View) -> Action:
        if len(view.legal) > 1 and self.rng.random() < self.epsilon:
            return view.legal[self.rng.randrange(len(view.legal))]
        return self.inner.decide(view)


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    level: str
    epsilon: float


def population(strong: bool, eps_max: float, count: int = 10) -> list[Player]:
    """Strongest first: index = true rank. ``count`` ε evenly from 0 to ``eps_max``."""
    values = [round(eps_max * i / (count - 1), 4) for i in range(count)]
    players = [Player(f"basic ε={e:g}", "basic", e) for e in values]
    if strong:
        players.insert(0, Player("strong", "strong", 0.0))
    return players


def play_match(job: tuple[int, list[tuple[str, float]]]) -> dict[str, Any]:
    """One whole three-player match: final scores by seat, the winner (``None`` if the deal
    cap was reached) and the number of deals."""
    seed, seats = job
    bots = [NoisyBot(eps, seed * 31 + s, level) for s, (level, eps) in enumerate(seats)]
    match = Match.new(Options.preset("classic"), seed=seed)
    while match.winner is None and len(match.results) < MAX_DEALS:
        seat = match.to_act
        assert seat is not None
        match.apply(bots[seat].decide(match.view(seat)), seat=seat)
    return {"scores": list(match.scores), "winner": match.winner, "deals": len(match.results)}


def schedule(players: int, per_player: int, rng: random.Random) -> list[list[int]]:
    """Random threes in which everyone plays as often as possible alike: each match takes
    the three who have played least (ties at random)."""
    games = [0] * players
    matches = []
    while min(games) < per_player:
        order = sorted(range(players), key=lambda p: (games[p], rng.random()))
        three = order[:3]
        rng.shuffle(three)
        for p in three:
            games[p] += 1
        matches.append(three)
    return matches


@dataclass(slots=True)
class Played:
    seats: list[int]  # player index by seat
    places: list[int]  # by seat
    scores: list[int] | None  # by seat; None where the outcome has no scores


def generate(
    rep: int, players: list[Player], per_player: int, heldout: int, workers: int
) -> tuple[list[Played], list[Played], float]:
    """The training and held-out matches of one population (from the cache when there)."""
    rng = random.Random(1000 + rep)
    train = schedule(len(players), per_player, rng)
    test = [rng.sample(range(len(players)), 3) for _ in range(heldout)]
    seatings = train + test
    seeds = [rep * 1_000_003 + i for i in range(len(seatings))]
    key = json.dumps([1, [(p.level, p.epsilon) for p in players], seatings, seeds, MAX_DEALS])
    path = CACHE / f"bots-{hashlib.sha256(key.encode()).hexdigest()[:16]}.json"
    t0 = time.perf_counter()
    if path.exists():
        results = json.loads(path.read_text())
    else:
        jobs = [
            (seed, [(players[p].level, players[p].epsilon) for p in three])
            for seed, three in zip(seeds, seatings)
        ]
        results = run_jobs(play_match, jobs, workers)
        CACHE.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(results))
    seconds = time.perf_counter() - t0
    played = []
    for three, r in zip(seatings, results):
        places = elo.placements(r["scores"], winner=r["winner"])
        played.append(Played(three, places, r["scores"]))
    return played[: len(train)], played[len(train) :], seconds


def run_jobs[J, R](fn: Callable[[J], R], jobs: list[J], workers: int) -> list[R]:
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            return list(pool.map(fn, jobs, chunksize=4))
    return [fn(j) for j in jobs]
