"""docs/spec.md §8: the ``thousand/1`` match record and what ``replay`` prints — a contract.

The §8 example deal is completed here with hands of our own (the example's seat 0 holds
AS, which seat 2 plays, so its hands are only illustrative); its deltas, scores and bolts
are derived from the rules, and happen to be the ones the example shows.
"""

from __future__ import annotations

import copy
import json

import pytest

from tests.engine.records import (
    SWEEP,
    L,
    bids,
    cli,
    deal,
    err,
    layout_deal,
    legal,
    ok,
    record,
)

# Seat 0 deals; seat 1 sits on the forced 100; seat 2 bids 105, both pass.
# Seat 2 (AS TS KS QS AH TH AD + QC from the talon) declares ♠40 at trick 2 and loses only
# trick 5 (QC AC KC = 18) to seat 0: seat 2 has 102 card points + 40 = 142 >= 110.
# Seat 0: round5(18) = 20. Seat 1 takes no trick: a bolt.
EXAMPLE_DEAL_0 = deal(
    [
        "9S AC TC JC 9C QD 9D",
        "JS KC TD KD JD KH QH",
        "AS TS KS QS AH TH AD",
    ],
    "9H JH QC",
    [
        "2 bid 105; 0 pass; 1 pass",
        "2 give 0 9H; 2 give 1 JH; 2 contract 110",
        "2 play AS; 0 play 9S; 1 play JS",
        "2 play KS; 0 play 9C; 1 play KH",
        "2 play QS; 0 play JC; 1 play JD",
        "2 play TS; 0 play TC; 1 play TD",
        "2 play QC; 0 play AC; 1 play KC",
        "0 play 9H; 1 play QH; 2 play AH",
        "2 play TH; 0 play QD; 1 play JH",
        "2 play AD; 0 play 9D; 1 play KD",
    ],
)

# Dealer 1: seat 2 sits on the 100, seat 0 speaks first with no marriage and no
# redeal (67 points, no nine, no jack): bids 105..120 or pass.
EXAMPLE_DEAL_1 = deal(
    ["AS TS KS AC TC AD TD", "QS JS 9S KC QC JC 9C", "KD QD JD 9D AH TH KH"],
    "QH JH 9H",
    [],
)

EXAMPLE_ENTRY = {
    "dealer": 0,
    "declarer": 2,
    "contract": 110,
    "outcome": "made",
    "deltas": [20, 0, 110],
    "scores": [20, 0, 110],
    "bolts": [0, 1, 0],
    "barrel": None,
}


def example_record() -> dict:
    return record(
        copy.deepcopy(EXAMPLE_DEAL_0),
        copy.deepcopy(EXAMPLE_DEAL_1),
        options={"players": 3, "ace_marriage": True},
        first_dealer=0,
    )


def test_section_8_example_record_replays_to_the_derived_entry_and_next():
    out = ok(example_record())
    assert set(out) == {"deals", "winner", "finished_by", "next"}
    assert out["deals"] == [EXAMPLE_ENTRY]
    assert out["winner"] is None and out["finished_by"] is None
    assert out["next"]["seat"] == 0
    assert legal(out) == L(*bids(105, 120), "pass")


def test_deal_entry_has_exactly_the_section_8_keys():
    out = ok(example_record())
    assert set(out["deals"][0]) == {
        "dealer",
        "declarer",
        "contract",
        "outcome",
        "deltas",
        "scores",
        "bolts",
        "barrel",
    }


def test_record_ending_at_a_deal_boundary_has_empty_next():
    rec = record(copy.deepcopy(EXAMPLE_DEAL_0), first_dealer=0)
    out = ok(rec)
    assert out["deals"] == [EXAMPLE_ENTRY]
    assert out["next"] == {"seat": None, "legal": []}


def test_missing_options_means_all_defaults():
    rec = record(copy.deepcopy(EXAMPLE_DEAL_0), first_dealer=0)
    rec.pop("options", None)
    assert ok(rec)["deals"] == [EXAMPLE_ENTRY]


def test_unfinished_last_deal_has_no_entry_and_shows_in_next():
    rec = example_record()
    rec["deals"] = [copy.deepcopy(EXAMPLE_DEAL_0)]
    rec["deals"][0]["actions"] = rec["deals"][0]["actions"][:-1]  # last card unplayed
    out = ok(rec)
    assert out["deals"] == []
    assert out["next"]["seat"] == 1
    assert legal(out) == L("play KD")


def test_missing_actions_means_no_actions():
    rec = example_record()
    del rec["deals"][1]["actions"]
    out = ok(rec)
    assert out["next"]["seat"] == 0
    assert legal(out) == L(*bids(105, 120), "pass")


def test_unknown_extra_keys_inside_an_action_are_ignored():
    rec = example_record()
    for a in rec["deals"][0]["actions"]:
        a["comment"] = "ignored"
        a["ts"] = 12345
    assert ok(rec)["deals"] == [EXAMPLE_ENTRY]


def test_ten_may_be_written_10_and_output_writes_T():
    rec = example_record()
    d0 = rec["deals"][0]
    d0["hands"][2] = ["AS", "10S", "KS", "QS", "AH", "10H", "AD"]
    for a in d0["actions"]:
        if a.get("card") in ("TS", "TH"):
            a["card"] = "10" + a["card"][1]
    assert ok(rec)["deals"] == [EXAMPLE_ENTRY]
    # Stop before the gives: every give offered spells the ten with T.
    rec["deals"] = [copy.deepcopy(d0)]
    rec["deals"][0]["actions"] = rec["deals"][0]["actions"][:3]
    out = ok(rec)
    cards = {a["card"] for a in out["next"]["legal"] if a["type"] == "give"}
    assert "TS" in cards and "TH" in cards
    assert not any(c.startswith("10") for c in cards)


def test_give_legal_lists_every_card_to_every_receiver_not_yet_given_to():
    rec = example_record()
    rec["deals"] = [copy.deepcopy(EXAMPLE_DEAL_0)]
    acts = rec["deals"][0]["actions"]
    hand = ["AS", "TS", "KS", "QS", "AH", "TH", "AD", "9H", "JH", "QC"]
    rec["deals"][0]["actions"] = acts[:3]
    out = ok(rec)
    assert out["next"]["seat"] == 2
    # The talon 9H JH QC is worth 5 points: a talon redeal is also offered (§2.9).
    assert legal(out) == L(*[f"give {to} {c}" for to in (0, 1) for c in hand], "redeal")
    rec["deals"][0]["actions"] = acts[:4]  # 9H went to seat 0; no redeal after a give
    out = ok(rec)
    assert legal(out) == L(*[f"give 1 {c}" for c in hand if c != "9H"])


def test_gives_may_come_in_either_order():
    rec = example_record()
    acts = rec["deals"][0]["actions"]
    acts[3], acts[4] = acts[4], acts[3]
    assert ok(rec)["deals"][0] == EXAMPLE_ENTRY


def test_winner_present_means_next_omitted():
    # barrel off, target 300: seat 0 makes 300 in the first deal and wins (§3.6, §9.10).
    rec = record(
        layout_deal(SWEEP, dealer=2, declarer=0, bid=100, contract=300),
        options={"barrel": False, "target": 300},
        first_dealer=2,
    )
    out = ok(rec)
    assert out["winner"] == 0
    assert "next" not in out
    assert set(out) == {"deals", "winner", "finished_by", "placements"}
    assert out["finished_by"] == "won"
    assert out["placements"][0] == 1 and 1 not in out["placements"][1:]


# --------------------------------------------------------------------------- errors
# (deal, action) are 0-based indices into the record; null where not in one deal/action.


def _err_at(rec, deal_i, action_j):
    e = err(rec)
    assert set(e) == {"deal", "action", "reason"}
    assert isinstance(e["reason"], str) and e["reason"]
    assert (e["deal"], e["action"]) == (deal_i, action_j), e
    return e


@pytest.mark.parametrize("value", [[], "thousand/1", 3, None])
def test_record_not_an_object_is_an_error(value):
    _err_at(value, None, None)


@pytest.mark.parametrize("fmt", ["thousand/2", "Thousand/1", "", None])
def test_wrong_format_is_an_error(fmt):
    rec = example_record()
    rec["format"] = fmt
    _err_at(rec, None, None)


def test_missing_format_is_an_error():
    rec = example_record()
    del rec["format"]
    _err_at(rec, None, None)


@pytest.mark.parametrize(
    "options",
    [
        {"jokers": True},
        {"players": 5},
        {"players": 1},
        {"bolts": "sometimes"},
        {"barrel_bidding": "secret"},
        {"red_threshold": -50},
        {"ace_marriage": "yes"},
        {"target": 0},
        {"target": -1000},
        {"target": 999.5},
        {"target": "1000"},
    ],
)
def test_bad_option_is_an_error(options):
    rec = example_record()
    rec["options"] = options
    _err_at(rec, None, None)


@pytest.mark.parametrize("bad", ["1H", "th", "10h", "AX"])
def test_malformed_card_in_a_hand_is_an_error(bad):
    rec = example_record()
    rec["deals"][1]["hands"][0][0] = bad
    _err_at(rec, 1, None)


@pytest.mark.parametrize("bad", ["1H", "th", "10h", "AX"])
def test_malformed_card_in_an_action_is_an_error(bad):
    rec = example_record()
    rec["deals"][0]["actions"][3]["card"] = bad  # the first give
    _err_at(rec, 0, 3)


def test_duplicate_card_in_a_deal_is_an_error():
    rec = example_record()
    rec["deals"][1]["hands"][1][0] = "AS"  # AS twice, QS missing
    _err_at(rec, 1, None)


def test_wrong_hand_size_is_an_error():
    rec = example_record()
    card = rec["deals"][1]["hands"][0].pop()
    rec["deals"][1]["talon"].append(card)  # 6 cards in hand, 4 in the talon
    _err_at(rec, 1, None)


def test_unknown_action_type_is_an_error():
    rec = example_record()
    rec["deals"][0]["actions"][1] = {"seat": 0, "type": "double"}
    _err_at(rec, 0, 1)


def test_bid_without_value_is_an_error():
    rec = example_record()
    del rec["deals"][0]["actions"][0]["value"]
    _err_at(rec, 0, 0)


def test_action_without_seat_is_an_error():
    rec = example_record()
    del rec["deals"][0]["actions"][2]["seat"]
    _err_at(rec, 0, 2)


def test_deal_without_hands_is_an_error():
    rec = example_record()
    del rec["deals"][1]["hands"]
    _err_at(rec, 1, None)


def test_out_of_turn_action_is_an_error():
    rec = example_record()
    rec["deals"][0]["actions"][0]["seat"] = 0  # seat 2 speaks first
    _err_at(rec, 0, 0)


@pytest.mark.parametrize("value", [107, 100, 165, 0])
def test_illegal_bid_is_an_error(value):
    # seat 2's cap is 160 (♠ marriage); bids are multiples of 5 above the forced 100.
    rec = example_record()
    rec["deals"][0]["actions"][0]["value"] = value
    _err_at(rec, 0, 0)


def test_revoke_is_an_error():
    # Trick 1: seat 2 leads AS; seat 0 holds 9S and must follow suit.
    rec = example_record()
    rec["deals"][0]["actions"][7]["card"] = "9C"
    _err_at(rec, 0, 7)


def test_action_after_the_deal_is_complete_is_an_error():
    rec = example_record()
    rec["deals"][0]["actions"].append({"seat": 0, "type": "pass"})
    _err_at(rec, 0, len(rec["deals"][0]["actions"]) - 1)


def test_non_last_deal_incomplete_is_an_error():
    rec = example_record()
    rec["deals"][0]["actions"] = rec["deals"][0]["actions"][:-3]
    _err_at(rec, 0, None)


def test_deal_after_the_match_is_won_is_an_error():
    rec = record(
        layout_deal(SWEEP, dealer=2, declarer=0, bid=100, contract=300),
        copy.deepcopy(EXAMPLE_DEAL_1),
        options={"barrel": False, "target": 300},
        first_dealer=2,
    )
    _err_at(rec, 1, None)


# --------------------------------------------------------------------------- CLI


def _cli_ok(rec) -> dict:
    p = cli(["replay", "-"], stdin=json.dumps(rec))
    assert p.returncode == 0, (p.stdout, p.stderr)
    assert p.stderr == ""
    return json.loads(p.stdout)


def _cli_err(text: str, tmp_path, deal_i, action_j, *, stdin: bool = False) -> dict:
    if stdin:
        p = cli(["replay", "-"], stdin=text)
    else:
        f = tmp_path / "match.json"
        f.write_text(text, encoding="utf-8")
        p = cli(["replay", str(f)])
    assert p.returncode == 2, (p.stdout, p.stderr)
    assert p.stderr == ""
    out = json.loads(p.stdout)  # exactly one JSON value, nothing else
    assert set(out) == {"error"}
    e = out["error"]
    assert set(e) == {"deal", "action", "reason"}
    assert isinstance(e["reason"], str) and e["reason"]
    assert (e["deal"], e["action"]) == (deal_i, action_j), e
    return e


def test_cli_replays_a_file(tmp_path):
    f = tmp_path / "match.json"
    f.write_text(json.dumps(example_record()), encoding="utf-8")
    p = cli(["replay", str(f)])
    assert p.returncode == 0, p.stderr
    assert p.stderr == ""
    out = json.loads(p.stdout)
    assert out["deals"] == [EXAMPLE_ENTRY]
    assert out["next"]["seat"] == 0


def test_cli_replays_stdin_same_as_function():
    rec = example_record()
    assert _cli_ok(rec) == ok(rec)


def test_cli_invalid_json(tmp_path):
    _cli_err('{"format": "thousand/1", "deals": [', tmp_path, None, None)


def test_cli_invalid_json_on_stdin(tmp_path):
    _cli_err("not json at all", tmp_path, None, None, stdin=True)


def test_cli_not_an_object(tmp_path):
    _cli_err("[1, 2, 3]", tmp_path, None, None)


def test_cli_wrong_format(tmp_path):
    rec = example_record()
    rec["format"] = "thousand/0"
    _cli_err(json.dumps(rec), tmp_path, None, None)


def test_cli_unknown_option(tmp_path):
    rec = example_record()
    rec["options"]["speed"] = "fast"
    _cli_err(json.dumps(rec), tmp_path, None, None)


def test_cli_option_value_out_of_set(tmp_path):
    rec = example_record()
    rec["options"]["bolts"] = "never"
    _cli_err(json.dumps(rec), tmp_path, None, None)


@pytest.mark.parametrize("target", [0, -5, 12.5, "1000"])
def test_cli_bad_target(tmp_path, target):
    rec = example_record()
    rec["options"]["target"] = target
    _cli_err(json.dumps(rec), tmp_path, None, None)


@pytest.mark.parametrize("bad", ["1H", "th", "10h", "AX"])
def test_cli_malformed_card(tmp_path, bad):
    rec = example_record()
    rec["deals"][0]["hands"][2][0] = bad
    _cli_err(json.dumps(rec), tmp_path, 0, None)


def test_cli_duplicate_cards(tmp_path):
    rec = example_record()
    rec["deals"][1]["talon"][0] = "AS"
    _cli_err(json.dumps(rec), tmp_path, 1, None)


def test_cli_wrong_hand_sizes(tmp_path):
    rec = example_record()
    rec["deals"][1]["hands"][1].append(rec["deals"][1]["hands"][0].pop())
    _cli_err(json.dumps(rec), tmp_path, 1, None)


def test_cli_unknown_action_type(tmp_path):
    rec = example_record()
    rec["deals"][1]["actions"] = [{"seat": 0, "type": "surrender"}]
    _cli_err(json.dumps(rec), tmp_path, 1, 0)


def test_cli_missing_field(tmp_path):
    rec = example_record()
    del rec["deals"][0]["actions"][5]["value"]  # contract without value
    _cli_err(json.dumps(rec), tmp_path, 0, 5)


def test_cli_out_of_turn(tmp_path):
    rec = example_record()
    rec["deals"][0]["actions"][1]["seat"] = 1
    _cli_err(json.dumps(rec), tmp_path, 0, 1)


@pytest.mark.parametrize("value", [107, 165])
def test_cli_illegal_bid(tmp_path, value):
    rec = example_record()
    rec["deals"][0]["actions"][0]["value"] = value
    _cli_err(json.dumps(rec), tmp_path, 0, 0)


def test_cli_revoke(tmp_path):
    rec = example_record()
    rec["deals"][0]["actions"][8]["card"] = "KH"  # seat 1 holds JS: must follow ♠
    _cli_err(json.dumps(rec), tmp_path, 0, 8)


def test_cli_action_after_deal_complete(tmp_path):
    rec = example_record()
    rec["deals"][0]["actions"].append({"seat": 2, "type": "play", "card": "AS"})
    _cli_err(json.dumps(rec), tmp_path, 0, len(rec["deals"][0]["actions"]) - 1)


def test_cli_deal_after_match_won(tmp_path):
    rec = record(
        layout_deal(SWEEP, dealer=2, declarer=0, bid=100, contract=300),
        copy.deepcopy(EXAMPLE_DEAL_1),
        options={"barrel": False, "target": 300},
        first_dealer=2,
    )
    _cli_err(json.dumps(rec), tmp_path, 1, None)


def test_cli_non_last_deal_incomplete(tmp_path):
    rec = example_record()
    rec["deals"][0]["actions"] = rec["deals"][0]["actions"][:10]
    _cli_err(json.dumps(rec), tmp_path, 0, None)
