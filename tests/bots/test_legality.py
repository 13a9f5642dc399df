"""Bots only ever produce legal actions, under every variant and option set, and never
raise."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.bots import LEVELS
from games.engine import Options
from games.engine.options import RED_THRESHOLDS, BarrelBidding, Bolts

from .helpers import bots_for, play_out, table

options_st = st.builds(
    Options,
    players=st.sampled_from((2, 3, 4)),
    ace_marriage=st.booleans(),
    redeal=st.booleans(),
    write_off=st.booleans(),
    write_off_penalty=st.booleans(),
    show_talon_on_100=st.booleans(),
    barrel=st.booleans(),
    barrel_bidding=st.sampled_from(list(BarrelBidding)),
    bolts=st.sampled_from(list(Bolts)),
    samosval=st.booleans(),
    red_threshold=st.sampled_from(RED_THRESHOLDS),
    dark=st.booleans(),
    golden=st.booleans(),
    bid_jumps=st.booleans(),
)


@given(
    options=options_st,
    seed=st.integers(0, 2**32),
    levels=st.lists(st.sampled_from(LEVELS), min_size=4, max_size=4),
    scores=st.lists(
        st.sampled_from((-400, -150, -20, 0, 40, 300, 700, 875)), min_size=4, max_size=4
    ),
    sitter=st.one_of(st.none(), st.integers(0, 3)),
)
def test_bots_play_only_legal_actions_in_every_variant(
    options: Options, seed: int, levels: list[str], scores: list[int], sitter: int | None
) -> None:
    n = options.players
    if sitter is not None and (not options.barrel or sitter >= n):
        sitter = None
    match = table(options, seed, scores[:n], sitter)
    play_out(match, bots_for(levels[:n], seed), max_deals=2)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_basic_and_random_play_thousands_of_deals_legally(players: int) -> None:
    rng = random.Random(players)
    presets = [
        Options.preset(p).replace(players=players) for p in ("classic", "igrafan", "club", "simple")
    ]
    decisions = 0
    for i in range(400):
        match = table(presets[i % 4], rng.randrange(2**32))
        levels = [rng.choice(("random", "basic")) for _ in range(players)]
        decisions += play_out(match, bots_for(levels, i), max_deals=2)
    assert decisions > 10_000


def test_strong_plays_whole_matches_legally() -> None:
    for players in (2, 3, 4):
        match = table(Options(players=players, barrel=False, target=300), seed=players)
        play_out(
            match, bots_for(["strong", "basic", "strong", "basic"][:players], players), max_deals=6
        )


def test_strong_falls_back_to_basic_when_its_search_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    from games.bots.strong import StrongBot, _Search

    def broken(self: _Search) -> None:
        raise RuntimeError("search bug")

    monkeypatch.setattr(_Search, "decide", broken)
    monkeypatch.setattr(StrongBot, "strict", False)
    match = table(Options(), seed=9)
    play_out(match, bots_for(["strong", "strong", "strong"], 9), max_deals=1)


# Every option a table can set that changes what a bot is asked (docs/spec.md §6, §7).
EVERY_OPTION = [
    Options(dark=True, redeal=True, show_talon_on_100=True),
    Options(golden=True, redeal=True),
    Options(dark=True, golden=True, write_off_penalty=False, bolts=Bolts.ALWAYS),
    Options(
        barrel_bidding=BarrelBidding.CLOSED, red_threshold=-100, bid_jumps=False, ace_marriage=False
    ),
    Options(barrel=False, samosval=False, write_off=False, target=500),
]


def _search_positions(level: str, players: int, count: int) -> int:
    """Ask ``level`` (one sample a decision) at ``count`` positions with a choice, met in
    deals driven by random play from random standings; every answer must be legal."""
    from games.bots import Budget, make_bot

    rng = random.Random(f"{level}/{players}")
    asked = 0
    while asked < count:
        options = rng.choice(EVERY_OPTION).replace(players=players)
        scores = [rng.choice((-150, 0, 120, 500, 870)) for _ in range(players)]
        sitter = rng.choice([None, *range(players)]) if options.barrel else None
        match = table(options, rng.randrange(2**32), scores, sitter)
        driver = random.Random(rng.random())
        bot = make_bot(level, seed=asked, budget=Budget(seconds=None, samples=1))
        while match.to_act is not None and asked < count:
            view = match.view(match.to_act)
            if len(view.legal) > 1:
                action = bot.decide(view)
                assert action in view.legal, (level, view.phase, action)
                asked += 1
            match.apply(driver.choice(view.legal), seat=match.to_act)
    return asked


@pytest.mark.parametrize("players", [2, 3, 4])
def test_strong_decides_legally_at_thousands_of_random_positions(players: int) -> None:
    assert _search_positions("strong", players, 700) == 700


@pytest.mark.parametrize("players", [2, 3, 4])
def test_master_decides_legally_at_random_positions(players: int) -> None:
    assert _search_positions("master", players, 150) == 150
