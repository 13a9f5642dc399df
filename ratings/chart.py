"""The rating over time as an inline SVG, drawn on the server (no script, no CDN)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from html import escape

WIDTH = 640
HEIGHT = 220
PAD_LEFT = 48
PAD_RIGHT = 12
PAD_TOP = 12
PAD_BOTTOM = 28
COLOURS = {2: "#2f6f9f", 3: "#b0442c", 4: "#3f8f4f"}


@dataclass(frozen=True, slots=True)
class Series:
    players: int
    label: str
    points: Sequence[tuple[datetime, float]]  # oldest first

    @property
    def colour(self) -> str:
        return COLOURS.get(self.players, "#333")


def _nice_step(span: float) -> float:
    for step in (10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if span / step <= 6:
            return float(step)
    return 2000.0


FEW = 3
"""A series of at most this many points (the start and two matches) is drawn as points."""


def rating_chart_svg(
    series: Sequence[Series],
    *,
    title: str,
    empty_text: str,
    start_label: str = "start",
    match_label: str = "match {n}",
) -> str:
    """One line per pool over a shared time axis; y gridlines at round ratings.

    While every pool has at most two matches (a series' first point is the rating before
    its first match) the x axis counts matches instead of time — a first match seen on a
    time axis is a vertical line between two equal dates — and each point is drawn and
    labelled: ``start_label``, then ``match_label`` with ``{n}`` the match number."""
    drawn = [s for s in series if s.points]
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'class="rating-chart" role="img" aria-label="{escape(title)}">'
        f"<title>{escape(title)}</title>"
    )
    if not drawn:
        return (
            head + f'<text x="{WIDTH / 2}" y="{HEIGHT / 2}" text-anchor="middle" '
            f'font-size="14" fill="#666">{escape(empty_text)}</text></svg>'
        )
    by_match = all(len(s.points) <= FEW for s in drawn)
    if by_match:
        times = [float(i) for s in drawn for i in range(len(s.points))]
    else:
        times = [t.timestamp() for s in drawn for t, _ in s.points]
    values = [v for s in drawn for _, v in s.points]
    t0, t1 = min(times), max(times)
    lo, hi = min(values), max(values)
    if hi - lo < 40:
        mid = (hi + lo) / 2
        lo, hi = mid - 20, mid + 20
    step = _nice_step(hi - lo)
    lo = step * (lo // step)
    hi = step * -(-hi // step)
    plot_w = WIDTH - PAD_LEFT - PAD_RIGHT
    plot_h = HEIGHT - PAD_TOP - PAD_BOTTOM

    def x(t: float) -> float:
        return PAD_LEFT + (plot_w * (t - t0) / (t1 - t0) if t1 > t0 else plot_w / 2)

    def y(v: float) -> float:
        return PAD_TOP + plot_h * (hi - v) / (hi - lo)

    parts = [head]
    v = lo
    while v <= hi + 1e-9:
        yy = y(v)
        parts.append(
            f'<line x1="{PAD_LEFT}" y1="{yy:.1f}" x2="{WIDTH - PAD_RIGHT}" y2="{yy:.1f}" stroke="#ddd"/>'
            f'<text x="{PAD_LEFT - 6}" y="{yy + 4:.1f}" text-anchor="end" font-size="11" fill="#555">{v:.0f}</text>'
        )
        v += step
    if by_match:
        for i in range(int(t1) + 1):
            label = start_label if i == 0 else match_label.replace("{n}", str(i))
            # The last label ends at its point (centred there, half of it would be cut off).
            anchor = "end" if i and i == int(t1) else "middle"
            parts.append(
                f'<text class="axis-match" x="{x(float(i)):.1f}" y="{HEIGHT - 8}" text-anchor="{anchor}" '
                f'font-size="11" fill="#555">{escape(label)}</text>'
            )
    else:
        first = min(t for s in drawn for t, _ in s.points)
        last = max(t for s in drawn for t, _ in s.points)
        dates = [f"{first:%Y-%m-%d}"] + (
            [f"{last:%Y-%m-%d}"] if f"{last:%Y-%m-%d}" != f"{first:%Y-%m-%d}" else []
        )
        parts.append(
            f'<text class="axis-date" x="{PAD_LEFT}" y="{HEIGHT - 8}" font-size="11" fill="#555">{dates[0]}</text>'
        )
        if len(dates) > 1:
            parts.append(
                f'<text class="axis-date" x="{WIDTH - PAD_RIGHT}" y="{HEIGHT - 8}" text-anchor="end" '
                f'font-size="11" fill="#555">{dates[1]}</text>'
            )
    for s in drawn:
        colour = s.colour
        xs = (
            [float(i) for i in range(len(s.points))]
            if by_match
            else [t.timestamp() for t, _ in s.points]
        )
        coords = " ".join(f"{x(t):.1f},{y(v):.1f}" for t, (_, v) in zip(xs, s.points, strict=True))
        if len(s.points) > FEW or not by_match:
            parts.append(
                f'<polyline class="rating-line" data-players="{s.players}" fill="none" stroke="{colour}" '
                f'stroke-width="2" points="{coords}"><title>{escape(s.label)}</title></polyline>'
            )
        if len(s.points) <= FEW:
            # Few points: each one drawn, the matches numbered beside them.
            for i, (t, (_, v)) in enumerate(zip(xs, s.points, strict=True)):
                parts.append(
                    f'<circle class="rating-point" data-players="{s.players}" cx="{x(t):.1f}" cy="{y(v):.1f}" '
                    f'r="4" fill="{colour}"><title>{escape(s.label)}: {v:.0f}</title></circle>'
                )
                if i:
                    # Right of the point, or left of it in the right half of the plot.
                    right = x(t) < PAD_LEFT + plot_w / 2
                    at, anchor = (x(t) + 6, "start") if right else (x(t) - 6, "end")
                    parts.append(
                        f'<text class="point-label" x="{at:.1f}" y="{y(v) - 6:.1f}" font-size="11" '
                        f'text-anchor="{anchor}" fill="{colour}">{escape(match_label.replace("{n}", str(i)))}: {v:.0f}</text>'
                    )
        else:
            lt, lv = xs[-1], s.points[-1][1]
            parts.append(f'<circle cx="{x(lt):.1f}" cy="{y(lv):.1f}" r="3" fill="{colour}"/>')
    parts.append("</svg>")
    return "".join(parts)
