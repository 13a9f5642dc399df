"""docs/spec.md §4: two players (IgraFan style) — 10 cards each, two talons of 2, one pass
ends the bidding, choose_talon, one give, 11 tricks, the other talon out of play."""

from __future__ import annotations

from tests.engine.records import L, bids, contracts, deal, err, legal, ok, plays, record

TWO = {"players": 2}

# Seat 0 deals; seat 1 sits on the forced 100. Seat 1 takes talon 0 (JH 9H) and gives 9H:
# he holds ♥ and ♦ marriages and wins all 11 tricks. Talon 1 (AC 9D, 11 points) stays
# out of play: 109 card points + 180 = 289.
HANDS = ["KS QS JS 9S KC QC JC 9C JD TC", "AH TH KH QH AD TD KD QD AS TS"]
TALONS = [["JH", "9H"], ["AC", "9D"]]
PLAY = [
    ("AH", "9H"),
    ("KH", "9C"),
    ("QH", "JC"),
    ("TH", "QC"),
    ("JH", "KC"),
    ("KD", "JD"),
    ("QD", "TC"),
    ("AD", "9S"),
    ("TD", "JS"),
    ("AS", "QS"),
    ("TS", "KS"),
]


def two_player_deal(contract, n_tricks=11, head=None):
    acts = (
        head
        if head is not None
        else [
            "0 pass",
            "1 choose_talon 0",
            "1 give 0 9H",
            f"1 contract {contract}",
        ]
    )
    acts = list(acts)
    for lead, follow in PLAY[:n_tricks]:
        acts += [f"1 play {lead}", f"0 play {follow}"]
    return deal(HANDS, None, acts, talons=TALONS)


def test_two_players_dealer_speaks_after_the_forced_non_dealer():
    out = ok(record(deal(HANDS, None, [], talons=TALONS), options=TWO))
    assert out["next"]["seat"] == 0
    # seat 0: ♠ and ♣ marriages (cap 220); 2 nines, 3 jacks, 30 points: no redeal
    assert legal(out) == L(*bids(105, 220), "pass")


def test_two_players_one_pass_ends_the_bidding_then_choose_talon():
    out = ok(record(deal(HANDS, None, ["0 pass"], talons=TALONS), options=TWO))
    assert out["next"]["seat"] == 1
    assert legal(out) == L("choose_talon 0", "choose_talon 1")


def test_two_players_forced_bidder_answers_a_bid():
    out = ok(record(deal(HANDS, None, ["0 bid 105"], talons=TALONS), options=TWO))
    assert out["next"]["seat"] == 1
    # seat 1: ♥ and ♦ (cap 300); no redeal (high points)
    assert legal(out) == L(*bids(110, 300), "pass")


def test_two_players_declarer_gives_one_card_to_the_opponent():
    out = ok(record(deal(HANDS, None, ["0 pass", "1 choose_talon 0"], talons=TALONS), options=TWO))
    assert out["next"]["seat"] == 1
    hand = "AH TH KH QH AD TD KD QD AS TS JH 9H".split()
    assert legal(out) == L(*[f"give 0 {c}" for c in hand])  # no talon redeal with two


def test_two_players_contract_after_the_one_give():
    rec = record(
        deal(HANDS, None, ["0 pass", "1 choose_talon 0", "1 give 0 9H"], talons=TALONS),
        options=TWO,
    )
    out = ok(rec)
    assert legal(out) == L(*contracts(100, 300), "write_off")


def test_two_players_eleven_tricks_complete_the_deal():
    rec = record(two_player_deal(285, n_tricks=10), options=TWO)
    out = ok(rec)
    assert out["deals"] == []
    assert out["next"]["seat"] == 1
    assert legal(out) == L("play TS")
    out = ok(record(two_player_deal(285), options=TWO))
    assert len(out["deals"]) == 1


def test_two_players_card_points_are_120_minus_unused_talon():
    out = ok(record(two_player_deal(285), options=TWO))
    e = out["deals"][0]
    assert e["outcome"] == "made"
    assert e["deltas"] == [0, 285]
    assert e["scores"] == [0, 285]
    assert e["bolts"] == [1, 0]
    out = ok(record(two_player_deal(290), options=TWO))
    e = out["deals"][0]
    assert e["outcome"] == "failed"  # 109 + 180 = 289 < 290
    assert e["deltas"] == [0, -290]


def test_two_players_the_other_talon_is_out_of_play():
    rec = record(two_player_deal(285), options=TWO)
    rec["deals"][0]["actions"][1] = {"seat": 1, "type": "choose_talon", "index": 0}
    rec["deals"][0]["actions"][2] = {"seat": 1, "type": "give", "to": 0, "card": "AC"}
    e = err(rec)
    assert (e["deal"], e["action"]) == (0, 2)


def test_two_players_next_deal_rotates_dealer():
    rec = record(two_player_deal(285), deal(HANDS[::-1], None, [], talons=TALONS), options=TWO)
    out = ok(rec)
    assert out["deals"][0]["dealer"] == 0
    assert out["next"]["seat"] == 1  # dealer 1: seat 0 forced, seat 1 speaks


def test_two_players_hand_redeal_reads_ten_cards():
    # 3 nines among 10 cards: eligible; 2 nines, 3 jacks, 30 points: not.
    hands = ["9S 9C 9D KS QS JS KC QC JC JD", "AH TH KH QH AD TD KD QD AS TS"]
    talons = [["JH", "9H"], ["AC", "TC"]]
    out = ok(record(deal(hands, None, [], talons=talons), options=TWO))
    assert L("redeal") <= legal(out)
    out = ok(record(deal(HANDS, None, [], talons=TALONS), options=TWO))
    assert L("redeal").isdisjoint(legal(out))


def test_two_players_bid_cap_counts_all_ten_cards_and_is_not_clamped_at_420():
    hands = ["AS AC AD AH KH QH KD QD KC QC", "TS KS QS JS 9S TC JC 9C TD JD"]
    talons = [["9D", "TH"], ["JH", "9H"]]
    out = ok(record(deal(hands, None, [], talons=talons), options=TWO))
    # 120 + 200 (aces) + 100 + 80 + 60 = 560
    assert legal(out) == L(*bids(105, 560), "pass")


def test_two_players_play_rules_as_for_three():
    # Trick 1: seat 1 leads AH; seat 0 holds 9H (given) and must follow.
    rec = record(two_player_deal(285, n_tricks=0), options=TWO)
    rec["deals"][0]["actions"].append({"seat": 1, "type": "play", "card": "AH"})
    out = ok(rec)
    assert out["next"]["seat"] == 0
    assert legal(out) == L(*plays("9H"))
