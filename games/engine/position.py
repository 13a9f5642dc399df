"""Positions built from what a seat knows (for bots and analysis).

A seat's :class:`~games.engine.views.View` says everything public about a deal and the
seat's own secrets; the rest — the other hands and any hidden talon — is unknown to it.
:func:`deal_from_view` builds the engine's :class:`Deal` at exactly the view's position
once a caller supplies one guess of the hidden cards (a *determinization*, as a search bot
samples them), so that the deal can be played on with the real rules.
:func:`deal_at_first_lead` builds the hypothetical position "``declarer`` has named
``contract``, these are the hands" that a bidding or giving search plays out, and
:func:`match_at_standing` the match around a view (scores, bolts, the barrel) to value a
deal's result with the steps of docs/spec.md §3.

Everything here checks its input: a guess that contradicts the view (another hand for the
seat, a wrong number of cards, a card twice or a card already played) raises
``ValueError`` rather than building a position the rules could never reach.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .cards import FULL_DECK, Card
from .deal import Deal, Phase
from .match import Match
from .options import Options, below_red_threshold
from .views import View

_PHASES = {
    "bidding": Phase.BIDDING,
    "giving": Phase.GIVING,
    "contract": Phase.CONTRACT,
    "play": Phase.PLAY,
}


def _mask(cards: Iterable[Card] | None) -> int:
    m = 0
    for c in cards or ():
        m |= c.mask
    return m


def deal_from_view(view: View, hands: Sequence[int], talons: Sequence[int] | None = None) -> Deal:
    """The deal at ``view``'s position with every seat's current cards from ``hands`` (the
    view's own hand for its seat) and the talons from ``talons`` (default: empty; needed
    before the talon is taken, and by a resting dealer's score with four players).

    Works in the phases ``bidding``, ``giving``, ``contract`` and ``play``; the deal's
    ``dealt`` hands are the current ones, so in bidding they are exact and later they
    matter to nothing the rules still ask."""
    phase = _PHASES.get(view.phase or "")
    if phase is None or view.seat is None or view.dealer is None:
        raise ValueError(f"no position to build in phase {view.phase!r} for seat {view.seat!r}")
    options = view.options
    n = options.players
    if len(hands) != n:
        raise ValueError(f"need {n} hands, got {len(hands)}")
    seat = view.seat
    played = 0
    for trick in view.played_tricks:
        played |= _mask([c for _, c in trick])
    played |= _mask([c for _, c in view.trick])
    seen = played
    for s, h in enumerate(hands):
        if h.bit_count() != view.hand_sizes[s]:
            raise ValueError(f"seat {s} holds {view.hand_sizes[s]} cards, not {h.bit_count()}")
        if h & seen:
            raise ValueError(f"seat {s}'s cards are placed twice or already played")
        seen |= h
    if view.hand is not None and hands[seat] != _mask(view.hand):
        raise ValueError("the seat's own hand differs from its view")
    talon_masks = tuple(talons) if talons is not None else ((0, 0) if n == 2 else (0,))
    if len(talon_masks) != (2 if n == 2 else 1):
        raise ValueError("wrong number of talons")
    if phase is Phase.BIDDING:
        for t in talon_masks:
            if t & seen:
                raise ValueError("a talon card is placed twice")
            seen |= t
        if seen != FULL_DECK:
            raise ValueError("in the bidding every card must be in a hand or a talon")
    deal = Deal(options=options, dealer=view.dealer, hands=list(hands), talons=talon_masks,
                golden=view.golden, sitter=view.barrel, red_limited=_red_limited(view))  # fmt: skip
    deal.phase = phase
    deal.to_act = view.to_act if view.to_act is not None else seat
    deal.bids = list(view.bids)
    # Every entry is a call except the forced opening (or the blind 120), the first (§9.1).
    opening = (
        1 if view.bids and view.bids[0][0] == deal.forced and view.bids[0][1] is not None else 0
    )
    for s, value in view.bids[opening:]:
        deal.called |= 1 << s
        if value is None:
            deal.passed |= 1 << s
        else:
            deal.any_bid = True
    deal.bid = view.bid or 0
    standing = [(s, v) for s, v in view.bids if v is not None]
    deal.bidder = standing[-1][0] if standing else -1
    deal.dark = view.dark
    # "Dark" said and then outbid leaves no trace in the view's flags, but its blind 120
    # opens the bids; dark is never allowed with anyone on the barrel (§6.1, §9.1).
    blind_opening = bool(view.bids) and view.bids[0] == (deal.forced, 120) and view.barrel is None
    deal.dark_said = view.dark or view.golden or blind_opening
    if view.declarer is not None:
        deal.declarer = view.declarer
        deal.bidder = view.declarer
        deal.dark_game = view.dark
        if phase is Phase.BIDDING:
            raise ValueError("the bidding is over once the declarer is known")
    deal.contract = view.contract or 0
    deal.talon_index = view.talon_taken if view.talon_taken is not None else -1
    deal.talon_open = (
        deal.talon_index >= 0
        and not deal.dark_game
        and (deal.bid != 100 or options.show_talon_on_100)
    )
    if phase is Phase.GIVING:
        left = deal.active_mask & ~(1 << deal.declarer)
        for to, _card in view.given_by_me:
            left &= ~(1 << to)
        deal.receivers_left = left
    for to, card in view.given_by_me:
        deal.given[to] = card.index
    if view.given_to_me is not None:
        deal.given[seat] = view.given_to_me.index
    deal.trump = "SCDH".index(view.trump) if view.trump else -1
    deal.trick = [c.index for _, c in view.trick]
    deal.trick_seats = [s for s, _ in view.trick]
    deal.tricks_played = len(view.played_tricks)
    deal.history = [tuple((s, c.index) for s, c in t) for t in view.played_tricks]
    deal.last_trick = deal.history[-1] if deal.history else ()
    deal.points = list(view.card_points)
    deal.tricks = list(view.tricks)
    deal.marriages = list(view.marriages)
    deal.played = played
    deal.leader = deal.trick_seats[0] if deal.trick_seats else deal.to_act
    return deal


def _red_limited(view: View) -> int:
    return sum(
        1 << s for s, score in enumerate(view.scores) if below_red_threshold(view.options, score)
    )


def deal_at_first_lead(
    options: Options,
    *,
    dealer: int,
    hands: Sequence[int],
    declarer: int,
    contract: int,
    dark: bool = False,
    golden: bool = False,
    sitter: int | None = None,
    talons: Sequence[int] | None = None,
) -> Deal:
    """The deal just before the first lead: ``declarer`` won the bidding at ``contract``
    (or played ``dark``), gave his cards and named ``contract``; ``hands`` are final."""
    n = options.players
    if len(hands) != n:
        raise ValueError(f"need {n} hands")
    size = 11 if n == 2 else 8
    union = 0
    for s, h in enumerate(hands):
        want = 0 if n == 4 and s == dealer else size
        if h.bit_count() != want or h & union:
            raise ValueError(f"seat {s} must hold {want} cards of its own")
        union |= h
    talon_masks = tuple(talons) if talons is not None else ((0, 0) if n == 2 else (0,))
    deal = Deal(options=options, dealer=dealer, hands=list(hands), talons=talon_masks, golden=golden,
                sitter=sitter)  # fmt: skip
    if declarer not in deal.active:
        raise ValueError(f"seat {declarer} does not play this deal")
    deal.phase = Phase.PLAY
    deal.declarer = deal.bidder = declarer
    deal.bid = deal.contract = contract
    deal.dark = deal.dark_said = deal.dark_game = dark
    deal.talon_index = 0
    deal.to_act = deal.leader = declarer
    return deal


def match_at_standing(view: View) -> Match:
    """A match standing where ``view``'s does (scores, bolts, the barrel and its attempts),
    waiting for a deal: give it a completed deal with :meth:`Match.score_deal` to see what
    the deal does to the match (docs/spec.md §3). The count of barrel falls and of golden deals
    played is not in a view: it starts at zero."""
    match = Match.empty(view.options, first_dealer=view.dealer or 0)
    match.scores = list(view.scores)
    match.bolts = list(view.bolts)
    match.sitter = view.barrel
    match.attempts = view.barrel_attempts
    match.winner = view.winner
    if view.options.deals is not None:
        # §3.7: the what-if ends the match after the N-th counted deal as the match will.
        # (Only then: the golden count, which also reads it, starts at zero here.)
        match.deals_played = view.deals_played
    return match


__all__ = ["deal_at_first_lead", "deal_from_view", "match_at_standing"]
