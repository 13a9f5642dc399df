"""docs/spec.md §2.8-§2.9: one deal, three players — scoring, writing off and redeals.

Unless a test says otherwise seat 0 deals, seat 1 sits on the forced 100 and seat 2
speaks first. ``layout_deal(..., dealer=0, declarer=1)`` puts the declarer in seat 1,
opp1 in seat 2 and opp2 in seat 0, so deltas read ``[opp2, D, opp1]``.
"""

from __future__ import annotations

import pytest

from tests.engine.records import (
    ONE_SHORT,
    SWEEP,
    SWEEP_NO_HEARTS,
    L,
    contracts,
    deal_with,
    err,
    forced_declarer_deal,
    layout_deal,
    legal,
    ok,
    only_entry,
    record,
    rounding_layout,
)

# --------------------------------------------------------------------------- 2.8 scoring


@pytest.mark.parametrize(("p", "rounded"), [(12, 10), (13, 15), (17, 15), (18, 20)])
def test_defender_card_points_are_rounded_to_5(p, rounded):
    entry = only_entry(record(forced_declarer_deal(rounding_layout(p), 100)))
    assert entry["outcome"] == "made"
    assert entry["deltas"] == [0, 100, rounded]
    assert entry["bolts"] == [1, 0, 0]


def test_defender_101_rounds_to_100():
    entry = only_entry(record(forced_declarer_deal(ONE_SHORT, 120)))
    assert entry["deltas"][2] == 100


def test_declarer_119_of_120_fails():
    # 19 card points + ♥ 100 = 119: never rounded up.
    entry = only_entry(record(forced_declarer_deal(ONE_SHORT, 120)))
    assert entry["outcome"] == "failed"
    assert entry["contract"] == 120
    assert entry["deltas"] == [0, -120, 100]
    assert entry["bolts"] == [1, 0, 0]


def test_declarer_excess_not_credited():
    # 200 points on a contract of 120: +120.
    entry = only_entry(record(forced_declarer_deal(SWEEP_NO_HEARTS, 120)))
    assert entry["deltas"] == [0, 120, 0]
    # 108 card points on the forced 100: +100.
    entry = only_entry(record(forced_declarer_deal(rounding_layout(12), 100)))
    assert entry["deltas"][1] == 100


def test_declarer_card_points_not_rounded_when_making():
    # 102 card points (rounding_layout(18)) make a contract of 100 but not 105.
    assert only_entry(record(forced_declarer_deal(rounding_layout(18), 100)))["deltas"][1] == 100
    d = layout_deal(rounding_layout(18), dealer=0, declarer=2, bid=105, contract=105)
    entry = only_entry(record(d))
    assert entry["outcome"] == "failed"
    assert entry["deltas"][2] == -105


def test_defenders_taking_no_trick_score_zero():
    entry = only_entry(record(forced_declarer_deal(SWEEP, 300)))
    assert entry["deltas"] == [0, 300, 0]


# --------------------------------------------------------------------------- write-off


def write_off_deal(bid):
    if bid == 100:
        return layout_deal(SWEEP, dealer=0, declarer=1, bid=100, write_off=True)
    return layout_deal(SWEEP, dealer=0, declarer=2, bid=bid, write_off=True)


@pytest.mark.parametrize(
    ("bid", "half"), [(100, 50), (105, 50), (110, 55), (115, 55), (120, 60), (125, 60), (300, 150)]
)
def test_write_off_costs_the_bid_and_gives_each_opponent_round5_of_half(bid, half):
    entry = only_entry(record(write_off_deal(bid)))
    assert entry["outcome"] == "written_off"
    assert entry["contract"] == bid
    declarer = 1 if bid == 100 else 2
    assert entry["declarer"] == declarer
    expected = [half, half, half]
    expected[declarer] = -bid
    assert entry["deltas"] == expected
    assert entry["scores"] == expected
    assert entry["bolts"] == [0, 0, 0]


def test_write_off_without_penalty_gives_declarer_0_and_one_bolt():
    entry = only_entry(record(write_off_deal(115), options={"write_off_penalty": False}))
    assert entry["deltas"] == [55, 55, 0]
    assert entry["scores"] == [55, 55, 0]
    assert entry["bolts"] == [0, 0, 1]


def test_write_off_without_penalty_and_bolts_off_costs_nothing():
    entry = only_entry(
        record(write_off_deal(115), options={"write_off_penalty": False, "bolts": "off"})
    )
    assert entry["deltas"] == [55, 55, 0]
    assert entry["bolts"] == [0, 0, 0]


def test_write_off_option_off_removes_write_off():
    rec = record(
        forced_declarer_deal(SWEEP, 100, stop_after_gives=True), options={"write_off": False}
    )
    assert legal(ok(rec)) == L(*contracts(100, 300))
    rec = record(write_off_deal(105), options={"write_off": False})
    e = err(rec)
    assert (e["deal"], e["action"]) == (0, 5)


def test_write_off_only_after_both_gives():
    d = write_off_deal(105)
    acts = d["actions"]
    d["actions"] = acts[:4] + [acts[5]]  # write_off after one give
    e = err(record(d))
    assert (e["deal"], e["action"]) == (0, 4)


# --------------------------------------------------------------------------- 2.9 redeal


@pytest.mark.parametrize(
    ("hand", "eligible"),
    [
        ("KS JS 9C JC QD JD 9H", True),  # 13 points
        ("KS JS JC JD KH 9C 9D", False),  # 14 points, 2 nines, 3 jacks
        ("9S 9C 9D JS QS KS TS", True),  # 3 nines (19 points)
        ("9S 9C 9D 9H AS AC AD", True),  # 4 nines
        ("JS JC JD JH AS AC AD", True),  # 4 jacks
        ("9S 9C JS JC JD AH TH", False),  # 2 nines, 3 jacks, 27 points
    ],
)
def test_hand_redeal_eligibility(hand, eligible):
    out = ok(record(deal_with({2: hand})))
    assert out["next"]["seat"] == 2
    offered = L("redeal") <= legal(out)
    assert offered == eligible


def test_no_hand_redeal_after_a_call():
    d = deal_with(
        {2: "KS JS 9C JC QD JD 9H", 1: "AS TS AC TC AD TD KH"},
        acts=["2 bid 105", "0 pass", "1 bid 110"],
    )
    out = ok(record(d))
    assert out["next"]["seat"] == 2
    assert legal(out) == L("bid 115", "bid 120", "pass")


def test_forced_bidder_may_ask_for_hand_redeal_at_his_first_turn():
    d = deal_with({1: "KS JS 9C JC QD JD 9H"}, acts=["2 bid 105", "0 pass"])
    out = ok(record(d))
    assert out["next"]["seat"] == 1
    assert L("redeal") <= legal(out)


def test_redeal_option_off():
    out = ok(record(deal_with({2: "9S 9C 9D 9H AS AC AD"}), options={"redeal": False}))
    assert L("redeal").isdisjoint(legal(out))


def test_hand_redeal_entry_and_same_dealer_deals_again():
    d0 = deal_with({2: "9S 9C 9D JS QS KS TS"}, acts=["2 redeal"])
    d1 = forced_declarer_deal(SWEEP, 100)
    out = ok(record(d0, d1))
    assert out["deals"][0] == {
        "dealer": 0,
        "declarer": None,
        "contract": None,
        "outcome": "redeal",
        "deltas": [0, 0, 0],
        "scores": [0, 0, 0],
        "bolts": [0, 0, 0],
        "barrel": None,
    }
    assert out["deals"][1]["dealer"] == 0
    assert out["deals"][1]["declarer"] == 1
    assert out["deals"][1]["scores"] == [0, 100, 0]


def test_redeal_scores_nothing_and_keeps_state():
    # A played deal, then a redeal: scores and bolts unchanged, dealer unchanged.
    d0 = forced_declarer_deal(SWEEP, 100)  # dealer 0: [0, 100, 0], bolts [1, 0, 1]
    d1 = deal_with({0: "KS JS 9C JC QD JD 9H"}, acts=["0 redeal"])  # dealer 1: seat 0 first
    out = ok(record(d0, d1, deal_with({})))
    assert out["deals"][1]["outcome"] == "redeal"
    assert out["deals"][1]["dealer"] == 1
    assert out["deals"][1]["scores"] == [0, 100, 0]
    assert out["deals"][1]["bolts"] == [1, 0, 1]
    assert out["deals"][1]["deltas"] == [0, 0, 0]
    assert out["next"]["seat"] == 0  # dealer 1 again: seat 0 speaks first


@pytest.mark.parametrize(
    ("talon", "eligible"),
    [
        ("9H JH QC", True),  # 5 points
        ("9S KS JC", False),  # 6 points, 1 nine, 1 jack
        ("9S 9C AH", True),  # 2 nines
        ("JS JC JH", True),  # 3 jacks
        ("JS JC QH", False),  # 7 points, 2 jacks
    ],
)
def test_talon_redeal_eligibility(talon, eligible):
    d = deal_with({1: "AS TS AC TC AD TD KH"}, talon=talon, acts=["2 pass", "0 pass"])
    out = ok(record(d))
    assert out["next"]["seat"] == 1
    assert (L("redeal") <= legal(out)) == eligible


def test_talon_redeal_entry_names_the_declarer():
    d0 = deal_with(
        {1: "AS TS AC TC AD TD KH"}, talon="9H JH QC", acts=["2 pass", "0 pass", "1 redeal"]
    )
    out = ok(record(d0, deal_with({})))
    assert out["deals"][0] == {
        "dealer": 0,
        "declarer": 1,
        "contract": None,
        "outcome": "redeal",
        "deltas": [0, 0, 0],
        "scores": [0, 0, 0],
        "bolts": [0, 0, 0],
        "barrel": None,
    }
    assert out["next"]["seat"] == 2  # same dealer


def test_no_talon_redeal_after_the_first_give():
    d = deal_with(
        {1: "AS TS AC TC AD TD KH"}, talon="9H JH QC", acts=["2 pass", "0 pass", "1 give 2 9H"]
    )
    out = ok(record(d))
    assert L("redeal").isdisjoint(legal(out))
