"""docs/spec.md §2: one deal, three players — bidding, talon, gives, contract, play,
marriages, scoring, write-off, redeal, order of decisions.

Unless a test says otherwise seat 0 deals, seat 1 sits on the forced 100 and seat 2
speaks first. ``layout_deal(..., dealer=0, declarer=1)`` puts the declarer in seat 1,
opp1 in seat 2 and opp2 in seat 0, so deltas read ``[opp2, D, opp1]``.
"""

from __future__ import annotations

import pytest

from tests.engine.records import (
    BIG,
    DEFENDER_MARRIAGE,
    ONE_SHORT,
    SWEEP,
    SWEEP_NO_HEARTS,
    L,
    Layout,
    bids,
    contracts,
    deal,
    deal_with,
    err,
    layout_deal,
    legal,
    ok,
    plays,
    record,
    rounding_layout,
)

NO_REDEAL = {"redeal": False}


def only_entry(rec):
    out = ok(rec)
    assert len(out["deals"]) == 1
    return out["deals"][0]


def forced_declarer_deal(lay, contract, **kw):
    """Seat 1 is declarer at the forced 100 (seats 2 and 0 pass)."""
    return layout_deal(lay, dealer=0, declarer=1, bid=100, contract=contract, **kw)


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


# --------------------------------------------------------------------------- 2.6 play
# Seat 1 declares at 100: KS QS KD QD AD TD AH + JD; gives 9H to seat 2, 9C to seat 0.
TRUMP_DEAL_HANDS = ["TS AC TC KC QC JC 9D", "KS QS KD QD AD TD AH", "AS JS 9S TH KH QH JH"]
TRUMP_DEAL_TALON = "9H JD 9C"
TRUMP_DEAL_START = ["2 pass", "0 pass", "1 give 2 9H", "1 give 0 9C", "1 contract 100"]
TRUMP_DEAL_PLAYS = [
    "1 play AH",
    "2 play 9H",
    "0 play 9C",  # trick 1: no trump yet
    "1 play KS",
    "2 play JS",
    "0 play TS",  # trick 2: ♠ marriage, ♠ trump; TS wins
    "0 play JC",
    "1 play QS",
    "2 play 9S",  # trick 3: seat 1 trumps, seat 2 under-trumps
    "1 play KD",
    "2 play TH",
    "0 play 9D",  # trick 4: ♦ marriage, ♦ trump
]


def trump_deal_after(n_plays):
    d = deal(TRUMP_DEAL_HANDS, TRUMP_DEAL_TALON, TRUMP_DEAL_START + TRUMP_DEAL_PLAYS[:n_plays])
    return ok(record(d))


def test_follower_must_follow_suit_with_any_card_of_it():
    out = trump_deal_after(1)  # AH led
    assert out["next"]["seat"] == 2
    assert legal(out) == L(*plays("TH KH QH JH 9H"))
    out = trump_deal_after(4)  # KS led: AS, JS, 9S all allowed (no duty to beat)
    assert legal(out) == L(*plays("AS JS 9S"))


def test_without_trump_a_void_follower_plays_any_card():
    out = trump_deal_after(2)
    assert out["next"]["seat"] == 0
    assert legal(out) == L(*plays("TS AC TC KC QC JC 9D 9C"))


def test_void_follower_must_trump():
    out = trump_deal_after(7)  # JC led after ♠ became trump; seat 1 has no club
    assert out["next"]["seat"] == 1
    assert legal(out) == L("play QS")


def test_no_duty_to_over_trump():
    out = trump_deal_after(8)  # JC, QS: seat 2 has no club, holds AS and 9S
    assert out["next"]["seat"] == 2
    assert legal(out) == L(*plays("AS 9S"))


def test_highest_trump_wins_the_trick():
    out = trump_deal_after(9)  # QS won trick 3: seat 1 leads
    assert out["next"]["seat"] == 1


def test_ten_outranks_king():
    out = trump_deal_after(6)  # KS, JS, TS: TS wins, seat 0 leads
    assert out["next"]["seat"] == 0


def test_later_marriage_changes_trump():
    out = trump_deal_after(10)  # KD declares ♦: seat 2 has no ♦; ♠ is no longer trump
    assert out["next"]["seat"] == 2
    assert legal(out) == L(*plays("AS TH KH QH JH"))
    out = trump_deal_after(11)
    assert legal(out) == L("play 9D")


def test_revoke_when_able_to_trump_is_illegal():
    d = deal(TRUMP_DEAL_HANDS, TRUMP_DEAL_TALON, TRUMP_DEAL_START + TRUMP_DEAL_PLAYS[:7])
    d["actions"].append({"seat": 1, "type": "play", "card": "KD"})
    e = err(record(d))
    assert (e["deal"], e["action"]) == (0, 12)


# --------------------------------------------------------------------------- 2.7 marriages


def test_marriage_led_on_first_trick_does_not_count():
    # KH led to trick 1: only ♦ 80 counts, 120 + 80 = 200 < 250.
    entry = only_entry(record(forced_declarer_deal(SWEEP_NO_HEARTS, 250)))
    assert entry["outcome"] == "failed"
    assert entry["deltas"] == [0, -250, 0]


def test_marriages_declared_from_the_second_trick_count():
    # Same hands, KH led to trick 2: 120 + 100 + 80 = 300 >= 250.
    entry = only_entry(record(forced_declarer_deal(SWEEP, 250)))
    assert entry["outcome"] == "made"
    assert entry["deltas"] == [0, 250, 0]


def test_marriage_scores_even_when_its_trick_is_lost():
    # ONE_SHORT: ♥ declared at trick 2, whose trick the declarer loses: 19 + 100 = 119.
    entry = only_entry(record(forced_declarer_deal(ONE_SHORT, 115)))
    assert entry["outcome"] == "made"
    assert entry["deltas"] == [0, 115, 100]


def test_defender_declares_a_marriage_when_he_leads():
    # opp1 (seat 2) wins trick 1 (12 points), leads KD holding QD: round5(12) + 80 = 90.
    entry = only_entry(record(forced_declarer_deal(DEFENDER_MARRIAGE, 105)))
    assert entry["outcome"] == "made"  # 108 >= 105
    assert entry["deltas"] == [0, 105, 90]
    assert entry["bolts"] == [1, 0, 0]


def test_ace_marriage_scores_200():
    # BIG: 120 card points + 200 (aces, trick 2) + 100 (♥, trick 3) = 420.
    entry = only_entry(record(forced_declarer_deal(BIG, 420)))
    assert entry["outcome"] == "made"
    assert entry["deltas"] == [0, 420, 0]


def test_ace_marriage_without_the_option_scores_nothing():
    entry = only_entry(
        record(
            layout_deal(BIG, dealer=0, declarer=1, bid=100, contract=220),
            options={"ace_marriage": False},
        )
    )
    assert entry["deltas"] == [0, 220, 0]
    rec = record(
        layout_deal(BIG, dealer=0, declarer=1, bid=100, contract=225, tricks=0),
        options={"ace_marriage": False},
    )
    e = err(rec)
    assert (e["deal"], e["action"]) == (0, 4)  # contract 225 above 120 + 100


BIG_ACE_FIRST = Layout(
    BIG.hands,
    BIG.talon,
    BIG.gives,
    ((0, "AS 9S JC"), (0, "TH JH 9C"), *BIG.tricks[2:]),
)


def test_ace_marriage_led_on_first_trick_does_not_count():
    # AS led to trick 1: he no longer holds four aces afterwards. 120 + 100 = 220 < 225.
    entry = only_entry(record(forced_declarer_deal(BIG_ACE_FIRST, 225)))
    assert entry["outcome"] == "failed"
    assert entry["deltas"] == [0, -225, 0]


# Seat 1: AS AC AD AH TH TC TD + 9H; gives 9D to seat 2, 9C to seat 0.
ACES_HANDS = ["KC QC JC KH QH JH JD", "AS AC AD AH TH TC TD", "TS KS QS JS 9S KD QD"]
ACES_ACTS = [
    "2 pass",
    "0 pass",
    "1 give 2 9D",
    "1 give 0 9C",
    "1 contract 100",
    "1 play TH",
    "2 play 9S",
    "0 play JH",
    "1 play AS",
    "2 play KS",
    "0 play JD",  # ace marriage declared
    "1 play AC",
]


def test_ace_marriage_does_not_set_a_trump():
    out = ok(record(deal(ACES_HANDS, "9H 9C 9D", ACES_ACTS)))
    assert out["next"]["seat"] == 2
    # Seat 2 has no club; spades are not trump, so any card.
    assert legal(out) == L(*plays("TS QS JS KD QD 9D"))


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
