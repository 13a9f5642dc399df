"""Table options and presets (docs/spec.md §6, §7).

Every option is chosen per table when it is created and stored with the match.
:meth:`Options.from_dict` is the strict parser used for match records (§8): an unknown
option or a value outside §7's sets is an error.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from enum import Enum
from typing import Any

from .errors import InvalidOptions


class Bolts(str, Enum):
    """When a trickless deal earns a bolt (docs/spec.md §3.3)."""

    OFF = "off"
    NOT_ON_BARREL = "not_on_barrel"
    ALWAYS = "always"


class BarrelBidding(str, Enum):
    """``closed``: the sitter becomes declarer at 120 without bidding (docs/spec.md §3)."""

    OPEN = "open"
    CLOSED = "closed"


RED_THRESHOLDS: tuple[int | None, ...] = (None, 0, -100, -200, -300, -1000)
PLAYER_COUNTS = (2, 3, 4)


@dataclass(frozen=True, slots=True)
class Options:
    """The options of one table; the defaults are docs/spec.md §7's ``classic``."""

    players: int = 3
    target: int = 1000
    ace_marriage: bool = True
    redeal: bool = True
    write_off: bool = True
    write_off_penalty: bool = True
    show_talon_on_100: bool = False
    barrel: bool = True
    barrel_bidding: BarrelBidding = BarrelBidding.OPEN
    reset_after_third_barrel: bool = False
    bolts: Bolts = Bolts.NOT_ON_BARREL
    samosval: bool = True
    red_threshold: int | None = None
    dark: bool = False
    golden: bool = False
    bid_jumps: bool = True
    deals: int | None = None  # §3.7: a match of N counted deals; None: no limit
    boards_from_zero: bool = False  # §3.8: every deal from 0:0:0 (only with deals)

    def __post_init__(self) -> None:
        # Validate even when built in code, so a bad table can never be created.
        _check(_is_int(self.players) and self.players in PLAYER_COUNTS, "players", self.players)
        _check(_is_int(self.target) and self.target > 0, "target", self.target)
        for name in _BOOL_OPTIONS:
            _check(isinstance(getattr(self, name), bool), name, getattr(self, name))
        _check(
            isinstance(self.barrel_bidding, BarrelBidding), "barrel_bidding", self.barrel_bidding
        )
        _check(isinstance(self.bolts, Bolts), "bolts", self.bolts)
        _check(
            self.red_threshold is None
            or (_is_int(self.red_threshold) and self.red_threshold in RED_THRESHOLDS),
            "red_threshold",
            self.red_threshold,
        )
        _check(self.deals is None or (_is_int(self.deals) and self.deals >= 1), "deals", self.deals)
        if self.boards_from_zero and self.deals is None:
            raise InvalidOptions("option boards_from_zero needs deals")

    @classmethod
    def from_dict(cls, data: object) -> Options:
        """Parse the ``options`` object of a match record; missing options take defaults."""
        if not isinstance(data, dict):
            raise InvalidOptions("options must be an object")
        unknown = sorted(set(data) - set(OPTION_NAMES))
        if unknown:
            raise InvalidOptions(f"unknown option: {unknown[0]}")
        kwargs: dict[str, Any] = dict(data)
        if "players" in kwargs:
            _check(_is_int(kwargs["players"]), "players", kwargs["players"])
        if "barrel_bidding" in kwargs:
            kwargs["barrel_bidding"] = _enum(
                BarrelBidding, "barrel_bidding", kwargs["barrel_bidding"]
            )
        if "bolts" in kwargs:
            kwargs["bolts"] = _enum(Bolts, "bolts", kwargs["bolts"])
        return cls(**kwargs)

    def to_dict(self) -> dict[str, Any]:
        """Every option, JSON-ready."""
        out = asdict(self)
        out["barrel_bidding"] = self.barrel_bidding.value
        out["bolts"] = self.bolts.value
        return out

    def replace(self, **changes: Any) -> Options:
        return replace(self, **changes)

    @classmethod
    def preset(cls, name: str) -> Options:
        try:
            return PRESETS[name]
        except KeyError:
            raise InvalidOptions(f"unknown preset: {name!r}") from None

    def preset_name(self) -> str | None:
        """The preset these options equal, if any."""
        for name, preset in PRESETS.items():
            if preset == self:
                return name
        return None


def below_red_threshold(options: Options, score: int) -> bool:
    """Whether a seat starting a deal with ``score`` may only pass (§6.3). Never under
    ``boards_from_zero``, where every deal starts from 0 (§3.8)."""
    threshold = options.red_threshold
    return threshold is not None and not options.boards_from_zero and score < threshold


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check(ok: bool, name: str, value: object) -> None:
    if not ok:
        raise InvalidOptions(f"option {name} cannot be {value!r}")


def _enum(kind: type[Bolts] | type[BarrelBidding], name: str, value: object) -> Any:
    if isinstance(value, kind):
        return value
    if isinstance(value, str):
        for member in kind:
            if member.value == value:
                return member
    raise InvalidOptions(f"option {name} cannot be {value!r}")


_BOOL_OPTIONS = (
    "ace_marriage",
    "redeal",
    "write_off",
    "write_off_penalty",
    "show_talon_on_100",
    "barrel",
    "reset_after_third_barrel",
    "samosval",
    "dark",
    "golden",
    "bid_jumps",
    "boards_from_zero",
)
OPTION_NAMES: tuple[str, ...] = (
    "players",
    "target",
    *_BOOL_OPTIONS,
    "barrel_bidding",
    "bolts",
    "red_threshold",
    "deals",
)

PRESETS: dict[str, Options] = {
    "classic": Options(),
    # IgraFan's nine table parameters switched on (docs/spec.md §7, the igrafan preset).
    "igrafan": Options(show_talon_on_100=True, golden=True, red_threshold=-300),
    # The club preset (docs/spec.md §7) with its optional deals.
    "club": Options(dark=True, golden=True),
    "simple": Options(barrel=False, bolts=Bolts.OFF, samosval=False, redeal=False),
}
