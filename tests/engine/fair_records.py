"""What the fair-dealing tests share: match records dealt from seeds, played by random
legal actions, each deal carrying its ``"dealing"`` object (docs/fair-dealing.md)."""

from __future__ import annotations

import copy
import hashlib
import random
from typing import Any

from games.engine import Match, Options, Redeal
from games.engine.fair import deal_from_seeds, dealing_entry


def server_seed_for(label: str, k: int) -> bytes:
    """A fixed 32-byte server seed per label and dealing, so records are repeatable."""
    return hashlib.sha256(f"{label}/{k}".encode()).digest()


def client_seeds_for(label: str, k: int, players: int) -> dict[int, str]:
    """Seeds from some seats, none from others (varies with ``k``); one is not ASCII."""
    seeds: dict[int, str] = {}
    for seat in range(players):
        kind = (k + seat) % 3
        if kind == 1:
            seeds[seat] = hashlib.sha256(f"{label}/{k}/{seat}".encode()).hexdigest()
        elif kind == 2:
            seeds[seat] = f"seat {seat} says привіт {k}"
    return seeds


def seeded_record(
    players: int,
    *,
    deals: int,
    first_dealer: int = 0,
    seed: int = 1,
    unfinished: bool = False,
    prefer_redeal: bool = False,
) -> dict[str, Any]:
    """A ``thousand/1`` record of ``deals`` dealings (redeals count), each dealt from its
    seeds with the dealer the engine names, played to the end by random legal actions.
    With ``unfinished`` one more dealing is started, a few actions in, its seed unrevealed."""
    rng = random.Random(seed)
    label = f"record/{players}/{seed}"
    match = Match.empty(Options(players=players), first_dealer=first_dealer)
    entries: list[dict[str, Any]] = []
    total = deals + (1 if unfinished else 0)
    while True:
        if match.awaiting_deal:
            if len(entries) == total or match.over:
                break
            k = len(entries)
            server_seed = server_seed_for(label, k)
            client_seeds = client_seeds_for(label, k, players)
            hands, talons = deal_from_seeds(server_seed, client_seeds, players, match.dealer)
            match.start_deal(hands, talons)
            entries.append(dealing_entry(server_seed, client_seeds))
            if unfinished and len(entries) == total:
                for _ in range(3):  # not a redeal: the deal must stay unfinished
                    match.apply(
                        rng.choice([a for a in match.legal_actions() if not isinstance(a, Redeal)])
                    )
                entries[-1]["server_seed"] = None
                break
            continue
        legal = match.legal_actions()
        redeals = [a for a in legal if isinstance(a, Redeal)]
        match.apply(redeals[0] if prefer_redeal and redeals else rng.choice(legal))
    record = match.to_record()
    for deal, entry in zip(record["deals"], entries, strict=True):
        deal["dealing"] = entry
    return record


def swap_cards(
    record: dict[str, Any], deal: int, a: tuple[int, int], b: tuple[int, int]
) -> dict[str, Any]:
    """A copy with card ``a = (seat, position)`` and card ``b`` swapped between two hands."""
    out = copy.deepcopy(record)
    hands = out["deals"][deal]["hands"]
    (sa, pa), (sb, pb) = a, b
    hands[sa][pa], hands[sb][pb] = hands[sb][pb], hands[sa][pa]
    return out
