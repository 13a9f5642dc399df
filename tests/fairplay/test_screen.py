"""The screening of one record, on matches where the answer is known."""

from __future__ import annotations

import copy
import math
import random
from typing import Any

import pytest

from bench.fair_play import Policy, _gains, play_match
from fairplay.scoring import (
    MIN_SPREAD,
    Directed,
    directed,
    engine_llr,
    feeding_difference,
    feeding_z,
    level_spread,
    pair_score,
    soft_play_z,
)
from fairplay.screen import screen
from games.engine import Match
from games.engine.actions import Action, Play, action_from_dict
from games.engine.deal import Phase
from games.engine.record import RecordError, dealt_cards, read_header
from tests.fairplay.helpers import basic, record_of


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


def _per_chance(kind: str, seeds: range, seat: int = 0) -> dict[int, float]:
    """The points ``seat`` fed each other seat a chance to feed him, over ``seeds``."""
    fed: dict[int, int] = {}
    feeds: dict[int, int] = {}
    for seed in seeds:
        screening = screen(record_of(kind, seed=seed), samples=2, decisions=2)
        for other, pair in screening.seats[seat].pairs.items():
            fed[other] = fed.get(other, 0) + pair.fed
            feeds[other] = feeds.get(other, 0) + pair.feeds
    return {other: fed[other] / feeds[other] for other in feeds if feeds[other]}


def test_a_player_who_feeds_one_opponent_gives_him_more_points_than_the_other():
    ab, _ = _pair_over("feeder", range(1, 5))
    rate = _per_chance("feeder", range(1, 5))

    assert ab.fed > 2 * ab.fed_rest
    assert rate[1] > 3 * rate[2]
    assert feeding_z(ab.fed, ab.fed_rest, ab.diff_sq, ab.matches) > 3


def _fellow_defender_feeder(base: Policy, partner: int, moved: list[int]) -> Policy:
    """Smear every point he can onto ``partner``'s trick when both defend (``moved`` gets
    the points beyond the least each time); otherwise ``base``."""

    def decide(match: Match, seat: int) -> Action:
        deal = match.deal
        assert deal is not None
        last = deal.phase is Phase.PLAY and len(deal.trick) == len(deal.active) - 1
        if last and deal.declarer not in (seat, partner):
            plays = [a for a in match.legal_actions() if isinstance(a, Play)]
            given = [_gains(match, a)[partner] for a in plays]
            moved.append(max(given) - min(given))
            return plays[given.index(max(given))]
        return base(match, seat)

    return decide


def _declarers(record: dict[str, Any]) -> list[int]:
    """The declarer of each deal of ``record`` (-1 where nobody declared)."""
    options, first_dealer, deals = read_header(record)
    match = Match.empty(options, first_dealer=first_dealer)
    out = []
    for i, data in enumerate(deals):
        match.start_deal(*dealt_cards(data, options.players, i))
        declarer = -1
        for item in data["actions"]:
            match.apply(action_from_dict(item), seat=item["seat"])
            if match.deal is not None and match.deal.declarer >= 0:
                declarer = match.deal.declarer
        out.append(declarer)
    return out


def test_what_a_defender_gives_his_fellow_defender_is_not_counted_as_feeding():
    moved: list[int] = []
    seats = [basic(1), basic(2), basic(3)]
    seats[0] = _fellow_defender_feeder(seats[0], 1, moved)
    record = play_match(seats, seed=1, deals=12)
    declarers = _declarers(record)

    # Each deal's counts: the screening of the match up to it less that of the one before.
    def counted(upto: int) -> dict[tuple[int, int], tuple[int, int]]:
        cut = {**record, "deals": record["deals"][:upto]}
        seats = screen(cut, decisions=0).seats
        return {(a, b): (p.fed, p.feeds) for a, c in seats.items() for b, p in c.pairs.items()}

    before = counted(0)
    between = {"defenders": 0, "declarer": 0}
    for deal in range(len(declarers)):
        after = counted(deal + 1)
        for (a, b), (fed, feeds) in after.items():
            was = before.get((a, b), (0, 0))
            role = "declarer" if declarers[deal] in (a, b) else "defenders"
            between[role] += feeds - was[1]
            if role == "defenders":
                assert (fed, feeds) == was, (deal, a, b)
        before = after

    # He smeared points onto his fellow defender's tricks, and had chances to feed where
    # one of the two declared: only those are counted.
    assert sum(moved) > 0
    assert between == {"defenders": 0, "declarer": between["declarer"]} and between["declarer"] > 0


def test_the_largest_feeds_are_between_the_declarer_and_a_defender():
    record = record_of("honest", seed=3)
    screening = screen(record, samples=2, decisions=2)
    declarers = _declarers(record)

    assert any(counts.largest for counts in screening.seats.values())
    for seat, counts in screening.seats.items():
        for deal, _, to, _ in counts.largest:
            assert declarers[deal] in (seat, to)


def test_the_feeding_difference_weighs_points_against_the_chances_to_feed():
    # As many chances to each: the plain difference of points.
    assert feeding_difference(30, 10, 10, 10) == pytest.approx(20)
    # More chances to feed the one who declares more often, at the same points a chance:
    # no difference (an honest player's points follow his chances).
    assert feeding_difference(30, 20, 6, 4) == pytest.approx(0)
    # The same 30 points in fewer chances are more of a favour than in more.
    assert feeding_difference(30, 5, 6, 10) > feeding_difference(30, 20, 6, 10) > 0
    # Two other seats (four players): the rest's chances are shared between them.
    assert feeding_difference(30, 10, 20, 20, rest=2) == pytest.approx(20)
    # Nothing to compare.
    assert feeding_difference(30, 10, 0, 0) == feeding_difference(0, 0, 5, 10) == 0


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


def test_the_seats_given_a_larger_budget_are_asked_at_it_and_the_rest_as_before():
    record = record_of("honest", seed=4, deals=4)
    plain = screen(record, seed=9, decisions=6)
    larger = screen(record, seed=9, decisions=6, seat_samples={0: 24})

    assert screen(record, seed=9, decisions=6, seat_samples={0: 6}).to_dict() == plain.to_dict()
    assert (larger.seats[0].samples, plain.seats[0].samples) == (24, 6)
    assert larger.seats[1].to_dict() == plain.seats[1].to_dict()
    assert larger.seats[2].to_dict() == plain.seats[2].to_dict()
