"""What several engine test modules share: docs/spec.md §7 written out by hand, a
Hypothesis strategy over every option set, and matches played at random to a point."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import strategies as st

from games.engine import BarrelBidding, Bolts, Match, Options, Pass, Phase

# docs/spec.md §7, written out by hand (not read from the engine).
RULES_DEFAULTS: dict[str, Any] = {
    "players": 3,
    "target": 1000,
    "ace_marriage": True,
    "redeal": True,
    "write_off": True,
    "write_off_penalty": True,
    "show_talon_on_100": False,
    "barrel": True,
    "barrel_bidding": "open",
    "reset_after_third_barrel": False,
    "bolts": "not_on_barrel",
    "samosval": True,
    "red_threshold": None,
    "dark": False,
    "golden": False,
    "bid_jumps": True,
    "deals": None,
    "boards_from_zero": False,
}
RULES_PRESETS: dict[str, dict[str, Any]] = {
    "classic": dict(RULES_DEFAULTS),
    "igrafan": {
        **RULES_DEFAULTS,
        "ace_marriage": True,
        "redeal": True,
        "write_off": True,
        "write_off_penalty": True,
        "show_talon_on_100": True,
        "samosval": True,
        "golden": True,
        "barrel_bidding": "open",
        "red_threshold": -300,
    },
    "club": {**RULES_DEFAULTS, "dark": True, "golden": True},
    "simple": {
        **RULES_DEFAULTS,
        "barrel": False,
        "bolts": "off",
        "samosval": False,
        "redeal": False,
    },
}

# Every option set of §7 (target mostly the default, sometimes small enough to be reached);
# boards_from_zero (§3.8) only where deals is set, as the options require.
_options_st = st.builds(
    Options,
    players=st.sampled_from([2, 3, 4]),
    target=st.one_of(st.just(1000), st.integers(min_value=1, max_value=1500)),
    ace_marriage=st.booleans(),
    redeal=st.booleans(),
    write_off=st.booleans(),
    write_off_penalty=st.booleans(),
    show_talon_on_100=st.booleans(),
    barrel=st.booleans(),
    barrel_bidding=st.sampled_from(list(BarrelBidding)),
    reset_after_third_barrel=st.booleans(),
    bolts=st.sampled_from(list(Bolts)),
    samosval=st.booleans(),
    red_threshold=st.sampled_from([None, 0, -100, -200, -300, -1000]),
    dark=st.booleans(),
    golden=st.booleans(),
    bid_jumps=st.booleans(),
    deals=st.one_of(st.none(), st.integers(min_value=1, max_value=8)),
)
options_st = _options_st.flatmap(
    lambda o: st.booleans().map(
        lambda pure: o.replace(boards_from_zero=True) if pure and o.deals is not None else o
    )
)


def snapshot(match: Match) -> tuple[Any, ...]:
    """Everything observable about a match."""
    seats = (*range(match.players), None)
    return (
        json.dumps(match.to_record()),
        [match.view(s) for s in seats],
        match.to_act,
        list(match.legal_actions()),
        list(match.results),
        list(match.scores),
    )


def advance(match: Match, rng: random.Random, steps: int) -> Match:
    for _ in range(steps):
        if match.over:
            break
        match.apply(rng.choice(match.legal_actions()))
    return match


def match_in_phase(phase: Phase, players: int = 3, **options: Any) -> Match:
    """A seeded match played at random until ``phase`` comes up."""
    for seed in range(200):
        match = Match.new(Options(players=players, **options), seed=seed)
        rng = random.Random(seed)
        for _ in range(300):
            if match.phase is phase:
                return match
            legal = match.legal_actions()
            # Pass a lot so that declarers at the forced 100 are common.
            match.apply(Pass() if Pass() in legal and rng.random() < 0.7 else rng.choice(legal))
    raise AssertionError(f"no {phase} reached")
