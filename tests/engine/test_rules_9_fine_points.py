"""docs/spec.md §9: fine points — each test settles one case the earlier sections leave open.

(§9.1 redeal details, §9.7 and §9.9 four players and §9.8 dark/golden are also covered in
the modules of §2, §5 and §6.)
"""

from __future__ import annotations

import copy

from tests.engine.records import (
    BIG,
    DEFENDER_MARRIAGE,
    SWEEP,
    L,
    contracts,
    deal_with,
    layout_deal,
    legal,
    ok,
    record,
    rounding_layout,
)

# Seat 0 arrives in three deals, first dealer 2 (see test_rules_3_match.ARRIVE_0).
ARRIVE_0 = [
    layout_deal(BIG, dealer=2, declarer=0, bid=100, contract=420),
    layout_deal(BIG, dealer=0, declarer=0, bid=120, contract=420),
    layout_deal(SWEEP, dealer=1, declarer=0, bid=120, contract=120),
]


def arrive_0():
    return copy.deepcopy(ARRIVE_0)


# --------------------------------------------------------------------------- 9.1


def test_redeal_counts_are_minimums():
    # four nines in hand, three nines in the talon
    out = ok(record(deal_with({2: "9S 9C 9D 9H AS AC AD"})))
    assert L("redeal") <= legal(out)
    d = deal_with({1: "AS TS AC TC AD TD KH"}, talon="9S 9C 9D", acts=["2 pass", "0 pass"])
    assert L("redeal") <= legal(ok(record(d)))


# --------------------------------------------------------------------------- 9.2


def test_contract_cap_counts_ace_marriage_and_is_not_clamped_at_420():
    # Seat 1 holds four aces, ♥K Q and ♦K, takes ♦Q from the talon: 120 + 200 + 100 + 80.
    d = deal_with(
        {1: "AS AC AD AH KH QH KD"},
        talon="QD 9S 9C",
        acts=["2 pass", "0 pass", "1 give 2 9S", "1 give 0 9C"],
    )
    assert legal(ok(record(d))) == L(*contracts(100, 500), "write_off")


def test_exact_steps_sitter_only_bid_is_max_of_next_step_and_120():
    opts = {"bid_jumps": False, "bolts": "off"}
    deals = [
        layout_deal(BIG, dealer=2, declarer=0, bid=100, contract=420),
        layout_deal(BIG, dealer=0, declarer=0, bid=105, contract=420),
        layout_deal(SWEEP, dealer=1, declarer=0, bid=105, contract=120),  # 960 -> 880
        deal_with({}),  # dealer 2: the sitter is forced at 120
    ]
    out = ok(record(*deals, options=opts, first_dealer=2))
    assert out["deals"][2]["barrel"] == 0
    assert out["next"]["seat"] == 1
    assert legal(out) == L("bid 125", "pass")
    deals[3] = layout_deal(
        SWEEP, dealer=2, declarer=1, bidding=["1 bid 125", "2 pass", "0 pass"], contract=125
    )
    # dealer 0: seat 2 bids 105; the sitter (seat 0, KS TS AS 9C JC QC KC) may only bid 120.
    deals.append(deal_with({}, acts=["2 bid 105"]))
    out = ok(record(*deals, options=opts, first_dealer=2))
    assert out["next"]["seat"] == 0
    assert legal(out) == L("bid 120", "pass")


# --------------------------------------------------------------------------- 9.3


def test_sitter_win_ends_the_match_before_bolts_and_samosval():
    deals = [
        *arrive_0(),  # default bolts: [880, -120, -120], bolts [0, 0, 0]
        layout_deal(
            SWEEP, dealer=2, declarer=1, bidding=["1 bid 125", "2 pass", "0 pass"], contract=125
        ),  # seat 2: bolt 1 (the sitter is exempt)
        layout_deal(SWEEP, dealer=0, declarer=1, bid=100, contract=100),  # seat 2: bolt 2
        layout_deal(SWEEP, dealer=1, declarer=0, bid=120, contract=300),  # the sitter wins
    ]
    out = ok(record(*deals, first_dealer=2))
    assert out["deals"][4]["bolts"] == [0, 0, 2]
    assert out["winner"] == 0
    last = out["deals"][5]
    assert last["scores"] == [1180, 105, -120]
    assert last["bolts"] == [0, 0, 2]  # seat 2 took no trick, but step 3 is not applied
    assert last["barrel"] == 0


# --------------------------------------------------------------------------- 9.4


def test_written_off_deal_uses_an_attempt_a_redeal_does_not():
    deals = [
        *arrive_0(),
        # dealer 2: seat 1 outbids the sitter and writes off: -125, 60 each (not credited
        # to the sitter). Attempt 1.
        layout_deal(
            SWEEP, dealer=2, declarer=1, bidding=["1 bid 125", "2 pass", "0 pass"], write_off=True
        ),
        deal_with({2: "9S 9C 9D JS QS KS TS"}, acts=["2 redeal"]),  # dealer 0: no attempt
        layout_deal(SWEEP, dealer=0, declarer=1, bid=100, contract=100),  # attempt 2
        layout_deal(SWEEP, dealer=1, declarer=2, bid=100, contract=100),  # attempt 3
    ]
    out = ok(record(*deals, options={"bolts": "off"}, first_dealer=2))
    assert out["deals"][3]["deltas"] == [60, -125, 60]
    assert out["deals"][3]["scores"] == [880, -125, 60]
    assert out["deals"][4]["outcome"] == "redeal"
    assert [e["barrel"] for e in out["deals"][3:]] == [0, 0, 0, None]
    assert out["deals"][5]["dealer"] == 0
    assert out["deals"][6]["scores"] == [760, -25, 160]


def test_arrival_deal_is_not_an_attempt():
    deals = [
        *arrive_0(),
        layout_deal(
            SWEEP, dealer=2, declarer=1, bidding=["1 bid 125", "2 pass", "0 pass"], contract=125
        ),
        layout_deal(SWEEP, dealer=0, declarer=1, bid=100, contract=100),
    ]
    out = ok(record(*deals, options={"bolts": "off"}, first_dealer=2))
    assert [e["barrel"] for e in out["deals"]] == [None, None, 0, 0, 0]
    assert out["deals"][4]["scores"][0] == 880


# --------------------------------------------------------------------------- 9.5

# The sitter defends three deals taking no trick (first dealer 2).
THREE_BLANK_ATTEMPTS = [
    layout_deal(
        SWEEP, dealer=2, declarer=1, bidding=["1 bid 125", "2 pass", "0 pass"], contract=125
    ),
    layout_deal(SWEEP, dealer=0, declarer=1, bid=100, contract=100),
    layout_deal(SWEEP, dealer=1, declarer=2, bid=100, contract=100),
]


def test_not_on_barrel_exempts_sitter_from_bolts():
    out = ok(record(*arrive_0(), *copy.deepcopy(THREE_BLANK_ATTEMPTS), first_dealer=2))
    assert [e["bolts"] for e in out["deals"][3:]] == [[0, 0, 1], [0, 0, 2], [0, 1, 2]]
    assert out["deals"][5]["scores"] == [760, 105, -20]


def test_always_sitter_who_fell_off_in_step_2_takes_bolt_penalty_in_step_3():
    out = ok(
        record(
            *arrive_0(),
            *copy.deepcopy(THREE_BLANK_ATTEMPTS),
            options={"bolts": "always"},
            first_dealer=2,
        )
    )
    assert [e["bolts"] for e in out["deals"][3:]] == [[1, 0, 1], [2, 0, 2], [0, 1, 2]]
    assert out["deals"][4]["scores"] == [880, 105, -120]
    last = out["deals"][5]
    assert last["scores"] == [640, 105, -20]  # 880 - 120 (attempts) - 120 (third bolt)
    assert last["barrel"] is None


# Seat 0 arrives with two bolts (first dealer 2).
ARRIVE_WITH_TWO_BOLTS = [
    layout_deal(BIG, dealer=2, declarer=1, bid=120, contract=420),  # [0,420,0] b[1,0,1]
    layout_deal(BIG, dealer=0, declarer=2, bid=120, contract=420),  # [0,420,420] b[2,1,1]
    layout_deal(BIG, dealer=1, declarer=0, bid=120, contract=420),  # [420,...] b[2,2,2]
    layout_deal(BIG, dealer=2, declarer=0, bid=100, contract=420),  # [840,300,300] b[2,0,0]
    layout_deal(BIG, dealer=0, declarer=0, bid=120, contract=420),  # 880 sits, b[2,1,1]
    layout_deal(SWEEP, dealer=1, declarer=2, bid=100, contract=100),  # sitter takes no trick
]


def test_always_sitter_reaching_three_bolts_falls_off():
    out = ok(
        record(*copy.deepcopy(ARRIVE_WITH_TWO_BOLTS), options={"bolts": "always"}, first_dealer=2)
    )
    assert out["deals"][3]["scores"] == [840, 300, 300]
    assert out["deals"][4]["scores"] == [880, 300, 300]
    assert out["deals"][4]["bolts"] == [2, 1, 1]
    last = out["deals"][5]
    assert last["scores"] == [760, 300, 400]
    assert last["bolts"] == [0, 2, 1]
    assert last["barrel"] is None


def test_not_on_barrel_sitter_keeps_bolt_count_and_seat():
    out = ok(record(*copy.deepcopy(ARRIVE_WITH_TWO_BOLTS), first_dealer=2))
    last = out["deals"][5]
    assert last["scores"] == [880, 300, 400]
    assert last["bolts"] == [2, 2, 1]
    assert last["barrel"] == 0


# --------------------------------------------------------------------------- 9.10


def test_barrel_off_several_at_target_declarer_among_them_wins():
    # deal 0 (dealer 0): seat 2 bids 105, contracts 110 and fails (108); seat 1 (the
    # defender who wins trick 1 and declares ♦) +90. deal 1 (dealer 1): seat 0 makes 105,
    # seat 1 again +90: [105, 180, -110]. Target 100: seats 0 and 1 reach it; seat 0 declared.
    d0 = layout_deal(DEFENDER_MARRIAGE.swapped(), dealer=0, declarer=2, bid=105, contract=110)
    d1 = layout_deal(DEFENDER_MARRIAGE, dealer=1, declarer=0, bid=105, contract=105)
    out = ok(record(d0, d1, options={"barrel": False, "target": 100}))
    assert out["deals"][0]["scores"] == [0, 90, -110]
    assert out["deals"][1]["scores"] == [105, 180, -110]
    assert out["winner"] == 0


def test_barrel_off_several_at_target_without_declarer_unique_highest_wins():
    # deal 0 (dealer 0): seat 1 makes 100, seat 2 +10. deal 1 (dealer 1): seat 2, forced,
    # raises to 300 over seat 0's 105 and writes off: seats 0 and 1 +150 each.
    d0 = layout_deal(rounding_layout(12), dealer=0, declarer=1, bid=100, contract=100)
    d1 = layout_deal(SWEEP, dealer=1, declarer=2, bid=300, write_off=True)
    out = ok(record(d0, d1, options={"barrel": False, "target": 150}))
    assert out["deals"][0]["scores"] == [0, 100, 10]
    assert out["deals"][1]["scores"] == [150, 250, -290]
    assert out["winner"] == 1


def test_barrel_off_equal_highest_at_target_play_on():
    d0 = layout_deal(SWEEP, dealer=0, declarer=2, bid=105, write_off=True)
    out = ok(record(d0, options={"barrel": False, "target": 50}))
    assert out["deals"][0]["scores"] == [50, 50, -105]
    assert out["winner"] is None
    assert out["next"] == {"seat": None, "legal": []}


# --------------------------------------------------------------------------- 9.11


def test_show_talon_on_100_does_not_change_replay_output():
    deals = [
        layout_deal(SWEEP, dealer=0, declarer=1, bid=100, contract=120),
        layout_deal(SWEEP, dealer=1, declarer=2, bid=100, contract=100, tricks=3),
    ]
    a = ok(record(*copy.deepcopy(deals), options={"show_talon_on_100": True}))
    b = ok(record(*copy.deepcopy(deals), options={"show_talon_on_100": False}))
    assert a == b


# Seat 0 arrives with two bolts while seat 2 is at 850 (first dealer 2); then seat 2
# arrives in the deal in which seat 0 takes no trick.
SITTER_AND_CHASER = [
    layout_deal(BIG, dealer=2, declarer=2, bid=120, contract=420),  # [0, 0, 420] b[1, 1, 0]
    layout_deal(BIG, dealer=0, declarer=2, bid=120, contract=420),  # [0, 0, 840] b[2, 2, 0]
    layout_deal(BIG, dealer=1, declarer=0, bid=120, contract=420),  # [420, -120, 840] b[2, 0, 1]
    layout_deal(BIG, dealer=2, declarer=0, bid=100, contract=420),  # [840, -120, 840] b[2, 1, 2]
    # dealer 0: seat 0 deals, bids 105, makes 108: 945 -> 880 sits; seat 2 wins trick 1: +10
    layout_deal(rounding_layout(12).swapped(), dealer=0, declarer=0, bid=105, contract=105),
    # dealer 1: seat 2 forced makes 100: 950, arrives; seat 0 and seat 1 take no trick
    layout_deal(SWEEP, dealer=1, declarer=2, bid=100, contract=100),
]


def test_always_sitter_falling_by_bolts_is_not_displaced_again():
    out = ok(record(*copy.deepcopy(SITTER_AND_CHASER), options={"bolts": "always"}, first_dealer=2))
    assert out["deals"][4]["scores"] == [880, -120, 850]
    assert out["deals"][4]["bolts"] == [2, 2, 2]
    assert out["deals"][4]["barrel"] == 0
    last = out["deals"][5]
    # step 3: seat 0's third bolt drops him to 760 (off the barrel); seat 1's third bolt
    # -120; step 4: seat 2 arrives alone and sits, nobody to displace.
    assert last["scores"] == [760, -240, 880]
    assert last["bolts"] == [0, 0, 2]
    assert last["barrel"] == 2


def test_not_on_barrel_arrival_displaces_sitter_who_took_no_trick():
    out = ok(record(*copy.deepcopy(SITTER_AND_CHASER), first_dealer=2))
    last = out["deals"][5]
    assert last["scores"] == [760, -240, 880]
    assert last["bolts"] == [2, 0, 2]
    assert last["barrel"] == 2
