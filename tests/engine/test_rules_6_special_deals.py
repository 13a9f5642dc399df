"""docs/spec.md §6: dark, golden round, bidding in the red, exact steps (with §9.1, §9.2,
§9.5, §9.8)."""

from __future__ import annotations

from tests.engine.records import (
    DEFENDER_MARRIAGE,
    SWEEP,
    SWEEP_NO_HEARTS,
    L,
    bids,
    contracts,
    deal,
    deal_with,
    err,
    layout_deal,
    legal,
    ok,
    record,
    rounding_layout,
)

DARK = {"dark": True}
GOLDEN = {"golden": True}


def dark_deal(lay, contract=120, **kw):
    """Dealer 0; seat 1 says dark; seats 2 and 0 pass; seat 1 plays dark at 120."""
    return layout_deal(
        lay,
        dealer=0,
        declarer=1,
        pre=["1 dark"],
        bidding=["2 pass", "0 pass"],
        contract=contract,
        **kw,
    )


# --------------------------------------------------------------------------- 6.1 dark


def test_dark_decision_comes_first_from_the_forced_bidder():
    out = ok(record(deal_with({}), options=DARK))
    assert out["next"]["seat"] == 1
    assert legal(out) == L("dark", "look")


def test_no_dark_decision_when_option_off():
    out = ok(record(deal_with({})))
    assert out["next"]["seat"] == 2


def test_look_is_a_normal_deal():
    d = layout_deal(SWEEP, dealer=0, declarer=1, pre=["1 look"], bid=100, contract=100)
    e = ok(record(d, options=DARK))["deals"][0]
    assert e["contract"] == 100
    assert e["deltas"] == [0, 100, 0]
    assert e["bolts"] == [1, 0, 1]


def test_dark_contract_is_120_with_no_raise():
    out = ok(record(dark_deal(SWEEP, stop_after_gives=True), options=DARK))
    assert out["next"]["seat"] == 1
    assert legal(out) == L("contract 120", "write_off")


def test_dark_made_scores_240_and_doubles_bolts():
    e = ok(record(dark_deal(SWEEP), options=DARK))["deals"][0]
    assert e["contract"] == 120
    assert e["outcome"] == "made"
    assert e["deltas"] == [0, 240, 0]
    assert e["bolts"] == [2, 0, 2]


def test_dark_failed_costs_240_and_defenders_score_double_rounded():
    # rounding_layout(12): declarer 108 < 120; opp1 (seat 2) 2 * round5(12) = 20.
    e = ok(record(dark_deal(rounding_layout(12)), options=DARK))["deals"][0]
    assert e["outcome"] == "failed"
    assert e["deltas"] == [0, -240, 20]
    assert e["bolts"] == [2, 0, 0]


def test_dark_defender_marriage_not_doubled():
    # opp1: 2 * round5(12) + 80 = 100.
    e = ok(record(dark_deal(DEFENDER_MARRIAGE), options=DARK))["deals"][0]
    assert e["deltas"] == [0, -240, 100]


def test_dark_write_off_costs_240_and_gives_120_each():
    e = ok(record(dark_deal(SWEEP, write_off=True), options=DARK))["deals"][0]
    assert e["outcome"] == "written_off"
    assert e["contract"] == 120
    assert e["deltas"] == [120, -240, 120]
    assert e["bolts"] == [0, 0, 0]


def test_dark_write_off_without_penalty_gives_0_and_two_bolts():
    e = ok(
        record(dark_deal(SWEEP, write_off=True), options={"dark": True, "write_off_penalty": False})
    )["deals"][0]
    assert e["deltas"] == [120, 0, 120]
    assert e["bolts"] == [0, 2, 0]


def test_dark_has_no_talon_redeal():
    # SWEEP's talon TD 9S 9C holds two nines, but no redeal in a dark deal.
    rec = record(dark_deal(SWEEP, tricks=0), options=DARK)
    rec["deals"][0]["actions"] = rec["deals"][0]["actions"][:3]
    out = ok(rec)
    assert out["next"]["seat"] == 1
    assert L("redeal").isdisjoint(legal(out))


# seat 2: 3 nines (cap 240); seat 1: ♥ (cap 220), not eligible for a redeal.
OUTBID_HANDS = {2: "9S 9C 9H KS QS KD QD", 1: "AS TS AC TC KH QH 9D"}


def test_dark_others_bid_from_125_and_no_redeal():
    out = ok(record(deal_with(OUTBID_HANDS, acts=["1 dark"]), options=DARK))
    assert out["next"]["seat"] == 2
    assert legal(out) == L(*bids(125, 240), "pass")
    out = ok(record(deal_with(OUTBID_HANDS, acts=["1 look"]), options=DARK))
    assert legal(out) == L(*bids(105, 240), "pass", "redeal")


def test_dark_outbid_forced_bidder_may_raise_as_usual_no_redeal():
    out = ok(record(deal_with(OUTBID_HANDS, acts=["1 dark", "2 bid 125", "0 pass"]), options=DARK))
    assert out["next"]["seat"] == 1
    assert legal(out) == L(*bids(130, 220), "pass")


def test_dark_outbid_is_a_normal_deal():
    d = layout_deal(
        SWEEP,
        dealer=0,
        declarer=2,
        pre=["1 dark"],
        bidding=["2 bid 125", "0 pass", "1 pass"],
        contract=125,
    )
    e = ok(record(d, options=DARK))["deals"][0]
    assert e["contract"] == 125
    assert e["deltas"] == [0, 0, 125]
    assert e["bolts"] == [1, 1, 0]


def test_dark_not_allowed_with_score_below_zero():
    # deal 0: seat 2 bids 250 and fails (200): -250. deal 1: seat 2 is forced: no decision.
    d0 = layout_deal(SWEEP_NO_HEARTS, dealer=0, declarer=2, pre=["1 look"], bid=250, contract=250)
    out = ok(record(d0, deal_with({}), options=DARK))
    assert out["deals"][0]["scores"] == [0, 0, -250]
    assert out["next"]["seat"] == 0
    assert "dark" not in {a["type"] for a in out["next"]["legal"]}


def test_dark_allowed_with_score_zero():
    d0 = layout_deal(SWEEP, dealer=0, declarer=1, pre=["1 look"], bid=100, contract=100)
    out = ok(record(d0, deal_with({}), options=DARK))
    assert out["deals"][0]["scores"] == [0, 100, 0]
    assert out["next"]["seat"] == 2  # dealer 1: seat 2 (score 0) decides
    assert legal(out) == L("dark", "look")


def test_dark_not_allowed_while_anyone_sits_on_the_barrel():
    # first dealer 2, bolts off: seat 0 arrives in three deals (each forced bidder looks).
    from tests.engine.records import BIG

    deals = [
        layout_deal(BIG, dealer=2, declarer=0, pre=["0 look"], bid=100, contract=420),
        layout_deal(BIG, dealer=0, declarer=0, pre=["1 look"], bid=120, contract=420),
        layout_deal(SWEEP, dealer=1, declarer=0, pre=["2 look"], bid=120, contract=120),
        # dealer 2: the sitter is forced at 120 (no decision); seat 1 outbids.
        layout_deal(
            SWEEP, dealer=2, declarer=1, bidding=["1 bid 125", "2 pass", "0 pass"], contract=125
        ),
        deal_with({}),  # dealer 0: seat 1 forced, but seat 0 sits: no decision
    ]
    out = ok(record(*deals, options={"dark": True, "bolts": "off"}, first_dealer=2))
    assert out["deals"][2]["barrel"] == 0
    assert out["deals"][3]["barrel"] == 0
    assert out["next"]["seat"] == 2


def test_dark_in_four_players_resting_dealer_not_doubled():
    d = layout_deal(
        SWEEP,
        dealer=0,
        declarer=1,
        pre=["1 dark"],
        bidding=["2 pass", "3 pass"],
        contract=120,
        players=4,
    )
    e = ok(record(d, options={"players": 4, "dark": True}))["deals"][0]
    assert e["deltas"] == [10, 240, 0, 0]
    assert e["bolts"] == [0, 0, 2, 2]


def test_dark_two_players_declarer_chooses_a_talon():
    hands = ["KS QS JS 9S KC QC JC 9C JD TC", "AH TH KH QH AD TD KD QD AS TS"]
    d = deal(hands, None, ["1 dark", "0 pass"], talons=[["JH", "9H"], ["AC", "9D"]])
    out = ok(record(d, options={"players": 2, "dark": True}))
    assert out["next"]["seat"] == 1
    assert legal(out) == L("choose_talon 0", "choose_talon 1")


# --------------------------------------------------------------------------- 6.2 golden


def golden_deal(lay, dealer, contract=120, **kw):
    """The forced bidder (left of dealer) is declarer at 120 with no bidding."""
    return layout_deal(
        lay, dealer=dealer, declarer=(dealer + 1) % 3, bidding=[], contract=contract, **kw
    )


def test_golden_forced_bidder_is_declarer_with_no_bidding_and_no_redeal():
    rec = record(golden_deal(SWEEP, 0, tricks=0), options=GOLDEN)
    rec["deals"][0]["actions"] = []
    out = ok(rec)
    assert out["next"]["seat"] == 1
    hand = "AH TH KH QH KD QD AD TD 9S 9C".split()
    assert legal(out) == L(*[f"give {to} {c}" for to in (2, 0) for c in hand])


def test_golden_contract_is_120_or_write_off():
    out = ok(record(golden_deal(SWEEP, 0, stop_after_gives=True), options=GOLDEN))
    assert legal(out) == L("contract 120", "write_off")


def test_golden_write_off_governed_by_write_off_option():
    out = ok(
        record(
            golden_deal(SWEEP, 0, stop_after_gives=True),
            options={"golden": True, "write_off": False},
        )
    )
    assert legal(out) == L("contract 120")


def test_golden_deal_scores_as_dark():
    e = ok(record(golden_deal(SWEEP, 0), options=GOLDEN))["deals"][0]
    assert e["contract"] == 120
    assert e["deltas"] == [0, 240, 0]
    assert e["bolts"] == [2, 0, 2]


def test_golden_write_off():
    e = ok(record(golden_deal(SWEEP, 0, write_off=True), options=GOLDEN))["deals"][0]
    assert e["outcome"] == "written_off"
    assert e["contract"] == 120
    assert e["deltas"] == [120, -240, 120]


def test_golden_reset_after_nth_deal_when_nobody_made_it():
    lay = rounding_layout(12)  # declarer 108 < 120: -240; opp1 +20; opp2 two bolts
    out = ok(record(golden_deal(lay, 0), golden_deal(lay, 1), golden_deal(lay, 2), options=GOLDEN))
    assert [e["deltas"] for e in out["deals"]] == [[0, -240, 20], [20, 0, -240], [-240, 20, 0]]
    assert out["deals"][0]["scores"] == [0, -240, 20]
    assert out["deals"][1]["scores"] == [20, -240, -220]
    assert out["deals"][1]["bolts"] == [2, 2, 0]
    assert out["deals"][2]["scores"] == [0, 0, 0]
    assert out["deals"][2]["bolts"] == [0, 0, 0]
    assert out["deals"][2]["barrel"] is None


def test_golden_no_reset_when_a_golden_contract_was_made():
    lay = rounding_layout(12)
    out = ok(
        record(golden_deal(SWEEP, 0), golden_deal(lay, 1), golden_deal(lay, 2), options=GOLDEN)
    )
    assert out["deals"][1]["scores"] == [20, 240, -240]
    assert out["deals"][1]["bolts"] == [2, 2, 2]
    # deal 2: seat 2 takes no trick: 2 + 2 = 4 bolts -> -120 once, count 0 (§9.5)
    assert out["deals"][2]["scores"] == [-220, 260, -360]
    assert out["deals"][2]["bolts"] == [2, 2, 0]


def test_after_golden_round_bidding_is_normal():
    lay = SWEEP
    out = ok(
        record(
            golden_deal(lay, 0),
            golden_deal(lay, 1),
            golden_deal(lay, 2),
            deal_with({}),
            options=GOLDEN,
        )
    )
    assert out["next"]["seat"] == 2
    assert "bid" in {a["type"] for a in out["next"]["legal"]}


def test_golden_two_players_lasts_two_deals():
    hands = ["KS QS JS 9S KC QC JC 9C JD TC", "AH TH KH QH AD TD KD QD AS TS"]
    talons = [["JH", "9H"], ["AC", "9D"]]
    opts = {"players": 2, "golden": True}
    d0 = deal(hands, None, ["1 choose_talon 0", "1 give 0 9H", "1 write_off"], talons=talons)
    d1 = deal(hands[::-1], None, ["0 choose_talon 0", "0 give 1 9H", "0 write_off"], talons=talons)
    out = ok(record(d0, d1, deal(hands, None, [], talons=talons), options=opts))
    assert out["deals"][0]["deltas"] == [120, -240]
    # after the 2nd golden deal nobody made a golden contract: reset
    assert out["deals"][1]["scores"] == [0, 0]
    assert out["next"]["seat"] == 0  # deal 2 is normal: dealer 0 speaks after forced seat 1


# --------------------------------------------------------------------------- 6.3 red


def test_red_threshold_player_below_can_only_pass():
    # deal 0: seat 1 fails 250 (-250). deal 1 (dealer 1): seat 0 passes; seat 1 (dealer) may
    # only pass.
    d0 = layout_deal(SWEEP_NO_HEARTS, dealer=0, declarer=1, bid=100, contract=250)
    d1 = deal_with({1: "9S 9C 9D KS QS AS TS"}, acts=["0 pass"])  # would be redeal-eligible
    out = ok(record(d0, d1, options={"red_threshold": 0}))
    assert out["next"]["seat"] == 1
    assert legal(out) == L("pass")


def test_red_threshold_forced_opening_still_stands():
    # deal 0: seat 2 fails 250. deal 1 (dealer 1): seat 2 forced at 100; both pass; seat 2
    # is declarer at 100 and must give.
    d0 = layout_deal(SWEEP_NO_HEARTS, dealer=0, declarer=2, bid=250, contract=250)
    d1 = layout_deal(SWEEP, dealer=1, declarer=2, bid=100, contract=100)
    out = ok(record(d0, d1, options={"red_threshold": 0}))
    assert out["deals"][1]["contract"] == 100
    assert out["deals"][1]["declarer"] == 2
    assert out["deals"][1]["scores"] == [0, 0, -150]


def test_red_threshold_applies_only_below():
    # After ONE_SHORT seat 1 has -120: threshold -100 -> only pass; -200 -> may bid.
    from tests.engine.records import ONE_SHORT

    d0 = layout_deal(ONE_SHORT, dealer=0, declarer=1, bid=100, contract=120)
    d1 = deal_with({1: "AS TS AC TC AD TD KH"}, acts=["0 pass"])
    out = ok(record(d0, d1, options={"red_threshold": -100}))
    assert out["deals"][0]["scores"][1] == -120
    assert legal(out) == L("pass")
    out = ok(record(d0, d1, options={"red_threshold": -200}))
    assert legal(out) == L(*bids(105, 120), "pass")


def test_red_threshold_off_by_default():
    d0 = layout_deal(SWEEP_NO_HEARTS, dealer=0, declarer=1, bid=100, contract=250)
    d1 = deal_with({1: "AS TS AC TC AD TD KH"}, acts=["0 pass"])
    out = ok(record(d0, d1))
    assert legal(out) == L(*bids(105, 120), "pass")


# --------------------------------------------------------------------------- 6.4 exact steps


def test_exact_steps_each_bid_exactly_5_above():
    opts = {"bid_jumps": False, "redeal": False}
    out = ok(record(deal_with({2: "KH QH AS TS AC TC AD"}), options=opts))
    assert legal(out) == L("bid 105", "pass")
    rec = record(
        deal_with({2: "KH QH AS TS AC TC AD", 0: "KS QS KC QC KD QD 9H"}, acts=["2 bid 105"]),
        options=opts,
    )
    assert legal(ok(rec)) == L("bid 110", "pass")


def test_exact_steps_jump_is_illegal():
    rec = record(
        deal_with({2: "KH QH AS TS AC TC AD"}, acts=["2 bid 110"]), options={"bid_jumps": False}
    )
    e = err(rec)
    assert (e["deal"], e["action"]) == (0, 0)


def test_exact_steps_do_not_apply_to_the_contract():
    rec = record(
        layout_deal(SWEEP, dealer=0, declarer=1, bid=100, contract=100, stop_after_gives=True),
        options={"bid_jumps": False},
    )
    assert legal(ok(rec)) == L(*contracts(100, 300), "write_off")
