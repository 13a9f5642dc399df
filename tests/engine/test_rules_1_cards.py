"""docs/spec.md §1: cards — 24 cards, order A T K Q J 9, points 11 10 4 3 2 0, notation, and
the marriage values (♠40 ♣60 ♦80 ♥100, four aces 200)."""

from __future__ import annotations

import copy

import pytest

from tests.engine.records import (
    L,
    bids,
    deal,
    deal_with,
    err,
    layout_deal,
    legal,
    ok,
    record,
    rounding_layout,
)


def after_trick_one(p):
    """rounding_layout(p) with seat 1 declaring; stop after the first trick."""
    d = layout_deal(rounding_layout(p), dealer=0, declarer=1, bid=100, contract=100, tricks=1)
    return ok(record(d))


@pytest.mark.parametrize(
    ("p", "trick"),
    [(12, "9S TS JS"), (13, "9S TS QS"), (17, "QS TS KS"), (18, "QS AS KS")],
)
def test_highest_card_of_the_suit_led_wins(p, trick):
    # Seat 1 leads, seat 2 plays the highest spade (T over K, Q, J, 9; A over K, Q).
    out = after_trick_one(p)
    assert out["next"]["seat"] == 2, trick


@pytest.mark.parametrize(("p", "rounded"), [(12, 10), (13, 15), (17, 15), (18, 20)])
def test_card_points_9_J_Q_K_T_A(p, rounded):
    # 9S TS JS = 0+10+2; 9S TS QS = 13; QS TS KS = 3+10+4; QS AS KS = 3+11+4.
    d = layout_deal(rounding_layout(p), dealer=0, declarer=1, bid=100, contract=100)
    e = ok(record(d))["deals"][0]
    assert e["deltas"][2] == rounded


@pytest.mark.parametrize(
    ("hand", "cap"),
    [
        ("KS QS AC TC AD TD JH", 160),
        ("KC QC AS TS AD TD JH", 180),
        ("KD QD AS TS AC TC JH", 200),
        ("KH QH AS TS AC TC JD", 220),
        ("AS AC AD AH TS TC TD", 320),
        ("KS QS KC QC KD QD AH", 300),
    ],
)
def test_marriage_values(hand, cap):
    out = ok(record(deal_with({2: hand}), options={"redeal": False}))
    assert legal(out) == L(*bids(105, cap), "pass")


def test_king_and_queen_of_different_suits_are_no_marriage():
    out = ok(record(deal_with({2: "KS QC KD QH AS TS AC"}), options={"redeal": False}))
    assert legal(out) == L(*bids(105, 120), "pass")


def test_ten_written_as_10_is_accepted():
    d = deal_with({2: "AS TS AC TC AD TD KH"})
    d["hands"][2] = ["AS", "10S", "AC", "10C", "AD", "10D", "KH"]
    out = ok(record(d, options={"redeal": False}))
    assert legal(out) == L(*bids(105, 120), "pass")


@pytest.mark.parametrize("bad", ["1H", "th", "10h", "AX", "ts", "11S", "T", "", "10", "XH"])
def test_malformed_card_is_rejected(bad):
    d = deal_with({2: "AS TS AC TC AD TD KH"})
    d["hands"][2][1] = bad
    e = err(record(d))
    assert (e["deal"], e["action"]) == (0, None)


def test_deck_has_24_distinct_cards():
    d = deal_with({})
    bad = copy.deepcopy(d)
    bad["hands"][0][0] = bad["hands"][1][0]  # a duplicate, one card missing
    assert err(record(bad))["deal"] == 0
    short = deal([h[:] for h in d["hands"]], d["talon"][:2], [], check=False)
    assert err(record(short))["deal"] == 0
