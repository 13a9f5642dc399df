"""docs/spec.md §3.8 and §9.13: every deal from 0:0:0 (option ``boards_from_zero``, the
pure duplicate). Every expectation is worked out by hand from the spec; each test sets
the same record against the same options without the option, to show what it changes.

Layouts (records.py): SWEEP (the declarer takes every trick, so both defenders earn a
bolt), BIG (420 for its declarer); ARRIVE_0 takes seat 0 to 960 in three deals.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings

from games.engine import InvalidOptions, Match, Options, Outcome, Phase
from tests.engine.random_play import choose, seeds, style_st
from tests.engine.records import SWEEP, deal_with, err, layout_deal, ok, record
from tests.engine.shared import options_st
from tests.engine.test_rules_3_match import ARRIVE_0, BOLTS_OFF, match

PURE = {"deals": 8, "boards_from_zero": True}


def with_next_deal(rec: dict[str, Any]) -> dict[str, Any]:
    """``rec`` with one more deal that has no action yet (§8: ``next`` shows its start)."""
    rec["deals"].append(deal_with({}))
    return rec


def bid_values(out: dict[str, Any]) -> list[int]:
    return sorted(a["value"] for a in out["next"]["legal"] if a["type"] == "bid")


# --------------------------------------------------------------------------- the option (§7)


def test_boards_from_zero_is_off_by_default_and_written_out():
    assert Options().boards_from_zero is False
    assert Options(deals=6, boards_from_zero=True).to_dict()["boards_from_zero"] is True
    assert Options.from_dict({"deals": 6, "boards_from_zero": True}).boards_from_zero


def test_boards_from_zero_without_deals_is_refused():
    with pytest.raises(InvalidOptions, match="boards_from_zero needs deals"):
        Options(boards_from_zero=True)
    error = err(record(deal_with({}), options={"boards_from_zero": True}))
    assert (error["deal"], error["action"]) == (None, None)
    assert "boards_from_zero" in error["reason"]


@pytest.mark.parametrize("value", [1, 0, "true", None])
def test_boards_from_zero_must_be_a_json_boolean(value):
    with pytest.raises(InvalidOptions):
        Options.from_dict({"deals": 6, "boards_from_zero": value})


def test_old_records_without_the_option_carry_the_state():
    out = ok(match(2, *ARRIVE_0, options={"deals": 8}))
    assert out["deals"][-1]["barrel"] == 0


# --------------------------------------------------------------------------- the start of a deal


def test_a_player_past_880_is_not_on_the_barrel_and_opens_at_100():
    # Seat 0 reaches 960 in three deals; the defenders take no trick in any of them.
    carried = ok(with_next_deal(match(2, *ARRIVE_0, options={"deals": 8})))
    assert carried["deals"][-1]["scores"] == [880, -120, -120]  # barrel, bolt penalties
    assert bid_values(carried)[0] == 125  # seat 0, forced, opens at 120 as the sitter

    pure = ok(with_next_deal(match(2, *ARRIVE_0, options=PURE)))
    assert [e["scores"] for e in pure["deals"]] == [[420, 0, 0], [840, 0, 0], [960, 0, 0]]
    assert all(e["bolts"] == [0, 0, 0] and e["barrel"] is None for e in pure["deals"])
    assert pure["next"]["seat"] == 1 and bid_values(pure)[0] == 105  # the forced 100
    view = Match.from_record(with_next_deal(match(2, *ARRIVE_0, options=PURE))).view(None)
    assert (view.bids, view.barrel, view.bolts) == (((0, 100),), None, (0, 0, 0))


def test_a_player_below_the_red_threshold_still_bids():
    # Seat 1 writes off at 100 (−100); the next deal's dealer is 1, seat 0 passes first.
    first = layout_deal(SWEEP, dealer=0, declarer=1, bid=100, write_off=True)
    second = deal_with({})
    second["actions"] = [{"seat": 0, "type": "pass"}]
    options = {"red_threshold": 0}
    carried = ok(record(first, second, options={**options, "deals": 8}))
    assert carried["deals"][0]["scores"] == [50, -100, 50]
    assert carried["next"]["legal"] == [{"type": "pass"}]

    pure = ok(record(first, second, options={**options, **PURE}))
    assert pure["deals"][0]["scores"] == [50, -100, 50]
    assert pure["next"]["seat"] == 1 and bid_values(pure)[0] == 105


def test_a_forced_bidder_with_a_negative_sum_may_still_play_dark():
    # Seat 2 wins at 105 and writes off (−105); next deal seat 2 is the forced bidder.
    first = layout_deal(SWEEP, dealer=0, declarer=2, bid=105, write_off=True, pre=["1 look"])
    options = {"dark": True}
    carried = Match.from_record(record(first, deal_with({}), options={**options, "deals": 8}))
    assert carried.scores == [50, 50, -105] and carried.phase is Phase.BIDDING

    pure = Match.from_record(record(first, deal_with({}), options={**options, **PURE}))
    assert pure.scores == [50, 50, -105]
    assert pure.phase is Phase.DARK_DECISION and pure.to_act == 2


# --------------------------------------------------------------------------- after a deal


def test_the_target_never_ends_the_match():
    options = {"barrel": False, "bolts": "off", "samosval": False, "target": 100}
    won = ok(match(0, (SWEEP, 1, 100, 120), options={**options, "deals": 3}))
    assert (won["winner"], won["finished_by"]) == (1, "won")

    pure = ok(match(0, (SWEEP, 1, 100, 120), options={**options, "deals": 3, **PURE}))
    assert (pure["winner"], pure["finished_by"]) == (None, None) and "next" in pure


def test_bolts_never_add_up_to_a_penalty():
    # Seats 1 and 2 take no trick three times: −120 each when bolts are carried.
    deals = [(SWEEP, 0, 100, 120), (SWEEP, 0, 120, 120), (SWEEP, 0, 120, 120)]
    carried = ok(match(2, *deals, options={"barrel": False, "deals": 3}))
    assert carried["deals"][-1]["scores"] == [360, -120, -120]

    pure = ok(match(2, *deals, options={"barrel": False, "deals": 3, "boards_from_zero": True}))
    assert pure["deals"][-1]["scores"] == [360, 0, 0]
    assert (pure["winner"], pure["finished_by"], pure["placements"]) == (0, "deals", [1, 2, 2])


def test_equal_highest_sums_share_first_place():
    rec = match(0, (SWEEP, 1, 100, 120), (SWEEP, 2, 100, 120), options={**BOLTS_OFF, "deals": 2,
                "boards_from_zero": True})  # fmt: skip
    out = ok(rec)
    assert out["deals"][-1]["scores"] == [0, 120, 120]
    assert (out["winner"], out["finished_by"], out["placements"]) == (None, "deals", [3, 1, 1])


def test_a_redeal_is_not_counted_and_scores_nothing():
    talon_redeal = layout_deal(SWEEP, dealer=0, declarer=1, bid=100, stop_after_gives=True)
    talon_redeal["actions"] = talon_redeal["actions"][:-2] + [{"seat": 1, "type": "redeal"}]
    played = layout_deal(SWEEP, dealer=0, declarer=1, bid=100, contract=120)
    out = ok(record(talon_redeal, played, options={**BOLTS_OFF, "deals": 1,
                                                   "boards_from_zero": True}))  # fmt: skip
    assert [e["outcome"] for e in out["deals"]] == ["redeal", "made"]
    assert out["deals"][0]["scores"] == [0, 0, 0]
    assert (out["winner"], out["finished_by"]) == (1, "deals")


# --------------------------------------------------------------------------- properties

pure_options_st = options_st.map(lambda o: o.replace(deals=o.deals or 4, boards_from_zero=True))


def play_out(options: Options, seed: int, play: int, style: Any, limit: int = 400) -> Match:
    match = Match.new(options, seed=seed)
    rng = random.Random(play)
    for _ in range(limit):
        if match.over:
            break
        match.apply(choose(rng, match, match.legal_actions(), style), seat=match.to_act)
    return match


@settings(max_examples=60, deadline=None)
@given(options=pure_options_st, seed=seeds, play=seeds, style=style_st)
def test_every_deal_plays_as_the_first_deal_of_a_fresh_match(options, seed, play, style):
    """§3.8: with the same cards and dealer, every deal offers the same actions at every
    step, and gives the same deltas, as a new match's first deal (golden as its place in
    the match says, §9.13)."""
    match = play_out(options, seed, play, style)
    rec = match.to_record()
    counted = 0
    for k, log in enumerate(match.log):
        # The match as it stood before deal k, and a new match whose first deal it is.
        replica = Match.from_record({**rec, "deals": rec["deals"][:k]})
        dealer = replica.dealer
        golden = options.golden and counted < options.players
        fresh_options = options.replace(deals=None, boards_from_zero=False, golden=golden)
        fresh = Match.empty(fresh_options, first_dealer=dealer)
        fresh.start_deal(list(log.hands), log.talons)
        replica.start_deal(list(log.hands), log.talons)
        for seat, action in log.actions:
            assert set(fresh.legal_actions()) == set(replica.legal_actions())
            assert fresh.to_act == replica.to_act == seat
            fresh.apply(action, seat=seat)
            replica.apply(action, seat=seat)
        if k < len(match.results):
            assert fresh.results[0].deltas == match.results[k].deltas
            assert fresh.results[0].outcome is match.results[k].outcome
            counted += match.results[k].outcome is not Outcome.REDEAL


@settings(max_examples=60, deadline=None)
@given(options=pure_options_st, seed=seeds, play=seeds, style=style_st)
def test_the_match_score_is_the_sum_of_the_deltas(options, seed, play, style):
    match = play_out(options, seed, play, style)
    n = options.players
    sums = [sum(r.deltas[s] for r in match.results) for s in range(n)]
    assert match.scores == sums
    assert all(r.bolts == (0,) * n and r.barrel is None for r in match.results)
    counted = sum(r.outcome is not Outcome.REDEAL for r in match.results)
    assert [r.golden for r in match.results if r.outcome is not Outcome.REDEAL] == [
        options.golden and i < n for i in range(counted)
    ]
    if match.over:
        assert counted == options.deals and match.finished_by.value == "deals"
        top = max(sums)
        assert match.winner == (sums.index(top) if sums.count(top) == 1 else None)
    else:
        assert counted < options.deals


@settings(max_examples=40, deadline=None)
@given(options=pure_options_st, seed=seeds, play=seeds, style=style_st)
def test_records_round_trip_and_replay_the_same_match(options, seed, play, style):
    match = play_out(options, seed, play, style)
    rec = match.to_record()
    assert rec["options"]["boards_from_zero"] is True
    again = Match.from_record(rec)
    assert again.to_record() == rec
    assert (again.scores, again.winner, again.finished_by) == (
        match.scores,
        match.winner,
        match.finished_by,
    )
    assert [r.to_dict() for r in again.results] == [r.to_dict() for r in match.results]
