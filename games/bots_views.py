"""The Bots page (``/bots/``): each level in plain words and its measured strength.

The figures come from ``games/bots_report.json`` (``manage.py bots_report`` over
``bench/arena.py --json`` output); the page only formats them.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.bots_report import SITE_LEVELS, load_report

LEVEL_TEXT = {
    "random": (
        pgettext_lazy("bot level", "random"),
        _("Plays any legal card, chosen at random, and never thinks. It is the floor the "
          "other levels are measured from."),
    ),
    "basic": (
        pgettext_lazy("bot level", "basic"),
        _("Reads its hand by rules of thumb: sure tricks, marriages, long suits. It bids the "
          "lowest step while its hand is worth it, gives away its weakest cards and plays by "
          "craft rules. It decides in well under a millisecond."),
    ),
    "strong": (
        pgettext_lazy("bot level", "strong"),
        _("Imagines the cards it cannot see hundreds of times, consistently with everything it "
          "has seen and with the others' bids and passes, plays every imagined deal out (the "
          "last tricks exactly) and chooses what does most for the match: the barrel, bolts, "
          "a rival close to winning. It bids the same way, going on while declaring is worth "
          "more than defending. About a third of a second a decision."),
    ),
    "master": (
        pgettext_lazy("bot level", "master"),
        _("The strong bot's search with about five times the time: more imagined deals and "
          "exact play from one trick earlier. Up to a few seconds a decision, for practice "
          "and analysis; never chosen for you, at a table or in a tournament."),
    ),
}  # fmt: skip


def _level_name(level: str) -> str:
    return str(LEVEL_TEXT[level][0]) if level in LEVEL_TEXT else level


def _pairing(name: str) -> str:
    a, _sep, b = name.partition(" vs ")
    return f"{_level_name(a)} – {_level_name(b)}"


def _sizes(report: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for players, size in sorted(report.get("sizes", {}).items()):
        deals = [
            {
                "pairing": _pairing(r["pairing"]),
                "deals": r["deals"],
                "mean": f"{r['mean']:+.1f}",
                "ci": f"{r['mean'] - r['half_width']:+.1f} … {r['mean'] + r['half_width']:+.1f}",
                "win": f"{100 * r['win_rate']:.0f}%",
                "seed": r["seed"],
                "budget": r.get("budget", "–"),
            }
            for r in size.get("deals", [])
        ]
        matches = [
            {
                "pairing": _pairing(r["pairing"]),
                "matches": r["matches"],
                "win": f"{100 * r['win_rate']:.0f}%",
                "ci": f"{100 * r['low']:.0f}% … {100 * r['high']:.0f}%",
                "seed": r["seed"],
                "budget": r.get("budget", "–"),
            }
            for r in size.get("matches", [])
            if r.get("finished")
        ]
        ratings = [
            (_level_name(lv), size["ratings"][lv])
            for lv in SITE_LEVELS
            if lv in size.get("ratings", {})
        ]
        timing = [
            (_level_name(lv), f"{t['median_ms']:.0f}", f"{t['p99_ms']:.0f}")
            for lv, t in ((lv, size.get("timing", {}).get(lv)) for lv in SITE_LEVELS)
            if t
        ]
        out.append({"players": int(players), "deals": deals, "matches": matches, "ratings": ratings,
                    "timing": timing, "fair": f"{100 / int(players):.0f}%"})  # fmt: skip
    return out


def bots(request: HttpRequest) -> HttpResponse:
    """Each bot level in plain words, with its arena figures per table size."""
    report = load_report()
    levels = [
        {"key": lv, "name": LEVEL_TEXT[lv][0], "text": LEVEL_TEXT[lv][1]} for lv in SITE_LEVELS
    ]
    return render(
        request, "games/bots.html", {"levels": levels, "sizes": _sizes(report) if report else []}
    )
