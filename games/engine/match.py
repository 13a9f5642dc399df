"""A match: deals in order and the steps of docs/spec.md §3 after each of them.

``Match.new(options, seed=…)`` deals its own cards (a seeded ``random.Random`` for tests
and replays, the operating system's secure generator when no seed is given).
``Match.from_record(record)`` rebuilds a match from a ``thousand/1`` record (§8).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .actions import Action
from .cards import FULL_DECK
from .deal import BARREL_BID, Deal, Outcome, Phase, active_seats
from .dealing import deal_cards
from .errors import IllegalAction, MalformedRecord
from .events import (
    BarrelArrived,
    BarrelAttempt,
    BarrelFell,
    BoltPenalty,
    DealStarted,
    Event,
    GoldenReset,
    MatchFinished,
    MatchWon,
    Samosval,
)
from .options import Bolts, Options, below_red_threshold
from .record import match_to_record, play_deal, read_header
from .views import View, view_for

_COMPLETE = Phase.COMPLETE
BARREL_SCORE = 880
FALLEN_SCORE = 760  # 880 − 120
BARREL_ATTEMPTS = 3
BOLT_LIMIT = 3
BOLT_PENALTY = 120


class Ending(str, Enum):
    """How a match ended by the rules (§8's ``finished_by``): won (§3.2, §3.6) or after its
    N-th counted deal (§3.7). The service adds its own ways (time, resigned, abandoned)."""

    WON = "won"
    DEALS = "deals"


@dataclass(slots=True)
class DealResult:
    """One completed deal as §8's ``deals`` entry shows it: ``deltas`` before the steps of
    §3, ``scores``, ``bolts`` and ``barrel`` after them."""

    dealer: int
    declarer: int | None
    contract: int | None
    outcome: Outcome
    deltas: tuple[int, ...]
    scores: tuple[int, ...]
    bolts: tuple[int, ...]
    barrel: int | None
    golden: bool = False
    dark: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "dealer": self.dealer,
            "declarer": self.declarer,
            "contract": self.contract,
            "outcome": self.outcome.value,
            "deltas": list(self.deltas),
            "scores": list(self.scores),
            "bolts": list(self.bolts),
            "barrel": self.barrel,
        }


@dataclass(slots=True)
class DealLog:
    """What a match record keeps of one deal: the dealt cards and the actions."""

    hands: tuple[int, ...]
    talons: tuple[int, ...]
    actions: list[tuple[int, Action]]


class Match:
    """A match of Thousand. Read :attr:`to_act` and :meth:`legal_actions`; :meth:`apply`
    an action; :meth:`view` shows what a seat or a spectator may know."""

    __slots__ = (
        "_rng",
        "attempts",
        "bolts",
        "deal",
        "dealer",
        "deals_played",
        "falls",
        "finished_by",
        "first_dealer",
        "golden_made",
        "log",
        "options",
        "players",
        "results",
        "scores",
        "sitter",
        "winner",
    )  # fmt: skip

    def __init__(self, options: Options, first_dealer: int, rng: random.Random | None) -> None:
        n = options.players
        if not (
            isinstance(first_dealer, int)
            and not isinstance(first_dealer, bool)
            and 0 <= first_dealer < n
        ):
            raise ValueError(f"first_dealer must be a seat 0..{n - 1}")
        self.options = options
        self.players = n
        self.first_dealer = first_dealer
        self.dealer = first_dealer
        self.scores = [0] * n
        self.bolts = [0] * n
        self.sitter: int | None = None
        self.attempts = 0
        self.falls = [0] * n
        self.deals_played = 0  # completed deals, redeals not counted (golden count, §9.8)
        self.golden_made = False
        self.winner: int | None = None
        self.finished_by: Ending | None = None
        self.deal: Deal | None = None
        self.results: list[DealResult] = []
        self.log: list[DealLog] = []
        self._rng = rng

    # -- construction -----------------------------------------------------------------

    @classmethod
    def new(
        cls,
        options: Options | None = None,
        *,
        seed: int | str | None = None,
        first_dealer: int | None = None,
    ) -> Match:
        """A match that deals its own cards: reproducibly from ``seed``, else from the
        operating system's cryptographically secure generator."""
        options = options or Options()
        rng: random.Random = random.Random(seed) if seed is not None else random.SystemRandom()
        if first_dealer is None:
            first_dealer = rng.randrange(options.players)
        match = cls(options, first_dealer, rng)
        match._deal_from_rng()
        return match

    @classmethod
    def empty(cls, options: Options | None = None, *, first_dealer: int = 0) -> Match:
        """A match whose cards come from outside, deal by deal, through :meth:`start_deal`."""
        return cls(options or Options(), first_dealer, None)

    @classmethod
    def from_record(cls, record: object) -> Match:
        """Rebuild a match from a ``thousand/1`` record (§8). Raises
        :class:`~games.engine.record.RecordError` with the position of the fault.

        Where §8 is silent: ``first_dealer`` is required (only ``options`` and ``actions``
        have defaults) and ``"options": null`` is not an object; a non-last deal that is
        not complete is reported at that deal (``action`` null), before the next deal is
        read."""
        options, first_dealer, deals = read_header(record)
        match = cls.empty(options, first_dealer=first_dealer)
        for i, data in enumerate(deals):
            play_deal(match, data, i)
        return match

    def to_record(self) -> dict[str, Any]:
        return match_to_record(self)

    def copy(self) -> Match:
        other = Match.__new__(Match)
        other.options = self.options
        other.players = self.players
        other.first_dealer = self.first_dealer
        other.dealer = self.dealer
        other.scores = self.scores[:]
        other.bolts = self.bolts[:]
        other.sitter = self.sitter
        other.attempts = self.attempts
        other.falls = self.falls[:]
        other.deals_played = self.deals_played
        other.golden_made = self.golden_made
        other.winner = self.winner
        other.finished_by = self.finished_by
        other.deal = self.deal.copy() if self.deal is not None else None
        other.results = self.results[:]
        other.log = [DealLog(d.hands, d.talons, d.actions[:]) for d in self.log]
        other._rng = None
        return other

    # -- queries ----------------------------------------------------------------------

    @property
    def to_act(self) -> int | None:
        """The seat to act, or ``None`` between deals and after the match is won."""
        deal = self.deal
        if deal is None or deal.phase == Phase.COMPLETE or self.finished_by is not None:
            return None
        return deal.to_act

    @property
    def phase(self) -> Phase | None:
        return self.deal.phase if self.deal is not None else None

    @property
    def over(self) -> bool:
        """Won, or finished after its N-th counted deal (§3.7)."""
        return self.finished_by is not None

    @property
    def awaiting_deal(self) -> bool:
        """True when the next deal's cards must be given with :meth:`start_deal`."""
        return self.finished_by is None and (self.deal is None or self.deal.phase == Phase.COMPLETE)

    @property
    def placements(self) -> list[int] | None:
        """Places by seat once the match is over (§8): 1 for the winner, or for every seat
        sharing the highest score of a match finished by deals (§3.7); the others by
        score, equal scores sharing a place. ``None`` while the match goes on."""
        if self.finished_by is None:
            return None
        return places(self.scores, self.winner)

    def legal_actions(self) -> Sequence[Action]:
        """Every action the seat to act may take now (empty when nobody is to act)."""
        deal = self.deal
        if deal is None or deal.phase is _COMPLETE or self.finished_by is not None:
            return ()
        return deal.legal_actions()

    def is_golden_deal(self) -> bool:
        return self.options.golden and self.deals_played < self.players

    def view(self, seat: int | None) -> View:
        """What ``seat`` may know (``None``: a spectator). See ``views.py``."""
        return view_for(self, seat)

    # -- moving the match forward -----------------------------------------------------

    def apply(self, action: Action, *, seat: int | None = None) -> Sequence[Event]:
        """Apply ``action`` for the seat to act (``seat``, if given, must be that seat).
        Returns the events it caused; raises and changes nothing when it is not allowed."""
        deal = self.deal
        if deal is None or deal.phase is _COMPLETE or self.finished_by is not None:
            raise IllegalAction(
                "the match is over" if self.finished_by is not None else "no deal is in progress"
            )
        actor = deal.to_act
        dealt = deal.apply(action, seat)
        self.log[-1].actions.append((actor, action))
        if deal.phase is not _COMPLETE:
            return dealt
        events = list(dealt)
        self._finish_deal(deal, events)
        if self._rng is not None and self.finished_by is None:
            self._deal_from_rng(events)
        return events

    def start_deal(self, hands: list[int], talons: tuple[int, ...]) -> list[Event]:
        """Start the next deal with the given cards (as bitmasks). Validates the layout:
        every card once, 7 cards a hand and a talon of 3 (four players: the dealer's hand
        empty), or 10 a hand and two talons of 2 with two players (§2.1, §4, §5)."""
        if not self.awaiting_deal:
            raise IllegalAction(
                "a deal is in progress" if self.finished_by is None else "the match is over"
            )
        n = self.players
        if len(hands) != n:
            raise MalformedRecord(f"need {n} hands")
        hand_size, talon_sizes = (10, (2, 2)) if n == 2 else (7, (3,))
        for seat, hand in enumerate(hands):
            want = 0 if n == 4 and seat == self.dealer else hand_size
            if hand.bit_count() != want:
                raise MalformedRecord(f"seat {seat} must be dealt {want} cards")
        if len(talons) != len(talon_sizes) or any(
            t.bit_count() != s for t, s in zip(talons, talon_sizes)
        ):
            raise MalformedRecord("wrong talon size")
        union = 0
        total = 0
        for m in (*hands, *talons):
            union |= m
            total += m.bit_count()
        if union != FULL_DECK or total != 24:
            raise MalformedRecord("every card must be dealt exactly once")
        return self._start(list(hands), tuple(talons))

    def _deal_from_rng(self, events: list[Event] | None = None) -> None:
        assert self._rng is not None
        hands, talons = deal_cards(self._rng, self.players, self.dealer)
        started = self._start(hands, talons)
        if events is not None:
            events.extend(started)

    def _start(self, hands: list[int], talons: tuple[int, ...]) -> list[Event]:
        opts = self.options
        n = self.players
        golden = self.is_golden_deal()
        forced = active_seats(n, self.dealer)[0]
        # §6.1, §9.8: dark is asked only when allowed at the start of the deal. Under
        # boards_from_zero every deal starts from 0:0:0 (§3.8): the sums never bar it, and
        # nobody sits on the barrel (the sitter stays None).
        pure = opts.boards_from_zero
        dark_allowed = (
            opts.dark and not golden and (pure or self.scores[forced] >= 0) and self.sitter is None
        )
        red = 0
        for s in range(n):
            if below_red_threshold(opts, self.scores[s]):
                red |= 1 << s
        deal = Deal(options=opts, dealer=self.dealer, hands=hands, talons=talons, golden=golden,
                    sitter=self.sitter, red_limited=red)  # fmt: skip
        self.deal = deal
        self.log.append(DealLog(tuple(hands), talons, []))
        events: list[Event] = [DealStarted(len(self.log) - 1, self.dealer, golden)]
        events.extend(deal.start(dark_allowed))
        return events

    # -- §3: the match steps after a deal ---------------------------------------------

    def score_deal(self, deal: Deal) -> list[Event]:
        """Apply the steps of §3 for a completed ``deal`` played outside this match (a
        bot's what-if: see ``position.match_at_standing``). The deal is not logged."""
        if deal.phase is not _COMPLETE:
            raise IllegalAction("the deal is not complete")
        if self.finished_by is not None:
            raise IllegalAction("the match is over")
        events: list[Event] = []
        self._finish_deal(deal, events)
        return events

    def _finish_deal(self, deal: Deal, events: list[Event]) -> None:
        n = self.players
        if deal.outcome is Outcome.REDEAL:
            # A redeal scores nothing and the same dealer deals again (§2.9).
            self._record(
                deal, declarer=deal.declarer if deal.declarer >= 0 else None, contract=None
            )
            return
        opts = self.options
        scores = self.scores
        golden = deal.golden
        self.deals_played += 1
        if golden and deal.outcome is Outcome.MADE:
            self.golden_made = True
        began_on_barrel = self.sitter
        if opts.boards_from_zero:
            self._finish_board(deal, events)
            return

        # Step 1: deal deltas for everyone but the sitter, who scores nothing from a deal
        # unless he wins the match with it (step 2).
        sitter = self.sitter
        for s in range(n):
            if s != sitter:
                scores[s] += deal.deltas[s]
        # Step 2: the barrel. A deal in which the sitter rests uses no attempt (§9.4).
        if sitter is not None and sitter != deal.resting:
            # A sitter who makes a golden contract (golden deals are golden whatever the
            # barrel state, §9.8) wins with 880 + 120: C is the contract, not the doubled
            # delta.
            if sitter == deal.declarer and deal.outcome is Outcome.MADE:
                scores[sitter] = BARREL_SCORE + deal.contract
                self.winner = sitter
                self.finished_by = Ending.WON
                events.append(MatchWon(sitter, scores[sitter]))
                self._record(deal)  # §9.3: steps 3–5 are not applied
                return
            self.attempts += 1
            events.append(BarrelAttempt(sitter, self.attempts))
            if self.attempts >= BARREL_ATTEMPTS:
                self._fall(sitter, "attempts", events)

        # Step 3: bolts.
        if opts.bolts is not Bolts.OFF:
            for s in range(n):
                gain = deal.bolts[s]
                if not gain or (opts.bolts is Bolts.NOT_ON_BARREL and s == began_on_barrel):
                    continue  # §9.5: exempt for every deal begun on the barrel
                self.bolts[s] += gain
                if self.bolts[s] >= BOLT_LIMIT:
                    self.bolts[s] = 0
                    if s == self.sitter:
                        self._fall(s, "bolts", events)
                    else:
                        scores[s] -= BOLT_PENALTY
                        events.append(BoltPenalty(s, scores[s]))

        # Step 4: arrivals at 880.
        if opts.barrel:
            arrivals = [s for s in range(n) if s != self.sitter and scores[s] >= BARREL_SCORE]
            if len(arrivals) == 1:
                seat = arrivals[0]
                if self.sitter is not None:
                    self._fall(self.sitter, "displaced", events)
                scores[seat] = BARREL_SCORE
                self.sitter = seat
                self.attempts = 0
                events.append(BarrelArrived(seat))
            else:
                # §9.6: simultaneous arrivals go to 760; it is not a fall.
                for seat in arrivals:
                    scores[seat] = FALLEN_SCORE
                    events.append(BarrelFell(seat, "simultaneous", FALLEN_SCORE))

        # Step 5: samosval.
        if opts.samosval:
            for s in range(n):
                if scores[s] == 555 or scores[s] == -555:
                    events.append(Samosval(s, scores[s]))
                    scores[s] = 0

        # Step 6: without the barrel, the first to reach the target wins (§9.10).
        if not opts.barrel:
            reached = [s for s in range(n) if scores[s] >= opts.target]
            winner: int | None = None
            if len(reached) == 1:
                winner = reached[0]
            elif reached:
                if deal.declarer in reached:
                    winner = deal.declarer
                else:
                    top = max(scores[s] for s in reached)
                    tops = [s for s in reached if scores[s] == top]
                    if len(tops) == 1:
                        winner = tops[0]
            if winner is not None:
                self.winner = winner
                self.finished_by = Ending.WON
                events.append(MatchWon(winner, scores[winner]))

        # §6.2, §9.8: after the n-th golden deal with no golden contract made, reset.
        # "The barrel" includes the count of falls (§3 reset_after_third_barrel): the
        # match starts again as new.
        if golden and self.deals_played == n and not self.golden_made and self.winner is None:
            self.scores = [0] * n
            self.bolts = [0] * n
            self.sitter = None
            self.attempts = 0
            self.falls = [0] * n
            events.append(GoldenReset())

        self._end_by_deals(events)
        self._record(deal)

    def _finish_board(self, deal: Deal, events: list[Event]) -> None:
        """§3.8: a counted deal played from 0:0:0 adds its deltas to the sums and nothing
        else happens (no barrel, bolts, samosval or target); nothing is carried, so the
        bolts stay 0 and nobody sits. The golden count goes on (§9.13), without a reset."""
        scores = self.scores
        for s in range(self.players):
            scores[s] += deal.deltas[s]
        self._end_by_deals(events)
        self._record(deal)

    def _end_by_deals(self, events: list[Event]) -> None:
        """§3.7: after every step of the N-th counted deal, a match not won ends by deals."""
        deals = self.options.deals
        if deals is not None and self.winner is None and self.deals_played >= deals:
            top = max(self.scores)
            tops = [s for s in range(self.players) if self.scores[s] == top]
            self.winner = tops[0] if len(tops) == 1 else None
            self.finished_by = Ending.DEALS
            events.append(MatchFinished(self.winner, self.deals_played))

    def _fall(self, seat: int, reason: str, events: list[Event]) -> None:
        """The sitter falls off the barrel: −120, to 760; the third fall in the match goes
        to 0 instead with ``reset_after_third_barrel`` (§3, §9.6)."""
        self.falls[seat] += 1
        if self.options.reset_after_third_barrel and self.falls[seat] == 3:
            self.scores[seat] = 0
        else:
            self.scores[seat] = FALLEN_SCORE
        self.sitter = None
        self.attempts = 0
        events.append(BarrelFell(seat, reason, self.scores[seat]))

    def _record(self, deal: Deal, **override: Any) -> None:
        declarer = override.get("declarer", deal.declarer)
        contract = override.get("contract", deal.contract if deal.contract else deal.bid)
        self.results.append(
            DealResult(
                dealer=deal.dealer,
                declarer=declarer,
                contract=contract,
                outcome=deal.outcome or Outcome.REDEAL,
                deltas=tuple(deal.deltas),
                scores=tuple(self.scores),
                bolts=tuple(self.bolts),
                barrel=self.sitter,
                golden=deal.golden,
                dark=deal.dark_game,
            )
        )
        if deal.outcome is not Outcome.REDEAL:
            self.dealer = (self.dealer + 1) % self.players


def places(
    scores: Sequence[int], winner: int | None = None, *, last: Collection[int] = ()
) -> list[int]:
    """Places by seat (1 best): ``winner`` first, the rest by score, highest first, equal
    scores sharing a place and the next place skipping them (300, 300, 100 → 1, 1, 3).
    The seats in ``last`` (the service's: players who resigned) come after everyone
    else, ordered among themselves the same way."""

    def key(seat: int) -> tuple[int, int, int]:
        return (1 if seat in last else 0, 0 if seat == winner else 1, -scores[seat])

    keys = [key(s) for s in range(len(scores))]
    return [1 + sum(other < mine for other in keys) for mine in keys]


__all__ = ["BARREL_BID", "DealResult", "Ending", "Match", "places"]
