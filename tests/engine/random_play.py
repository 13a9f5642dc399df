"""Random legal play for the property tests: how many examples, the playing styles
(pass-happy bidders, lowest contracts, greedy play) that move matches towards the barrel,
bolts and wins within the cap on actions, and what the tests read off a match."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st

from games.engine import (
    CARDS,
    Bid,
    ChooseTalon,
    Contract,
    Dark,
    Give,
    Look,
    Match,
    Pass,
    Phase,
    Play,
    Redeal,
    WriteOff,
)
from tests.engine.rules_model import (
    DealModel,
)
from tests.engine.spec_cards import (
    ORDER,
)

EXAMPLES = settings.default.max_examples  # 100 in the "ci" profile


def examples(fraction: float) -> settings:
    return settings(max_examples=max(5, int(EXAMPLES * fraction)))


@dataclass(frozen=True)
class Style:
    """How the random players choose among the legal actions."""

    pass_p: float  # in the bidding, pass this often (else any legal call)
    low_contract_p: float  # name the lowest contract this often (else anything legal)
    greedy_p: float  # play the highest-ranked legal card this often (else any)
    dark_p: float  # say dark this often when asked
    redeal_p: float  # ask for a redeal this often when allowed
    help_declarer: bool  # the declarer plays his best card, the defenders their worst
    eager_sitter: bool  # the sitter on the barrel always bids when he can


style_st = st.builds(
    Style,
    pass_p=st.sampled_from([0.0, 0.5, 0.8, 0.95]),
    low_contract_p=st.sampled_from([0.0, 0.8, 0.97]),
    greedy_p=st.sampled_from([0.0, 0.5, 0.9]),
    dark_p=st.sampled_from([0.0, 0.5, 0.9]),
    redeal_p=st.sampled_from([0.0, 0.5, 1.0]),
    help_declarer=st.booleans(),
    eager_sitter=st.booleans(),
)

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def rank(a: Any) -> tuple[int, int]:
    return (ORDER.index(str(a.card)[0]), a.card.index)


def choose(rng: random.Random, match: Match, legal: Any, style: Style) -> Any:
    kinds = {type(a) for a in legal}
    if Redeal in kinds and rng.random() < style.redeal_p:
        return Redeal()
    if Play in kinds:
        if style.help_declarer:
            declarer = match.view(None).declarer
            return (max if match.to_act == declarer else min)(legal, key=rank)
        if rng.random() < style.greedy_p:
            return max(legal, key=rank)
        return rng.choice(legal)
    if Dark in kinds:
        return Dark() if rng.random() < style.dark_p else Look()
    if Bid in kinds and style.eager_sitter and match.to_act == match.sitter:
        return min((a for a in legal if type(a) is Bid), key=lambda a: a.value)
    if Bid in kinds or (Pass in kinds and len(legal) <= 2):
        if rng.random() < style.pass_p:
            return Pass()
        return rng.choice(legal)
    if Contract in kinds:
        if rng.random() < style.low_contract_p:
            return min((a for a in legal if type(a) is Contract), key=lambda a: a.value)
        return rng.choice(legal)
    return rng.choice(legal)


def drive(match: Match, seed: int, style: Style, max_actions: int, observe: Any = None) -> None:
    """Play up to ``max_actions`` random legal actions; ``observe(match, deal, action,
    events, legal)`` runs before (with events None) and after each."""
    rng = random.Random(seed)
    for _ in range(max_actions):
        if match.over:
            return
        legal = match.legal_actions()
        action = choose(rng, match, legal, style)
        deal = match.deal
        if observe is not None:
            observe(match, deal, action, None, legal)
        events = match.apply(action, seat=match.to_act)
        if observe is not None:
            observe(match, deal, action, events, legal)


def deal_allowed_cards(deal: Any, model: DealModel, seat: int | None) -> int:
    """What ``seat`` (None: a spectator) may know of the cards now (§2.3, §2.4, §6.1)."""
    allowed = deal.played
    talon = deal.talons[deal.talon_index] if deal.talon_index >= 0 else 0
    if model.talon_public:
        allowed |= talon
    if seat is None:
        return allowed
    blind = seat == model.forced and (
        deal.phase is Phase.DARK_DECISION or (deal.phase is Phase.BIDDING and model.dark_standing)
    )
    if not blind:
        allowed |= deal.hands[seat]
    if seat == model.declarer:
        allowed |= talon
        allowed |= sum(1 << c for c in deal.given if c >= 0)
    if deal.given[seat] >= 0:
        allowed |= 1 << deal.given[seat]
    return allowed


def state_of(match: Match) -> tuple[Any, ...]:
    return (
        match.results,
        list(match.scores),
        list(match.bolts),
        match.sitter,
        match.winner,
        match.finished_by,
        match.to_act,
        match.phase,
    )


def live_replay(match: Match) -> dict[str, Any]:
    """§8's replay output, worked out from the live match."""
    out: dict[str, Any] = {"deals": [r.to_dict() for r in match.results], "winner": match.winner}
    out["finished_by"] = match.finished_by.value if match.finished_by is not None else None
    if match.over:
        out["placements"] = match.placements
    else:
        out["next"] = {"seat": match.to_act, "legal": [a.to_dict() for a in match.legal_actions()]}
    return out


def canonical(out: dict[str, Any]) -> dict[str, Any]:
    """``legal`` is a set (§8): sort it."""
    out = json.loads(json.dumps(out))
    if "next" in out:
        out["next"]["legal"] = sorted(
            out["next"]["legal"], key=lambda a: json.dumps(a, sort_keys=True)
        )
    return out


def universe(players: int) -> list[Any]:
    """Every well-formed action worth trying, legal or not."""
    out: list[Any] = [
        Pass(),
        Redeal(),
        Dark(),
        Look(),
        WriteOff(),
        ChooseTalon(0),
        ChooseTalon(1),
        ChooseTalon(2),
    ]
    out += [Bid(v) for v in (*range(95, 560, 5), 101, 0, -5, 1005)]
    out += [Contract(v) for v in (*range(95, 560, 5), 121, 0)]
    out += [Play(c) for c in CARDS]
    out += [Give(to, c) for to in (-1, *range(players), players) for c in CARDS]
    return out
