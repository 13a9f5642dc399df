"""The analysis core: the search's verdict on each decision of a record."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from analysis.core import (
    BLUNDER,
    Decision,
    Label,
    Stage,
    analyse,
    decisions,
    judge,
    label_for,
)
from games.bots import Budget, make_bot
from games.bots.endgame import solve
from games.bots.objective import loss_cap
from games.bots.policy import estimate_points
from games.bots.strong import MasterBot
from games.engine import Match, Options
from games.engine.actions import Bid, action_from_dict
from games.engine.cards import card_index
from games.engine.deal import Phase
from games.engine.record import RecordError

from .helpers import bot_record

SAMPLES = 6
HIGH = sum(1 << card_index(c) for c in ("AS", "AC", "AD", "AH", "TS", "TC", "TD", "TH"))


def test_the_search_s_own_choice_loses_nothing() -> None:
    record = bot_record(seed=3, deals=2)
    phases = set()
    for d in decisions(record, [0, 1, 2]):
        bot = MasterBot(9, Budget(seconds=None, samples=SAMPLES))
        choice = bot.decide(d.view)
        judged = judge(Decision(d.deal, d.action, d.seat, d.view, choice), samples=SAMPLES, seed=9)
        assert judged.loss == 0, (d.view.phase, choice, judged)
        assert judged.label is Label.GOOD
        assert judged.best == choice or judged.value_best == judged.value_taken
        phases.add(d.view.phase)
    assert {"bidding", "giving", "contract", "play"} <= phases


def _weak_bidder(seed: int) -> tuple[dict[str, Any], int, int] | None:
    """A record whose first deal reaches a free bid of a seat holding a hand with no
    marriage, no ace and no ten: (record cut before it, seat, action index)."""
    record = bot_record(seed=seed, deals=1)
    match = Match.from_record({**record, "deals": [{**record["deals"][0], "actions": []}]})
    for j, item in enumerate(record["deals"][0]["actions"]):
        deal = match.deal
        assert deal is not None
        seat = item["seat"]
        legal = match.legal_actions()
        hand = deal.hands[seat]
        free_bid = match.view(seat).phase == "bidding" and any(isinstance(a, Bid) for a in legal)
        weak = not hand & HIGH and estimate_points(hand, False) < 60
        if free_bid and weak and deal.bid >= 100:
            return record, seat, j
        match.apply(action_from_dict(item), seat=seat)
    return None


def test_a_bid_the_hand_cannot_make_is_a_blunder() -> None:
    found = next(f for f in map(_weak_bidder, range(1, 200)) if f is not None)
    record, seat, j = found
    planted = copy.deepcopy(record)
    planted["deals"][0]["actions"] = planted["deals"][0]["actions"][:j]
    match = Match.from_record(planted)
    lo = min(a.value for a in match.legal_actions() if isinstance(a, Bid))
    planted["deals"][0]["actions"].append({"seat": seat, "type": "bid", "value": lo})
    result = analyse(planted, [seat], samples=40, seed=1)
    last = result.decisions[-1]
    assert (last.deal, last.action) == (0, j)
    assert last.taken == Bid(lo)
    assert last.label is Label.BLUNDER, last
    assert last.loss >= BLUNDER


def test_labels_follow_the_thresholds() -> None:
    assert label_for(0) is Label.GOOD
    assert label_for(BLUNDER) is Label.BLUNDER
    assert label_for(BLUNDER - 0.1) is Label.MISTAKE


def test_the_same_seed_gives_the_same_analysis() -> None:
    record = bot_record(seed=4, deals=1)
    first = analyse(record, [1], samples=SAMPLES, seed=5).to_dict()
    assert analyse(record, [1], samples=SAMPLES, seed=5).to_dict() == first


def test_a_record_that_does_not_replay_is_refused() -> None:
    record = bot_record(seed=4, deals=1)
    bad = copy.deepcopy(record)
    bad["deals"][0]["actions"][0]["seat"] = (bad["deals"][0]["actions"][0]["seat"] + 1) % 3
    with pytest.raises(RecordError):
        analyse(bad, [0], samples=SAMPLES)


def test_progress_counts_every_decision() -> None:
    record = bot_record(seed=6, deals=1)
    seen: list[tuple[int, int]] = []
    result = analyse(
        record, [2], samples=2, progress=lambda done, total: seen.append((done, total))
    )
    assert seen == [(i + 1, len(result.decisions)) for i in range(len(result.decisions))]
    assert all(j.seat == 2 for j in result.decisions)


def _contract_thrown_away(seed: int) -> tuple[dict[str, Any], int, int, dict[str, Any]] | None:
    """A declarer's card, three tricks or fewer from the end of a deal of basic bots,
    after which best play (every card known) no longer makes the contract though the
    best card still does: (record cut before it, seat, action index, the card as an
    action)."""
    record = bot_record(seed=seed, deals=1)
    match = Match.from_record({**record, "deals": [{**record["deals"][0], "actions": []}]})
    for j, item in enumerate(record["deals"][0]["actions"]):
        deal = match.deal
        assert deal is not None
        seat = item["seat"]
        if deal.phase is Phase.PLAY and seat == deal.declarer and deal.tricks_played >= 5:
            made = {}
            for action in match.legal_actions():
                after = deal.copy()
                after.apply(action)
                take = after.points[seat] + after.marriages[seat] + solve(after)
                made[action] = take >= deal.contract
            if any(made.values()) and not all(made.values()):
                bad = next(a for a, ok in made.items() if not ok)
                return record, seat, j, {"seat": seat, **bad.to_dict()}
        match.apply(action_from_dict(item), seat=seat)
    return None


def test_a_card_that_gives_away_a_made_contract_is_a_blunder() -> None:
    found = next(f for f in map(_contract_thrown_away, range(1, 300)) if f is not None)
    record, seat, j, card = found
    planted = copy.deepcopy(record)
    planted["deals"][0]["actions"] = [*planted["deals"][0]["actions"][:j], card]
    last = analyse(planted, [seat], samples=40, seed=1).decisions[-1]
    assert (last.deal, last.action) == (0, j)
    assert last.label is Label.BLUNDER, last


def _swap_hidden(record: dict[str, Any], cut_at: int) -> dict[str, Any] | None:
    """``record`` with a card of seat 1 and a card of seat 2 of the same suit exchanged
    (a nine, jack or ten: no part of a marriage, neither played nor passed on before action ``cut_at``):
    nothing seat 0 could know changes, every action stays legal."""
    deal0 = record["deals"][0]
    match = Match.from_record(
        {**record, "deals": [{**deal0, "actions": deal0["actions"][:cut_at]}]}
    )
    deal = match.deal
    assert deal is not None
    dealt = [{card_index(c) for c in h} for h in deal0["hands"]]
    for a in range(24):
        for b in range(24):
            if a // 6 != b // 6 or a % 6 not in (0, 1, 4) or b % 6 not in (0, 1, 4) or a == b:
                continue
            if (
                a in dealt[1]
                and b in dealt[2]
                and deal.hands[1] >> a & 1
                and deal.hands[2] >> b & 1
            ):
                out = copy.deepcopy(record)
                hands = out["deals"][0]["hands"]
                names = {card_index(c): c for h in hands for c in h}
                hands[1] = [names[b] if card_index(c) == a else c for c in hands[1]]
                hands[2] = [names[a] if card_index(c) == b else c for c in hands[2]]
                return out
    return None


def test_cards_hidden_from_the_seat_do_not_change_its_analysis() -> None:
    record = bot_record(seed=8, deals=1)
    actions = record["deals"][0]["actions"]
    cut_at = next(j for j, a in enumerate(actions) if a["type"] == "play") + 6
    record["deals"][0]["actions"] = actions[:cut_at]
    swapped = _swap_hidden(record, cut_at)
    assert swapped is not None and swapped != record
    Match.from_record(swapped)  # still a legal record
    first = analyse(record, [0], samples=SAMPLES, seed=2)
    assert {j.stage for j in first.decisions} >= {Stage.BIDDING, Stage.PLAY}
    assert analyse(swapped, [0], samples=SAMPLES, seed=2).decisions == first.decisions


def test_hindsight_is_the_exact_best_take_of_every_played_deal() -> None:
    record = bot_record(seed=8, deals=2)
    lines = analyse(record, [], samples=SAMPLES).hindsight
    expected = []
    for i, data in enumerate(record["deals"]):
        match = Match.from_record(
            {**record, "deals": [*record["deals"][:i], {**data, "actions": []}]}
        )
        first_lead = None
        for item in data["actions"]:
            deal = match.deal
            assert deal is not None
            if first_lead is None and deal.phase is Phase.PLAY:
                first_lead = deal.copy()
            match.apply(action_from_dict(item), seat=item["seat"])
        result = match.results[-1]
        if first_lead is not None and result.outcome.value != "written_off":
            expected.append((i, result.declarer, result.contract, solve(first_lead)))
    assert [(h.deal, h.declarer, h.contract, h.could) for h in lines] == expected
    assert lines  # at least one deal was played


def test_the_face_down_talon_choice_of_two_players_is_not_judged() -> None:
    record = bot_record(seed=5, deals=3, players=2)
    assert any(d["actions"] and "choose_talon" in str(d["actions"]) for d in record["deals"])
    phases = {j.phase for j in analyse(record, [0, 1], samples=2, seed=1).decisions}
    assert "talon" not in phases


def test_a_match_of_three_deals_is_judged_in_points_one_deal_can_swing() -> None:
    options = Options(players=3, deals=3)
    match = Match.new(options, seed=0)
    bots = [make_bot("basic", seed=s) for s in range(3)]
    while not match.over:
        seat = match.to_act
        assert seat is not None
        match.apply(bots[seat].decide(match.view(seat)), seat=seat)
    stake = max(r.contract or 120 for r in match.results)
    judged = analyse(match.to_record(), [0, 1, 2], samples=4, seed=1).decisions
    swing = max(max(abs(j.value_taken), abs(j.value_best), j.loss) for j in judged)
    assert swing <= loss_cap(options, stake)
