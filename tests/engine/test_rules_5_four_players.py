"""docs/spec.md §5: four players — the dealer sits out and scores his talon (§9.7), the
other three play an ordinary three-player deal."""

from __future__ import annotations

from tests.engine.records import (
    BIG,
    SWEEP,
    SWEEP_NO_HEARTS,
    L,
    Layout,
    bids,
    deal,
    deal_with,
    err,
    layout_deal,
    legal,
    ok,
    record,
)

FOUR = {"players": 4}

# SWEEP with KS QS TD in the talon (17 points + ♠ marriage 40): the resting dealer gets
# round5(17) + 40 = 55. The declarer gives KS and QS away and sweeps: 300.
SWEEP_TALON_MARRIAGE = Layout(
    hands=("AH TH KH QH KD QD AD", "AS TS JS 9S JH 9H 9C", "AC TC KC QC JC JD 9D"),
    talon="KS QS TD",
    gives=("KS", "QS"),
    tricks=(
        (0, "AH JH AC"),
        (0, "KH 9H TC"),
        (0, "QH AS KC"),
        (0, "TH TS QC"),
        (0, "KD KS JD"),
        (0, "QD JS 9D"),
        (0, "AD 9S JC"),
        (0, "TD 9C QS"),
    ),
)


def test_four_players_bidding_skips_the_resting_dealer():
    rec = record(deal_with({}, players=4, resting=0), options=FOUR)
    out = ok(rec)
    assert out["next"]["seat"] == 2  # dealer 0 rests, seat 1 forced, seat 2 first
    rec["deals"][0]["actions"] = [{"seat": 2, "type": "pass"}]
    assert ok(rec)["next"]["seat"] == 3
    rec["deals"][0]["actions"].append({"seat": 3, "type": "bid", "value": 105})
    assert ok(rec)["next"]["seat"] == 1


def test_resting_dealer_hand_must_be_empty():
    rec = record(deal_with({}, players=4, resting=0), options=FOUR)
    hands = rec["deals"][0]["hands"]
    hands[0] = [hands[1].pop()]
    e = err(rec)
    assert (e["deal"], e["action"]) == (0, None)


def test_resting_dealer_scores_round5_of_talon_plus_talon_marriage():
    d = layout_deal(SWEEP_TALON_MARRIAGE, dealer=0, declarer=1, bid=100, contract=300, players=4)
    assert d["hands"][0] == []
    out = ok(record(d, options=FOUR))
    e = out["deals"][0]
    assert e["deltas"] == [55, 300, 0, 0]
    assert e["scores"] == [55, 300, 0, 0]
    assert e["bolts"] == [0, 0, 1, 1]  # the resting dealer gets no bolt


def test_resting_dealer_scores_talon_without_marriage():
    # SWEEP's talon TD 9S 9C: round5(10) = 10.
    d = layout_deal(SWEEP, dealer=2, declarer=3, bid=100, contract=120, players=4)
    e = ok(record(d, options=FOUR, first_dealer=2))["deals"][0]
    assert e["deltas"] == [0, 0, 10, 120]
    assert e["bolts"] == [1, 1, 0, 0]


def test_resting_dealer_scores_talon_in_a_written_off_deal():
    d = layout_deal(SWEEP_TALON_MARRIAGE, dealer=0, declarer=1, bid=100, write_off=True, players=4)
    e = ok(record(d, options=FOUR))["deals"][0]
    assert e["outcome"] == "written_off"
    assert e["deltas"] == [55, -100, 50, 50]


def test_resting_dealer_gets_nothing_from_a_redeal():
    d0 = deal_with({2: "9S 9C 9D JS QS KS TS"}, players=4, resting=0, acts=["2 redeal"])
    d1 = layout_deal(SWEEP_TALON_MARRIAGE, dealer=0, declarer=1, bid=100, contract=300, players=4)
    out = ok(record(d0, d1, options=FOUR))
    assert out["deals"][0]["outcome"] == "redeal"
    assert out["deals"][0]["deltas"] == [0, 0, 0, 0]
    assert out["deals"][1]["dealer"] == 0
    assert out["deals"][1]["scores"] == [55, 300, 0, 0]


def test_four_players_each_sits_out_in_turn():
    deals = [
        layout_deal(SWEEP, dealer=k, declarer=(k + 1) % 4, bid=100, contract=100, players=4)
        for k in range(4)
    ]
    out = ok(record(*deals, options={"players": 4, "bolts": "off"}))
    assert [e["dealer"] for e in out["deals"]] == [0, 1, 2, 3]
    # each deal: dealer +10 (talon TD 9S 9C), forced bidder +100
    assert out["deals"][3]["scores"] == [110, 110, 110, 110]


def test_four_players_failed_contract_dealer_still_scores_talon():
    d = layout_deal(SWEEP_NO_HEARTS, dealer=1, declarer=2, bid=100, contract=250, players=4)
    e = ok(record(d, options=FOUR, first_dealer=1))["deals"][0]
    assert e["deltas"] == [0, 10, -250, 0]


def test_four_players_bid_caps_as_for_three():
    rec = record(deal_with({2: "KH QH AS TS AC TC AD"}, players=4, resting=0), options=FOUR)
    out = ok(rec)
    assert legal(out) == L(*bids(105, 220), "pass")


# A sitter resting (first dealer 3, bolts off):
REST_SCENARIO = [
    (BIG, 3, 0, 100, 420, None),  # d3: [420, 0, 0, 10]
    (BIG, 0, 1, 100, 420, None),  # d0: seat 0 rests +10: [430, 420, 0, 10]
    (BIG, 1, 0, 120, 420, None),  # d1: seat 0 speaks last: [850, 430, 0, 10]
    (SWEEP, 2, 0, 120, 120, None),  # d2: seat 0 first: 970 -> 880 sits; [880, 430, 10, 10]
    (SWEEP, 3, 2, 125, 125, ["1 pass", "2 bid 125", "0 pass"]),  # attempt 1: [880,430,135,20]
    (SWEEP, 0, 1, 100, 100, None),  # seat 0 rests: no attempt, +10 not credited
    (SWEEP, 1, 2, 100, 100, None),  # attempt 2: [880, 540, 235, 20]
    (SWEEP, 2, 3, 100, 100, None),  # attempt 3: falls: [760, 540, 245, 120]
]


def rest_record(upto=None, options=None):
    deals = [
        layout_deal(lay, dealer=d, declarer=dec, bid=bid, contract=c, players=4, bidding=b)
        for lay, d, dec, bid, c, b in REST_SCENARIO[:upto]
    ]
    return record(*deals, options=options or {"players": 4, "bolts": "off"}, first_dealer=3)


def test_resting_sitter_uses_no_attempt_and_is_credited_nothing():
    out = ok(rest_record())
    scores = [e["scores"] for e in out["deals"]]
    assert scores == [
        [420, 0, 0, 10],
        [430, 420, 0, 10],
        [850, 430, 0, 10],
        [880, 430, 10, 10],
        [880, 430, 135, 20],
        [880, 530, 135, 20],
        [880, 540, 235, 20],
        [760, 540, 245, 120],
    ]
    assert out["deals"][5]["deltas"] == [10, 100, 0, 0]
    assert [e["barrel"] for e in out["deals"]] == [None, None, None, 0, 0, 0, 0, None]


def test_closed_barrel_bidding_deal_with_sitter_resting_is_bid_normally():
    opts = {"players": 4, "bolts": "off", "barrel_bidding": "closed"}
    rec = rest_record(upto=4, options=opts)
    # deal 4 (dealer 3): the sitter, seat 0, is declarer at 120 without bidding; he fails.
    rec["deals"].append(
        layout_deal(SWEEP_NO_HEARTS, dealer=3, declarer=0, bidding=[], contract=250, players=4)
    )
    # deal 5 (dealer 0): the sitter rests; bidding is normal: seat 2 speaks first.
    rec["deals"].append(deal_with({2: "KH QH AS TS AC TC AD"}, players=4, resting=0))
    out = ok(rec)
    assert out["deals"][4]["declarer"] == 0
    assert out["deals"][4]["contract"] == 250
    assert out["deals"][4]["scores"][0] == 880
    assert out["next"]["seat"] == 2
    assert legal(out) == L(*bids(105, 220), "pass")


def test_four_player_record_hand_order_includes_the_empty_resting_hand():
    d = deal(
        ["", "AH TH KH QH KD QD AD", "AS TS KS QS JS JH 9H", "AC TC KC QC JC JD 9D"],
        "TD 9S 9C",
        ["2 pass", "3 pass"],
    )
    out = ok(record(d, options=FOUR))
    assert out["next"]["seat"] == 1
