"""Property tests of the match (docs/spec.md §3): someone can act until it is won, its state
stays within the rules after every deal, and a seed deals and plays the same match.

Every test draws a table (any option set of docs/spec.md §7, two to four players), a deal
seed and a playing style, plays random legal actions through the public API and checks
an invariant after every action or every deal. The expectations come from docs/spec.md
through a small independent model (``tests/engine/rules_model.py``) that follows the
events and the cards. The number of actions per example is capped so that the module
stays fast."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from games.engine import (
    Bolts,
    IllegalAction,
    Match,
    Outcome,
    Pass,
    Phase,
)
from tests.engine.random_play import (
    drive,
    examples,
    seeds,
    state_of,
    style_st,
)
from tests.engine.shared import options_st


@examples(0.4)
@given(options=options_st, seed=seeds, play=seeds, style=style_st)
def test_someone_can_act_until_the_match_is_won(options, seed, play, style):
    match = Match.new(options, seed=seed)

    def observe(match, deal, action, events, legal):
        if match.over:
            assert match.to_act is None and not match.legal_actions()
            assert match.winner is not None or match.finished_by.value == "deals"
            return
        assert match.to_act is not None, "a deal is always in progress in a live match"
        assert len(match.legal_actions()) > 0

    drive(match, play, style, 1000, observe)
    if match.over and match.finished_by.value == "deals":
        # §3.7: the N-th counted deal was the last, and nobody won before it.
        counted = [r for r in match.results if r.outcome is not Outcome.REDEAL]
        assert len(counted) == options.deals and match.results[-1] is counted[-1]
    elif match.over:
        winner = match.winner
        last = match.results[-1]
        if options.barrel:
            # §3.2: won only from the barrel, by making a contract.
            assert last.declarer == winner and last.outcome is Outcome.MADE
            assert match.scores[winner] == 880 + last.contract >= 1000
        else:
            assert match.scores[winner] >= options.target
        try:
            match.apply(Pass())
        except IllegalAction:
            pass
        else:
            raise AssertionError("an action was accepted after the match was won")


@examples(0.5)
@given(options=options_st, seed=seeds, play=seeds, style=style_st)
def test_match_state_stays_within_the_rules_after_every_deal(options, seed, play, style):
    match = Match.new(options, seed=seed)
    n = options.players
    prev = {"scores": [0] * n, "bolts": [0] * n, "barrel": None}

    def observe(match, deal, action, events, legal):
        if events is None or deal.phase is not Phase.COMPLETE:
            return
        r = match.results[-1]
        assert all(x % 5 == 0 for x in r.deltas), "§2.8: deltas are multiples of 5"
        assert all(x % 5 == 0 for x in r.scores)
        if r.outcome is Outcome.REDEAL:
            assert r.deltas == (0,) * n and r.contract is None
            assert (list(r.scores), list(r.bolts), r.barrel) == (
                prev["scores"],
                prev["bolts"],
                prev["barrel"],
            )
        if not options.barrel:
            assert r.barrel is None and match.sitter is None
        if options.bolts is Bolts.OFF:
            assert r.bolts == (0,) * n
        assert all(0 <= b < 3 for b in r.bolts), "§3.3: three bolts cost 120 and reset"
        if r.outcome in (Outcome.MADE, Outcome.FAILED):
            c = 240 if r.dark else r.contract
            assert abs(r.deltas[r.declarer]) == c, "§2.8: the declarer scores ±C (±240 dark)"
            assert (r.deltas[r.declarer] > 0) == (r.outcome is Outcome.MADE)
        if options.boards_from_zero:
            # §3.8: nothing is carried; the scores are the sums of the deltas.
            assert r.bolts == (0,) * n and r.barrel is None
            assert [a + d for a, d in zip(prev["scores"], r.deltas)] == list(r.scores)
            assert match.finished_by is None or match.finished_by.value == "deals"
        elif match.winner is None and options.barrel:
            if r.barrel is not None:
                assert r.scores[r.barrel] == 880, "§3: the sitter's score is 880"
            assert all(x < 880 for s, x in enumerate(r.scores) if s != r.barrel)
            assert 0 <= match.view(None).barrel_attempts < 3
        if not match.over:
            nxt = match.view(None).dealer
            step = 0 if r.outcome is Outcome.REDEAL else 1
            assert nxt == (r.dealer + step) % n, "§2.1: the dealer rotates, not after a redeal"
        prev.update(scores=list(r.scores), bolts=list(r.bolts), barrel=r.barrel)

    drive(match, play, style, 1000, observe)


@examples(0.2)
@given(options=options_st, seed=st.one_of(seeds, st.text(max_size=8)), play=seeds, style=style_st)
def test_same_seed_deals_and_plays_the_same_match(options, seed, play, style):
    runs = []
    for _ in range(2):
        match = Match.new(options, seed=seed)
        log: list[Any] = []

        def observe(m, d, a, e, legal, log=log):
            log.append((a, e))

        drive(match, play, style, 200, observe)
        runs.append((match.to_record(), log, state_of(match)))
    assert runs[0] == runs[1]
    first = Match.new(options, seed=seed).to_record()["deals"][0]
    assert first == runs[0][0]["deals"][0] | {"actions": []}
