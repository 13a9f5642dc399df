"""The map of the project's package imports: which app imports which, from grimp (the
graph import-linter checks). Prints one line per package with the packages it imports,
then any loop between packages; exits 1 when there is a loop or an arrow up to config.

    .venv/bin/python scripts/import_map.py
"""

from __future__ import annotations

import sys
import tomllib
from itertools import permutations
from pathlib import Path

import grimp

# The project's root, so that grimp finds its packages when run from anywhere.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def packages() -> list[str]:
    """import-linter's root packages (pyproject.toml), config last."""
    with open(Path(__file__).resolve().parent.parent / "pyproject.toml", "rb") as file:
        roots = tomllib.load(file)["tool"]["importlinter"]["root_packages"]
    return sorted(roots, key=lambda name: name == "config")


def main() -> int:
    names = packages()
    graph = grimp.build_graph(*names)
    arrows = {
        (source, target)
        for source, target in permutations(names, 2)
        if graph.direct_import_exists(importer=source, imported=target, as_packages=True)
    }
    for source in names:
        targets = [t for t in names if (source, t) in arrows]
        print(f"{source:12} -> {', '.join(targets) or '(nothing of the project)'}")
    loops = sorted({tuple(sorted(pair)) for pair in arrows if (pair[1], pair[0]) in arrows})
    up = sorted(source for source, target in arrows if target == "config")
    for a, b in loops:
        print(f"LOOP: {a} <-> {b}")
    for source in up:
        print(f"UP TO CONFIG: {source} -> config")
    if not loops and not up:
        print("no loop between packages; nothing imports config")
    return 1 if loops or up else 0


if __name__ == "__main__":
    sys.exit(main())
