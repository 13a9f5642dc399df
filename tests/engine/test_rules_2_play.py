"""docs/spec.md §2.6-§2.7: one deal, three players — following suit, trumps, tricks and
marriages.

Unless a test says otherwise seat 0 deals, seat 1 sits on the forced 100 and seat 2
speaks first. ``layout_deal(..., dealer=0, declarer=1)`` puts the declarer in seat 1,
opp1 in seat 2 and opp2 in seat 0, so deltas read ``[opp2, D, opp1]``.
"""

from __future__ import annotations

from tests.engine.records import (
    BIG,
    DEFENDER_MARRIAGE,
    ONE_SHORT,
    SWEEP,
    SWEEP_NO_HEARTS,
    L,
    Layout,
    deal,
    err,
    forced_declarer_deal,
    layout_deal,
    legal,
    ok,
    only_entry,
    plays,
    record,
)

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
