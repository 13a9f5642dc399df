"""The screening of one record, on matches where the answer is known."""

from __future__ import annotations

import copy
import math
import random

import pytest

from fairplay.scoring import (
    MIN_SPREAD,
    Directed,
    directed,
    engine_llr,
    feeding_z,
    level_spread,
    pair_score,
    soft_play_z,
)
from fairplay.screen import screen
from games.engine.record import RecordError
from tests.fairplay.helpers import record_of


def _pair_over(kind: str, seeds: range) -> tuple[Directed, Directed]:
    ab, ba = Directed(), Directed()
    for seed in seeds:
        screening = screen(record_of(kind, seed=seed), samples=2, decisions=2)
        ab.add(directed(screening, 0, 1))
        ba.add(directed(screening, 1, 0))
    return ab, ba


def test_a_pair_that_lets_each_others_bids_stand_never_bids_over_the_other():
    ab, ba = _pair_over("soft-play", range(1, 5))

    assert ab.chances > 0 and ba.chances > 0
    assert ab.stood == ab.chances and ba.stood == ba.chances
    assert ab.stood_rest < ab.chances_rest


def test_a_pair_that_lets_each_others_bids_stand_scores_far_above_an_honest_pair():
    soft = pair_score(*_pair_over("soft-play", range(1, 9)))[1]["soft_play"]
    fair = pair_score(*_pair_over("honest", range(1, 9)))[1]["soft_play"]

    assert soft > 3 > fair


def test_a_player_who_feeds_one_opponent_gives_him_more_points_than_the_other():
    ab, _ = _pair_over("feeder", range(1, 5))

    assert ab.fed > 3 * ab.fed_rest
    assert feeding_z(ab.fed, ab.fed_rest, ab.diff_sq, ab.matches) > 3


def test_the_fed_opponent_does_not_feed_back():
    ab, ba = _pair_over("feeder", range(1, 5))

    assert feeding_z(ba.fed, ba.fed_rest, ba.diff_sq, ba.matches) < feeding_z(
        ab.fed, ab.fed_rest, ab.diff_sq, ab.matches
    )


def test_the_largest_feeds_name_their_deal_action_and_receiver():
    record = record_of("feeder", seed=3)
    seat = screen(record, samples=2, decisions=2).seats[0]

    deal, action, to, points = seat.largest[0]
    assert record["deals"][deal]["actions"][action]["seat"] == 0
    assert to == 1 and points > 0


def test_agreement_with_master_is_counted_on_at_most_the_decisions_asked():
    screening = screen(record_of("honest", seed=2), samples=2, decisions=5)

    assert all(c.checked == 5 and 0 <= c.agreed <= 5 for c in screening.seats.values())


def test_screening_is_reproducible_by_seed():
    record = record_of("honest", seed=4, deals=4)

    first = screen(record, seed=9, samples=2, decisions=6).to_dict()
    assert screen(record, seed=9, samples=2, decisions=6).to_dict() == first


def test_only_the_seats_asked_for_are_screened():
    screening = screen(record_of("honest", seed=5, deals=3), [1], samples=2, decisions=2)

    assert list(screening.seats) == [1]


def test_a_record_that_does_not_replay_is_refused():
    record = copy.deepcopy(record_of("honest", seed=6, deals=2))
    record["deals"][0]["actions"][0]["seat"] = (record["deals"][0]["actions"][0]["seat"] + 1) % 3

    with pytest.raises(RecordError):
        screen(record)


def test_soft_play_z_is_zero_without_anything_to_compare():
    assert soft_play_z(0, 0, 10, 5) == 0.0


def test_a_soft_play_pair_passes_every_answer_with_a_hand_to_contest_the_other():
    ab, ba = _pair_over("soft-play", range(1, 7))

    # Where the reference bot would have bid over the partner, the pair passed every time;
    # against the third player it bid as the reference does (both play it).
    assert ab.contest + ba.contest > 0
    assert (ab.yielded, ba.yielded) == (ab.contest, ba.contest)
    assert ab.contest_rest + ba.contest_rest > 0 and ab.yielded_rest == ba.yielded_rest == 0


def test_an_honest_pair_contests_the_others_bid_when_its_hand_is_worth_it():
    ab, ba = _pair_over("honest", range(1, 7))

    assert ab.contest + ba.contest > 0 and ab.yielded == ba.yielded == 0
    assert pair_score(ab, ba)[1]["soft_play"] <= 0


def test_the_soft_play_score_rests_on_the_hands_worth_contesting_not_every_answer():
    hopeless = Directed(matches=1, chances=10, stood=10, chances_rest=10, stood_rest=2)
    worth = Directed(
        matches=1, chances=10, stood=10, chances_rest=10, stood_rest=2,
        contest=6, yielded=6, contest_rest=6, yielded_rest=0,
    )  # fmt: skip

    # Passing every answer to the other with nothing to bid says nothing; passing the
    # hands worth a bid does.
    assert pair_score(hopeless, Directed())[1]["soft_play"] == 0.0
    assert pair_score(hopeless, Directed())[1]["let_stand"] > 3
    assert pair_score(worth, Directed())[1]["soft_play"] > 3


def test_agreement_where_master_and_the_reference_differ_is_counted_apart():
    honest = screen(record_of("honest", seed=3, deals=6), [0], samples=4, decisions=24)
    engine = screen(record_of("engine", seed=3, deals=6), [0], samples=4, decisions=24)

    for screening in (honest, engine):
        seat = screening.seats[0]
        assert 0 < seat.split <= seat.checked and seat.split_agreed <= seat.agreed
    # An honest basic player plays the reference's choice, never master's where they differ.
    assert honest.seats[0].split_agreed == 0
    assert engine.seats[0].split_agreed > 0


def test_the_engine_likelihood_ratio_weighs_agreement_against_the_players_level():
    # Nothing where master and the reference never differed.
    assert engine_llr(0, 0, 0.3) == 0.0
    # At his level's rate the ratio leans to honesty; far above it, to an engine.
    assert engine_llr(100, 30, 0.3) < 0 < engine_llr(100, 60, 0.3)
    # The same agreement says less for a level that agrees with master more.
    assert engine_llr(100, 60, 0.5) < engine_llr(100, 60, 0.3)
    # More decisions at the same excess say more.
    assert engine_llr(100, 60, 0.3) > engine_llr(50, 30, 0.3) > 0
    # A user at any share is weighed: 45% where the level gives 30% is far from the
    # middle share's 65%, and still stands out.
    assert engine_llr(400, 180, 0.3) > math.log(100)
    assert engine_llr(400, 180, 0.3, shares=(0.5,)) < 0


def test_an_honest_players_likelihood_ratio_seldom_ever_reaches_the_threshold():
    # Ville's inequality, checked by simulation: honest players agreeing at their level's
    # rate, watched after every decision, cross ln 100 at most about 1% of the time.
    rng = random.Random(5)
    crossed = 0
    for _ in range(400):
        agreed = 0
        for n in range(1, 301):
            agreed += rng.random() < 0.3
            if engine_llr(n, agreed, 0.3) >= math.log(100):
                crossed += 1
                break
    assert crossed <= 8  # 2%: the bound is 1%, with room for the simulation's own spread


def test_the_spread_between_players_of_a_level_is_what_chance_does_not_explain():
    alike = [(300, 1000), (302, 1000), (298, 1000), (301, 1000)]
    unlike = [(200, 1000), (300, 1000), (400, 1000), (300, 1000)]

    assert level_spread(alike, 0.3) == MIN_SPREAD
    assert level_spread(unlike, 0.3) == pytest.approx(0.08, abs=0.01)
    assert level_spread([(3, 10)], 0.3) == MIN_SPREAD  # one player: no spread to see


def test_an_honest_player_a_little_above_his_levels_rate_is_not_found_by_numbers_alone():
    # 88% where his level agrees at 80% (close to what an engine user at half his
    # decisions would show, 90%), over 3000 decisions: against the level's rate alone
    # that is "certain"; against the spread between the level's players it is not.
    assert engine_llr(3000, 2640, 0.8) > math.log(100)
    assert engine_llr(3000, 2640, 0.8, spread=0.05) < math.log(100)
    # An engine user at 60% of the decisions stands out either way.
    assert engine_llr(300, 180, 0.3, spread=0.05) > math.log(100)
    # A spread that is no spread gives the single rate's ratio.
    assert engine_llr(100, 40, 0.3, spread=1e-9) == pytest.approx(engine_llr(100, 40, 0.3))
