"""The screening of one record, on matches where the answer is known."""

from __future__ import annotations

import copy

import pytest

from fairplay.scoring import Directed, directed, feeding_z, pair_score, soft_play_z
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
