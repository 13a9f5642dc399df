"""The table options in plain words: names, one-line explanations and value labels
(docs/spec.md §6, §7), for the lobby's create form, its table list and the table page.

Players who know the online clubs read the club's own terms here: заявка is a table with
its options, прикуп the talon, роспись a write-off, бочка the barrel, болт a bolt.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils.functional import lazy
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy

from games.engine import PRESETS, Options
from games.engine.options import OPTION_NAMES, RED_THRESHOLDS

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise as Promise
else:
    from django.utils.functional import Promise

PRESET_ORDER = tuple(PRESETS)  # the engine's presets, in its order

PRESET_LABELS: dict[str, Promise] = {
    "classic": _("Classic"),
    "igrafan": _("IgraFan"),
    "club": _("Club"),
    "simple": _("Simple"),
}

PRESET_HELP: dict[str, Promise] = {
    "classic": _(
        "The online clubs' rules: barrel, bolts, samosval, ace marriage, redeal and write-off."
    ),
    "igrafan": _(
        "IgraFan's nine table parameters all on: the talon shown on 100, the golden round, "
        "no bidding below −300."
    ),
    "club": _("Classic plus the club's optional deals: dark games and the golden round."),
    "simple": _(
        "For newcomers: no barrel, no bolts, no samosval, no redeal; the first to 1000 wins."
    ),
}


@dataclass(frozen=True)
class OptionInfo:
    name: str
    label: Promise
    help: Promise
    choices: tuple[tuple[Any, Promise], ...] = ()  # empty: a yes/no option


BOLTS_CHOICES = (
    ("off", pgettext_lazy("bolts", "off")),
    ("not_on_barrel", _("not while on the barrel")),
    ("always", _("always")),
)
BARREL_BIDDING_CHOICES = (
    ("open", pgettext_lazy("barrel bidding", "open")),
    ("closed", pgettext_lazy("barrel bidding", "closed")),
)


def _minus(value: int) -> str:
    return str(value).replace("-", "−")


RED_CHOICES = tuple(
    (
        value,
        pgettext_lazy("bidding in the red", "no limit")
        if value is None
        else format_lazy(_("only pass below {score}"), score=_minus(value)),
    )
    for value in RED_THRESHOLDS
)

# docs/spec.md §3.7: the lobby offers these match lengths (the API takes any from 1 to 100).
DEALS_OFFERED = (3, 6, 9, 12, 20)


def deals_label(deals: int) -> str:
    """A match length in words: "6 deals", in the language active when it is called."""
    return ngettext("%(n)s deal", "%(n)s deals", deals) % {"n": deals}


# Lazy: the choices are built at import, when no language is active yet.
_deals_label_lazy = lazy(deals_label, str)


DEALS_CHOICES: tuple[tuple[int | None, Promise], ...] = (
    (None, pgettext_lazy("match length", "a whole match")),
    *(
        (
            n,
            format_lazy(
                _("a quick match: {deals}"),
                deals=_deals_label_lazy(n),
            ),
        )
        for n in DEALS_OFFERED
    ),
)

# Every option of docs/spec.md §7 but `players` (asked for separately), in the order a player
# reads them: the deal, the match, the special deals.
OPTIONS: tuple[OptionInfo, ...] = (
    OptionInfo(
        "ace_marriage",
        _("Ace marriage"),
        _("All four aces, led from the second trick on, score 200."),
    ),
    OptionInfo(
        "redeal",
        _("Redeal (пересдача)"),
        _(
            "A weak hand (13 points or less, three nines, four jacks) or a weak talon may ask for a new deal."
        ),
    ),
    OptionInfo(
        "write_off",
        _("Write-off (роспись)"),
        _(
            "After taking the talon the declarer may concede: the opponents get half of his bid each."
        ),
    ),
    OptionInfo(
        "write_off_penalty",
        _("Write-off costs the bid"),
        _("A write-off costs the declarer his bid; when this is off, it costs him a bolt instead."),
    ),
    OptionInfo(
        "show_talon_on_100",
        _("Show the talon on 100"),
        _("The talon is shown even when the forced bidder takes it at 100 with no other bid."),
    ),
    OptionInfo(
        "bid_jumps",
        _("Jump bids"),
        _("A bid may jump by more than 5; when off, each bid is exactly 5 above the last."),
    ),
    OptionInfo(
        "red_threshold",
        _("Bidding in the red"),
        _("A player whose score is below this line may only pass."),
        RED_CHOICES,
    ),
    OptionInfo(
        "barrel",
        _("Barrel (бочка)"),
        _(
            "At 880 a player sits on the barrel: three deals to win by making a contract, else −120."
        ),
    ),
    OptionInfo(
        "barrel_bidding",
        _("Bidding on the barrel"),
        _(
            "Open: the sitter bids from 120 like anyone; closed: he takes the talon at 120 without bidding."
        ),
        BARREL_BIDDING_CHOICES,
    ),
    OptionInfo(
        "reset_after_third_barrel",
        _("Zero after the third barrel"),
        _("Falling off the barrel for the third time sends a player to 0 instead of 760."),
    ),
    OptionInfo(
        "target",
        _("Target score"),
        _("Without the barrel, the first to reach this score wins."),
    ),
    OptionInfo(
        "deals",
        _("Match length"),
        _(
            "A quick match ends after this many deals (a redeal does not count): the highest score wins."
        ),
        DEALS_CHOICES,
    ),
    OptionInfo(
        "boards_from_zero",
        _("Every deal from 0:0:0"),
        _(
            "Only with a match length: every deal starts at 0 for everyone, without bolts or "
            "the barrel; the match score is the sum of the deals' points."
        ),
    ),
    OptionInfo(
        "bolts",
        _("Bolts (болты)"),
        _("A deal without a single trick earns a bolt; three bolts cost 120."),
        BOLTS_CHOICES,
    ),
    OptionInfo(
        "samosval", _("Samosval (самосвал)"), _("A score of exactly 555 or −555 drops to 0.")
    ),
    OptionInfo(
        "dark",
        _("Dark game (тёмная)"),
        _("The forced bidder may play blind for 120 before seeing his cards: +240 or −240."),
    ),
    OptionInfo(
        "golden",
        _("Golden round (золотой кон)"),
        _(
            "The first deals, one per player, are played dark at 120; if nobody makes one, all go back to 0."
        ),
    ),
)
OPTION_INFO = {o.name: o for o in OPTIONS}
assert set(OPTION_INFO) | {"players"} == set(OPTION_NAMES), "every option needs words"

MOVE_SECONDS_CHOICES = (
    (15, _("15 seconds a move (fast)")),
    (30, _("30 seconds a move")),
    (60, _("1 minute a move")),
    (120, _("2 minutes a move (relaxed)")),
)
BOT_LEVEL_LABELS: dict[str, Promise] = {
    "random": _("random (any legal card; a match may never end)"),
    "basic": _("basic"),
    "strong": _("strong"),
    "master": _("master (thinks longer; for practice)"),
}


BOT_LEVEL_HELP: dict[str, Promise] = {
    "random": _(
        "plays any legal card, instantly. For a first look at the table only: nobody plays "
        "well enough to reach 1000 from the barrel, so a match against random bots can go on "
        "for an hour and more without ending."
    ),
    "basic": _(
        "plays by rules of thumb (counts its sure tricks, bids what its hand can make), in a "
        "blink. A fair first opponent; its matches end like anyone's."
    ),
    "strong": _(
        "before each move tries hundreds of ways the unseen cards may lie, about a third of "
        "a second a move. A hard opponent."
    ),
    "master": _(
        "the strong bot's search with about five times the time, up to a few seconds a "
        "move. The hardest opponent here, for practice."
    ),
}
"""What each bot level is like, for the lobby: how well it plays and how fast; the lobby
puts the level's own word (:data:`BOT_LEVEL_WORDS`, as the menus name it) in front."""

BOT_LEVEL_WORDS: dict[str, Promise] = {
    "random": pgettext_lazy("bot level", "random"),
    "basic": pgettext_lazy("bot level", "basic"),
    "strong": pgettext_lazy("bot level", "strong"),
    "master": pgettext_lazy("bot level", "master"),
}


def seat_label(seat: Any) -> str:
    """A seat's name on the pages: the person's, or "Bot 2 (basic)" in the page's language."""
    if seat.user_id is not None:
        return str(seat.user.get_display_name())
    level = BOT_LEVEL_WORDS.get(seat.bot_level, seat.bot_level)
    return _("Bot %(n)s (%(level)s)") % {"n": seat.number + 1, "level": level}


def value_label(name: str, value: Any) -> str:
    """An option's value in words: "on", "off", "not while on the barrel", "below −300"…"""
    if name == "deals" and isinstance(value, int):
        return deals_label(value)
    info = OPTION_INFO.get(name)
    if info is not None and info.choices:
        for key, label in info.choices:
            if key == value:
                return str(label)
    if isinstance(value, bool):
        return str(_("on") if value else _("off"))
    return str(value)


def option_line(name: str, value: Any) -> str:
    return f"{OPTION_INFO[name].label}: {value_label(name, value)}"


def differences(preset: str, options: dict[str, Any]) -> list[str]:
    """The options that differ from the table's preset, each as "Name: value"."""
    base = PRESETS.get(preset, Options()).to_dict()
    return [
        option_line(info.name, options[info.name])
        for info in OPTIONS
        if info.name in options and options[info.name] != base.get(info.name)
    ]


def all_lines(options: dict[str, Any]) -> list[str]:
    """Every option of a table in words (the table page's "Rules of this table")."""
    return [option_line(info.name, options[info.name]) for info in OPTIONS if info.name in options]


def preset_label(preset: str) -> str:
    label = PRESET_LABELS.get(preset)
    return str(label) if label is not None else preset


def preset_title(preset: str, options: dict[str, Any]) -> str:
    """The table's rules in one line for its header: the preset's name alone when the
    table keeps the preset's options, else "Classic with changes: …" naming every option
    that differs, as the lobby lists them."""
    changes = differences(preset, options)
    if not changes:
        return preset_label(preset)
    return str(
        _("%(preset)s with changes: %(changes)s")
        % {"preset": preset_label(preset), "changes": "; ".join(changes)}
    )
