"""The fair-play screening of one match record: pure Python on the engine and the bots.

:func:`screen` replays a ``thousand/1`` record once and counts, for every seat and every
ordered pair of seats, what the seats' own decisions did to each other (docs/fair-play.md):

- **the auction**: when seat ``a`` had to answer a bid that seat ``x`` held, did ``a``
  let it stand (pass) or bid over it; the same counts against every other holder of the
  bid are the honest baseline of the same player in the same matches;
- **the collusion table**: the card points each decision put into an opponent's hands
  beyond the least it could have, valued only where the seat's own view makes the result
  certain — the last card to a trick (the seat sees every card of it, so the winner and
  the points of each card it could play are known) and the declarer's gives (the seat
  chooses which card each rival gets); counted only between the declarer and a defender
  (a defender's card onto the declarer's trick, the declarer's onto a defender's): the
  two defenders play together, and feeding a fellow defender is ordinary play;
- **agreement with master**: a sample of each seat's real choices (more than one legal
  action) asked of the master search at a small budget, from that seat's view only;
  counted apart where master's choice differs from the reference bot's (``basic``): the
  decisions where help from an engine shows, and an honest player of a given level
  agrees with master at his level's own rate;
- **the auction against the hand**: of the answers to another seat's bid, those where
  the reference bot, from the answering seat's own view, would have bid over it (a hand
  worth contesting), and how many of them were passes all the same.

Nothing here reads another seat's cards to value a decision: every value comes from
``match.view(seat)``'s knowledge or from the cards on the table. No Django here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.bots import Bot, Budget, make_bot
from games.bots.strong import MasterBot
from games.engine.actions import Action, Bid, Give, Pass, Play, action_from_dict
from games.engine.deal import Phase
from games.engine.errors import EngineError
from games.engine.match import Match
from games.engine.record import RecordError, dealt_cards, read_header
from games.engine.views import View

# The master search's worlds for each sampled decision, and how many decisions of a seat
# it is asked about in one match: together they keep the screening of a match of about
# 30 deals within 2 CPU seconds (bench/fair_play.py measures it). The declarer's gives
# and his contract are not asked: master values them with the whole play behind them,
# about 45 ms each at this budget against 7 ms for a bid or a card (profiled on 30-deal
# matches), so that a sixth of the decisions cost half of the screening.
SCREEN_SAMPLES = 6
SCREEN_DECISIONS = 32
_NOT_ASKED = (Phase.TALON, Phase.GIVING, Phase.CONTRACT)
# The reference bot: what a player of ordinary skill would do from the same view.
REFERENCE = "basic"


@dataclass(slots=True)
class PairCounts:
    """What seat ``seat``'s decisions did to seat ``other`` in one match."""

    chances: int = 0  # auction answers while ``other`` held the bid
    stood: int = 0  # ... of which passes (the bid let stand)
    # Only in deals where one of the two is the declarer (the other a defender):
    fed: int = 0  # card points put into ``other``'s hands beyond the least possible
    feeds: int = 0  # decisions where the seat could choose what ``other`` got
    contest: int = 0  # answers to ``other``'s bid where the reference bot would bid over
    yielded: int = 0  # ... of which passes all the same

    def to_dict(self) -> dict[str, int]:
        return {
            "chances": self.chances, "stood": self.stood, "fed": self.fed, "feeds": self.feeds,
            "contest": self.contest, "yielded": self.yielded,
        }  # fmt: skip


@dataclass(slots=True)
class SeatCounts:
    seat: int
    samples: int = SCREEN_SAMPLES  # the master search's worlds a decision of this seat
    checked: int = 0  # decisions asked of the master search
    agreed: int = 0  # ... where the seat chose what master chose
    split: int = 0  # ... where master's choice differs from the reference bot's
    split_agreed: int = 0  # ... of which the seat chose master's
    pairs: dict[int, PairCounts] = field(default_factory=dict)
    # The decisions that moved the most points to another seat: (deal, action, to, points).
    largest: list[tuple[int, int, int, int]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "samples": self.samples,
            "checked": self.checked,
            "agreed": self.agreed,
            "split": self.split,
            "split_agreed": self.split_agreed,
            "pairs": {str(o): p.to_dict() for o, p in sorted(self.pairs.items())},
            "largest": [list(x) for x in self.largest],
        }


@dataclass(slots=True)
class Screening:
    players: int
    seats: dict[int, SeatCounts]
    # Every action of the record in order: (seat, legal choices it had). The clock's
    # difficulty of each decision (``scoring.clock_counts``); not stored.
    choices: list[tuple[int, int]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "seats": {str(s): c.to_dict() for s, c in sorted(self.seats.items())},
        }


def _gains(match: Match, action: Action) -> list[int]:
    """Each seat's card points gained if the seat to act played ``action`` now."""
    deal = match.deal
    assert deal is not None
    before = list(deal.points)
    trial = deal.copy()
    trial.apply(action, deal.to_act)
    return [after - was for after, was in zip(trial.points, before, strict=True)]


def _feed(
    counts: SeatCounts, match: Match, taken: Action, legal: Sequence[Action], at: tuple[int, int]
) -> None:
    """The collusion table's share of one decision, where the seat's view makes it exact."""
    deal = match.deal
    assert deal is not None
    seat = deal.to_act
    if deal.phase is Phase.PLAY and isinstance(taken, Play):
        if len(deal.trick) != len(deal.active) - 1:
            return  # not the last card: the winner is not yet known from the seat's view
        options = [_gains(match, a) for a in legal if isinstance(a, Play)]
        chosen = _gains(match, taken)
        for other in deal.active:
            if other == seat or not _against(deal.declarer, seat, other):
                continue
            extra = chosen[other] - min(g[other] for g in options)
            _add_feed(counts, other, extra, at)
    elif deal.phase is Phase.GIVING and isinstance(taken, Give):
        # The declarer gives one card to each rival: what this rival got beyond the
        # least-valued card the declarer still held for him.
        playable = [a.card for a in legal if isinstance(a, Give) and a.to == taken.to]
        extra = taken.card.points - min(c.points for c in playable)
        _add_feed(counts, taken.to, extra, at)


def _against(declarer: int, seat: int, other: int) -> bool:
    """Whether ``seat`` and ``other`` play against each other in the deal: one of them is
    the declarer. The two defenders play together against the declarer (each scores his
    own card points, and neither loses by the other's): a card smeared onto a fellow
    defender's trick is ordinary play, not feeding, and is not counted."""
    return declarer in (seat, other)


def _add_feed(counts: SeatCounts, other: int, extra: int, at: tuple[int, int]) -> None:
    pair = counts.pairs.setdefault(other, PairCounts())
    pair.feeds += 1
    pair.fed += extra
    if extra > 0:
        counts.largest.append((at[0], at[1], other, extra))
        counts.largest.sort(key=lambda x: (-x[3], x[0], x[1]))
        del counts.largest[5:]


def _auction(counts: SeatCounts, match: Match, taken: Action, reference: Bot) -> None:
    deal = match.deal
    assert deal is not None
    if deal.phase is not Phase.BIDDING or not deal.any_bid or deal.bidder == deal.to_act:
        return
    if not isinstance(taken, (Bid, Pass)):
        return
    pair = counts.pairs.setdefault(deal.bidder, PairCounts())
    pair.chances += 1
    pair.stood += isinstance(taken, Pass)
    if isinstance(reference.decide(match.view(deal.to_act)), Bid):
        pair.contest += 1
        pair.yielded += isinstance(taken, Pass)


def screen(
    record: object,
    seats: Sequence[int] | None = None,
    *,
    seed: int = 0,
    samples: int = SCREEN_SAMPLES,
    decisions: int = SCREEN_DECISIONS,
    seat_samples: Mapping[int, int] | None = None,
) -> Screening:
    """Screen ``record`` for ``seats`` (default: every seat), asking the master search
    at ``samples`` worlds a decision, or at ``seat_samples[seat]`` for the seats given
    there (a larger budget for players of a high level). Raises :class:`RecordError` for
    a record that does not replay."""
    options, first_dealer, deals = read_header(record)
    wanted = set(range(options.players) if seats is None else seats)
    budgets = {s: (seat_samples or {}).get(s, samples) for s in wanted}
    out = Screening(options.players, {s: SeatCounts(s, budgets[s]) for s in sorted(wanted)})
    match = Match.empty(options, first_dealer=first_dealer)
    asked: dict[int, list[tuple[View, Action]]] = {s: [] for s in wanted}
    reference = make_bot(REFERENCE, seed=seed)
    for i, data in enumerate(deals):
        hands, talons = dealt_cards(data, options.players, i)
        assert isinstance(data, dict)
        match.start_deal(hands, talons)
        for j, item in enumerate(data.get("actions", [])):
            seat = match.to_act
            if seat is None or not isinstance(item, dict) or item.get("seat") != seat:
                raise RecordError("an action out of turn", i, j)
            legal = match.legal_actions()
            out.choices.append((seat, len(legal)))
            try:
                taken = action_from_dict(item)
            except EngineError as exc:
                raise RecordError(str(exc), i, j) from None
            if taken not in legal:
                raise RecordError("an illegal action", i, j)
            if seat in wanted and len(legal) > 1:
                counts = out.seats[seat]
                _auction(counts, match, taken, reference)
                _feed(counts, match, taken, legal, (i, j))
                deal = match.deal
                assert deal is not None
                if deal.phase not in _NOT_ASKED:
                    asked[seat].append((match.view(seat), taken))
            match.apply(taken, seat=seat)
    bots = {n: MasterBot(seed, Budget(seconds=None, samples=n)) for n in set(budgets.values())}
    for seat, chosen in asked.items():
        bot = bots[budgets[seat]]
        for view, taken in _spread(chosen, decisions):
            counts = out.seats[seat]
            best = bot.decide(view)
            counts.checked += 1
            counts.agreed += best == taken
            if best != reference.decide(view):
                counts.split += 1
                counts.split_agreed += best == taken
    return out


def _spread[T](items: list[T], n: int) -> list[T]:
    """``n`` of ``items`` spread evenly through the match (all of them if fewer)."""
    if n <= 0:
        return []
    if len(items) <= n:
        return items
    step = len(items) / n
    return [items[int(k * step)] for k in range(n)]


__all__ = [
    "REFERENCE",
    "SCREEN_DECISIONS",
    "SCREEN_SAMPLES",
    "PairCounts",
    "Screening",
    "SeatCounts",
    "screen",
]
