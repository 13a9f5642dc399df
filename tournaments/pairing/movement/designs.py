"""The movement's exact designs: rounds (*parallel classes*) in which every pair of
entrants meets exactly once (the circle method, the affine spaces AG(m, q), Kirkman's
systems of 15 and 21), and a plan's rounds taken from them. Pure Python."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

Groups = list[list[int]]
"""One round: the tables' members as indices into the field, full tables first."""


KIRKMAN_15 = (
    "ABC DEF GHI JKL MNO",
    "ADH BEK CIO FLN GJM",
    "AEM BHN CGK DIL FJO",
    "AFI BLO CHJ DKM EGN",
    "AGL BDJ CFM EHO IKN",
    "AJN BIM CEL DGO FHK",
    "AKO BFG CDN EIJ HLM",
)
"""Kirkman's fifteen schoolgirls (1850): seven days, every pair walks together once."""

KIRKMAN_21_BASE = (
    ((0, 0), (1, 0), (3, 0)),
    ((0, 1), (2, 0), (6, 2)),
    ((0, 2), (6, 0), (2, 1)),
    ((1, 1), (4, 0), (3, 2)),
    ((1, 2), (5, 0), (4, 1)),
    ((2, 2), (4, 2), (5, 2)),
    ((3, 1), (5, 1), (6, 1)),
)
"""A Kirkman system of 21 on the points (x, level), x in Z₇, level 0..2: seven days are
this day and its six shifts x ↦ x + s; the three others are :data:`KIRKMAN_21_FIXED`.
Found by a search for one with this symmetry: the 70 triples' differences (within a
level ±d, across two levels d) are each met once, so every pair walks together once."""

KIRKMAN_21_FIXED = ((0, 0), (1, 2), (2, 5))
"""The three days {(x, 0), (x + a, 1), (x + b, 2)} for x in Z₇, each (a, b)."""

_GF4_MUL = ((0, 0, 0, 0), (0, 1, 2, 3), (0, 2, 3, 1), (0, 3, 1, 2))
"""GF(4) = {0, 1, x, x + 1} as 0..3; addition is exclusive or."""


def _field_ops(q: int) -> tuple[Callable[[int, int], int], Callable[[int, int], int]]:
    if q == 4:
        return (lambda a, b: a ^ b), (lambda a, b: _GF4_MUL[a][b])
    return (lambda a, b: (a + b) % q), (lambda a, b: (a * b) % q)


def affine_classes(q: int, m: int) -> list[Groups]:
    """The parallel classes of the lines of AG(m, q) (q = 2, 3 or 4), points numbered by
    their coordinates in base q: each class splits the qᵐ points into lines of q, and two
    points lie on exactly one line, so in exactly one class."""
    add, mul = _field_ops(q)
    points = list(itertools.product(range(q), repeat=m))
    number = {p: i for i, p in enumerate(points)}
    directions = [d for d in points if any(d) and d[next(i for i, c in enumerate(d) if c)] == 1]
    classes: list[Groups] = []
    for d in directions:
        seen: set[int] = set()
        lines: Groups = []
        for p in points:
            if number[p] in seen:
                continue
            line = [number[tuple(add(pc, mul(t, dc)) for pc, dc in zip(p, d))] for t in range(q)]
            seen.update(line)
            lines.append(sorted(line))
        classes.append(lines)
    return classes


def circle_classes(n: int) -> list[Groups]:
    """The circle method for tables of 2: n − 1 rounds (n even) or n (n odd, one player a
    round alone, with a bot), every pair once. The lone player's table comes last."""
    m = n + n % 2
    ring = list(range(m))
    classes: list[Groups] = []
    for _ in range(m - 1):
        pairs = [[ring[i], ring[m - 1 - i]] for i in range(m // 2)]
        full = [sorted(p) for p in pairs if n not in p]
        alone = [[x for x in p if x != n] for p in pairs if n in p]
        classes.append(full + alone)
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return classes


def kirkman_classes() -> list[Groups]:
    return [[sorted(ord(c) - ord("A") for c in walk) for walk in day.split()] for day in KIRKMAN_15]


def kirkman_21_classes() -> list[Groups]:
    """Ten days of 21 (:data:`KIRKMAN_21_BASE`); the point (x, level) is 7 × level + x."""

    def number(x: int, level: int) -> int:
        return 7 * level + x % 7

    days = [
        [sorted(number(x + s, level) for x, level in walk) for walk in KIRKMAN_21_BASE]
        for s in range(7)
    ]
    days += [
        [sorted((number(x, 0), number(x + a, 1), number(x + b, 2))) for x in range(7)]
        for a, b in KIRKMAN_21_FIXED
    ]
    return days


def design_classes(n: int, seats: int) -> list[Groups] | None:
    """An exact design for ``n`` at tables of ``seats``, if this module knows one."""
    if seats == 2:
        return circle_classes(n) if n >= 2 else None
    if seats == 3 and n == 15:
        return kirkman_classes()
    if seats == 3 and n == 21:
        return kirkman_21_classes()
    m = 1
    while seats**m < n:
        m += 1
    if seats**m == n:
        return affine_classes(seats, m)
    return None


def design_rounds(n: int, seats: int, rounds: int, rng: random.Random) -> list[Groups] | None:
    """``rounds`` rounds of a design, going round it again with the entrants relabelled."""
    classes = design_classes(n, seats)
    if classes is None:
        return None
    out: list[Groups] = []
    label = list(range(n))
    for r in range(rounds):
        if r and r % len(classes) == 0:
            rng.shuffle(label)
        groups = [sorted(label[x] for x in g) for g in classes[r % len(classes)]]
        out.append(groups)
    return out
