"""The engine's value types: cards (docs/spec.md §1), actions and their §8 shapes, options
and presets (§7)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import (
    CARDS,
    PRESETS,
    Bid,
    ChooseTalon,
    Contract,
    Dark,
    Give,
    InvalidOptions,
    Look,
    MalformedAction,
    MalformedCard,
    Options,
    Pass,
    Play,
    Redeal,
    WriteOff,
    action_from_dict,
    parse_action,
    parse_card,
)
from tests.engine.shared import (
    RULES_DEFAULTS,
    RULES_PRESETS,
    options_st,
)

REPO = Path(__file__).resolve().parents[2]
FRAMEWORKS = {"django", "channels", "celery", "rest_framework"}


# --------------------------------------------------------------------------- cards (§1)


def test_parse_card_reads_every_card_by_its_name():
    for card in CARDS:
        assert parse_card(str(card)) is card


@pytest.mark.parametrize("suit", "SCDH")
def test_parse_card_accepts_10_for_ten_and_writes_t(suit):
    assert parse_card("10" + suit) is parse_card("T" + suit)
    assert str(parse_card("10" + suit)) == "T" + suit


@pytest.mark.parametrize(
    "text",
    [
        "th",
        "tH",
        "Th",
        "1H",
        "AX",
        "",
        "10h",
        "T",
        "10",
        "TH ",
        " TH",
        "100H",
        "1OH",
        "HT",
        "ТН",
        None,
        5,
        b"TH",
    ],
)
def test_parse_card_rejects_anything_but_upper_case_rank_and_suit(text):
    with pytest.raises(MalformedCard):
        parse_card(text)


def test_card_points_and_order_follow_section_1():
    points = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
    assert {str(c): c.points for c in CARDS} == {str(c): points[str(c)[0]] for c in CARDS}
    assert sum(c.points for c in CARDS) == 120
    for suit in "SCDH":
        ranks = sorted((parse_card(r + suit) for r in "9JQKTA"), key=lambda c: c.rank)
        assert [str(c)[0] for c in ranks] == list("9JQKTA"), "low to high: 9, J, Q, K, 10, A"


# --------------------------------------------------------------------------- actions (§8)

actions_st = st.one_of(
    st.builds(Bid, st.integers(-50, 300).map(lambda v: 5 * v)),
    st.builds(Contract, st.integers(-50, 300).map(lambda v: 5 * v)),
    st.sampled_from([Pass(), Redeal(), Dark(), Look(), WriteOff()]),
    st.builds(ChooseTalon, st.sampled_from([0, 1])),
    st.builds(Give, st.integers(0, 3), st.sampled_from(CARDS)),
    st.builds(Play, st.sampled_from(CARDS)),
)


def compact(action: Any) -> str:
    d = action.to_dict()
    args = [str(d[k]) for k in ("to", "value", "index", "card") if k in d]
    return " ".join([d["type"], *args])


@given(actions_st)
def test_action_dict_round_trips_through_json(action):
    data = json.loads(json.dumps(action.to_dict()))
    assert action_from_dict(data) == action
    assert action_from_dict({**data, "seat": 1, "comment": "x"}) == action, "extra keys are ignored"


@given(actions_st)
def test_compact_action_text_round_trips(action):
    assert parse_action(compact(action)) == action


def test_action_dicts_have_the_section_8_shapes():
    assert Bid(105).to_dict() == {"type": "bid", "value": 105}
    assert Pass().to_dict() == {"type": "pass"}
    assert Give(0, parse_card("10H")).to_dict() == {"type": "give", "to": 0, "card": "TH"}
    assert ChooseTalon(1).to_dict() == {"type": "choose_talon", "index": 1}
    assert Play(parse_card("QS")).to_dict() == {"type": "play", "card": "QS"}
    assert action_from_dict({"type": "play", "card": "10D"}) == Play(parse_card("TD"))


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        "pass",
        {},
        {"type": 5},
        {"type": "Pass"},
        {"type": "fold"},
        {"type": "bid"},
        {"type": "bid", "value": "105"},
        {"type": "bid", "value": True},
        {"type": "bid", "value": 105.0},
        {"type": "contract"},
        {"type": "choose_talon"},
        {"type": "choose_talon", "index": False},
        {"type": "give", "card": "9H"},
        {"type": "give", "to": 0},
        {"type": "give", "to": "0", "card": "9H"},
        {"type": "play"},
        {"type": "play", "card": "th"},
        {"type": "play", "card": None},
    ],
)
def test_malformed_action_dict_raises_malformed_action(data):
    with pytest.raises(MalformedAction):
        action_from_dict(data)


def test_bad_card_in_an_action_is_a_malformed_card():
    with pytest.raises(MalformedCard):
        action_from_dict({"type": "play", "card": "1H"})
    with pytest.raises(MalformedCard):
        parse_action("give 0 AX")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "bid",
        "bid x",
        "bid 105 110",
        "bid 105.0",
        "pass now",
        "give 0",
        "give x 9H",
        "play",
        "hold",
    ],
)
def test_malformed_action_text_raises_malformed_action(text):
    with pytest.raises(MalformedAction):
        parse_action(text)


# --------------------------------------------------------------------------- options (§7)


def test_default_options_are_section_7s():
    assert Options().to_dict() == RULES_DEFAULTS
    assert Options.from_dict({}) == Options()


@pytest.mark.parametrize("name", ["classic", "igrafan", "club", "simple"])
def test_presets_equal_section_7(name):
    assert Options.preset(name).to_dict() == RULES_PRESETS[name]
    assert Options.from_dict(RULES_PRESETS[name]) == Options.preset(name)
    assert Options.preset(name).preset_name() == name


def test_there_are_exactly_the_four_presets():
    assert set(PRESETS) == {"classic", "igrafan", "club", "simple"}
    with pytest.raises(InvalidOptions):
        Options.preset("tournament")


@pytest.mark.parametrize(
    "data",
    [
        {"player": 3},
        {"bolt": "off"},
        {"Players": 3},
        {"players": 5},
        {"players": 1},
        {"players": "3"},
        {"players": 3.0},
        {"players": True},
        {"target": 0},
        {"target": -1000},
        {"target": 1000.0},
        {"target": "1000"},
        {"target": True},
        {"target": None},
        {"ace_marriage": 1},
        {"redeal": "true"},
        {"dark": None},
        {"barrel_bidding": "blind"},
        {"barrel_bidding": "OPEN"},
        {"bolts": "never"},
        {"bolts": True},
        {"red_threshold": -50},
        {"red_threshold": 100},
        {"red_threshold": "0"},
        {"red_threshold": False},
        {"red_threshold": -300.0},
    ],
)
def test_unknown_option_or_value_outside_section_7_is_invalid(data):
    with pytest.raises(InvalidOptions):
        Options.from_dict(data)


@pytest.mark.parametrize("data", [[], "classic", 3])
def test_options_that_are_not_an_object_are_invalid(data):
    with pytest.raises(InvalidOptions):
        Options.from_dict(data)


@pytest.mark.parametrize(
    "kwargs",
    [{"players": 5}, {"target": 0}, {"dark": "yes"}, {"bolts": "off"}, {"red_threshold": -1}],
)
def test_options_built_in_code_are_validated_too(kwargs):
    with pytest.raises(InvalidOptions):
        Options(**kwargs)
    with pytest.raises(InvalidOptions):
        Options().replace(**kwargs)


def test_options_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Options().players = 4  # type: ignore[misc]


@given(options_st)
def test_options_round_trip_through_json(options):
    data = json.loads(json.dumps(options.to_dict()))
    assert set(data) == set(RULES_DEFAULTS)
    assert Options.from_dict(data) == options
