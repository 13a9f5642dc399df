"""The rules engine of Thousand (Тысяча): pure Python, no framework imports.

The public API, modelled on python-chess::

    match = Match.new(Options.preset("classic"), seed=1)
    match.to_act, match.legal_actions()
    events = match.apply(Bid(105), seat=2)
    match.view(seat)            # what a seat may know; match.view(None) for spectators
    match.to_record()           # docs/spec.md §8; Match.from_record(record); replay(record)
"""

from .actions import (
    Action,
    Bid,
    ChooseTalon,
    Contract,
    Dark,
    Give,
    Look,
    Pass,
    Play,
    Redeal,
    WriteOff,
    action_from_dict,
    parse_action,
)
from .cards import CARDS, Card, Rank, Suit, parse_card
from .deal import Deal, Outcome, Phase
from .dealing import deal_cards
from .errors import (
    EngineError,
    IllegalAction,
    InvalidOptions,
    MalformedAction,
    MalformedCard,
    MalformedRecord,
    NotYourTurn,
)
from .events import Event
from .match import DealResult, Ending, Match
from .options import PRESETS, BarrelBidding, Bolts, Options
from .record import RecordError
from .replay import replay
from .views import View

__all__ = [
    "CARDS",
    "PRESETS",
    "Action",
    "BarrelBidding",
    "Bid",
    "Bolts",
    "Card",
    "ChooseTalon",
    "Contract",
    "Dark",
    "Deal",
    "DealResult",
    "Ending",
    "EngineError",
    "Event",
    "Give",
    "IllegalAction",
    "InvalidOptions",
    "Look",
    "MalformedAction",
    "MalformedCard",
    "MalformedRecord",
    "Match",
    "NotYourTurn",
    "Options",
    "Outcome",
    "Pass",
    "Phase",
    "Play",
    "Rank",
    "RecordError",
    "Redeal",
    "Suit",
    "View",
    "WriteOff",
    "action_from_dict",
    "deal_cards",
    "parse_action",
    "parse_card",
    "replay",
]
