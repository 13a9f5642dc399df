"""docs/spec.md §3.7 and §9.12: a match of N deals (option ``deals``), ``finished_by`` and
``placements`` in §8's replay output. Every expectation is worked out by hand from the spec.

Layouts (records.py): SWEEP (the declarer makes up to 300, defenders take no trick; its
talon TD 9S 9C holds two nines, so the declarer may ask for a talon redeal, §2.9), BIG.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Ending, InvalidOptions, Match, Options, Outcome, Redeal
from games.engine.match import places
from tests.engine.records import SWEEP, err, layout_deal, ok, record
from tests.engine.shared import options_st
from tests.engine.test_rules_3_match import ARRIVE_0, BOLTS_OFF, match


def talon_redeal(dealer: int, declarer: int) -> dict:
    """SWEEP bid to ``declarer`` at 100, who asks for a talon redeal before his gives."""
    deal = layout_deal(SWEEP, dealer=dealer, declarer=declarer, bid=100, stop_after_gives=True)
    deal["actions"] = deal["actions"][:-2] + [{"seat": declarer, "type": "redeal"}]
    return deal


def sweep(dealer: int, declarer: int, contract: int = 120) -> dict:
    return layout_deal(SWEEP, dealer=dealer, declarer=declarer, bid=100, contract=contract)


# --------------------------------------------------------------------------- the option (§7)


@pytest.mark.parametrize("value", [0, -1, True, 1.5, "6"])
def test_deals_must_be_null_or_a_whole_number_of_at_least_one(value):
    with pytest.raises(InvalidOptions):
        Options.from_dict({"deals": value})


def test_deals_is_off_by_default_and_old_records_without_it_play_on():
    assert Options().deals is None and Options.from_dict({"deals": 6}).deals == 6
    out = ok(match(0, (SWEEP, 1, 100, 120), (SWEEP, 2, 100, 150)))
    assert out["finished_by"] is None and "next" in out and "placements" not in out


# --------------------------------------------------------------------------- the end (§3.7)


def test_the_match_ends_after_its_nth_deal_and_the_highest_score_wins():
    # Seat 1 makes 120, then seat 2 makes 150: 0, 120, 150 (bolts off).
    out = ok(
        match(0, (SWEEP, 1, 100, 120), (SWEEP, 2, 100, 150), options={**BOLTS_OFF, "deals": 2})
    )
    assert (out["winner"], out["finished_by"], out["placements"]) == (2, "deals", [3, 2, 1])
    assert "next" not in out


def test_one_deal_short_of_n_the_match_goes_on():
    out = ok(match(0, (SWEEP, 1, 100, 120), options={"deals": 2}))
    assert out["finished_by"] is None and out["next"] == {"seat": None, "legal": []}


def test_a_deal_after_the_match_finished_by_deals_is_an_error():
    rec = match(0, (SWEEP, 1, 100, 120), (SWEEP, 2, 100, 150), options={"deals": 1})
    e = err(rec)
    assert (e["deal"], e["action"]) == (1, None) and "over" in e["reason"]


def test_equal_highest_scores_share_first_place_and_there_is_no_winner():
    # Seats 0 and 1 each make 120 once (bolts off): 120, 120, 0.
    out = ok(
        match(2, (SWEEP, 0, 100, 120), (SWEEP, 1, 100, 120), options={**BOLTS_OFF, "deals": 2})
    )
    assert out["deals"][-1]["scores"] == [120, 120, 0]
    assert (out["winner"], out["finished_by"], out["placements"]) == (None, "deals", [1, 1, 3])


def test_lower_equal_scores_share_their_place():
    # Seat 0 makes 120; seats 1 and 2 took nothing: 120, 0, 0.
    out = ok(match(2, (SWEEP, 0, 100, 120), options={**BOLTS_OFF, "deals": 1}))
    assert (out["winner"], out["placements"]) == (0, [1, 2, 2])


def test_a_redeal_where_the_nth_deal_would_be_is_not_counted():
    # deals 1: the first deal is redealt (same dealer, §2.9), so the match is not over...
    rec = record(talon_redeal(0, 1), options={"deals": 1}, first_dealer=0)
    out = ok(rec)
    assert out["deals"][0]["outcome"] == "redeal"
    assert out["finished_by"] is None and out["next"] == {"seat": None, "legal": []}
    # ...until the redealt deal is played: it is the counted deal.
    rec["deals"].append(sweep(dealer=0, declarer=1))
    out = ok(rec)
    assert [d["outcome"] for d in out["deals"]] == ["redeal", "made"]
    assert (out["winner"], out["finished_by"]) == (1, "deals")


def test_the_nth_deal_putting_a_player_on_the_barrel_still_ends_the_match():
    # Seat 0 reaches 960 in the third deal: he sits at 880 (§3.4) and the match ends there,
    # ranked by his 880; the barrel gives no extra deal (§9.12).
    out = ok(match(2, *ARRIVE_0, options={**BOLTS_OFF, "deals": 3}))
    last = out["deals"][-1]
    assert (last["scores"], last["barrel"]) == ([880, 0, 0], 0)
    assert (out["winner"], out["finished_by"], out["placements"]) == (0, "deals", [1, 2, 2])


def test_the_nth_deal_is_scored_in_full_before_the_end():
    # With default bolts seats 1 and 2 took no trick in three deals: −120 each (§3.3)
    # in the third deal, which is also the last.
    out = ok(match(2, *ARRIVE_0, options={"deals": 3}))
    assert out["deals"][-1]["scores"] == [880, -120, -120]
    assert out["placements"] == [1, 2, 2]


def test_a_sitter_who_makes_his_contract_in_the_nth_deal_wins_from_the_barrel():
    out = ok(
        match(
            2, *ARRIVE_0, (SWEEP, 0, 120, 300, {"opening": 120}), options={**BOLTS_OFF, "deals": 4}
        )
    )
    assert (out["winner"], out["finished_by"], out["placements"]) == (0, "won", [1, 2, 2])
    assert out["deals"][-1]["scores"] == [1180, 0, 0]


def test_a_match_won_before_its_nth_deal_ends_as_always():
    # Barrel off, target 300: seat 0 makes 300 in the first of five deals (§3.6).
    rec = record(
        layout_deal(SWEEP, dealer=2, declarer=0, bid=100, contract=300),
        options={"barrel": False, "target": 300, "deals": 5},
        first_dealer=2,
    )
    out = ok(rec)
    assert (out["winner"], out["finished_by"]) == (0, "won")


def test_without_the_barrel_equal_highest_below_the_target_end_shared():
    # Barrel off, target 200: seats 1 and 2 each make 120 (0, 120, 120); nobody reached
    # the target, so the second and last deal ends the match, shared (§3.7).
    out = ok(
        match(
            0,
            (SWEEP, 1, 100, 120),
            (SWEEP, 2, 100, 120),
            options={"barrel": False, "target": 200, "bolts": "off", "deals": 2},
        )
    )
    assert (out["winner"], out["finished_by"], out["placements"]) == (None, "deals", [3, 1, 1])


# --------------------------------------------------------------------------- placements (§8)


def test_places_share_equal_scores_and_skip_after_a_tie():
    assert places([300, 300, 100]) == [1, 1, 3]
    assert places([200, 200, 200]) == [1, 1, 1]
    assert places([400, 150, 150]) == [1, 2, 2]
    assert places([-50, 10, 10, 400]) == [4, 2, 2, 1]


def test_the_winner_is_first_even_below_a_higher_score():
    # Barrel off (§9.10): the declarer among several at the target wins.
    assert places([1000, 1020, 40], winner=0) == [1, 2, 3]


# --------------------------------------------------------------------------- properties


def play_out(options: Options, seed: int, play: int, redeal_p: float) -> Match:
    """A whole match of random legal play; a redeal is asked with ``redeal_p`` when legal."""
    m = Match.new(options, seed=seed)
    rng = random.Random(play)
    for _ in range(5000):
        if m.over:
            return m
        legal = list(m.legal_actions())
        redeal = [a for a in legal if isinstance(a, Redeal)]
        if redeal and rng.random() < redeal_p:
            m.apply(redeal[0], seat=m.to_act)
        else:
            m.apply(rng.choice([a for a in legal if not isinstance(a, Redeal)] or legal))
    raise AssertionError("a match of a few deals did not end")


@settings(max_examples=40, deadline=None)
@given(
    options=options_st.filter(lambda o: o.deals is not None).map(
        lambda o: o.replace(deals=1 + o.deals % 4)
    ),
    seed=st.integers(0, 2**32),
    play=st.integers(0, 2**32),
    redeal_p=st.sampled_from([0.0, 0.5, 1.0]),
)
def test_a_match_of_n_deals_ends_exactly_after_n_counted_deals(options, seed, play, redeal_p):
    m = play_out(options, seed, play, redeal_p)
    counted = [r for r in m.results if r.outcome is not Outcome.REDEAL]
    assert m.results[-1].outcome is not Outcome.REDEAL
    if m.finished_by is Ending.DEALS:
        assert len(counted) == options.deals
        top = max(m.scores)
        tops = [s for s, x in enumerate(m.scores) if x == top]
        assert m.winner == (tops[0] if len(tops) == 1 else None)
        assert [m.placements[s] for s in tops] == [1] * len(tops)
    else:
        assert m.finished_by is Ending.WON and m.winner is not None
        assert len(counted) <= options.deals
        assert m.placements[m.winner] == 1
    # Places: 1 + the number of seats ranked strictly better (ties share).
    better = [
        sum((m.placements[o] < m.placements[s]) for o in range(m.players)) for s in range(m.players)
    ]
    assert [1 + b for b in better] == m.placements
    for s in range(m.players):
        for o in range(m.players):
            if s != m.winner and o != m.winner and m.scores[s] > m.scores[o]:
                assert m.placements[s] < m.placements[o]
    # The record replays to the same end.
    again = Match.from_record(m.to_record())
    assert (again.finished_by, again.winner, again.placements) == (
        m.finished_by,
        m.winner,
        m.placements,
    )


def test_the_live_table_view_counts_deals_and_says_how_the_match_ended():
    m = play_out(Options(deals=2), seed=5, play=5, redeal_p=1.0)
    view = m.view(None).to_dict()
    assert view["deals_played"] == 2 and view["finished_by"] == m.finished_by.value
