"""The engine's typed public API: cards, actions, errors, options, the random source and
its independence from the web stack (docs/spec.md §1, §7, §8; docs/architecture.md#conventions)."""

from __future__ import annotations

import ast
import dataclasses
import json
import os
import random
import subprocess
import sys
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
    EngineError,
    Give,
    IllegalAction,
    InvalidOptions,
    Look,
    MalformedAction,
    MalformedCard,
    MalformedRecord,
    Match,
    NotYourTurn,
    Options,
    Pass,
    Phase,
    Play,
    Redeal,
    WriteOff,
    action_from_dict,
    parse_action,
    parse_card,
    replay,
)
from tests.engine.shared import RULES_DEFAULTS, RULES_PRESETS, options_st

REPO = Path(__file__).resolve().parents[2]
FRAMEWORKS = {"django", "channels", "celery", "rest_framework"}


def snapshot(match: Match) -> tuple[Any, ...]:
    """Everything observable about a match."""
    seats = (*range(match.players), None)
    return (
        json.dumps(match.to_record()),
        [match.view(s) for s in seats],
        match.to_act,
        list(match.legal_actions()),
        list(match.results),
        list(match.scores),
    )


def advance(match: Match, rng: random.Random, steps: int) -> Match:
    for _ in range(steps):
        if match.over:
            break
        match.apply(rng.choice(match.legal_actions()))
    return match


def match_in_phase(phase: Phase, players: int = 3, **options: Any) -> Match:
    """A seeded match played at random until ``phase`` comes up."""
    for seed in range(200):
        match = Match.new(Options(players=players, **options), seed=seed)
        rng = random.Random(seed)
        for _ in range(300):
            if match.phase is phase:
                return match
            legal = match.legal_actions()
            # Pass a lot so that declarers at the forced 100 are common.
            match.apply(Pass() if Pass() in legal and rng.random() < 0.7 else rng.choice(legal))
    raise AssertionError(f"no {phase} reached")


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


# --------------------------------------------------------------------------- errors


def test_errors_are_distinct_value_errors():
    for cls in (
        MalformedAction,
        MalformedCard,
        IllegalAction,
        NotYourTurn,
        MalformedRecord,
        InvalidOptions,
    ):
        assert issubclass(cls, EngineError) and issubclass(cls, ValueError)
    assert issubclass(MalformedCard, MalformedAction)
    distinct = (MalformedAction, IllegalAction, NotYourTurn, MalformedRecord)
    for a in distinct:
        for b in distinct:
            assert a is b or not issubclass(a, b)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_action_from_a_seat_not_to_act_raises_not_your_turn_and_changes_nothing(players):
    rng = random.Random(players)
    for seed in range(6):
        match = advance(
            Match.new(Options(players=players, dark=seed % 2 == 0), seed=seed),
            rng,
            rng.randrange(60),
        )
        before = snapshot(match)
        for seat in range(players):
            if seat == match.to_act:
                continue
            for action in match.legal_actions()[:5]:
                with pytest.raises(NotYourTurn):
                    match.apply(action, seat=seat)
        assert snapshot(match) == before
        match.apply(match.legal_actions()[0], seat=match.to_act)  # still playable


ILLEGAL_BY_PHASE = {
    Phase.BIDDING: [
        Bid(95),
        Bid(100),
        Bid(102),
        Bid(1000),
        Contract(120),
        WriteOff(),
        Dark(),
        Play(CARDS[0]),
    ],
    Phase.GIVING: [Bid(120), Pass(), Contract(120), WriteOff(), ChooseTalon(0), Play(CARDS[0])],
    Phase.CONTRACT: [Contract(95), Contract(103), Contract(1000), Bid(120), Pass(), Redeal()],
    Phase.PLAY: [Bid(120), Pass(), Contract(120), WriteOff(), Redeal(), Look()],
}


@pytest.mark.parametrize("phase", list(ILLEGAL_BY_PHASE))
def test_illegal_action_raises_illegal_action_and_changes_nothing(phase):
    match = match_in_phase(phase)
    before = snapshot(match)
    seat = match.to_act
    for action in ILLEGAL_BY_PHASE[phase]:
        assert action not in match.legal_actions()
        with pytest.raises(IllegalAction):
            match.apply(action, seat=seat)
    assert snapshot(match) == before


def test_card_not_in_hand_or_revoke_is_illegal_and_changes_nothing():
    match = match_in_phase(Phase.PLAY)
    deal = match.deal
    assert deal is not None
    seat = match.to_act
    legal = set(match.legal_actions())
    before = snapshot(match)
    for card in CARDS:
        if Play(card) not in legal:
            with pytest.raises(IllegalAction):
                match.apply(Play(card), seat=seat)
        if Give((seat + 1) % 3, card) in legal:
            raise AssertionError("a give is never legal during play")
    assert snapshot(match) == before


def test_give_to_oneself_or_to_a_missing_seat_is_illegal():
    match = match_in_phase(Phase.GIVING)
    seat = match.to_act
    assert seat is not None
    card = next(a.card for a in match.legal_actions() if type(a) is Give)
    before = snapshot(match)
    for to in (seat, -1, 3, 7):
        with pytest.raises(IllegalAction):
            match.apply(Give(to, card), seat=seat)
    assert snapshot(match) == before


def test_choose_talon_other_than_0_or_1_is_illegal():
    match = match_in_phase(Phase.TALON, players=2)
    before = snapshot(match)
    for index in (-1, 2):
        with pytest.raises(IllegalAction):
            match.apply(ChooseTalon(index))
    assert snapshot(match) == before


def test_no_action_is_accepted_after_the_match_is_won():
    rng = random.Random(0)
    match = Match.new(Options(barrel=False, target=1), seed=0)
    advance(match, rng, 2000)
    assert match.over and match.to_act is None and not match.legal_actions()
    before = snapshot(match)
    for action in (Pass(), Bid(105), Play(CARDS[0]), Redeal()):
        with pytest.raises(IllegalAction):
            match.apply(action)
    assert snapshot(match) == before


@pytest.mark.parametrize("thing", ["pass", {"type": "pass"}, None, 105])
def test_apply_rejects_what_is_not_an_action_with_malformed_action(thing):
    """Regression (found at ba339c5): a non-action reached ``action.type`` and raised
    AttributeError, not the engine's MalformedAction."""
    match = Match.new(Options(), seed=1)
    before = snapshot(match)
    with pytest.raises(MalformedAction):
        match.apply(thing)  # type: ignore[arg-type]
    assert snapshot(match) == before


MISTYPED = {
    "bid-105.0": (Phase.BIDDING, 3, lambda m: Bid(105.0)),  # type: ignore[arg-type]
    "bid-True": (Phase.BIDDING, 3, lambda m: Bid(True)),
    "choose_talon-True": (Phase.TALON, 2, lambda m: ChooseTalon(True)),
    "choose_talon-1.0": (Phase.TALON, 2, lambda m: ChooseTalon(1.0)),  # type: ignore[arg-type]
    "give-to-True": (Phase.GIVING, 3, lambda m: Give(True, given_card(m))),
    "give-to-1.0": (Phase.GIVING, 3, lambda m: Give(1.0, given_card(m))),  # type: ignore[arg-type]
    "play-text": (Phase.PLAY, 3, lambda m: Play(str(m.legal_actions()[0].card))),  # type: ignore[arg-type]
}


def given_card(match: Match) -> Any:
    return next(a.card for a in match.legal_actions() if type(a) is Give)


@pytest.mark.parametrize("case", list(MISTYPED))
def test_mistyped_action_field_is_rejected_and_the_record_stays_importable(case):
    """Regression (found at ba339c5): ``Bid(105.0)``, ``ChooseTalon(True)`` and ``Give(True, card)`` were
    accepted and written to the record as ``105.0`` / ``true``, which the engine's own
    import then rejects (§8); ``ChooseTalon(1.0)`` and ``Give(1.0, card)`` raised
    TypeError. A mistyped field must be refused with MalformedAction (when the action is
    built, or when it is applied) or IllegalAction, and change nothing."""
    phase, players, build = MISTYPED[case]
    match = match_in_phase(phase, players=players, redeal=False)
    before = snapshot(match)
    try:
        match.apply(build(match))
    except (MalformedAction, IllegalAction):
        assert snapshot(match) == before
        return
    Match.from_record(json.loads(json.dumps(match.to_record())))  # the record must stay valid
    raise AssertionError(f"the mistyped action {case} was accepted")


@pytest.mark.parametrize("first_dealer", [True, 1.0, -1, 3, "0"])
def test_first_dealer_must_be_an_integer_seat(first_dealer):
    """BUG (reported): ``Match.new(first_dealer=True)`` is accepted and exported as
    ``"first_dealer": true``, which the engine's own import rejects (§8)."""
    try:
        match = Match.new(Options(), seed=1, first_dealer=first_dealer)
    except ValueError:
        return
    record = json.loads(json.dumps(match.to_record()))
    try:
        Match.from_record(record)
    except MalformedRecord as exc:
        raise AssertionError(
            f"first_dealer={first_dealer!r} accepted, its record fails: {exc}"
        ) from None
    raise AssertionError(f"first_dealer={first_dealer!r} accepted")


@given(st.sampled_from([0, 1, 2]), st.integers(0, 2**32))
def test_given_first_dealer_deals_first_and_survives_the_record(first_dealer, seed):
    match = Match.new(Options(), seed=seed, first_dealer=first_dealer)
    record = json.loads(json.dumps(match.to_record()))
    assert record["first_dealer"] == first_dealer == match.view(None).dealer
    assert Match.from_record(record).view(None) == match.view(None)


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


# --------------------------------------------------------------------------- randomness


def first_deal(match: Match) -> Any:
    return match.to_record()["deals"][0]


def test_unseeded_matches_deal_differently():
    assert first_deal(Match.new()) != first_deal(Match.new())


def test_unseeded_match_ignores_the_global_random_state():
    random.seed(7)
    one = first_deal(Match.new())
    random.seed(7)
    assert first_deal(Match.new()) != one


def test_unseeded_match_draws_from_the_operating_system(monkeypatch):
    calls = []
    real = os.urandom

    def counting(n: int) -> bytes:
        calls.append(n)
        return real(n)

    monkeypatch.setattr(random, "_urandom", counting)
    monkeypatch.setattr(os, "urandom", counting)
    Match.new()
    assert calls, "no secure random bytes were drawn"


def test_seeded_matches_deal_the_same():
    assert first_deal(Match.new(seed=42)) == first_deal(Match.new(seed=42))
    assert first_deal(Match.new(seed="x")) == first_deal(Match.new(seed="x"))
    assert first_deal(Match.new(seed=42)) != first_deal(Match.new(seed=43))


@pytest.mark.parametrize("seed", ["seed-7f3a9c", 918273645])
def test_seed_leaks_into_neither_record_nor_views_nor_replay(seed):
    match = advance(Match.new(Options(players=4), seed=seed), random.Random(1), 40)
    record = match.to_record()
    assert set(record) == {"format", "options", "first_dealer", "deals"}
    texts = [json.dumps(record), json.dumps(replay(record))]
    texts += [json.dumps(match.view(s).to_dict()) for s in (0, 1, 2, 3, None)]
    for text in texts:
        assert str(seed) not in text
        assert "seed" not in text


# --------------------------------------------------------------------------- no web stack


def engine_files() -> list[Path]:
    files = []
    for package in ("engine", "bots"):
        files += sorted((REPO / "games" / package).glob("**/*.py"))
    return files


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_engine_and_bots_import_no_web_framework():
    files = engine_files()
    assert any(p.parent.name == "engine" for p in files)
    for path in files:
        assert not imported_roots(path) & FRAMEWORKS, path


def test_engine_imports_only_the_standard_library_and_itself():
    for path in (REPO / "games" / "engine").glob("*.py"):
        outside = imported_roots(path) - set(sys.stdlib_module_names) - {"__future__"}
        assert not outside, f"{path.name} imports {outside}"


def test_importing_the_engine_loads_no_web_framework():
    code = (
        "import games.engine, sys; "
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in "
        f"{sorted(FRAMEWORKS)!r}); "
        "assert not loaded, loaded"
    )
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr


def test_cli_replay_of_a_long_random_match_equals_replay_function():
    match = advance(Match.new(Options(players=3, dark=True), seed=5), random.Random(5), 300)
    record = match.to_record()
    done = subprocess.run(
        [sys.executable, "-m", "games.engine", "replay", "-"],
        cwd=REPO,
        input=json.dumps(record),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout
    assert json.loads(done.stdout) == replay(record)
