"""docs/spec.md §7: option names, defaults and presets (and §8: options in a record)."""

from __future__ import annotations

import copy

import pytest

from tests.engine.records import (
    SWEEP,
    L,
    bids,
    deal_with,
    err,
    layout_deal,
    legal,
    ok,
    record,
)
from tests.engine.shared import RULES_DEFAULTS, RULES_PRESETS

DEFAULTS = RULES_DEFAULTS
PRESETS = RULES_PRESETS

# Three deals in which seat 1 makes 300, 255 and 300 (first dealer 0): bolts for seats 0
# and 2 in each, 555 after the second deal, 855 after the third.
THREE = [
    layout_deal(SWEEP, dealer=0, declarer=1, bid=100, contract=300),
    layout_deal(SWEEP, dealer=1, declarer=1, bid=255, contract=255),
    layout_deal(SWEEP, dealer=2, declarer=1, bid=300, contract=300),
]


def three():
    return copy.deepcopy(THREE)


def test_explicit_defaults_equal_missing_options():
    a = ok(record(*three()))
    b = ok(record(*three(), options=DEFAULTS))
    c = ok(record(*three(), options={}))
    assert a == b == c
    # defaults: bolts not_on_barrel, samosval on
    assert a["deals"][1]["scores"] == [0, 0, 0]
    assert a["deals"][2]["scores"] == [-120, 300, -120]


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("players", 2),
        ("players", 4),
        ("target", 500),
        ("ace_marriage", False),
        ("redeal", False),
        ("write_off", False),
        ("write_off_penalty", False),
        ("show_talon_on_100", True),
        ("barrel", False),
        ("barrel_bidding", "closed"),
        ("reset_after_third_barrel", True),
        ("bolts", "off"),
        ("bolts", "always"),
        ("samosval", False),
        ("red_threshold", 0),
        ("red_threshold", -100),
        ("red_threshold", -200),
        ("red_threshold", -300),
        ("red_threshold", -1000),
        ("dark", True),
        ("golden", True),
        ("bid_jumps", False),
    ],
)
def test_every_option_value_in_its_set_is_accepted(name, value):
    players = value if name == "players" else 3
    resting = 0 if players == 4 else None
    if players == 2:
        from tests.engine.records import deal

        d = deal(
            ["KS QS JS 9S KC QC JC 9C JD TC", "AH TH KH QH AD TD KD QD AS TS"],
            None,
            [],
            talons=[["JH", "9H"], ["AC", "9D"]],
        )
    else:
        d = deal_with({}, players=players, resting=resting)
    out = ok(record(d, options={name: value}))
    assert out["winner"] is None
    assert isinstance(out["next"]["seat"], int)


@pytest.mark.parametrize("name", ["ace_marriage", "dark", "golden", "bid_jumps", "samosval"])
def test_boolean_option_rejects_non_boolean(name):
    e = err(record(deal_with({}), options={name: 1}))
    assert (e["deal"], e["action"]) == (None, None)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_preset_has_the_option_values_of_section_7(name):
    from games.engine import Options

    assert Options.preset(name).to_dict() == PRESETS[name]


def test_simple_preset_plays_without_bolts_samosval_or_barrel():
    out = ok(record(*three(), options=PRESETS["simple"]))
    assert [e["bolts"] for e in out["deals"]] == [[0, 0, 0]] * 3
    assert [e["scores"] for e in out["deals"]] == [[0, 300, 0], [0, 555, 0], [0, 855, 0]]
    assert [e["barrel"] for e in out["deals"]] == [None] * 3


def test_classic_preset_equals_defaults():
    assert ok(record(*three(), options=PRESETS["classic"])) == ok(record(*three()))


def test_igrafan_preset_starts_with_golden_deals():
    out = ok(record(deal_with({}), options=PRESETS["igrafan"]))
    assert out["next"]["seat"] == 1  # the forced bidder is declarer at 120: he gives
    assert {a["type"] for a in out["next"]["legal"]} == {"give"}


def test_club_preset_golden_first_then_dark_decision():
    golden = [
        layout_deal(SWEEP, dealer=k, declarer=(k + 1) % 3, bidding=[], contract=120)
        for k in range(3)
    ]
    out = ok(record(*golden, deal_with({}), options=PRESETS["club"]))
    # each seat: +240 once; as a defender twice with 2 bolts each: 4 bolts, -120
    assert [e["scores"] for e in out["deals"]][-1] == [120, 120, 120]
    assert out["next"]["seat"] == 1  # deal 3, dealer 0: seat 1 decides dark or look
    assert legal(out) == L("dark", "look")


def test_target_applies_only_with_barrel_off():
    d = layout_deal(SWEEP, dealer=0, declarer=1, bid=100, contract=300)
    assert ok(record(copy.deepcopy(d), options={"target": 300}))["winner"] is None
    assert ok(record(copy.deepcopy(d), options={"target": 300, "barrel": False}))["winner"] == 1


def test_players_option_sets_seat_count():
    out = ok(
        record(deal_with({2: "KH QH AS TS AC TC AD"}, players=4, resting=0), options={"players": 4})
    )
    assert out["next"]["seat"] == 2
    assert legal(out) == L(*bids(105, 220), "pass")
