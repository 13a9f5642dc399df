"""docs/spec.md §3: the match — deal deltas, barrel, bolts, arrivals, samosval, end — and
the order of those steps.

Layouts used (see records.py): SWEEP (declarer makes anything up to 300, defenders take
no trick), SWEEP_NO_HEARTS (declarer has 200), BIG (up to 420), rounding_layout(12)
(declarer 108, cap 120; opp1 +10), DEFENDER_MARRIAGE (declarer 108; opp1 +90).
"""

from __future__ import annotations

from tests.engine.records import (
    BIG,
    DEFENDER_MARRIAGE,
    SWEEP,
    SWEEP_NO_HEARTS,
    L,
    bids,
    contracts,
    dealer_of,
    layout_deal,
    legal,
    ok,
    record,
    rounding_layout,
)

BOLTS_OFF = {"bolts": "off"}


def match(first_dealer, *specs, options=None, upto=None):
    """Deals from specs ``(layout, declarer, bid, contract, extra kwargs)`` in order."""
    deals = []
    for k, spec in enumerate(specs):
        lay, declarer, bid, contract, *rest = spec
        kw = rest[0] if rest else {}
        deals.append(
            layout_deal(
                lay,
                dealer=dealer_of(k, first_dealer),
                declarer=declarer,
                bid=bid,
                contract=contract,
                **kw,
            )
        )
    return record(*deals, options=options, first_dealer=first_dealer)


# Seat 0 arrives in three deals (first dealer 2): 420, 840, 960 -> 880.
ARRIVE_0 = [
    (BIG, 0, 100, 420),  # dealer 2: seat 0 forced
    (BIG, 0, 120, 420),  # dealer 0: seat 0 deals, bids 120
    (SWEEP, 0, 120, 120),  # dealer 1: seat 0 speaks first
]


# --------------------------------------------------------------------------- step 1, scores


def test_scores_start_at_zero_and_add_deltas():
    out = ok(match(0, (SWEEP, 1, 100, 120), (SWEEP, 2, 100, 150), options=BOLTS_OFF))
    assert [e["scores"] for e in out["deals"]] == [[0, 120, 0], [0, 120, 150]]


def test_dealer_rotates_left_after_every_deal():
    out = ok(match(1, (SWEEP, 2, 100, 100), (SWEEP, 0, 100, 100), (SWEEP, 1, 100, 100)))
    assert [e["dealer"] for e in out["deals"]] == [1, 2, 0]
    assert [e["declarer"] for e in out["deals"]] == [2, 0, 1]


# --------------------------------------------------------------------------- step 3, bolts


def test_player_taking_no_trick_gets_a_bolt():
    out = ok(match(0, (SWEEP, 1, 100, 120)))
    assert out["deals"][0]["bolts"] == [1, 0, 1]


def test_third_bolt_costs_120_and_resets_count():
    out = ok(match(0, (SWEEP, 1, 100, 120), (SWEEP, 1, 120, 120), (SWEEP, 1, 120, 120)))
    assert [e["bolts"] for e in out["deals"]] == [[1, 0, 1], [2, 0, 2], [0, 0, 0]]
    assert [e["scores"] for e in out["deals"]] == [[0, 120, 0], [0, 240, 0], [-120, 360, -120]]
    assert out["deals"][2]["deltas"] == [0, 120, 0]  # deltas are before section 3


def test_bolts_off_gives_no_bolts():
    out = ok(
        match(
            0, (SWEEP, 1, 100, 120), (SWEEP, 1, 120, 120), (SWEEP, 1, 120, 120), options=BOLTS_OFF
        )
    )
    assert [e["bolts"] for e in out["deals"]] == [[0, 0, 0]] * 3
    assert out["deals"][2]["scores"] == [0, 360, 0]


def test_taking_one_trick_is_enough_to_avoid_a_bolt():
    # rounding_layout: opp1 (seat 2) takes trick 1, opp2 (seat 0) nothing.
    out = ok(match(0, (rounding_layout(12), 1, 100, 100)))
    assert out["deals"][0]["bolts"] == [1, 0, 0]


# --------------------------------------------------------------------------- step 5, samosval


def test_samosval_555_becomes_0():
    out = ok(match(0, (SWEEP, 1, 100, 300), (SWEEP, 1, 255, 255)))
    assert out["deals"][1]["deltas"] == [0, 255, 0]
    assert out["deals"][1]["scores"] == [0, 0, 0]


def test_samosval_minus_555_becomes_0():
    out = ok(match(0, (SWEEP_NO_HEARTS, 1, 100, 300), (SWEEP_NO_HEARTS, 1, 255, 255)))
    assert out["deals"][0]["scores"] == [0, -300, 0]
    assert out["deals"][1]["deltas"] == [0, -255, 0]
    assert out["deals"][1]["scores"] == [0, 0, 0]


def test_samosval_off_keeps_555():
    out = ok(match(0, (SWEEP, 1, 100, 300), (SWEEP, 1, 255, 255), options={"samosval": False}))
    assert out["deals"][1]["scores"] == [0, 555, 0]


SAMOSVAL_AFTER_BOLT = [
    (SWEEP, 1, 120, 120),  # dealer 2: [0, 120, 0]      bolts [1, 0, 1]
    (SWEEP, 1, 100, 120),  # dealer 0: [0, 240, 0]      bolts [2, 0, 2]
    (SWEEP, 0, 120, 300),  # dealer 1: [300, 240, -120] bolts [2, 1, 0] (seat 2's third)
    (BIG, 0, 100, 375),  # dealer 2: [675, 240, -120]  bolts [2, 2, 1]
    (SWEEP, 1, 100, 100),  # dealer 0: seat 0's third bolt: 675 - 120 = 555 -> 0
]


def test_samosval_after_bolt_penalty():
    out = ok(match(2, *SAMOSVAL_AFTER_BOLT))
    assert [e["scores"] for e in out["deals"]] == [
        [0, 120, 0],
        [0, 240, 0],
        [300, 240, -120],
        [675, 240, -120],
        [0, 340, -120],
    ]
    assert out["deals"][4]["bolts"] == [0, 2, 2]


def test_samosval_after_bolt_penalty_off():
    out = ok(match(2, *SAMOSVAL_AFTER_BOLT, options={"samosval": False}))
    assert out["deals"][4]["scores"] == [555, 340, -120]


# --------------------------------------------------------------------------- barrel


def test_arrival_at_880_or_more_sets_score_to_880_and_sits():
    out = ok(match(2, *ARRIVE_0, options=BOLTS_OFF))
    last = out["deals"][2]
    assert last["deltas"] == [120, 0, 0]
    assert last["scores"] == [880, 0, 0]
    assert last["barrel"] == 0
    assert out["winner"] is None


def test_arrival_with_default_bolts_after_bolt_penalties():
    # Seats 1 and 2 took no trick in three deals: -120 each in step 3, then seat 0 arrives.
    out = ok(match(2, *ARRIVE_0))
    assert out["deals"][2]["scores"] == [880, -120, -120]
    assert out["deals"][2]["bolts"] == [0, 0, 0]
    assert out["deals"][2]["barrel"] == 0


def test_win_from_the_barrel_with_880_plus_contract():
    # dealer 2: the sitter is forced at 120, both pass, he makes 300.
    out = ok(match(2, *ARRIVE_0, (SWEEP, 0, 120, 300, {"opening": 120}), options=BOLTS_OFF))
    assert out["winner"] == 0
    assert "next" not in out
    last = out["deals"][3]
    assert last["contract"] == 300
    assert last["deltas"] == [300, 0, 0]
    assert last["scores"] == [1180, 0, 0]
    assert last["barrel"] == 0


def test_sitter_forced_opening_is_120():
    rec = match(2, *ARRIVE_0, (SWEEP, 0, 120, 300, {"opening": 120}), options=BOLTS_OFF)
    rec["deals"][3]["actions"] = []
    out = ok(rec)
    # seat 1 speaks first holding AS TS KS QS JS JH 9H (♠: cap 160): from 125.
    assert out["next"]["seat"] == 1
    assert legal(out) == L(*bids(125, 160), "pass")


def test_sitter_declarer_at_forced_120_when_all_pass():
    rec = match(
        2,
        *ARRIVE_0,
        (SWEEP, 0, 120, 300, {"opening": 120, "stop_after_gives": True}),
        options=BOLTS_OFF,
    )
    out = ok(rec)
    assert out["next"]["seat"] == 0
    # the sitter may not write off (§3): contracts only, from 120
    assert legal(out) == L(*contracts(120, 300))


def test_failed_contract_on_the_barrel_costs_nothing():
    out = ok(
        match(2, *ARRIVE_0, (SWEEP_NO_HEARTS, 0, 120, 250, {"opening": 120}), options=BOLTS_OFF)
    )
    last = out["deals"][3]
    assert last["outcome"] == "failed"
    assert last["deltas"] == [-250, 0, 0]
    assert last["scores"] == [880, 0, 0]
    assert last["barrel"] == 0


# After ARRIVE_0 (scores [880, 0, 0], seat 0 on the barrel), three deals seat 0 does not win:
THREE_ATTEMPTS = [
    # dealer 2: seat 0 forced at 120, seat 1 outbids with 125 and makes it
    (SWEEP, 1, 125, 125, {"bidding": ["1 bid 125", "2 pass", "0 pass"]}),
    # dealer 0: seat 2 bids 105 and makes 108 card points; seat 0 (opp1) +10 not credited
    (rounding_layout(12), 2, 105, 105, {"bidding": ["2 bid 105", "0 pass", "1 pass"]}),
    # dealer 1: seat 2 forced, seats 0 and 1 pass, seat 2 makes 100
    (SWEEP, 2, 100, 100),
]


def test_sitter_scores_nothing_as_defender():
    out = ok(match(2, *ARRIVE_0, *THREE_ATTEMPTS[:2], options=BOLTS_OFF))
    assert out["deals"][4]["deltas"] == [10, 0, 105]
    assert out["deals"][4]["scores"] == [880, 125, 105]
    assert out["deals"][4]["barrel"] == 0


def test_sitter_bids_at_least_120():
    rec = match(2, *ARRIVE_0, *THREE_ATTEMPTS[:2], options=BOLTS_OFF)
    rec["deals"][4]["actions"] = rec["deals"][4]["actions"][:1]  # seat 2 bid 105
    out = ok(rec)
    assert out["next"]["seat"] == 0
    # seat 0 holds TS AS KS 9H QH KD QD (♦: cap 200)
    assert legal(out) == L(*bids(120, 200), "pass")


def test_barrel_three_attempts_then_minus_120_to_760():
    out = ok(match(2, *ARRIVE_0, *THREE_ATTEMPTS, options=BOLTS_OFF))
    assert [e["barrel"] for e in out["deals"][2:]] == [0, 0, 0, None]
    assert out["deals"][5]["deltas"] == [0, 0, 100]
    assert out["deals"][5]["scores"] == [760, 125, 205]


# Race (first dealer 2, bolts off): seat 0 arrives in deal 3 with seat 1 at 430.
RACE = [
    (BIG, 0, 100, 420),  # dealer 2: [420, 0, 0]
    (BIG, 1, 100, 420),  # dealer 0: [420, 420, 0]
    (BIG, 0, 120, 420),  # dealer 1: [840, 420, 0]
    (rounding_layout(12), 0, 100, 100),  # dealer 2: [940 -> 880, 430, 0], barrel 0
    (BIG, 1, 100, 420),  # dealer 0: seat 1 forced: [880, 850, 0]; seat 0's attempt 1
]


def test_race_setup():
    out = ok(match(2, *RACE, options=BOLTS_OFF))
    assert [e["scores"] for e in out["deals"]] == [
        [420, 0, 0],
        [420, 420, 0],
        [840, 420, 0],
        [880, 430, 0],
        [880, 850, 0],
    ]
    assert [e["barrel"] for e in out["deals"]] == [None, None, None, 0, 0]


def test_arrival_displaces_the_previous_sitter():
    # dealer 1: seat 1 deals and bids 120 after seat 0 passes; 850 + 120 = 970.
    out = ok(match(2, *RACE, (SWEEP, 1, 120, 120), options=BOLTS_OFF))
    last = out["deals"][5]
    assert last["scores"] == [760, 880, 0]
    assert last["barrel"] == 1


def test_sitter_falling_off_by_attempts_is_not_displaced_again():
    # Step 2 drops seat 0 (third attempt) to 760; in step 4 seat 1 arrives alone and sits;
    # seat 0 is no longer a sitter there, so no second -120.
    out = ok(
        match(
            2,
            *RACE,
            (SWEEP, 2, 100, 100),  # dealer 1: seat 2 forced: [880, 850, 100], attempt 2
            (SWEEP, 1, 125, 125, {"bidding": ["1 bid 125", "2 pass", "0 pass"]}),  # dealer 2
            options=BOLTS_OFF,
        )
    )
    assert out["deals"][5]["scores"] == [880, 850, 100]
    last = out["deals"][6]
    assert last["scores"] == [760, 880, 100]
    assert last["barrel"] == 1


TWIN = [
    (BIG, 0, 100, 420),  # dealer 2: [420, 0, 0]
    (BIG, 1, 100, 420),  # dealer 0: [420, 420, 0]
    (BIG, 1, 120, 420),  # dealer 1 (seat 1 deals): [420, 840, 0]
    (BIG, 0, 100, 420),  # dealer 2: [840, 840, 0]
]


def test_two_arrivals_at_once_both_to_760_nobody_sits():
    # dealer 0: seat 0 deals and bids 105, makes 108; seat 1 (opp1) 10 + ♦80 = 90.
    out = ok(match(2, *TWIN, (DEFENDER_MARRIAGE, 0, 105, 105), options=BOLTS_OFF))
    last = out["deals"][4]
    assert last["deltas"] == [105, 90, 0]
    assert last["scores"] == [760, 760, 0]
    assert last["barrel"] is None


def test_two_arrivals_at_once_previous_sitter_keeps_his_place():
    out = ok(
        match(
            2,
            *TWIN,
            (BIG, 2, 120, 420),  # dealer 0: seat 2 speaks first: [840, 840, 420]
            (BIG, 2, 100, 420),  # dealer 1: seat 2 forced: [840, 840, 840]
            (SWEEP, 2, 120, 120),  # dealer 2: seat 2 deals: 960 -> 880, sits
            (DEFENDER_MARRIAGE, 0, 105, 105),  # dealer 0: seats 0 and 1 arrive together
            options=BOLTS_OFF,
        )
    )
    assert out["deals"][6]["scores"] == [840, 840, 880]
    assert out["deals"][6]["barrel"] == 2
    last = out["deals"][7]
    assert last["scores"] == [760, 760, 880]
    assert last["barrel"] == 2


def test_closed_barrel_bidding_sitter_is_declarer_at_120_without_bidding():
    opts = {"bolts": "off", "barrel_bidding": "closed"}
    rec = match(2, *ARRIVE_0, (SWEEP, 0, 120, 300, {"bidding": []}), options=opts)
    rec["deals"][3]["actions"] = []
    out = ok(rec)
    assert out["next"]["seat"] == 0
    hand = "AH TH KH QH KD QD AD TD 9S 9C".split()
    # SWEEP's talon TD 9S 9C holds two nines: the sitter's talon redeal is offered
    assert legal(out) == L(*[f"give {to} {c}" for to in (1, 2) for c in hand], "redeal")


def test_closed_barrel_bidding_sitter_wins_in_a_deal_he_does_not_open():
    opts = {"bolts": "off", "barrel_bidding": "closed"}
    out = ok(
        match(
            2,
            *ARRIVE_0,
            (SWEEP_NO_HEARTS, 0, 120, 250, {"bidding": []}),  # dealer 2: fails, costs nothing
            (SWEEP, 0, 120, 300, {"bidding": []}),  # dealer 0: seat 0 deals, still declarer
            options=opts,
        )
    )
    assert out["deals"][3]["scores"] == [880, 0, 0]
    assert out["deals"][4]["contract"] == 300
    assert out["deals"][4]["scores"] == [1180, 0, 0]
    assert out["winner"] == 0


def test_reset_after_third_barrel_fall():
    attempts = [
        (SWEEP, 1, 125, 125, {"bidding": ["1 bid 125", "2 pass", "0 pass"]}),  # dealer 2
        (SWEEP, 1, 100, 100),  # dealer 0
        (SWEEP, 2, 100, 100),  # dealer 1
    ]
    specs = [
        *ARRIVE_0,  # deals 0-2: arrives
        *attempts,  # deals 3-5: first fall, 760
        (SWEEP, 0, 100, 120),  # deal 6, dealer 2: seat 0 forced, 880: arrives again
        (SWEEP, 1, 100, 100),  # deal 7, dealer 0
        (SWEEP, 2, 100, 100),  # deal 8, dealer 1
        (SWEEP, 1, 125, 125, {"bidding": ["1 bid 125", "2 pass", "0 pass"]}),  # deal 9: fall 2
        (SWEEP, 0, 120, 120),  # deal 10, dealer 0: seat 0 deals, bids 120: arrives
        (SWEEP, 2, 100, 100),  # deal 11, dealer 1
        (SWEEP, 1, 125, 125, {"bidding": ["1 bid 125", "2 pass", "0 pass"]}),  # deal 12
        (SWEEP, 1, 100, 100),  # deal 13, dealer 0: third fall
    ]
    for reset, last_score in ((True, 0), (False, 760)):
        out = ok(match(2, *specs, options={"bolts": "off", "reset_after_third_barrel": reset}))
        scores0 = [e["scores"][0] for e in out["deals"]]
        barrels = [e["barrel"] for e in out["deals"]]
        assert scores0 == [
            420,
            840,
            880,
            880,
            880,
            760,
            880,
            880,
            880,
            760,
            880,
            880,
            880,
            last_score,
        ]
        assert barrels == [None, None, 0, 0, 0, None, 0, 0, 0, None, 0, 0, 0, None]
        assert out["deals"][13]["scores"][1:] == [675, 300]


# --------------------------------------------------------------------------- step 6, end


def test_with_barrel_on_reaching_target_does_not_win():
    out = ok(match(2, (SWEEP, 0, 100, 300), options={"target": 300}))
    assert out["winner"] is None
    assert out["next"] == {"seat": None, "legal": []}


def test_barrel_off_first_player_at_target_wins():
    out = ok(match(2, (SWEEP, 0, 100, 300), options={"barrel": False, "target": 300}))
    assert out["winner"] == 0
    assert out["deals"][0]["scores"] == [300, 0, 0]
    assert out["deals"][0]["barrel"] is None


def test_barrel_off_no_880_clamp():
    out = ok(match(2, *ARRIVE_0, options={"barrel": False, "bolts": "off"}))
    assert out["deals"][2]["scores"] == [960, 0, 0]
    assert out["deals"][2]["barrel"] is None
    assert out["winner"] is None


def test_barrel_off_default_target_1000():
    out = ok(match(2, *ARRIVE_0, (BIG, 0, 100, 420), options={"barrel": False, "bolts": "off"}))
    assert out["deals"][3]["scores"] == [1380, 0, 0]
    assert out["winner"] == 0
