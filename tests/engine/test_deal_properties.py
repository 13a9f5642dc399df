"""Property tests of one deal (docs/spec.md §2, §4-§6): cards conserved, 120 card points
in the tricks, exactly the legal actions apply, and they and their results follow the rules.

Every test draws a table (any option set of docs/spec.md §7, two to four players), a deal
seed and a playing style, plays random legal actions through the public API and checks
an invariant after every action or every deal. The expectations come from docs/spec.md
through a small independent model (``tests/engine/rules_model.py``) that follows the
events and the cards. The number of actions per example is capped so that the module
stays fast."""

from __future__ import annotations

import random

from hypothesis import given

from games.engine import (
    IllegalAction,
    Match,
    NotYourTurn,
    Outcome,
    Phase,
)
from tests.engine.random_play import (
    drive,
    examples,
    seeds,
    style_st,
    universe,
)
from tests.engine.rules_model import (
    Model,
)
from tests.engine.shared import options_st
from tests.engine.spec_cards import (
    FULL,
    NAME,
    mask_of,
    names,
    points,
    popcount,
)


@examples(0.5)
@given(options=options_st, seed=seeds, play=seeds, style=style_st)
def test_cards_are_conserved_after_every_action(options, seed, play, style):
    match = Match.new(options, seed=seed)
    n_tricks = 11 if options.players == 2 else 8

    def observe(match, deal, action, events, legal):
        deal = match.deal
        parts = [*deal.hands, deal.played]
        parts += [t for i, t in enumerate(deal.talons) if i != deal.talon_index]
        union = 0
        for p in parts:
            union |= p
        assert union == FULL and sum(popcount(p) for p in parts) == 24, "§1: 24 cards, each once"
        in_tricks = mask_of(NAME[c] for t in deal.history for _, c in t) | mask_of(
            NAME[c] for c in deal.trick
        )
        assert in_tricks == deal.played
        if deal.phase is Phase.PLAY:
            in_trick = set(deal.trick_seats)
            for s in range(options.players):
                want = 0 if s == deal.resting else n_tricks - deal.tricks_played - (s in in_trick)
                assert popcount(deal.hands[s]) == want

    drive(match, play, style, 600, observe)


@examples(0.5)
@given(options=options_st, seed=seeds, play=seeds, style=style_st)
def test_every_played_deal_has_120_card_points_in_its_tricks(options, seed, play, style):
    match = Match.new(options, seed=seed)
    seen = []

    def observe(match, deal, action, events, legal):
        if events is None or deal.phase is not Phase.COMPLETE:
            return
        result = match.results[-1]
        tricks = [NAME[c] for t in deal.history for _, c in t]
        if result.outcome in (Outcome.REDEAL, Outcome.WRITTEN_OFF):
            assert tricks == []
            return
        unused = sum(points(names(t)) for i, t in enumerate(deal.talons) if i != deal.talon_index)
        assert options.players == 2 or unused == 0
        assert points(tricks) == 120 - unused == sum(deal.points)
        assert len(tricks) == (22 if options.players == 2 else 24)
        seen.append(result)

    drive(match, play, style, 600, observe)


@examples(0.3)
@given(options=options_st, seed=seeds, play=seeds, style=style_st)
def test_every_legal_action_applies_and_no_other_does(options, seed, play, style):
    match = Match.new(options, seed=seed)
    rng = random.Random(play ^ 0x5EED)
    candidates = universe(options.players)

    def observe(match, deal, action, events, legal):
        if events is not None or rng.random() > 0.08:
            return
        before = match.to_record()
        seat = match.to_act
        legal_set = set(legal)
        for a in legal:
            match.copy().apply(a, seat=seat)
        # One copy takes every rejected action: a rejection must leave it unchanged.
        probe = match.copy()
        for a in candidates:
            if a in legal_set:
                continue
            try:
                probe.apply(a, seat=seat)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"{a} was accepted but is not among the legal actions")
        wrong = (seat + 1) % options.players
        try:
            probe.apply(legal[0], seat=wrong)
        except NotYourTurn:
            pass
        else:
            raise AssertionError("an action by a seat not to act was accepted")
        assert probe.to_record() == before == match.to_record()
        assert [probe.view(s) for s in (*range(options.players), None)] == [
            match.view(s) for s in (*range(options.players), None)
        ]

    drive(match, play, style, 400, observe)


@examples(0.4)
@given(options=options_st, seed=seeds, play=seeds, style=style_st)
def test_legal_actions_and_results_follow_the_rules(options, seed, play, style):
    match = Match.new(options, seed=seed)
    model = Model(match)

    def observe(match, deal, action, events, legal):
        if events is None:
            model.before(match, action, legal)
        else:
            model.after(match, deal, events)

    drive(match, play, style, 800, observe)
