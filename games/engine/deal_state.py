"""The state of one deal: its phases, its outcome and the fields a :class:`DealState`
holds, with the cheap :meth:`DealState.copy` that bots simulate with (docs/spec.md §2).

The deal's steps are layered over this state, each module on the one below:
``deal_scoring.py`` (the score sheet, §2.8), ``talon.py`` (the talon, the gives and the
contract, §2.3-§2.5, §4), ``bidding.py`` (§2.2, §2.9, §6.1) and ``deal.py`` (the play of
the tricks and the one entry point, :class:`~games.engine.deal.Deal`).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum, IntEnum
from typing import Self

from .cards import mask_marriages
from .options import Options


class Phase(IntEnum):
    DARK_DECISION = 0
    BIDDING = 1
    TALON = 2  # two players: choose one of the two talons (§4)
    GIVING = 3  # the talon redeal is asked here, before the first give (§2.9)
    CONTRACT = 4
    PLAY = 5
    COMPLETE = 6


class Outcome(str, Enum):
    MADE = "made"
    FAILED = "failed"
    WRITTEN_OFF = "written_off"
    REDEAL = "redeal"


FORCED_BID = 100
BARREL_BID = 120  # a sitter's bids (and a dark or golden contract) are at least this (§3, §6)

# Next seat clockwise among the deal's active seats, per (players, dealer).
_ACTIVE: dict[tuple[int, int], tuple[int, ...]] = {}
for _n in (2, 3, 4):
    for _d in range(_n):
        if _n == 4:
            _ACTIVE[_n, _d] = ((_d + 1) % 4, (_d + 2) % 4, (_d + 3) % 4)
        else:
            _ACTIVE[_n, _d] = tuple((_d + 1 + i) % _n for i in range(_n))


_ACTIVE_MASK: dict[tuple[int, int], int] = {
    key: sum(1 << s for s in seats) for key, seats in _ACTIVE.items()
}
_NEXT: dict[tuple[int, int], tuple[int, ...]] = {}
for (_n, _d), _seats in _ACTIVE.items():
    _following = [-1] * _n
    for _i, _s in enumerate(_seats):
        _following[_s] = _seats[(_i + 1) % len(_seats)]
    _NEXT[_n, _d] = tuple(_following)


def active_seats(players: int, dealer: int) -> tuple[int, ...]:
    """The seats that play a deal, clockwise from the forced bidder (left of the dealer);
    with four players the dealer rests (§5)."""
    return _ACTIVE[players, dealer]


_new_deal = object.__new__


class DealState:
    """The fields of one deal. Masks are bitmasks of seats or cards (see ``cards.py``);
    the tuples are shared between copies, the lists are copied."""

    __slots__ = (
        "active",
        "active_mask",
        "any_bid",
        "bid",
        "bid_caps",
        "bidder",
        "bids",
        "bolts",
        "called",
        "contract",
        "dark",
        "dark_game",
        "dark_said",
        "dealer",
        "dealt",
        "declarer",
        "deltas",
        "forced",
        "given",
        "golden",
        "hands",
        "history",
        "last_trick",
        "leader",
        "marriages",
        "next_seat",
        "options",
        "outcome",
        "passed",
        "phase",
        "played",
        "players",
        "points",
        "receivers_left",
        "red_limited",
        "redeal_allowed",
        "resting",
        "sitter",
        "talon_index",
        "talon_open",
        "talons",
        "to_act",
        "total_tricks",
        "trick",
        "trick_seats",
        "trick_size",
        "tricks",
        "tricks_played",
        "trump",
    )  # fmt: skip

    players: int
    dealer: int
    options: Options
    golden: bool
    sitter: int  # the seat on the barrel if it plays this deal, else -1
    red_limited: int  # mask of seats below the red threshold (§6.3)
    resting: int
    active: tuple[int, ...]
    active_mask: int
    next_seat: tuple[int, ...]
    trick_size: int
    forced: int
    total_tricks: int
    redeal_allowed: bool
    dealt: tuple[int, ...]
    talons: tuple[int, ...]
    hands: list[int]
    bid_caps: tuple[int, ...]  # the highest bid of each seat: 120 and its marriages
    phase: Phase
    to_act: int
    bid: int
    bidder: int
    any_bid: bool
    passed: int
    called: int
    dark: bool
    dark_said: bool
    dark_game: bool
    declarer: int
    contract: int
    talon_index: int
    talon_open: bool
    receivers_left: int
    given: list[int]
    trump: int
    leader: int
    trick: list[int]
    trick_seats: list[int]
    tricks_played: int
    points: list[int]
    tricks: list[int]
    marriages: list[int]
    outcome: Outcome | None
    deltas: list[int]
    bolts: list[int]
    bids: list[tuple[int, int | None]]
    last_trick: tuple[tuple[int, int], ...]
    played: int
    history: list[tuple[tuple[int, int], ...]]  # completed tricks: (seat, card) in play order

    def __init__(
        self,
        *,
        options: Options,
        dealer: int,
        hands: list[int],
        talons: tuple[int, ...],
        golden: bool = False,
        sitter: int | None = None,
        red_limited: int = 0,
    ) -> None:
        n = options.players
        self.players = n
        self.dealer = dealer
        self.options = options
        self.golden = golden
        self.resting = dealer if n == 4 else -1
        self.sitter = sitter if sitter is not None and sitter != self.resting else -1
        self.red_limited = red_limited
        self.active = active = _ACTIVE[n, dealer]
        self.active_mask = _ACTIVE_MASK[n, dealer]
        self.next_seat = _NEXT[n, dealer]
        self.trick_size = len(active)
        self.forced = active[0]
        self.total_tricks = 11 if n == 2 else 8
        self.redeal_allowed = options.redeal and not golden
        self.dealt = tuple(hands)
        self.talons = talons
        self.hands = list(hands)
        ace = options.ace_marriage
        self.bid_caps = tuple(120 + mask_marriages(h, ace) for h in hands)
        self.bid = 0
        self.bidder = -1
        self.any_bid = False
        self.passed = 0
        self.called = 0
        self.dark = self.dark_said = self.dark_game = False
        self.declarer = -1
        self.contract = 0
        self.talon_index = -1
        self.talon_open = False
        self.receivers_left = 0
        self.given = [-1] * n
        self.trump = -1
        self.leader = -1
        self.trick = []
        self.trick_seats = []
        self.tricks_played = 0
        self.points = [0] * n
        self.tricks = [0] * n
        self.marriages = [0] * n
        self.outcome = None
        self.deltas = [0] * n
        self.bolts = [0] * n
        self.bids = []
        self.last_trick = ()
        self.played = 0
        self.history = []
        self.phase = Phase.BIDDING
        self.to_act = -1

    def copy(self) -> Self:
        """An independent copy (cheap: bots copy deals thousands of times). Its body is
        written from the slots when the module loads: see :func:`_state_copier`."""
        raise NotImplementedError

    @property
    def complete(self) -> bool:
        return self.phase is Phase.COMPLETE


def _state_copier() -> Callable[[DealState], DealState]:
    """The body of :meth:`DealState.copy`, written from the slots the way ``dataclasses``
    writes ``__init__``: one assignment per slot, every ``list`` field (by its annotation)
    sliced so that the copy shares no mutable container. As fast as a hand-written copy,
    and a new field cannot be forgotten."""
    kinds: dict[str, str] = DealState.__annotations__
    assert set(kinds) == set(DealState.__slots__)
    assert not any(kind.startswith(("dict[", "set[")) for kind in kinds.values())
    lists = {name for name, kind in kinds.items() if kind.startswith("list[")}
    body = "".join(
        f"    other.{name} = self.{name}{'[:]' if name in lists else ''}\n"
        for name in DealState.__slots__
    )
    namespace: dict[str, Callable[[DealState], DealState]] = {}
    source = f"def copy(self):\n    other = new(type(self))\n{body}    return other\n"
    exec(source, {"new": _new_deal}, namespace)  # the source holds slot names only
    return namespace["copy"]


DealState.copy = _state_copier()  # type: ignore[assignment,method-assign]
