"""Builders for ``thousand/1`` match records (docs/spec.md §8), used by the rule tests.

Nothing here knows the rules of play: the builders only turn compact text into the
record's JSON shape, rotate seats around a trick, and check that a hand-written deal
uses every card exactly once (a typo guard). Every expectation in the tests is worked
out by hand from docs/spec.md.

Compact actions: ``"2 bid 105"``, ``"0 pass"``, ``"1 redeal"``, ``"0 dark"``, ``"0 look"``,
``"1 choose_talon 0"``, ``"2 give 0 9H"``, ``"2 contract 110"``, ``"2 write_off"``,
``"2 play AS"``. Several may be joined with ``;``.

Layouts: a :class:`Layout` is a deal written relative to its declarer: ``hands[0]`` is
the declarer's, ``hands[1]`` the next active seat clockwise ("opp1"), ``hands[2]`` the one
after ("opp2"). Its tricks are written ``(leader, "cD c1 c2")`` with the cards in that
relative seat order (not in play order); :func:`layout_deal` turns them into play actions
in play order for the real seats.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

DECK = [r + s for s in "SCDH" for r in "9JQKTA"]


# --------------------------------------------------------------------------- actions


def action(text: str) -> dict[str, Any]:
    """``"2 give 0 9H"`` -> ``{"seat": 2, "type": "give", "to": 0, "card": "9H"}``."""
    words = text.split()
    seat, kind, args = int(words[0]), words[1], words[2:]
    out: dict[str, Any] = {"seat": seat, "type": kind}
    if kind in ("bid", "contract"):
        (value,) = args
        out["value"] = int(value)
    elif kind == "choose_talon":
        (index,) = args
        out["index"] = int(index)
    elif kind == "give":
        to, card = args
        out["to"] = int(to)
        out["card"] = card
    elif kind == "play":
        (card,) = args
        out["card"] = card
    else:
        assert not args, text
    return out


def actions(*items: str | Iterable[str]) -> list[dict[str, Any]]:
    """Flatten strings (``;``-separated) and lists of strings into action dicts."""
    out: list[dict[str, Any]] = []
    for item in items:
        if isinstance(item, str):
            parts = [p.strip() for p in item.split(";") if p.strip()]
        else:
            parts = list(item)
        for p in parts:
            out.append(p if isinstance(p, dict) else action(p))
    return out


def strip_seat(a: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in a.items() if k != "seat"}


# --------------------------------------------------------------------------- records


def deal(
    hands: Sequence[str | Sequence[str]],
    talon: str | Sequence[str] | None = None,
    acts: Iterable[str | dict] = (),
    *,
    talons: Sequence[str | Sequence[str]] | None = None,
    check: bool = True,
) -> dict[str, Any]:
    """One deal entry. ``hands`` in seat order (``""`` for a resting dealer)."""
    hs = [h.split() if isinstance(h, str) else list(h) for h in hands]
    d: dict[str, Any] = {"hands": hs}
    used = [c for h in hs for c in h]
    if talons is not None:
        ts = [t.split() if isinstance(t, str) else list(t) for t in talons]
        d["talons"] = ts
        used += [c for t in ts for c in t]
    else:
        assert talon is not None
        t = talon.split() if isinstance(talon, str) else list(talon)
        d["talon"] = t
        used += t
    if check:
        assert sorted(used) == sorted(DECK), f"not a 24-card deck: {sorted(used)}"
    d["actions"] = actions(*[a if isinstance(a, str) else [a] for a in acts]) if acts else []
    return d


def deal_with(
    fixed: dict[int, str],
    *,
    talon: str | None = None,
    players: int = 3,
    resting: int | None = None,
    acts: Iterable[str | dict] = (),
) -> dict[str, Any]:
    """A three-player (or four, with ``resting``) deal in which only some hands matter.

    The seats in ``fixed`` get those cards (and the talon, if given); the other cards go,
    in deck order, to the talon and then to the remaining seats.
    """
    taken = [c for h in fixed.values() for c in h.split()] + (talon.split() if talon else [])
    rest = [c for c in DECK if c not in taken]
    hands: list[str] = [""] * players
    for seat, h in fixed.items():
        hands[seat] = h
    if talon is None:
        talon, rest = " ".join(rest[:3]), rest[3:]
    for seat in range(players):
        if seat in fixed or seat == resting:
            continue
        hands[seat], rest = " ".join(rest[:7]), rest[7:]
    assert not rest
    return deal(hands, talon, acts)


def record(
    *deals: dict[str, Any],
    options: dict[str, Any] | None = None,
    first_dealer: int = 0,
) -> dict[str, Any]:
    rec: dict[str, Any] = {"format": "thousand/1"}
    if options is not None:
        rec["options"] = dict(options)
    rec["first_dealer"] = first_dealer
    rec["deals"] = list(deals)
    return rec


def dealer_of(k: int, first_dealer: int, players: int = 3) -> int:
    """Dealer of the k-th deal when no redeal happened (§2.1)."""
    return (first_dealer + k) % players


def active_seats(dealer: int, players: int = 3) -> list[int]:
    """Seats that play a deal, clockwise from the forced bidder (§2.2, §5)."""
    if players == 4:
        return [(dealer + k) % 4 for k in (1, 2, 3)]
    return [(dealer + 1 + k) % players for k in range(players)]


def auction(
    dealer: int, declarer: int, bid: int, *, players: int = 3, opening: int = 100
) -> list[str]:
    """The simplest bidding in which ``declarer`` wins at ``bid`` (three active seats).

    forced = left of dealer (opening is automatic), s1 speaks first, then s2, then forced.
    """
    f, s1, s2 = active_seats(dealer, players)
    if declarer == f:
        if bid == opening:
            return [f"{s1} pass", f"{s2} pass"]
        assert bid >= opening + 10
        return [f"{s1} bid {opening + 5}", f"{s2} pass", f"{f} bid {bid}", f"{s1} pass"]
    if declarer == s1:
        return [f"{s1} bid {bid}", f"{s2} pass", f"{f} pass"]
    assert declarer == s2
    return [f"{s1} pass", f"{s2} bid {bid}", f"{f} pass"]


@dataclass(frozen=True)
class Layout:
    """A three-hand deal written relative to its declarer (see module docstring)."""

    hands: tuple[str, str, str]
    talon: str
    gives: tuple[str, str]  # card for opp1, card for opp2
    tricks: tuple[tuple[int, str], ...] = field(default=())

    def swapped(self) -> Layout:
        """The same deal with opp1 and opp2 exchanged (legality and winners unchanged)."""
        h = (self.hands[0], self.hands[2], self.hands[1])
        g = (self.gives[1], self.gives[0])
        t = []
        for leader, cards in self.tricks:
            c = cards.split()
            t.append(({0: 0, 1: 2, 2: 1}[leader], f"{c[0]} {c[2]} {c[1]}"))
        return Layout(h, self.talon, g, tuple(t))


def trick_actions(leader_rel: int, cards_rel: str, seat_of: Sequence[int]) -> list[str]:
    c = cards_rel.split()
    return [f"{seat_of[(leader_rel + k) % 3]} play {c[(leader_rel + k) % 3]}" for k in range(3)]


def layout_deal(
    lay: Layout,
    *,
    dealer: int,
    declarer: int,
    bidding: Sequence[str] | None = None,
    bid: int | None = None,
    contract: int | None = None,
    write_off: bool = False,
    players: int = 3,
    tricks: int | None = None,
    pre: Sequence[str] = (),
    opening: int = 100,
    stop_after_gives: bool = False,
) -> dict[str, Any]:
    """A deal built from a layout: hands in real seats, bidding, gives, contract, play.

    ``bidding`` overrides the default :func:`auction` (``bid`` defaults to ``contract``);
    ``pre`` goes before the bidding (e.g. ``["0 dark"]``); ``tricks`` limits how many
    tricks are played (None: all).
    """
    act = active_seats(dealer, players)
    i = act.index(declarer)
    seat_of = [act[i], act[(i + 1) % 3], act[(i + 2) % 3]]
    hands = [""] * players
    for rel, seat in enumerate(seat_of):
        hands[seat] = lay.hands[rel]
    acts: list[str] = list(pre)
    if bidding is None:
        acts += auction(
            dealer, declarer, bid if bid is not None else contract, players=players, opening=opening
        )
    else:
        acts += list(bidding)
    acts += [
        f"{declarer} give {seat_of[1]} {lay.gives[0]}",
        f"{declarer} give {seat_of[2]} {lay.gives[1]}",
    ]
    if stop_after_gives:
        return deal(hands, lay.talon, acts)
    if write_off:
        acts.append(f"{declarer} write_off")
    else:
        assert contract is not None
        acts.append(f"{declarer} contract {contract}")
        for leader, cards in lay.tricks[: tricks if tricks is not None else len(lay.tricks)]:
            acts += trick_actions(leader, cards, seat_of)
    return deal(hands, lay.talon, acts)


# --------------------------------------------------------------------------- layouts
# Each comment gives what the declarer (D) and the defenders end with when the tricks
# are played as written; the tests re-derive what they rely on.

# D: AH,KH(♥100 at trick 2),QH,TH,KD(♦80 at trick 5),QD,AD,TD - all 8 tricks:
# 120 card points + 180 = 300. Dealt cap 120+180 = 300. Defenders take no trick.
SWEEP = Layout(
    hands=("AH TH KH QH KD QD AD", "AS TS KS QS JS JH 9H", "AC TC KC QC JC JD 9D"),
    talon="TD 9S 9C",
    gives=("9S", "9C"),
    tricks=(
        (0, "AH JH AC"),
        (0, "KH 9H TC"),
        (0, "QH AS KC"),
        (0, "TH TS QC"),
        (0, "KD KS JD"),
        (0, "QD QS 9D"),
        (0, "AD JS JC"),
        (0, "TD 9S 9C"),
    ),
)

# As SWEEP, but D leads KH to the FIRST trick (no marriage), so only ♦80 is declared:
# all 8 tricks, 120 + 80 = 200.
SWEEP_NO_HEARTS = Layout(
    hands=SWEEP.hands,
    talon=SWEEP.talon,
    gives=SWEEP.gives,
    tricks=(
        (0, "KH JH AC"),
        (0, "QH 9H TC"),
        (0, "AH AS KC"),
        (0, "TH TS QC"),
        (0, "KD KS JD"),
        (0, "QD QS 9D"),
        (0, "AD JS JC"),
        (0, "TD 9S 9C"),
    ),
)

# D holds four aces and ♥K Q: trick 1 TH, trick 2 AS declares the ace marriage (200),
# trick 3 KH declares ♥ (100). All 8 tricks: 120 + 300 = 420 = dealt cap.
BIG = Layout(
    hands=("AH TH KH QH AS AC AD", "JH 9H TS KS QS JS KD", "TC KC QC JC QD JD 9D"),
    talon="TD 9S 9C",
    gives=("9S", "9C"),
    tricks=(
        (0, "TH JH 9C"),
        (0, "AS 9S JC"),
        (0, "KH 9H QC"),
        (0, "QH TS KC"),
        (0, "AH JS TC"),
        (0, "AD KD 9D"),
        (0, "AC KS JD"),
        (0, "TD QS QD"),
    ),
)


def rounding_layout(p: int) -> Layout:
    """D (no marriage, dealt cap 120) loses only trick 1, worth ``p`` card points, to opp1.

    p=12: 9S TS JS; p=13: 9S TS QS; p=17: QS TS KS; p=18: QS AS KS.
    D takes 120 - p card points, opp1 p, opp2 nothing (no trick).
    """
    tail_12 = (
        (1, "AH 9H JH"),
        (0, "TH QH 9C"),
        (0, "KH AS QS"),
        (0, "AD KD JD"),
        (0, "TD QD 9D"),
        (0, "AC JC KC"),
        (0, "TC KS QC"),
    )
    if p in (12, 13):
        hands = ("AH TH KH AD TD AC TC", "TS AS KS 9H QH KD QD", "JS QS KC QC JD 9D JH")
        first = "9S TS JS" if p == 12 else "9S TS QS"
        tail = list(tail_12)
        if p == 13:
            tail[2] = (0, "KH AS JS")
        return Layout(hands, "9S JC 9C", ("JC", "9C"), ((0, first), *tail))
    hands = ("AH TH KH AD TD AC TC", "TS AS JS 9H QH KD QD", "KS 9S KC QC JD 9D JH")
    first = "QS TS KS" if p == 17 else "QS AS KS"
    fourth = "KH AS 9S" if p == 17 else "KH TS 9S"
    tail = [
        (1, "AH 9H JH"),
        (0, "TH QH 9C"),
        (0, fourth),
        (0, "AD KD JD"),
        (0, "TD QD 9D"),
        (0, "AC JC KC"),
        (0, "TC JS QC"),
    ]
    assert p in (17, 18)
    return Layout(hands, "QS JC 9C", ("JC", "9C"), ((0, first), *tail))


# As rounding_layout(12), but opp1, on lead at trick 2, leads KD holding QD: he declares
# ♦80 and diamonds are trump. D wins every other trick. D 108 card points (no marriage,
# dealt cap 120); opp1 12 card points + 80; opp2 no trick.
DEFENDER_MARRIAGE = Layout(
    hands=("AH TH KH AD TD AC TC", "TS AS KS 9H QH KD QD", "JS QS KC QC JD 9D JH"),
    talon="9S JC 9C",
    gives=("JC", "9C"),
    tricks=(
        (0, "9S TS JS"),
        (1, "AD KD JD"),
        (0, "TD QD 9D"),
        (0, "AH 9H JH"),
        (0, "TH QH 9C"),
        (0, "KH AS QS"),
        (0, "AC JC KC"),
        (0, "TC KS QC"),
    ),
)

# D wins only trick 1 (AS KS KC = 19), then leads KH declaring ♥100 and loses every
# other trick to opp1: D 19 + 100 = 119; opp1 101 card points; opp2 no trick.
# D's dealt hand holds ♥K Q: cap 220.
ONE_SHORT = Layout(
    hands=("AS 9S KH QH JC 9C JD", "KS TS QS JS AH TH AC", "KC JH 9H QC KD TD AD"),
    talon="9D TC QD",
    gives=("TC", "QD"),
    tricks=(
        (0, "AS KS KC"),
        (0, "KH AH 9H"),
        (1, "QH TH JH"),
        (1, "JC AC QC"),
        (1, "9C TC KD"),
        (1, "9S TS QD"),
        (1, "JD QS TD"),
        (1, "9D JS AD"),
    ),
)


# --------------------------------------------------------------------------- running


def run(rec: Any) -> dict[str, Any]:
    from games.engine import replay

    return replay(rec)


def ok(rec: Any) -> dict[str, Any]:
    """Replay a record that must be valid; fail with the engine's error otherwise."""
    out = run(rec)
    assert "error" not in out, f"engine rejected a valid record: {out['error']}"
    return out


def err(rec: Any) -> dict[str, Any]:
    out = run(rec)
    assert set(out) == {"error"}, f"expected an error, got {out}"
    return out["error"]


def key(a: dict[str, Any]) -> str:
    return json.dumps(strip_seat(a), sort_keys=True)


def legal(out: dict[str, Any]) -> set[str]:
    """``next.legal`` as a set of canonical strings."""
    return {key(a) for a in out["next"]["legal"]}


def L(*texts: str) -> set[str]:
    """Expected legal actions, written compactly without seats: ``L("bid 105", "pass")``."""
    return {key(action("0 " + t)) for t in texts}


def bids(lo: int, hi: int) -> list[str]:
    return [f"bid {v}" for v in range(lo, hi + 1, 5)]


def contracts(lo: int, hi: int) -> list[str]:
    return [f"contract {v}" for v in range(lo, hi + 1, 5)]


def plays(cards: str) -> list[str]:
    return [f"play {c}" for c in cards.split()]


def cli(args: Sequence[str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", *args],
        cwd=REPO_ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


NO_REDEAL = {"redeal": False}


def only_entry(rec: str) -> dict[str, Any]:
    """The one deal entry of a one-deal record's replay."""
    out = ok(rec)
    assert len(out["deals"]) == 1
    entry: dict[str, Any] = out["deals"][0]
    return entry


def forced_declarer_deal(lay: Layout, contract: int | None, **kw: Any) -> str:
    """Seat 1 is declarer at the forced 100 (seats 2 and 0 pass)."""
    return layout_deal(lay, dealer=0, declarer=1, bid=100, contract=contract, **kw)
