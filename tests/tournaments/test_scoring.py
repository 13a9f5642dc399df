"""Standings: placement points and tie-breaks (tournaments/scoring.py)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tournaments.scoring import SeatResult, TableResult, places_by_score, standings

POINTS = (3, 1, 0)


def table(round_: int, *seats: tuple[int | None, int, int]) -> TableResult:
    return TableResult(round_, tuple(SeatResult(p, place, score) for p, place, score in seats))


def test_players_score_the_points_of_their_place_and_share_a_shared_place() -> None:
    rows = standings([table(1, (1, 1, 120), (2, 2, 60), (3, 2, 60))], points=POINTS)
    assert {r.player: r.points for r in rows} == {1: 3, 2: 1, 3: 1}


def test_opponents_points_break_a_tie_on_points() -> None:
    # 1 and 4 both won once; 1 beat the stronger opposition (2 won round two).
    rows = standings(
        [
            table(1, (1, 1, 0), (2, 2, 0), (3, 3, 0)),
            table(1, (4, 1, 0), (5, 2, 0), (6, 3, 0)),
            table(2, (2, 1, 0), (6, 2, 0), (3, 3, 0)),
        ],
        points=POINTS,
    )
    order = [r.player for r in rows]
    assert order.index(1) < order.index(4)


def test_game_score_breaks_a_tie_on_points_and_opponents() -> None:
    rows = standings(
        [
            table(1, (1, 1, 300), (2, 3, 0), (None, 2, 0)),
            table(1, (3, 1, 200), (4, 3, 0), (None, 2, 0)),
        ],
        points=POINTS,
    )
    assert [r.player for r in rows[:2]] == [1, 3]


def test_head_to_head_breaks_the_last_tie_and_equal_players_share_a_rank() -> None:
    rows = standings(
        [
            table(1, (1, 1, 100), (2, 2, 100), (None, 3, 0)),
            table(2, (2, 1, 100), (1, 2, 100), (None, 3, 0)),
            table(3, (1, 1, 100), (2, 2, 100), (None, 3, 0)),
        ],
        points=(1, 1, 0),
    )
    assert [(r.player, r.rank) for r in rows] == [(1, 1), (2, 2)]
    tied = standings(
        [
            table(1, (1, 1, 100), (2, 2, 100), (None, 3, 0)),
            table(2, (2, 1, 100), (1, 2, 100), (None, 3, 0)),
        ],
        points=(1, 1, 0),
    )
    assert [r.rank for r in tied] == [1, 1]


def test_bots_are_not_listed_and_the_disqualified_come_last_without_a_rank() -> None:
    rows = standings(
        [table(1, (None, 1, 500), (1, 2, 100), (2, 3, 50))], points=POINTS, disqualified={1}
    )
    assert [(r.player, r.rank) for r in rows] == [(2, 1), (1, None)]


def test_knockout_ranks_who_went_furthest_first() -> None:
    rows = standings(
        [
            table(1, (1, 1, 0), (2, 2, 0), (3, 3, 0)),
            table(1, (4, 1, 0), (5, 2, 0), (6, 3, 0)),
            table(2, (4, 1, 0), (1, 2, 0), (None, 3, 0)),
        ],
        points=POINTS,
        knockout=True,
    )
    assert [r.player for r in rows[:2]] == [4, 1]


def test_entrants_without_a_match_are_listed_with_nothing() -> None:
    rows = standings([], points=POINTS, players=[7, 8])
    assert [(r.player, r.points, r.rank) for r in rows] == [(7, 0, 1), (8, 0, 1)]


@given(scores=st.lists(st.integers(-500, 1000), min_size=2, max_size=4), data=st.data())
def test_places_by_score_put_higher_scores_first_and_the_resigned_last(
    scores: list[int], data: st.DataObject
) -> None:
    resigned = data.draw(st.sets(st.integers(0, len(scores) - 1), max_size=len(scores) - 1))
    places = places_by_score(scores, resigned)
    for a in range(len(scores)):
        for b in range(len(scores)):
            if (a not in resigned and b in resigned) or (
                (a in resigned) == (b in resigned) and scores[a] > scores[b]
            ):
                assert places[a] < places[b]
            elif (a in resigned) == (b in resigned) and scores[a] == scores[b]:
                assert places[a] == places[b]
