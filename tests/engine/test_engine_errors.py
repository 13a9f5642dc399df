"""The engine's errors: each a distinct ``ValueError``, raised by a call out of turn, an
illegal or malformed action or a bad seat, and then nothing changes (docs/spec.md §8)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import (
    CARDS,
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
)
from tests.engine.shared import (
    advance,
    match_in_phase,
    snapshot,
)

REPO = Path(__file__).resolve().parents[2]
FRAMEWORKS = {"django", "channels", "celery", "rest_framework"}


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
