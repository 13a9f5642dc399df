"""The figures of the Bots page (``/bots/``): built from ``bench/arena.py --json`` output
by ``manage.py bots_report`` into :data:`REPORT_PATH`, read by the page.

Per table size: every duplicate-deal pairing (points a deal with a 95% interval, share of
deal groups won), every whole-match pairing (share of matches won, 95% Wilson interval),
each level's time per decision and memory, and a rating per level on the Elo scale
anchored at basic = 1500 from the share of deal groups won: a share ``p`` is a difference
of ``400 · log10(p / (1 − p))`` (``p`` kept within 0.02..0.98), from pairings of at least
:data:`MIN_GROUPS` layouts only (fewer say next to nothing). ``strong-v1`` (the previous
strong bot, bench only) is not a level of the site and stays out of the page.
"""

from __future__ import annotations

import json
import math
import statistics
from pathlib import Path
from typing import Any

REPORT_PATH = Path(__file__).resolve().parent / "bots_report.json"
SITE_LEVELS = ("random", "basic", "strong", "master")
ANCHOR = ("basic", 1500.0)
MIN_GROUPS = 20


def _pair(name: str) -> tuple[str, str]:
    a, _, b = name.partition(" vs ")
    return a, b


def _elo(p: float) -> float:
    p = min(0.98, max(0.02, p))
    return 400 * math.log10(p / (1 - p))


def ratings(deal_rows: list[dict[str, Any]]) -> dict[str, float]:
    """Levels reachable from the anchor through pairings, rated by their group win share."""
    known = {ANCHOR[0]: ANCHOR[1]}
    edges = []
    for row in deal_rows:
        a, b = _pair(row["pairing"])
        if a in SITE_LEVELS and b in SITE_LEVELS and row.get("groups", 0) >= MIN_GROUPS:
            edges.append((a, b, _elo(row["win_rate"])))
    changed = True
    while changed:
        changed = False
        for a, b, diff in edges:
            if b in known and a not in known:
                known[a] = known[b] + diff
                changed = True
            elif a in known and b not in known:
                known[b] = known[a] - diff
                changed = True
    return {lv: round(known[lv]) for lv in SITE_LEVELS if lv in known}


def _budget(run: dict[str, Any], pairing: str) -> str:
    """The search levels' time a decision in ``run``, as the page shows it ("0.3 s")."""
    budgets = run.get("budgets") or {}
    parts = [
        f"{budgets[lv][0]:g} s"
        for lv in _pair(pairing)
        if lv in ("strong", "master") and lv in budgets
    ]
    return " / ".join(parts) or "–"


def build_report(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Merge arena runs (each one ``--json`` file) by table size; a later run's pairing
    replaces an earlier one's."""
    sizes: dict[str, dict[str, Any]] = {}
    sources = []
    for run in runs:
        size = sizes.setdefault(str(run["players"]), {"deals": {}, "matches": {}, "timing": {}})
        for row in run.get("deals", []):
            if all(lv in SITE_LEVELS for lv in _pair(row["pairing"])):
                size["deals"][row["pairing"]] = {
                    **row,
                    "seed": run["seed"],
                    "preset": run["preset"],
                    "budget": _budget(run, row["pairing"]),
                }
        for row in run.get("matches", []):
            if all(lv in SITE_LEVELS for lv in _pair(row["pairing"])):
                size["matches"][row["pairing"]] = {
                    **row,
                    "seed": run["seed"],
                    "preset": run["preset"],
                    "budget": _budget(run, row["pairing"]),
                }
        for level, timing in run.get("timing", {}).items():
            if level in SITE_LEVELS:
                size["timing"][level] = timing
        sources.append({key: run.get(key) for key in ("preset", "seed", "machine", "budgets", "yardstick_before",
                                                      "yardstick_after")})  # fmt: skip
    out: dict[str, Any] = {"sources": sources, "sizes": {}}
    for players, size in sorted(sizes.items()):
        deal_rows = list(size["deals"].values())
        out["sizes"][players] = {
            "deals": deal_rows,
            "matches": list(size["matches"].values()),
            "timing": size["timing"],
            "ratings": ratings(deal_rows),
        }
    return out


def wilson(wins: float, n: int) -> tuple[float, float]:
    """95% Wilson interval of a proportion ``wins / n``: (low, high)."""
    if n == 0:
        return float("nan"), float("nan")
    z = 1.96
    p = wins / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return mid - half, mid + half


def mean_interval(values: list[float]) -> tuple[float, float]:
    """The mean of ``values`` and its 95% half-width (normal; NaN for one value): the
    arena's figures and the pooled ones alike."""
    m = statistics.fmean(values)
    if len(values) < 2:
        return m, float("nan")
    return m, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def pool_runs(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Several arena runs of the same bots on other seeds as one measurement: every
    pairing's layouts together (the mean, its interval and the share of layouts won,
    recomputed from each run's ``per_layout``), every pairing's whole matches summed
    (the Wilson interval recomputed); the machine, yardsticks and time a decision of the
    last run. Runs of other table sizes, presets or budgets, or a pairing whose layouts a
    run did not keep, are refused (``ValueError``): pooling is for one version measured
    twice, never for two versions."""
    first = runs[0]
    for run in runs[1:]:
        for key in ("players", "preset", "budgets", "clock"):
            if run.get(key) != first.get(key):
                raise ValueError(f"the runs differ in {key}: they are not one measurement")
    layouts: dict[str, list[float]] = {}
    deal_rows: dict[str, dict[str, Any]] = {}
    matches: dict[str, dict[str, Any]] = {}
    for run in runs:
        for row in run.get("deals", []):
            name = row["pairing"]
            per = (run.get("per_layout") or {}).get(name)
            if per is None:
                raise ValueError(f"{name} (seed {run.get('seed')}): no per_layout to pool")
            layouts.setdefault(name, []).extend(per)
            pooled = deal_rows.setdefault(name, {**row, "deals": 0})
            pooled["deals"] += row["deals"]
        for row in run.get("matches", []):
            total = matches.setdefault(
                row["pairing"], {"pairing": row["pairing"], "matches": 0, "finished": 0, "wins": 0, "deals": 0.0}
            )  # fmt: skip
            total["matches"] += row["matches"]
            total["finished"] += row["finished"]
            if row["finished"]:
                total["wins"] += round(row["win_rate"] * row["finished"])
            total["deals"] += row["deals_per_match"] * row["matches"]
    for name, row in deal_rows.items():
        diffs = layouts[name]
        # A layout is won by A when A's seats scored more in all (arena.play_group): the
        # sign of its mean difference.
        won = [1.0 if d > 0 else 0.5 if d == 0 else 0.0 for d in diffs]
        mean, half = mean_interval(diffs)
        win_rate, win_half = mean_interval(won)
        row.update(
            groups=len(diffs),
            mean=mean,
            half_width=half,
            win_rate=win_rate,
            win_half_width=win_half,
        )
    match_rows = []
    for total in matches.values():
        low, high = wilson(total["wins"], total["finished"])
        finished = total["finished"]
        match_rows.append({
            "pairing": total["pairing"], "matches": total["matches"], "finished": finished,
            "win_rate": total["wins"] / finished if finished else float("nan"), "low": low, "high": high,
            "deals_per_match": total["deals"] / total["matches"] if total["matches"] else 0.0,
        })  # fmt: skip
    return {
        **runs[-1],
        "seed": "+".join(str(run["seed"]) for run in runs),
        "deals": list(deal_rows.values()),
        "matches": match_rows,
        "per_layout": layouts,
    }


def load_report(path: Path = REPORT_PATH) -> dict[str, Any] | None:
    """The page's figures, or None before the first ``manage.py bots_report``."""
    try:
        data: dict[str, Any] = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return data
