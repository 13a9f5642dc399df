"""What one seat knows about the cards, derived from its :class:`View` alone.

The view holds public information plus the seat's own secrets (docs/spec.md §2.3, §2.4): its
hand, a talon it may see, the card given to it or the cards it gave. From that and the
tricks played so far this module works out, as bitmasks:

- the cards whose place the seat does not know (``unseen``);
- the cards known to sit in another seat's hand (the cards it gave away, the partner of a
  declared marriage, the shown talon in the declarer's hand) and the cards known not to
  (the partner of a king or queen led without a declaration);
- the suits each seat is known to be void in (it did not follow suit, or did not trump);
- the hidden piles that are not in any hand (the talon before it is taken, the unused
  two-player talon).

Which leads declared a marriage is not in the view, only each seat's marriage total and
the current trump; :func:`_declarations` reconstructs them (and with them the trump at
every trick, which the void inference needs).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from games.engine.cards import ACES_MASK, FULL_DECK, MARRIAGE_VALUES, SUIT_MASKS
from games.engine.deal import active_seats
from games.engine.views import View

_KING = 3
_QUEEN = 2
_ACE = 5
ACE_MARRIAGE = 200


@dataclass(frozen=True, slots=True)
class Knowledge:
    seat: int
    players: int
    active: tuple[int, ...]  # seats that play this deal, clockwise from the forced bidder
    phase: str
    declarer: int  # -1 before the bidding ends
    hand: int  # my cards (0 when I play blind)
    played: int  # every card played this deal, current trick included
    sizes: tuple[int, ...]  # cards each seat holds now
    unseen: int  # cards whose place I do not know (not in `known`)
    known: tuple[int, ...]  # per seat: cards known to be in its hand (never mine)
    excluded: tuple[int, ...]  # per seat: cards known not to be in its hand
    voids: tuple[int, ...]  # per seat: 4-bit mask of suits it cannot hold
    piles: tuple[int, ...]  # sizes of hidden piles outside the hands (talons)
    # A defender after a shown talon: these talon cards are in the declarer's hand, except
    # that one of them may be the card given to `maybe_seat` (the other defender).
    maybe_talon: int
    maybe_seat: int
    maybe_odds: int  # declarer's cards the give to `maybe_seat` could have been
    # A bid over 120 needs marriages in the dealt hand (docs/spec.md §2.2): per seat, the
    # marriage total its dealt cards must reach, and the cards it no longer holds that
    # were (or may have been) among them: played, or given away by the declarer.
    marriage_floor: tuple[int, ...]
    gone_from: tuple[int, ...]
    ace_marriage: bool
    trump: int  # -1: none
    trick: tuple[int, ...]
    trick_seats: tuple[int, ...]
    tricks_played: int


def _suit(card: int) -> int:
    return card // 6


def knowledge_of(view: View) -> Knowledge:
    """Everything the view's seat can infer about where the cards are."""
    if view.seat is None:
        raise ValueError("a spectator has no hand to play")
    me = view.seat
    n = view.players
    dealer = view.dealer if view.dealer is not None else 0
    active = active_seats(n, dealer)
    declarer = view.declarer if view.declarer is not None else -1
    hand = 0
    for hc in view.hand or ():
        hand |= hc.mask
    sizes = list(view.hand_sizes)
    if view.hand is None:
        hand = 0

    # Play order of every card this deal: (trick number, seat, card).
    plays: list[tuple[int, int, int]] = []
    for t, trick in enumerate(view.played_tricks):
        for s, card in trick:
            plays.append((t, s, card.index))
    cur_t = len(view.played_tricks)
    for s, card in view.trick:
        plays.append((cur_t, s, card.index))
    played = 0
    gone_from = [0] * n
    for _, s, c in plays:
        played |= 1 << c
        gone_from[s] |= 1 << c
    floor = [0] * n
    for s, value in view.bids:
        if value is not None and value > 120 and s != me:
            floor[s] = max(floor[s], value - 120)
    if declarer >= 0 and declarer != me and view.given_to_me is not None:
        gone_from[declarer] |= view.given_to_me.mask

    known = [0] * n
    excluded = [0] * n
    # Cards I gave as declarer stay with their receiver until played.
    for to, gift in view.given_by_me:
        if not played >> gift.index & 1:
            known[to] |= gift.mask

    declared = _declarations(view, plays, me, hand, known)
    voids = [0] * n
    trump = -1
    pos = 0
    for t in range(cur_t + 1):
        trick_plays = [p for p in plays if p[0] == t]
        if not trick_plays:
            break
        for i, (_, s, c) in enumerate(trick_plays):
            if i == 0:
                led = _suit(c)
                rank = c % 6
                d = declared.get(pos)
                if d is not None and d and rank != _ACE:
                    trump = led
                    partner = c ^ 1 if rank in (_KING, _QUEEN) else c  # K=3, Q=2 differ in bit 0
                    if not played >> partner & 1 and s != me:
                        known[s] |= 1 << partner
                elif d is not None and not d and rank in (_KING, _QUEEN):
                    partner = c ^ 1
                    if not played >> partner & 1 and s != me:
                        excluded[s] |= 1 << partner
                elif d and rank == _ACE and s != me:
                    known[s] |= ACES_MASK & ~played
            else:
                if _suit(c) != led:
                    voids[s] |= 1 << led
                    if trump >= 0 and _suit(c) != trump:
                        voids[s] |= 1 << trump
            pos += 1

    # The shown talon (docs/spec.md §2.3): a defender knows these cards went to the declarer,
    # but one of them may have been given on to the other defender.
    maybe_talon = 0
    maybe_seat = -1
    maybe_odds = 0
    if (
        view.talon is not None
        and declarer >= 0
        and declarer != me
        and view.phase in ("contract", "play")
    ):
        talon = 0
        for tc in view.talon:
            talon |= tc.mask
        others = [s for s in active if s not in (me, declarer)]
        gone_to_other = False
        for _, s, c in plays:
            if talon >> c & 1 and s != declarer and s != me:
                gone_to_other = True  # the other defender played the talon card he got
        rest = talon & ~played & ~hand & ~known[declarer]
        if others and known[others[0]] & rest:
            gone_to_other = True  # he is known to hold one (a declared marriage)
            rest &= ~known[others[0]]
        if others and not gone_to_other:
            maybe_talon = rest
            maybe_seat = others[0]
            # Prior: the give was any of the declarer's 9 cards left after mine; weight 1
            # for each talon card still possible, the rest for his own cards.
            mine = 1 if view.given_to_me is not None and talon & view.given_to_me.mask else 0
            maybe_odds = 9 - (len(view.talon) - mine)
        else:
            known[declarer] |= rest

    for s in range(n):
        known[s] &= ~played & ~hand
    if 0 <= me < n:
        known[me] = 0
    placed = 0
    for m in known:
        placed |= m
    unseen = FULL_DECK & ~hand & ~played & ~placed
    if maybe_talon:
        unseen &= ~maybe_talon
    hidden = 24 - hand.bit_count() - played.bit_count() - sum(sizes[s] for s in range(n) if s != me)
    if view.hand is None:
        hidden = 24 - played.bit_count() - sum(sizes)
    piles: tuple[int, ...] = ()
    if hidden > 0:
        piles = (2, 2) if n == 2 and view.talon_taken is None and hidden == 4 else (hidden,)
    return Knowledge(
        seat=me,
        players=n,
        active=active,
        phase=view.phase or "",
        declarer=declarer,
        hand=hand,
        played=played,
        sizes=tuple(sizes),
        unseen=unseen,
        known=tuple(known),
        excluded=tuple(e & ~played for e in excluded),
        voids=tuple(voids),
        piles=piles,
        maybe_talon=maybe_talon,
        maybe_seat=maybe_seat,
        maybe_odds=max(maybe_odds, 0),
        marriage_floor=tuple(floor),
        gone_from=tuple(gone_from),
        ace_marriage=view.options.ace_marriage,
        trump="SCDH".index(view.trump) if view.trump else -1,
        trick=tuple(c.index for _, c in view.trick),
        trick_seats=tuple(s for s, _ in view.trick),
        tricks_played=cur_t,
    )


def _declarations(
    view: View, plays: list[tuple[int, int, int]], me: int, hand: int, known: list[int]
) -> dict[int, bool]:
    """Which leads (by position in ``plays``) declared a marriage (docs/spec.md §2.7).

    A lead of K or Q from the second trick on declares iff the leader held the partner.
    That is certain when the partner was played before (no), by another seat (no), later
    by the leader (yes), sits in my hand or in another known hand (no). The rest are
    settled by each seat's marriage total and the current trump."""
    ace_on = view.options.ace_marriage
    status: dict[int, bool | None] = {}
    info: dict[int, tuple[int, int, int]] = {}  # pos -> (seat, value, suit or -1)
    where: dict[int, tuple[int, int]] = {c: (i, s) for i, (_, s, c) in enumerate(plays)}
    for i, (t, s, c) in enumerate(plays):
        if t == 0 or (i > 0 and plays[i - 1][0] == t):
            continue  # not a lead, or the first trick
        rank = c % 6
        if rank in (_KING, _QUEEN):
            partners = [c ^ 1]
            value, suit = MARRIAGE_VALUES[c // 6], c // 6
        elif rank == _ACE and ace_on:
            partners = [a for a in range(5, 24, 6) if a != c]
            value, suit = ACE_MARRIAGE, -1
        else:
            continue
        info[i] = (s, value, suit)
        verdict: bool | None = True
        for p in partners:
            w = where.get(p)
            if w is not None:
                j, ps = w
                if j < i or ps != s:
                    verdict = False
                    break
                continue
            if s == me:
                if not hand >> p & 1:
                    verdict = False
                    break
                continue
            if hand >> p & 1 or any(known[o] >> p & 1 for o in range(len(known)) if o != s):
                verdict = False
                break
            if known[s] >> p & 1:
                continue
            verdict = None
        status[i] = verdict

    unknown = [i for i, v in status.items() if v is None]
    target = view.marriages
    final_trump = "SCDH".index(view.trump) if view.trump else -1
    best: dict[int, bool] = {i: bool(v) for i, v in status.items()}
    if len(unknown) > 12:
        return best
    for choice in product((False, True), repeat=len(unknown)):
        trial = dict(best)
        for i, v in zip(unknown, choice):
            trial[i] = v
        totals = [0] * view.players
        trump = -1
        for i in sorted(trial):
            if trial[i]:
                s, value, suit = info[i]
                totals[s] += value
                if suit >= 0:
                    trump = suit
        if tuple(totals) == tuple(target) and trump == final_trump:
            return trial
    return best


def suit_void_mask(voids: int) -> int:
    """Card mask of the suits in a 4-bit void mask."""
    m = 0
    for s in range(4):
        if voids >> s & 1:
            m |= SUIT_MASKS[s]
    return m


__all__ = ["Knowledge", "knowledge_of", "suit_void_mask"]
