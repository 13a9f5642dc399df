"""Property tests of the record and the views (docs/spec.md §8, §2.3, §2.4, §6.1): the record
and its replay reproduce the live match, and a view holds only what its seat may know.

Every test draws a table (any option set of docs/spec.md §7, two to four players), a deal
seed and a playing style, plays random legal actions through the public API and checks
an invariant after every action or every deal. The expectations come from docs/spec.md
through a small independent model (``tests/engine/rules_model.py``) that follows the
events and the cards. The number of actions per example is capped so that the module
stays fast."""

from __future__ import annotations

import json
import random

from hypothesis import given

from games.engine import (
    Match,
    Phase,
    replay,
)
from games.engine.views import known_cards
from tests.engine.random_play import (
    canonical,
    deal_allowed_cards,
    drive,
    examples,
    live_replay,
    seeds,
    state_of,
    style_st,
)
from tests.engine.rules_model import (
    Model,
)
from tests.engine.shared import options_st
from tests.engine.spec_cards import (
    FULL,
    mask_of,
    names,
)


@examples(0.25)
@given(options=options_st, seed=seeds, play=seeds, style=style_st)
def test_record_round_trip_and_replay_reproduce_the_live_match(options, seed, play, style):
    match = Match.new(options, seed=seed)
    rng = random.Random(play ^ 0xC0FFEE)
    seats = (*range(options.players), None)

    def check(match):
        record = match.to_record()
        text = json.dumps(record)
        imported = Match.from_record(json.loads(text))
        assert state_of(imported) == state_of(match)
        assert set(imported.legal_actions()) == set(match.legal_actions())
        assert [imported.view(s) for s in seats] == [match.view(s) for s in seats]
        assert imported.to_record() == record
        assert match.copy().to_record() == record
        assert canonical(replay(json.loads(text))) == canonical(live_replay(match))

    def observe(match, deal, action, events, legal):
        if events is not None and (deal.phase is Phase.COMPLETE or rng.random() < 0.02):
            check(match)

    check(match)
    drive(match, play, style, 300, observe)
    check(match)


@examples(0.3)
@given(options=options_st, seed=seeds, play=seeds, style=style_st)
def test_views_hold_only_what_the_seat_may_know(options, seed, play, style):
    match = Match.new(options, seed=seed)
    model = Model(match, check=False)
    rng = random.Random(play ^ 0xF00D)
    n = options.players

    def look(match):
        deal = match.deal
        d = model.d
        for s in (*range(n), None):
            v = match.view(s)
            allowed = deal_allowed_cards(deal, d, s)
            assert known_cards(v) & ~allowed == 0, (
                f"seat {s} sees {names(known_cards(v) & ~allowed)}"
            )
            if s is None:
                assert v.hand is None and v.given_to_me is None and v.given_by_me == ()
            blind = s == d.forced and (
                deal.phase is Phase.DARK_DECISION
                or (deal.phase is Phase.BIDDING and d.dark_standing)
            )
            if s is not None and s != d.resting and not blind:
                assert mask_of(v.hand) == deal.hands[s], "a seat sees its own hand"
            elif s is not None:
                assert v.hand is None, "§5 resting dealer / §6.1 blind forced bidder: no hand"
            if deal.talon_index >= 0:
                sees_talon = d.talon_public or (s is not None and s == d.declarer)
                assert (v.talon is not None) == sees_talon
            if rng.random() < 0.15:
                text = json.dumps(v.to_dict())
                for c in names(FULL & ~allowed):
                    assert f'"{c}"' not in text, f"seat {s}'s view JSON shows {c}"

    def observe(match, deal, action, events, legal):
        if events is None:
            model.before(match, action, legal)
        else:
            model.after(match, deal, events)
            if not match.over:
                look(match)

    look(match)
    drive(match, play, style, 300, observe)
