"""Summarise py-spy's raw (collapsed) stacks: where a server process spends its time.

``py-spy record --format raw`` writes one line per distinct stack, ``frame;frame;… count``.
This prints the share of samples spent inside (inclusive) and at the top of (self) each
function, and the share of a few groups that matter for a live table's action (the
service, views, JSON, the channel layer, the database driver, websocket frames, idle).

Run: ``python -m bench.pyspy_summary FILE [FILE ...] [--top 25]``
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

# Groups, checked in order against each frame of a stack (the first match wins, so a
# sample is counted once, in the innermost group its stack passes through).
GROUPS: list[tuple[str, re.Pattern[str]]] = [
    (
        "engine views (View.to_dict, match.view)",
        re.compile(r"\((?:games/engine/views\.py)|to_dict \(games/engine"),
    ),
    ("engine apply / legal", re.compile(r"games/engine/")),
    ("json encode/decode", re.compile(r"\(json/")),
    ("psycopg (database driver)", re.compile(r"psycopg")),
    ("Django ORM / SQL compiler", re.compile(r"django/db/")),
    ("channels-redis / redis-py", re.compile(r"channels_redis|/redis/")),
    ("websocket frames (websockets, deflate)", re.compile(r"websockets/|zlib|permessage")),
    ("asgiref thread hops", re.compile(r"asgiref/")),
    ("channels consumer machinery", re.compile(r"channels/")),
    ("uvicorn", re.compile(r"uvicorn/")),
]

LINE = re.compile(r" \((?!games/)([^:()]+):\d+\)")  # functions, not lines (but lines of games/)
IDLE = re.compile(
    r"select \(selectors\.py|run_forever|_run_once|epoll|wait \(threading\.py|_worker \(concurrent"
)


def load(paths: list[str]) -> Counter[str]:
    stacks: Counter[str] = Counter()
    for path in paths:
        for line in Path(path).read_text(errors="replace").splitlines():
            stack, _, count = line.rpartition(" ")
            if stack and count.isdigit():
                stacks[LINE.sub(r" (\1)", stack)] += int(count)
    return stacks


def summary(stacks: Counter[str], top: int) -> str:
    total = sum(stacks.values())
    if not total:
        return "no samples"
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    groups: Counter[str] = Counter()
    idle = 0
    for stack, count in stacks.items():
        frames = stack.split(";")
        leaf = frames[-1]
        own[leaf] += count
        for frame in set(frames):
            inclusive[frame] += count
        if IDLE.search(leaf):
            idle += count
            continue
        for name, pattern in GROUPS:
            if any(pattern.search(f) for f in reversed(frames)):
                groups[name] += count
                break
        else:
            groups["other"] += count
    busy = total - idle
    out = [
        f"{total} samples, {busy} busy ({100 * busy / total:.0f}%), {idle} idle in the event loop or a pool wait",
        "",
    ]
    out.append("busy samples by group (the innermost frame that matches decides):")
    for name, count in groups.most_common():
        out.append(f"  {100 * count / max(1, busy):5.1f}%  {name}")
    out.append("")
    out.append("the project's own lines (games/), inclusive (% of busy samples):")
    for frame, count in inclusive.most_common():
        if "(games/" in frame and count / max(1, busy) >= 0.01:
            out.append(f"  {100 * count / max(1, busy):5.1f}%  {frame}")
    out.append("")
    out.append(f"top {top} functions, inclusive (% of busy samples):")
    for frame, count in inclusive.most_common(top + 10)[: top + 10]:
        if IDLE.search(frame):
            continue
        out.append(f"  {100 * count / max(1, busy):5.1f}%  {frame}")
    out.append("")
    out.append(f"top {top} functions, self (% of busy samples):")
    for frame, count in own.most_common(top + 5):
        if IDLE.search(frame):
            continue
        out.append(f"  {100 * count / max(1, busy):5.1f}%  {frame}")
    return "\n".join(out)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("files", nargs="+")
    p.add_argument("--top", type=int, default=25)
    args = p.parse_args()
    print(summary(load(args.files), args.top))


if __name__ == "__main__":
    main()
