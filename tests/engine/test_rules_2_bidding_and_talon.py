"""docs/spec.md §2.2-§2.5: one deal, three players — bidding, the talon, gives and the
contract.

Unless a test says otherwise seat 0 deals, seat 1 sits on the forced 100 and seat 2
speaks first. ``layout_deal(..., dealer=0, declarer=1)`` puts the declarer in seat 1,
opp1 in seat 2 and opp2 in seat 0, so deltas read ``[opp2, D, opp1]``.
"""

from __future__ import annotations

import pytest

from tests.engine.records import (
    NO_REDEAL,
    SWEEP,
    L,
    bids,
    contracts,
    deal_with,
    err,
    forced_declarer_deal,
    layout_deal,
    legal,
    ok,
    only_entry,
    plays,
    record,
)

# --------------------------------------------------------------------------- 2.2 bidding


def test_player_after_the_forced_bidder_speaks_first():
    for first_dealer, first_speaker in ((0, 2), (1, 0), (2, 1)):
        rec = record(deal_with({}), options=NO_REDEAL, first_dealer=first_dealer)
        assert ok(rec)["next"]["seat"] == first_speaker


def test_bids_are_multiples_of_5_from_105_up_to_the_cap():
    rec = record(deal_with({2: "AS TS AC TC AD TD KH"}), options=NO_REDEAL)
    out = ok(rec)
    assert legal(out) == L(*bids(105, 120), "pass")


def test_jumps_allowed_next_bid_at_least_5_above():
    rec = record(deal_with({2: "AS TS AC TC AD KH QH"}, acts=["2 bid 150"]), options=NO_REDEAL)
    out = ok(rec)
    assert out["next"]["seat"] == 0
    # leftover cards in deck order: talon 9S JS QS, seat 0 KS 9C JC QC KC 9D JD (♣: 180)
    assert legal(out) == L(*bids(155, 180), "pass")


def test_forced_bidder_may_raise_or_pass_when_his_turn_comes_again():
    rec = record(
        deal_with({1: "AS TS AC TC AD TD KH"}, acts=["2 bid 105", "0 pass"]), options=NO_REDEAL
    )
    out = ok(rec)
    assert out["next"]["seat"] == 1
    assert legal(out) == L(*bids(110, 120), "pass")


def test_pass_is_final_for_the_deal():
    # seat 2 passes, seat 0 bids 105, seat 1 bids 110: seat 0 speaks next, not seat 2.
    rec = record(
        deal_with({1: "AS TS AC TC AD TD KH"}, acts=["2 pass", "0 bid 105", "1 bid 110"]),
        options=NO_REDEAL,
    )
    assert ok(rec)["next"]["seat"] == 0


def test_bidding_ends_when_all_but_one_passed_and_he_is_declarer():
    # 2 bid 105, 0 pass, 1 pass: seat 2 declares at 105 and must give a card now.
    rec = record(layout_deal(SWEEP, dealer=0, declarer=2, bid=105, contract=105, tricks=0))
    rec["deals"][0]["actions"] = rec["deals"][0]["actions"][:3]
    out = ok(rec)
    assert out["next"]["seat"] == 2
    # the talon TD 9S 9C holds two nines: a talon redeal is offered too
    assert {a["type"] for a in out["next"]["legal"]} == {"give", "redeal"}


def test_everybody_else_passes_forced_bidder_is_declarer_at_100():
    entry = only_entry(record(forced_declarer_deal(SWEEP, 100)))
    assert entry["declarer"] == 1
    assert entry["contract"] == 100
    assert entry["deltas"] == [0, 100, 0]


def test_bid_not_a_multiple_of_5_is_illegal():
    rec = record(deal_with({2: "AS TS AC TC AD TD KH"}, acts=["2 bid 112"]))
    assert (err(rec)["deal"], err(rec)["action"]) == (0, 0)


def test_bid_only_5_above_is_required_not_equal():
    rec = record(deal_with({2: "AS TS AC TC AD KH QH"}, acts=["2 bid 150", "0 bid 150"]))
    e = err(rec)
    assert (e["deal"], e["action"]) == (0, 1)


@pytest.mark.parametrize(
    ("hand", "ace_marriage", "cap"),
    [
        ("AS TS AC TC AD TD KH", True, 120),  # no marriage (three aces)
        ("KS QS AC TC AD TD AH", True, 160),  # ♠ 40
        ("KC QC AS TS AD TD AH", True, 180),  # ♣ 60
        ("KD QD AS TS AC TC AH", True, 200),  # ♦ 80
        ("KH QH AS TS AC TC AD", True, 220),  # ♥ 100
        ("KS QS KH QH AC TC AD", True, 260),  # ♠ + ♥
        ("AS AC AD AH KH QH TS", True, 420),  # four aces 200 + ♥ 100
        ("AS AC AD AH KH QH TS", False, 220),  # ace marriage off: ♥ only
        ("AS AC AD AH TS TC TD", True, 320),  # four aces alone
    ],
)
def test_bid_cap_is_120_plus_marriages_in_dealt_hand(hand, ace_marriage, cap):
    rec = record(deal_with({2: hand}), options={"redeal": False, "ace_marriage": ace_marriage})
    out = ok(rec)
    assert out["next"]["seat"] == 2
    assert legal(out) == L(*bids(105, cap), "pass")


def test_bid_above_cap_is_illegal():
    rec = record(deal_with({2: "KS QS AC TC AD TD AH"}, acts=["2 bid 165"]))
    e = err(rec)
    assert (e["deal"], e["action"]) == (0, 0)


def test_no_legal_bid_above_cap_only_pass():
    # seat 2 bids 120; seat 0 holds no marriage (cap 120): only pass.
    rec = record(
        deal_with({0: "AS TS AC TC AD TD KH", 2: "KS QS KD QD JC 9C JD"}, acts=["2 bid 120"]),
        options=NO_REDEAL,
    )
    out = ok(rec)
    assert out["next"]["seat"] == 0
    assert legal(out) == L("pass")


# --------------------------------------------------------------------------- 2.3-2.5


def test_contract_from_winning_bid_to_120_plus_marriages_after_gives():
    rec = record(forced_declarer_deal(SWEEP, 100, stop_after_gives=True))
    out = ok(rec)
    assert out["next"]["seat"] == 1
    assert legal(out) == L(*contracts(100, 300), "write_off")


def test_contract_cap_counts_a_marriage_completed_by_the_talon():
    # Seat 1 (no marriage dealt, cap 120) takes QH from the talon to his KH: contract 220.
    d = deal_with(
        {1: "AS TS AC TC AD TD KH"},
        talon="QH 9S 9C",
        acts=["2 pass", "0 pass", "1 give 2 9S", "1 give 0 9C"],
    )
    out = ok(record(d))
    assert legal(out) == L(*contracts(100, 220), "write_off")


def test_contract_cap_drops_when_a_marriage_card_is_given_away():
    # SWEEP declarer gives KD away: only ♥ is left, contract at most 220.
    d = layout_deal(SWEEP, dealer=0, declarer=1, bid=100, contract=100, tricks=0)
    d["actions"] = d["actions"][:2] + [
        {"seat": 1, "type": "give", "to": 2, "card": "KD"},
        {"seat": 1, "type": "give", "to": 0, "card": "9C"},
    ]
    out = ok(record(d))
    assert legal(out) == L(*contracts(100, 220), "write_off")


def test_contract_never_below_the_winning_bid_even_after_giving_a_marriage_away():
    # Seat 2 bids 300 (cap 300), then gives KD away: 120 + 100 = 220 < 300, so only 300.
    d = layout_deal(SWEEP, dealer=0, declarer=2, bid=300, contract=300, tricks=0)
    d["actions"] = d["actions"][:3] + [
        {"seat": 2, "type": "give", "to": 0, "card": "KD"},
        {"seat": 2, "type": "give", "to": 1, "card": "9C"},
    ]
    out = ok(record(d))
    assert legal(out) == L("contract 300", "write_off")


def test_contract_above_its_cap_is_illegal():
    d = forced_declarer_deal(SWEEP, 305, tricks=0)
    e = err(record(d))
    assert (e["deal"], e["action"]) == (0, 4)


def test_contract_before_both_gives_is_illegal():
    d = forced_declarer_deal(SWEEP, 100, tricks=0)
    acts = d["actions"]
    d["actions"] = [acts[0], acts[1], acts[2], acts[4]]  # contract after one give
    e = err(record(d))
    assert (e["deal"], e["action"]) == (0, 3)


def test_giving_twice_to_the_same_opponent_is_illegal():
    d = forced_declarer_deal(SWEEP, 100, tricks=0)
    d["actions"][3] = {"seat": 1, "type": "give", "to": 2, "card": "9C"}
    e = err(record(d))
    assert (e["deal"], e["action"]) == (0, 3)


def test_declarer_leads_the_first_trick():
    out = ok(record(forced_declarer_deal(SWEEP, 100, tricks=0)))
    assert out["next"]["seat"] == 1
    assert legal(out) == L(*plays("AH TH KH QH KD QD AD TD"))
