"""Fair play: how many planted cheats the screening finds at 1% of honest players flagged.

A population of bots plays three-handed matches through the real engine: honest players
of mixed levels and noise (``basic``; ``basic`` with 20% random choices; ``strong`` at a
small budget) and planted cheats, each with honest company at its table:

- **card-sharing pairs**: the two never bid against each other and play every last card
  of a trick for the pair (their two gains against the third's), as players who see each
  other's cards play for the pair (the information itself is not simulated: see
  docs/fair-play.md);
- **soft-play pairs**: never bid over each other's bid; otherwise honest;
- **point feeders**: one player puts the most points he can into his partner's tricks and
  gives him his best card when declaring;
- **engine users**: a player of each honest level in turn who plays master's choice at a share of his decisions
  (30%, 60%, 100%).

Every match is screened (``fairplay.screen``) and the counts accumulated as the app does
(``fairplay.scoring``). For each number of matches played (``--matches``, e.g. 10,30,100:
the first M matches of every subject) the thresholds are set so that at most 1% of the
honest players and pairs pass them (``--fp``) and the share of each kind of cheat flagged
is printed, with the CPU seconds a match of screening costs (median and 99th percentile)
and, with ``--analysis``, what the full analysis of one seat of one match costs.
``--roc FILE`` writes the ROC curves of the pairs as an SVG picture.

Run: ``python -m bench.fair_play --honest 30 --cheats 6 --matches 10,30,100 --deals 30``
Smoke: ``python -m bench.fair_play --honest 6 --cheats 2 --matches 3,6 --deals 8``
"""

from __future__ import annotations

import argparse
import pickle
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.arena import pct, run_jobs, yardstick
from fairplay import screen as sc
from fairplay.scoring import (
    Directed,
    clock_counts,
    clock_z,
    directed,
    engine_llr,
    engine_z,
    level_spread,
    pair_score,
    threshold_at,
)
from games.bots import Bot, Budget, make_bot
from games.bots.strong import MasterBot
from games.engine import Match, Options
from games.engine.actions import Action, Give, Pass, Play

Policy = Callable[[Match, int], Action]


def _gains(match: Match, action: Action) -> list[int]:
    deal = match.deal
    assert deal is not None
    trial = deal.copy()
    before = list(deal.points)
    trial.apply(action, deal.to_act)
    return [a - b for a, b in zip(trial.points, before, strict=True)]


def _holder(match: Match) -> int | None:
    deal = match.deal
    assert deal is not None
    return deal.bidder if deal.any_bid else None


def _last_card(match: Match) -> bool:
    deal = match.deal
    assert deal is not None
    return deal.phase.name == "PLAY" and len(deal.trick) == len(deal.active) - 1


def honest(bot: Bot, *, noise: float = 0.0, rng: random.Random | None = None) -> Policy:
    """A bot's own choice, or a random legal action at a share ``noise``."""
    rand = rng or random.Random(0)

    def decide(match: Match, seat: int) -> Action:
        if noise and rand.random() < noise:
            return rand.choice(list(match.legal_actions()))
        return bot.decide(match.view(seat))

    return decide


def soft_play(base: Policy, partner: int) -> Policy:
    """Never bid over ``partner``'s bid."""

    def decide(match: Match, seat: int) -> Action:
        legal = match.legal_actions()
        if _holder(match) == partner and Pass() in legal:
            return Pass()
        return base(match, seat)

    return decide


def feeder(base: Policy, partner: int) -> Policy:
    """Put the most points possible into ``partner``'s tricks; give him the best card."""

    def decide(match: Match, seat: int) -> Action:
        legal = match.legal_actions()
        if _last_card(match):
            plays = [a for a in legal if isinstance(a, Play)]
            best = max(plays, key=lambda a: (_gains(match, a)[partner], -plays.index(a)))
            if _gains(match, best)[partner] > 0:
                return best
        gives = [a for a in legal if isinstance(a, Give) and a.to == partner]
        if gives:
            return max(gives, key=lambda a: a.card.points)
        return base(match, seat)

    return decide


def card_sharing(base: Policy, partner: int) -> Policy:
    """Never bid against ``partner``; play every last card for the pair."""
    soft = soft_play(base, partner)

    def decide(match: Match, seat: int) -> Action:
        if _last_card(match):
            third = next(s for s in range(match.players) if s not in (seat, partner))

            def pair_gain(a: Action) -> int:
                g = _gains(match, a)
                return g[seat] + g[partner] - g[third]

            plays = [a for a in match.legal_actions() if isinstance(a, Play)]
            return max(plays, key=pair_gain)
        return soft(match, seat)

    return decide


def engine_user(
    base: Policy, master: Bot, share: float, rng: random.Random, asked: list[bool] | None = None
) -> Policy:
    """Master's choice at a share ``share`` of the decisions with a choice; ``asked``,
    when given, gets for each decision with a choice whether master was asked."""

    def decide(match: Match, seat: int) -> Action:
        if len(match.legal_actions()) > 1:
            ask = rng.random() < share
            if asked is not None:
                asked.append(ask)
            if ask:
                return master.decide(match.view(seat))
        return base(match, seat)

    return decide


# Think times, in seconds (the bots have none: a model, not measured people). A person
# takes longer the more choices he has, and varies widely; an engine user, where he asks
# the program, waits for its answer and copies it: near the same time every time.
THINK_BASE = 1.0
THINK_PER_CHOICE = 0.6
THINK_SPREAD = 0.5  # sigma of the log-normal factor
ENGINE_WAIT = 5.0
ENGINE_WAIT_SPREAD = 0.15  # uniform ± this share


def think_times(
    choices: list[int], asked: list[bool], rng: random.Random
) -> list[tuple[float, int]]:
    """(seconds, legal choices) of each decision with a choice of one seat in one match."""
    out = []
    for k, n in enumerate(choices):
        if k < len(asked) and asked[k]:
            t = ENGINE_WAIT * rng.uniform(1 - ENGINE_WAIT_SPREAD, 1 + ENGINE_WAIT_SPREAD)
        else:
            t = (THINK_BASE + THINK_PER_CHOICE * min(n, 8)) * rng.lognormvariate(0, THINK_SPREAD)
        out.append((t, n))
    return out


def play_match(policies: list[Policy], *, seed: int, deals: int) -> dict[str, object]:
    """The record of a match of ``deals`` deals played by ``policies`` (seat by seat)."""
    match = Match.new(Options(players=3, deals=deals), seed=seed)
    while not match.over:
        seat = match.to_act
        assert seat is not None
        match.apply(policies[seat](match, seat), seat=seat)
    return match.to_record()


HONEST_LEVELS = ("basic", "noisy", "strong")
KINDS = ("card-sharing", "soft-play", "feeder", "engine-30", "engine-60", "engine-100")


@dataclass(frozen=True)
class Job:
    """One subject's matches: ``kind`` (honest or a cheat), its seats' levels, the seed."""

    kind: str
    levels: tuple[str, str, str]
    seed: int
    matches: int
    deals: int
    samples: int  # the engine users' master budget (worlds a decision)
    decisions: int = sc.SCREEN_DECISIONS  # a seat's decisions asked of master a match
    keep: str = ""  # a folder where the outcome is pickled as soon as it is done


@dataclass
class Outcome:
    kind: str
    levels: tuple[str, str, str]
    # Per match: per seat (agreed, checked, split_agreed, split), per ordered pair the
    # counts.
    agreements: list[dict[int, tuple[int, int, int, int]]] = field(default_factory=list)
    pairs: list[dict[tuple[int, int], Directed]] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    # Per match: per seat (steady, timed) of the modelled think times.
    clocks: list[dict[int, tuple[int, int]]] = field(default_factory=list)
    # Whether the screening's seed was apart from every bot's (:func:`screen_seed`). The
    # outcomes kept before it was (False, the class's default for their pickles) screened
    # with the seed of the bot at seat 0.
    screen_seed_apart: bool = False


def _honest_policy(level: str, seed: int) -> Policy:
    rng = random.Random(seed)
    if level == "strong":
        return honest(make_bot("strong", seed=seed, budget=Budget(seconds=None, samples=8)))
    bot = make_bot("basic", seed=seed)
    return honest(bot, noise=0.2 if level == "noisy" else 0.0, rng=rng)


# The screening's seeds start here: above every seed a bot of the bench is given
# (``job.seed * 1000 + m`` plus at most 9, with job seeds below 10**8), so that no bot's
# sampled worlds are the screening master's. The app's screening seed is the table's id,
# which no player's bot shares.
SCREEN_SEED_BASE = 10**12


def screen_seed(job: Job, m: int) -> int:
    """The screening's seed for match ``m`` of ``job``: apart from every bot's."""
    return SCREEN_SEED_BASE + job.seed * 1000 + m


def _policies(job: Job, m: int, asked: list[bool] | None = None) -> list[Policy]:
    seed = job.seed * 1000 + m
    seats = [_honest_policy(job.levels[s], seed + s) for s in range(3)]
    if job.kind == "card-sharing":
        seats[0], seats[1] = card_sharing(seats[0], 1), card_sharing(seats[1], 0)
    elif job.kind == "soft-play":
        seats[0], seats[1] = soft_play(seats[0], 1), soft_play(seats[1], 0)
    elif job.kind == "feeder":
        seats[0] = feeder(seats[0], 1)
    elif job.kind.startswith("engine-"):
        share = int(job.kind.split("-")[1]) / 100
        master = MasterBot(seed + 7, Budget(seconds=None, samples=job.samples))
        seats[0] = engine_user(seats[0], master, share, random.Random(seed + 9), asked)
    return seats


def run(job: Job) -> Outcome:
    print(f"  {job.kind} {'/'.join(job.levels)} seed {job.seed}", file=sys.stderr, flush=True)
    out = Outcome(job.kind, job.levels, screen_seed_apart=True)
    for m in range(job.matches):
        asked: list[bool] = []
        record = play_match(_policies(job, m, asked), seed=job.seed * 1000 + m, deals=job.deals)
        started = time.process_time()
        screening = sc.screen(record, seed=screen_seed(job, m), decisions=job.decisions)
        out.cpu.append(time.process_time() - started)
        rng = random.Random(job.seed * 1000 + m + 5)
        clocks = {}
        for s in range(3):
            choices = [n for seat, n in screening.choices if seat == s and n > 1]
            c = clock_counts(think_times(choices, asked if s == 0 else [], rng))
            clocks[s] = (c.steady, c.timed)
        out.clocks.append(clocks)
        out.agreements.append(
            {s: (c.agreed, c.checked, c.split_agreed, c.split) for s, c in screening.seats.items()}
        )
        out.pairs.append(
            {(a, b): directed(screening, a, b) for a in range(3) for b in range(3) if a != b}
        )
    if job.keep:
        path = Path(job.keep) / f"{job.kind}-{job.seed}.pickle"
        path.write_bytes(pickle.dumps(out))
    return out


def _pair(o: Outcome, a: int, b: int, upto: int, part: str = "") -> float:
    """The pair's score after ``upto`` matches (or one ``part`` of it)."""
    ab, ba = Directed(), Directed()
    for match in o.pairs[:upto]:
        ab.add(match[(a, b)])
        ba.add(match[(b, a)])
    score, parts = pair_score(ab, ba)
    return parts[part] if part else score


def _sides(o: Outcome, a: int, b: int, upto: int) -> tuple[float, float]:
    """The pair's soft-play z and its larger feeding z, apart."""
    return (
        _pair(o, a, b, upto, "soft_play"),
        max(_pair(o, a, b, upto, "feeding_ab"), _pair(o, a, b, upto, "feeding_ba")),
    )


def _agreement(o: Outcome, seat: int, upto: int, split: bool = False) -> tuple[int, int]:
    """(agreed, checked) over the first ``upto`` matches: of all the decisions asked, or
    (``split``) of those where master's choice differs from the reference bot's."""
    k = 2 if split else 0
    agreed = sum(m[seat][k] for m in o.agreements[:upto])
    checked = sum(m[seat][k + 1] for m in o.agreements[:upto])
    return agreed, checked


def _clock(o: Outcome, seat: int, upto: int) -> tuple[int, int]:
    """(steady, timed) of a seat's modelled think times over the first ``upto`` matches."""
    return (
        sum(m[seat][0] for m in o.clocks[:upto]),
        sum(m[seat][1] for m in o.clocks[:upto]),
    )


Levels = dict[str, list[tuple[tuple[int, int], int, int]]]


def _level_key(o: Outcome, seat: int) -> str:
    """The honest level a seat is weighed against: its bot kind. In outcomes kept before
    the screening's seed was set apart (``screen_seed_apart`` False), a ``strong`` bot at
    seat 0 shared the screening's seed, so that its worlds were the screening master's
    and it agreed with master more than at the other seats (0.85–0.91 against 0.64–0.72
    where master and the reference differ): those are pooled as a level of their own."""
    level = o.levels[seat]
    shared = level == "strong" and seat == 0 and not o.screen_seed_apart
    return f"{level}@0" if shared else level


def _levels(honest_runs: list[Outcome], upto: int) -> Levels:
    """Each honest level's players: (who, agreed, decisions) where master's choice
    differs from the reference bot's, over the first ``upto`` matches."""
    out: Levels = defaultdict(list)
    for o in honest_runs:
        for s in range(3):
            agreed, checked = _agreement(o, s, upto, split=True)
            out[_level_key(o, s)].append(((id(o), s), agreed, checked))
    return out


def _engine(o: Outcome, seat: int, upto: int, levels: Levels) -> float:
    """The engine score of a seat, weighed as the app weighs it: against the other honest
    players of his level (their pooled rate and the spread between them)."""
    agreed, checked = _agreement(o, seat, upto, split=True)
    others = [(a, c) for who, a, c in levels[_level_key(o, seat)] if who != (id(o), seat)]
    total = sum(c for _, c in others)
    expected = sum(a for a, _ in others) / total if total else 0.5
    return engine_llr(checked, agreed, expected, spread=level_spread(others, expected))


def jobs(args: argparse.Namespace) -> list[Job]:
    top = max(args.matches)
    rng = random.Random(args.seed)
    out = []
    keep = str(args.keep or "")
    for i in range(args.honest):
        levels = tuple(rng.choice(HONEST_LEVELS) for _ in range(3))
        out.append(
            Job("honest", levels, args.seed + i, top, args.deals, args.samples, args.decisions,
                keep)  # type: ignore[arg-type]
        )  # fmt: skip
    for k, kind in enumerate(KINDS):
        for i in range(args.cheats):
            company = tuple(rng.choice(HONEST_LEVELS) for _ in range(2))
            # An engine user's own play, where he does not ask master, is of every
            # honest level in turn: judged against his level's honest agreement.
            own = HONEST_LEVELS[i % len(HONEST_LEVELS)]
            levels = (own, *company) if kind.startswith("engine") else (*company, "basic")
            seed = args.seed + 10_000 * (k + 1) + i
            out.append(
                Job(kind, levels, seed, top, args.deals, args.samples, args.decisions, keep)  # type: ignore[arg-type]
            )
    # Interleaved, so that a run cut short (``--keep``) holds some of every kind.
    random.Random(args.seed).shuffle(out)
    return out


def report(outcomes: list[Outcome], matches: list[int], fp: float) -> list[str]:
    lines = []
    honest_runs = [o for o in outcomes if o.kind == "honest"]
    for upto in matches:
        honest_pairs = [
            _pair(o, a, b, upto) for o in honest_runs for a, b in ((0, 1), (0, 2), (1, 2))
        ]
        # What a level explains: the pooled agreement of the honest players of that level,
        # on all the decisions asked and on those where master and the reference differ.
        pooled: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        pooled_split: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for o in honest_runs:
            for s in range(3):
                for into, split in ((pooled, False), (pooled_split, True)):
                    agreed, checked = _agreement(o, s, upto, split)
                    into[_level_key(o, s)][0] += agreed
                    into[_level_key(o, s)][1] += checked
        expected = {lv: a / c if c else 0.5 for lv, (a, c) in pooled.items()}
        expected_split = {lv: a / c if c else 0.5 for lv, (a, c) in pooled_split.items()}
        levels = _levels(honest_runs, upto)
        honest_engine = [_engine(o, s, upto, levels) for o in honest_runs for s in range(3)]
        honest_old = [
            engine_z(*reversed(_agreement(o, s, upto)), expected[_level_key(o, s)])
            for o in honest_runs
            for s in range(3)
        ]
        honest_stand = [
            _pair(o, a, b, upto, "let_stand")
            for o in honest_runs
            for a, b in ((0, 1), (0, 2), (1, 2))
        ]
        pair_t = threshold_at(honest_pairs, fp)
        engine_t = threshold_at(honest_engine, fp)
        # Each of the pair's signals at its own threshold, half the honest share each.
        honest_sides = [
            _sides(o, a, b, upto) for o in honest_runs for a, b in ((0, 1), (0, 2), (1, 2))
        ]
        soft_t = threshold_at([x for x, _ in honest_sides], fp / 2)
        feed_t = threshold_at([y for _, y in honest_sides], fp / 2)
        honest_either = sum(x >= soft_t or y >= feed_t for x, y in honest_sides)
        lines.append(
            f"after {upto} matches: thresholds pair {pair_t:.2f} (of {len(honest_pairs)} honest"
            f" pairs), engine {engine_t:.2f} (of {len(honest_engine)} honest players);"
            f" honest agreement by level "
            + ", ".join(f"{lv} {p:.2f}" for lv, p in sorted(expected.items()))
            + "; where master and the reference differ "
            + ", ".join(
                f"{lv} {p:.2f} (spread {level_spread([(a, c) for _, a, c in levels[lv]], p):.3f})"
                for lv, p in sorted(expected_split.items())
            )
        )
        old_t = threshold_at(honest_old, fp)
        # The clock: the steady share of every honest player's modelled think times.
        steady = sum(_clock(o, s, upto)[0] for o in honest_runs for s in range(3))
        timed = sum(_clock(o, s, upto)[1] for o in honest_runs for s in range(3))
        clock_expected = steady / timed if timed else 0.0
        honest_clock = [
            clock_z(*reversed(_clock(o, s, upto)), clock_expected)
            for o in honest_runs
            for s in range(3)
        ]
        clock_t = threshold_at(honest_clock, fp)
        lines.append(
            f"  clock: threshold {clock_t:.2f}, honest steady share {clock_expected:.2f}"
            " (modelled think times)"
        )
        stand_t = threshold_at(honest_stand, fp)
        for kind in KINDS:
            runs = [o for o in outcomes if o.kind == kind]
            if not runs:
                continue
            # The signal as it was before (all decisions' agreement z; every answer's
            # let-stand z), at its own 1% threshold, for comparison.
            if kind.startswith("engine"):
                scores = [_engine(o, 0, upto, levels) for o in runs]
                t = engine_t
                old = [
                    engine_z(*reversed(_agreement(o, 0, upto)), expected.get(_level_key(o, 0), 0.5))
                    for o in runs
                ]
                was = sum(x >= old_t for x in old)
                clock = [clock_z(*reversed(_clock(o, 0, upto)), clock_expected) for o in runs]
                either = sum(x >= t or c >= clock_t for x, c in zip(scores, clock, strict=True))
                extra = (
                    f"; clock {sum(c >= clock_t for c in clock)}/{len(runs)}"
                    f" (median {statistics.median(clock):.2f}); engine or clock"
                    f" {either}/{len(runs)}"
                )
            else:
                scores = [_pair(o, 0, 1, upto) for o in runs]
                t = pair_t
                old = [_pair(o, 0, 1, upto, "let_stand") for o in runs]
                was = sum(x >= stand_t for x in old)
                sides = [_sides(o, 0, 1, upto) for o in runs]
                extra = (
                    f"; each signal at its own threshold (soft play {soft_t:.2f}, feeding"
                    f" {feed_t:.2f}; honest pairs flagged {honest_either}/{len(honest_sides)}):"
                    f" {sum(x >= soft_t or y >= feed_t for x, y in sides)}/{len(runs)}"
                )
            found = sum(s >= t for s in scores)
            lines.append(
                f"  {kind:13} flagged {found}/{len(runs)} = {found / len(runs):.0%}"
                f"  (median score {statistics.median(scores):.2f});"
                f" old signal alone {was}/{len(runs)}{extra}"
            )
    cpu = [c for o in outcomes for c in o.cpu]
    lines.append(
        f"screening CPU s a match: median {statistics.median(cpu):.3f}, p99 {pct(cpu, 0.99):.3f},"
        f" max {max(cpu):.3f} ({len(cpu)} matches)"
    )
    return lines


def roc(outcomes: list[Outcome], upto: int, path: Path) -> None:
    """The ROC curves after ``upto`` matches: honest pairs against each kind of cheating
    pair, honest players against each share of engine use."""
    honest_runs = [o for o in outcomes if o.kind == "honest"]
    honest_pairs = [_pair(o, a, b, upto) for o in honest_runs for a, b in ((0, 1), (0, 2), (1, 2))]
    levels = _levels(honest_runs, upto)
    honest_players = [_engine(o, s, upto, levels) for o in honest_runs for s in range(3)]
    curves: dict[str, list[tuple[float, float]]] = {}
    for kind in KINDS:
        runs = [o for o in outcomes if o.kind == kind]
        if not runs:
            continue
        if kind.startswith("engine"):
            honest_scores = honest_players
            cheats = [_engine(o, 0, upto, levels) for o in runs]
        else:
            honest_scores = honest_pairs
            cheats = [_pair(o, 0, 1, upto) for o in runs]
        points = []
        for t in sorted({*honest_scores, *cheats, float("inf")}):
            points.append(
                (
                    sum(h >= t for h in honest_scores) / len(honest_scores),
                    sum(c >= t for c in cheats) / len(cheats),
                )
            )
        curves[kind] = sorted(points)
    _svg(curves, upto, path.with_suffix(".svg"))
    print(f"ROC written to {path.with_suffix('.svg')}")


def _svg(curves: dict[str, list[tuple[float, float]]], upto: int, path: Path) -> None:
    """The ROC curves as a small SVG picture (no plotting library needed)."""
    size, pad = 320, 40
    colours = ("#c0392b", "#2980b9", "#27ae60", "#8e44ad", "#d35400", "#7f8c8d")

    def xy(x: float, y: float) -> str:
        return f"{pad + x * size:.1f},{pad + (1 - y) * size:.1f}"

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size + 2 * pad}" '
        f'height="{size + 2 * pad}" font-family="sans-serif" font-size="11">',
        f'<rect x="{pad}" y="{pad}" width="{size}" height="{size}" fill="none" stroke="#888"/>',
        f'<line x1="{pad}" y1="{pad + size}" x2="{pad + size}" y2="{pad}" stroke="#ccc"/>',
        f'<text x="{pad}" y="{pad - 10}">ROC after {upto} matches</text>',
        f'<text x="{pad}" y="{pad + size + 25}">honest pairs (players, for engines) flagged'
        " (0 to 1)</text>",
        f'<text x="10" y="{pad + size / 2}" transform="rotate(-90 10 {pad + size / 2})">'
        "cheats flagged</text>",
    ]
    for n, (kind, pts) in enumerate(curves.items()):
        colour = colours[n % len(colours)]
        line = " ".join(xy(x, y) for x, y in [(0.0, 0.0), *pts, (1.0, 1.0)])
        parts.append(f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="2"/>')
        parts.append(
            f'<text x="{pad + size - 90}" y="{pad + size - 10 - 14 * n}" fill="{colour}">'
            f"{kind}</text>"
        )
    parts.append("</svg>")
    path.write_text("\n".join(parts) + "\n")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--honest", type=int, default=30, help="honest tables (3 players each)")
    parser.add_argument("--cheats", type=int, default=6, help="subjects of each kind of cheat")
    parser.add_argument("--matches", default="10,30,100", help="matches played, comma-separated")
    parser.add_argument("--deals", type=int, default=30, help="deals a match")
    parser.add_argument("--samples", type=int, default=24, help="engine users' master worlds")
    parser.add_argument(
        "--decisions", type=int, default=sc.SCREEN_DECISIONS, help="screened decisions a seat"
    )
    parser.add_argument("--fp", type=float, default=0.01, help="honest share flagged at most")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--analysis", action="store_true", help="also time a full analysis")
    parser.add_argument("--roc", type=Path, help="write the ROC curves (SVG)")
    parser.add_argument("--keep", type=Path, help="pickle each subject's outcome in this folder")
    parser.add_argument(
        "--report", type=Path, help="play nothing: report on the outcomes kept in this folder"
    )
    args = parser.parse_args(argv)
    args.matches = sorted(int(m) for m in args.matches.split(","))
    print(yardstick())
    started = time.perf_counter()
    if args.report:
        outcomes = [pickle.loads(f.read_bytes()) for f in sorted(args.report.glob("*.pickle"))]
        print(f"{len(outcomes)} subjects kept in {args.report}")
    else:
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
        outcomes = run_jobs(run, jobs(args), args.workers, chunksize=1)
    for line in report(outcomes, args.matches, args.fp):
        print(line)
    if args.roc:
        roc(outcomes, args.matches[-1], args.roc)
    if args.analysis:
        from analysis import core

        record = play_match(_policies(Job("honest", ("basic",) * 3, 1, 1, args.deals, 1), 0),
                            seed=1, deals=args.deals)  # fmt: skip
        t = time.process_time()
        core.analyse(record, [0], samples=core.SAMPLES, seed=1)
        print(f"full analysis of one seat of a {args.deals}-deal match: "
              f"{time.process_time() - t:.1f} CPU s")  # fmt: skip
    print(f"wall {time.perf_counter() - started:.0f} s; {yardstick()}")


if __name__ == "__main__":
    main()
