"""Matchpoints of a duplicate round on a hand-worked example (docs/duplicate.md), the
standings from them, and the seat rotation across rounds.

The example: three tables of three, two boards. Table A seats entrants 1, 2, 3 at
positions 0, 1, 2; table B 4, 5, 6; table C 7, 8 and a bot. Board 0 is dealt from the
round's dealing 0 at every table. On board 1 table C's first dealing (1) was redealt, so
its board 1 comes from dealing 2 and is compared with nobody.

    board 0  pos 0: A 40   B 40   C −120     → 1: 3/4 = 75%   4: 75%    7: 0%
             pos 1: A 0    B 25   C 0        → 2: 1/4 = 25%   5: 100%   8: 25%
             pos 2: A 140  B 120  C(bot) 25  → 3: 100%        6: 50%    bot: 0%
                    (the room averaged 95 at position 2)
    board 1  pos 0: A −100 B 50   C 30 alone → 1: 0%          4: 100%   7: 50%
             pos 1: A 60   B 60   C 0 alone  → 2: 50%         5: 50%    8: 50%
             pos 2: A 0    B 0    C 120 alone→ 3: 50%         6: 50%    bot: 50%

Totals: 4 175, 3 and 5 150 (both 5 of 6 matchpoints: they share 2nd), 6 100, then 1, 2
and 8 at 75 apart by matchpoints over tops (3/6, 2/6, 1/4), 7 last with 50.
"""

from __future__ import annotations

import pytest

from tournaments.duplicate import (
    BoardResult,
    board_scores,
    positions_held,
    rotate_seats,
    standings,
)

BOT = None
SEATING = {"A": (1, 2, 3), "B": (4, 5, 6), "C": (7, 8, BOT)}
TABLES = {"A": 1, "B": 2, "C": 3}
# (board, table, dealing, points by position)
PLAYED = [
    (0, "A", 0, (40, 0, 140)),
    (0, "B", 0, (40, 25, 120)),
    (0, "C", 0, (-120, 0, 25)),
    (1, "A", 1, (-100, 60, 0)),
    (1, "B", 1, (50, 60, 0)),
    (1, "C", 2, (30, 0, 120)),
]


def results() -> list[BoardResult]:
    return [
        BoardResult(
            round=1,
            board=board,
            table=TABLES[t],
            position=p,
            entrant=SEATING[t][p],
            points=points[p],
            dealing=dealing,
            declarer=board == 0 and p == 2,
        )
        for board, t, dealing, points in PLAYED
        for p in range(3)
    ]


def percents(scores) -> dict[tuple[int, object], float]:
    return {(s.result.board, s.result.entrant): s.percent for s in scores}


def test_matchpoints_compare_everyone_who_held_the_same_cards():
    got = percents(board_scores(results()))
    assert got == {
        (0, 1): 75.0, (0, 4): 75.0, (0, 7): 0.0,
        (0, 2): 25.0, (0, 5): 100.0, (0, 8): 25.0,
        (0, 3): 100.0, (0, 6): 50.0, (0, BOT): 0.0,
        (1, 1): 0.0, (1, 4): 100.0, (1, 7): 50.0,
        (1, 2): 50.0, (1, 5): 50.0, (1, 8): 50.0,
        (1, 3): 50.0, (1, 6): 50.0, (1, BOT): 50.0,
    }  # fmt: skip


def test_a_board_a_redeal_moved_to_another_dealing_is_compared_with_nobody():
    lone = [s for s in board_scores(results()) if s.result.table == 3 and s.result.board == 1]
    assert all(s.alone and s.top == 0 and s.percent == 50.0 for s in lone)


def test_each_result_knows_what_the_room_averaged():
    declarer = next(s for s in board_scores(results()) if s.result.entrant == 3)
    assert (declarer.result.points, declarer.average, declarer.matchpoints) == (140, 95.0, 4)


def test_standings_by_total_percent_with_ties_sharing_a_rank():
    rows = standings(board_scores(results()))
    assert [(r.entrant, r.rank, r.total) for r in rows] == [
        (4, 1, 175.0),
        (3, 2, 150.0),
        (5, 2, 150.0),
        (6, 4, 100.0),
        (1, 5, 75.0),
        (2, 6, 75.0),
        (8, 7, 75.0),
        (7, 8, 50.0),
    ]


def test_excluded_bots_are_compared_with_nobody_and_change_the_groups():
    got = percents(board_scores(results(), bots="exclude"))
    assert BOT not in {entrant for _, entrant in got}
    assert (got[(0, 3)], got[(0, 6)]) == (100.0, 0.0)  # 140 against 120 only


def test_an_unknown_bots_choice_is_refused():
    with pytest.raises(ValueError, match="bots"):
        board_scores(results(), bots="ignore")


def test_seats_rotate_so_each_entrant_holds_the_positions_he_held_least():
    # Entrant 1 dealt first twice, 2 sat at position 1 twice, 3 at position 2 twice.
    held = positions_held([(1, 2, 3), (1, 2, 3)], seats=3)
    order = rotate_seats((1, 2, 3), held)
    assert order[0] != 1 and order[1] != 2 and order[2] != 3


def test_over_three_rounds_of_the_same_table_everyone_holds_every_position_once():
    tables: list[tuple] = []
    for _ in range(3):
        tables.append(rotate_seats((1, 2, 3), positions_held(tables, seats=3)))
    assert positions_held(tables, seats=3) == {1: [1, 1, 1], 2: [1, 1, 1], 3: [1, 1, 1]}


def test_a_board_played_for_an_absent_entrant_scores_him_nothing() -> None:
    group = [
        BoardResult(round=1, board=0, table=1, position=0, entrant=1, points=120, dealing=0),
        BoardResult(
            round=1,
            board=0,
            table=2,
            position=0,
            entrant=2,
            points=140,
            dealing=0,
            played_for=True,
        ),
        BoardResult(round=1, board=0, table=3, position=0, entrant=3, points=0, dealing=0),
    ]
    absent = board_scores(group)[1]
    assert (absent.matchpoints, absent.percent) == (0, 0.0)


def test_the_others_keep_their_comparison_with_a_board_played_for_an_absent_entrant() -> None:
    group = [
        BoardResult(round=1, board=0, table=1, position=0, entrant=1, points=120, dealing=0),
        BoardResult(
            round=1,
            board=0,
            table=2,
            position=0,
            entrant=2,
            points=140,
            dealing=0,
            played_for=True,
        ),
    ]
    assert board_scores(group)[0].matchpoints == 0
