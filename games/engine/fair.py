"""Provably fair dealing: the deck of a dealing from a committed server seed and the
players' own seeds, and the check of a match record against them.

The specification is ``docs/fair-dealing.md``; this module is its reference. In short::

    server_seed = new_server_seed()              # 32 secret bytes, fresh for each dealing
    commitment(server_seed)                      # SHA-256, published before the deal
    hands, talons = deal_from_seeds(server_seed, {0: "…", 2: "…"}, players=3, dealer=0)
    match.start_deal(hands, talons)              # the engine takes the card masks
    verify_record(record)                        # after the deals: one DealCheck per deal

    deck_seed = SHA-256("thousand/deck/1" ‖ server_seed ‖ for each seat that gave a seed,
                        in seat order: seat (1 byte) ‖ SHA-256(UTF-8 of its seed))
    stream    = SHA-256(deck_seed ‖ 0) ‖ SHA-256(deck_seed ‖ 1) ‖ …   (4-byte big-endian
                counters), read as 32-bit big-endian words
    deck      = the 24 cards in index order (9S JS QS KS TS AS 9C … AH); for i = 23 … 1:
                j = next word u with u < 2³² − 2³² mod (i+1), taken mod (i+1); swap i, j
    deal      = the deck from position 0: each hand in seat order, then the talon(s)

Nothing here is imported by ``games.engine`` itself: use ``from games.engine import fair``.
"""

from __future__ import annotations

import hashlib
import secrets
import struct
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .cards import CARDS, Card, mask_cards
from .deal import Phase
from .dealing import deal_in_order
from .errors import InvalidSeed
from .match import Match
from .record import RecordError, dealt_cards, play_deal, read_header

DOMAIN = b"thousand/deck/1"
"""Prefix of the deck seed's hash input: the deck seed is never the commitment."""
SERVER_SEED_BYTES = 32
CLIENT_SEED_MAX = 128
"""A client seed is 1 to this many characters (Unicode code points)."""
DECK_SIZE = 24
DUPLICATE_DOMAIN = b"thousand/duplicate/1"
"""Prefix of a duplicate round's dealing seeds (docs/fair-dealing.md, "Duplicate rounds")."""
_WORDS = struct.Struct(">8I")
_INDEX = struct.Struct(">I")
_HEX = frozenset("0123456789abcdefABCDEF")

__all__ = [
    "CLIENT_SEED_MAX",
    "DOMAIN",
    "SERVER_SEED_BYTES",
    "CardDifference",
    "DealCheck",
    "InvalidSeed",
    "Verdict",
    "check_deal",
    "commitment",
    "deal_from_seeds",
    "dealing_entry",
    "deck_order",
    "deck_seed",
    "duplicate_deal",
    "duplicate_server_seed",
    "new_server_seed",
    "seed_words",
    "shuffled_deck",
    "uniform_below",
    "validate_client_seed",
    "verify_record",
]


# -- seeds ------------------------------------------------------------------------------


def new_server_seed() -> bytes:
    """A fresh 32-byte server seed from the operating system's secure generator. Use one
    per dealing (redeals included) and keep it secret until the deal ends."""
    return secrets.token_bytes(SERVER_SEED_BYTES)


def _server_seed(server_seed: object) -> bytes:
    if not isinstance(server_seed, bytes) or len(server_seed) != SERVER_SEED_BYTES:
        raise InvalidSeed(f"a server seed is exactly {SERVER_SEED_BYTES} bytes")
    return server_seed


def commitment(server_seed: bytes) -> str:
    """SHA-256 of the server seed as 64 lower-case hex digits: published before the deal."""
    return hashlib.sha256(_server_seed(server_seed)).hexdigest()


def validate_client_seed(text: object) -> str:
    """Return ``text`` unchanged if it is a valid client seed, else raise :class:`InvalidSeed`.

    A client seed is a string of 1 to 128 Unicode code points, none of them a control
    character (U+0000–U+001F, U+007F–U+009F) or a surrogate (U+D800–U+DFFF, which has no
    UTF-8 form). It is used exactly as given: no trimming, no case folding, no Unicode
    normalisation. We recommend 32 random bytes written as 64 hex digits."""
    if not isinstance(text, str):
        raise InvalidSeed("a client seed must be a string")
    if not 1 <= len(text) <= CLIENT_SEED_MAX:
        raise InvalidSeed(f"a client seed must be 1 to {CLIENT_SEED_MAX} characters long")
    for ch in text:
        code = ord(ch)
        if code < 0x20 or 0x7F <= code <= 0x9F:
            raise InvalidSeed(f"a client seed must not contain control characters (U+{code:04X})")
        if 0xD800 <= code <= 0xDFFF:
            raise InvalidSeed(f"a client seed must not contain a lone surrogate (U+{code:04X})")
    return text


def deck_seed(server_seed: bytes, client_seeds: Mapping[int, str]) -> bytes:
    """``SHA-256(DOMAIN ‖ server_seed ‖ seat ‖ SHA-256(utf8(seed)) ‖ …)`` over the seats
    that gave a seed, in increasing seat order; each seat is one byte (0–255)."""
    h = hashlib.sha256(DOMAIN)
    h.update(_server_seed(server_seed))
    for seat in sorted(_seat(s) for s in client_seeds):
        h.update(bytes((seat,)))
        h.update(hashlib.sha256(validate_client_seed(client_seeds[seat]).encode("utf-8")).digest())
    return h.digest()


def duplicate_server_seed(round_seed: bytes, entrant_seeds: Mapping[int, str], index: int) -> bytes:
    """The server seed of dealing ``index`` (0, 1, …) of a duplicate round's one sequence:
    ``SHA-256(DUPLICATE_DOMAIN ‖ round_seed ‖ for each entrant that gave a seed, in
    increasing entrant number: number (4 bytes) ‖ SHA-256(UTF-8 of its seed) ‖ index
    (4 bytes))``, numbers big-endian. Every table of the round deals its ``index``-th
    dealing from it, with no client seeds; the round commits to ``round_seed``."""
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < 2**32:
        raise InvalidSeed(f"a dealing index must be an integer 0..2³²−1, not {index!r}")
    h = hashlib.sha256(DUPLICATE_DOMAIN)
    h.update(_server_seed(round_seed))
    for number in sorted(_entrant(n) for n in entrant_seeds):
        h.update(_INDEX.pack(number))
        h.update(
            hashlib.sha256(validate_client_seed(entrant_seeds[number]).encode("utf-8")).digest()
        )
    h.update(_INDEX.pack(index))
    return h.digest()


def _entrant(number: object) -> int:
    if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number < 2**32:
        raise InvalidSeed(f"an entrant's number must be an integer 0..2³²−1, not {number!r}")
    return number


def _seat(seat: object) -> int:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 255:
        raise InvalidSeed(f"a client seed's seat must be an integer 0..255, not {seat!r}")
    return seat


# -- the shuffle ------------------------------------------------------------------------


def seed_words(deck_seed: bytes) -> Iterator[int]:
    """The endless stream of 32-bit words: block ``b`` is ``SHA-256(deck_seed ‖ b)`` with
    ``b`` as 4 big-endian bytes, and each block gives its 8 words, big-endian, in order."""
    block = 0
    while True:
        yield from _WORDS.unpack(hashlib.sha256(deck_seed + block.to_bytes(4, "big")).digest())
        block += 1


def uniform_below(bound: int, words: Iterator[int]) -> int:
    """A number uniform in ``0 .. bound-1`` from a stream of 32-bit words: the first word
    ``u`` below ``2³² − 2³² mod bound`` (the largest multiple of ``bound`` that fits), taken
    ``mod bound``. Words at or above that limit are rejected, so no value is favoured."""
    if not 1 <= bound <= 1 << 32:
        raise ValueError("bound must be 1..2**32")
    limit = (1 << 32) - (1 << 32) % bound
    for u in words:
        if u < limit:
            return u % bound
    raise ValueError("the word stream ended")


def deck_order(words: Iterable[int]) -> list[int]:
    """Fisher–Yates from the last position down over the canonical deck (card index
    ``p`` at position ``p``): for ``i`` = 23 … 1 swap positions ``i`` and
    ``uniform_below(i + 1)``. Returns card indices, position 0 first."""
    stream = iter(words)
    deck = list(range(DECK_SIZE))
    for i in range(DECK_SIZE - 1, 0, -1):
        j = uniform_below(i + 1, stream)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def shuffled_deck(deck_seed: bytes) -> list[Card]:
    """The shuffled deck of a deck seed, position 0 (dealt first) first."""
    return [CARDS[i] for i in deck_order(seed_words(deck_seed))]


def deal_from_seeds(
    server_seed: bytes, client_seeds: Mapping[int, str], players: int, dealer: int
) -> tuple[list[int], tuple[int, ...]]:
    """The hands (card masks in seat order; four players: the dealer's is empty) and the
    talons (two with two players) dealt from the seeds, ready for ``Match.start_deal``.
    Raises :class:`InvalidSeed` for a bad seed or a client seed's seat not at the table."""
    if players not in (2, 3, 4):
        raise ValueError("players must be 2, 3 or 4")
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < players:
        raise ValueError(f"dealer must be a seat 0..{players - 1}")
    for seat in client_seeds:
        if _seat(seat) >= players:
            raise InvalidSeed(f"seat {seat} is not at a table of {players}")
    order = deck_order(seed_words(deck_seed(server_seed, client_seeds)))
    return deal_in_order(order, players, dealer)


def duplicate_deal(
    server_seed: bytes, players: int, dealer: int
) -> tuple[list[int], tuple[int, ...]]:
    """A duplicate dealing's cards: dealt as :func:`deal_from_seeds` deals with seat 0 as
    the dealer and no client seeds, then turned round the table so that the dealer gets
    seat 0's cards, the seat left of him seat 1's, and so on. Every table then gives the
    same cards to the same position from the dealer, whatever its seat numbers."""
    hands, talons = deal_from_seeds(server_seed, {}, players, 0)
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < players:
        raise ValueError(f"dealer must be a seat 0..{players - 1}")
    return [hands[(seat - dealer) % players] for seat in range(players)], talons


def dealing_entry(
    server_seed: bytes | None, client_seeds: Mapping[int, str], *, commitment_hex: str | None = None
) -> dict[str, Any]:
    """The ``"dealing"`` object a record's deal carries. ``server_seed`` ``None`` (not
    revealed yet) needs ``commitment_hex``; else the commitment is computed."""
    if server_seed is None:
        if commitment_hex is None:
            raise ValueError("an unrevealed dealing needs its commitment")
        found = commitment_hex
    else:
        found = commitment(server_seed)
    entry: dict[str, Any] = {
        "commitment": found,
        "server_seed": None if server_seed is None else server_seed.hex(),
        "client_seeds": {
            str(_seat(s)): validate_client_seed(client_seeds[s]) for s in sorted(client_seeds)
        },
    }
    return entry


# -- checking a record ------------------------------------------------------------------


class Verdict(str, Enum):
    """How one deal of a record came out of the check."""

    VERIFIED = "verified"  # the seeds give exactly the dealt cards
    FAILED = "failed"  # commitment, seeds or cards do not agree, or data is missing
    NOT_REVEALED = "not_revealed"  # the unfinished last deal: its seed is still secret
    NOT_CHECKED = "not_checked"  # after a failed deal the record no longer replays


@dataclass(frozen=True, slots=True)
class CardDifference:
    """Where a record's dealt cards differ from the seeds': ``place`` is ``"seat 1's hand"``,
    ``"the talon"``, or ``"talon 0"``/``"talon 1"`` (two players, as the record numbers them)."""

    place: str
    extra: tuple[str, ...]  # in the record there, not dealt there by the seeds
    missing: tuple[str, ...]  # dealt there by the seeds, not in the record there

    def to_dict(self) -> dict[str, Any]:
        return {"place": self.place, "extra": list(self.extra), "missing": list(self.missing)}

    def __str__(self) -> str:
        where = self.place
        if self.extra and self.missing:
            return f"{where} has {_names(self.extra)} where the seeds deal {_names(self.missing)}"
        if self.extra:
            return f"{where} has {_names(self.extra)}, which the seeds do not deal there"
        return f"{where} lacks {_names(self.missing)}, which the seeds deal there"


def _names(cards: tuple[str, ...]) -> str:
    return " ".join(cards)


@dataclass(frozen=True, slots=True)
class DealCheck:
    """The check of deal ``deal`` (0-based index in the record)."""

    deal: int
    verdict: Verdict
    reason: str | None = None
    dealer: int | None = None
    differences: tuple[CardDifference, ...] = ()

    @property
    def ok(self) -> bool | None:
        """True when verified, False when failed, None when not (yet) checkable."""
        if self.verdict is Verdict.VERIFIED:
            return True
        if self.verdict is Verdict.FAILED:
            return False
        return None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "deal": self.deal,
            "ok": self.ok,
            "status": self.verdict.value,
            "dealer": self.dealer,
            "reason": self.reason,
        }
        if self.differences:
            out["differences"] = [d.to_dict() for d in self.differences]
        return out


NOT_REVEALED_YET = "not revealed yet"


def verify_record(record: object) -> list[DealCheck]:
    """Check every deal of a ``thousand/1`` record against its ``"dealing"`` data.

    Each deal's dealer comes from replaying the record with the engine. A deal fails when
    its fair-dealing data is missing or malformed, SHA-256 of the server seed is not the
    commitment, or the dealt cards differ from the seeds' (the differences say where). The
    unfinished last deal without a server seed is ``NOT_REVEALED``. When a failed deal
    also breaks the replay, the deals after it are ``NOT_CHECKED``.

    Raises :class:`RecordError` for a record that cannot be read, or that does not
    replay although every deal up to the fault verified (then the fault is not the deal)."""
    options, first_dealer, deals = read_header(record)
    n = options.players
    match = Match.empty(options, first_dealer=first_dealer)
    checks: list[DealCheck] = []
    broken: RecordError | None = None
    for i, data in enumerate(deals):
        if broken is not None:
            reason = (
                f"not checked: the record does not replay past deal {broken.deal} ({broken.reason})"
            )
            checks.append(DealCheck(i, Verdict.NOT_CHECKED, reason))
            continue
        hands, talons = dealt_cards(data, n, i)
        assert isinstance(data, dict)
        dealer = match.dealer
        try:
            play_deal(match, data, i)
        except RecordError as exc:
            broken = exc
        complete = i < len(deals) - 1 or (
            broken is None and match.deal is not None and match.deal.phase == Phase.COMPLETE
        )
        check = check_deal(
            data.get("dealing"),
            players=n,
            dealer=dealer,
            hands=hands,
            talons=talons,
            complete=complete,
            deal=i,
        )
        checks.append(check)
        if broken is not None and all(c.verdict is not Verdict.FAILED for c in checks):
            raise broken
    return checks


def check_deal(
    dealing: object,
    *,
    players: int,
    dealer: int,
    hands: Sequence[int],
    talons: Sequence[int],
    complete: bool = True,
    deal: int = 0,
) -> DealCheck:
    """Check one dealing: ``dealing`` is a record deal's ``"dealing"`` object (``None``
    when it has none), ``hands`` and ``talons`` the dealt card masks, ``complete`` whether
    the deal has ended (only then must the server seed be revealed)."""
    i = deal

    def failed(reason: str, differences: tuple[CardDifference, ...] = ()) -> DealCheck:
        return DealCheck(i, Verdict.FAILED, reason, dealer, differences)

    if dealing is None:
        return failed("no fair-dealing data: the deal has no 'dealing' object")
    if not isinstance(dealing, dict):
        return failed("'dealing' must be an object")
    committed = dealing.get("commitment")
    if not _is_hex(committed, 32):
        return failed("'commitment' must be 64 hex digits")
    assert isinstance(committed, str)
    revealed = dealing.get("server_seed")
    duplicate = dealing.get("duplicate")
    if revealed is None:
        # A duplicate round reveals its seeds only when every table has played (§ Duplicate).
        if complete and duplicate is None:
            return failed("the server seed is missing, though the deal is complete")
        return DealCheck(i, Verdict.NOT_REVEALED, NOT_REVEALED_YET, dealer)
    if not _is_hex(revealed, SERVER_SEED_BYTES):
        return failed(f"'server_seed' must be {2 * SERVER_SEED_BYTES} hex digits")
    assert isinstance(revealed, str)
    server_seed = bytes.fromhex(revealed)
    client_seeds: dict[int, str] = {}
    given = dealing.get("client_seeds")
    if given is not None:
        if not isinstance(given, dict):
            return failed("'client_seeds' must be an object")
        for key, seed in given.items():
            if key not in _SEAT_KEYS[:players]:
                return failed(f"client seed key {key!r} is not a seat 0..{players - 1}")
            try:
                client_seeds[int(key)] = validate_client_seed(seed)
            except InvalidSeed as exc:
                return failed(f"seat {key}'s client seed: {exc}")
    actual = commitment(server_seed)
    if actual != committed.lower():
        return failed(f"SHA-256 of the server seed is {actual}, not the commitment {committed}")
    if duplicate is not None:
        problem = _duplicate_problem(duplicate, server_seed, client_seeds)
        if problem is not None:
            return failed(problem)
        want_hands, want_talons = duplicate_deal(server_seed, players, dealer)
    else:
        want_hands, want_talons = deal_from_seeds(server_seed, client_seeds, players, dealer)
    if len(hands) != players:
        return failed(f"'hands' must list {players} hands")
    if len(talons) != len(want_talons):
        return failed(f"need {len(want_talons)} talon(s)")
    differences = _differences(players, (*hands, *talons), (*want_hands, *want_talons))
    if differences:
        reason = "the dealt cards differ from the seeds': " + "; ".join(map(str, differences))
        return failed(reason, differences)
    return DealCheck(i, Verdict.VERIFIED, None, dealer)


_SEAT_KEYS = ("0", "1", "2", "3")


def _duplicate_problem(
    duplicate: object, server_seed: bytes, client_seeds: Mapping[int, str]
) -> str | None:
    """Why a duplicate dealing's seed is not its round's ``index``-th (None: it is): the
    round seed must hash to the round's commitment and, with the entrants' seeds, give
    the deal's server seed; a duplicate dealing takes no client seeds."""
    if not isinstance(duplicate, dict):
        return "'duplicate' must be an object"
    round_commitment = duplicate.get("round_commitment")
    round_seed = duplicate.get("round_seed")
    index = duplicate.get("index")
    if not _is_hex(round_commitment, 32):
        return "'round_commitment' must be 64 hex digits"
    if not _is_hex(round_seed, SERVER_SEED_BYTES):
        return f"'round_seed' must be {2 * SERVER_SEED_BYTES} hex digits"
    if not isinstance(index, int) or isinstance(index, bool) or index < 0:
        return "'index' must be the dealing's place in the round's sequence (0, 1, …)"
    assert isinstance(round_commitment, str) and isinstance(round_seed, str)
    seed = bytes.fromhex(round_seed)
    if commitment(seed) != round_commitment.lower():
        return f"SHA-256 of the round seed is {commitment(seed)}, not the round's commitment"
    if client_seeds:
        return "a duplicate dealing takes no client seeds"
    given = duplicate.get("entrant_seeds") or {}
    if not isinstance(given, dict) or not all(isinstance(k, str) and k.isdigit() for k in given):
        return "'entrant_seeds' must map entrant numbers to seeds"
    try:
        want = duplicate_server_seed(seed, {int(k): v for k, v in given.items()}, index)
    except InvalidSeed as exc:
        return f"an entrant's seed: {exc}"
    if want != server_seed:
        return f"the server seed is not dealing {index} of the round's sequence"
    return None


def _is_hex(value: object, size: int) -> bool:
    return isinstance(value, str) and len(value) == 2 * size and all(c in _HEX for c in value)


def _differences(
    players: int, recorded: Sequence[int], wanted: Sequence[int]
) -> tuple[CardDifference, ...]:
    out = []
    for k, (have, want) in enumerate(zip(recorded, wanted)):
        if have == want:
            continue
        if k < players:
            place = f"seat {k}'s hand"
        elif players == 2:
            place = f"talon {k - players}"
        else:
            place = "the talon"
        extra = tuple(str(c) for c in mask_cards(have & ~want))
        missing = tuple(str(c) for c in mask_cards(want & ~have))
        out.append(CardDifference(place, extra, missing))
    return tuple(out)
