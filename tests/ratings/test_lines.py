"""A seat's line of a match, from the engine's replay of the record."""

import pytest

from ratings.lines import BadRecord, seat_lines
from tests.ratings.helpers import played_record


def test_the_winner_won_from_the_barrel() -> None:
    record, _, winner = played_record(3, 1)
    assert [line.barrel_won for line in seat_lines(record)] == [s == winner for s in range(3)]


def test_every_completed_deal_has_one_declarer() -> None:
    record, _, _ = played_record(3, 2)
    lines = seat_lines(record)
    played = lines[0].deals
    assert sum(x.contracts_made + x.contracts_failed for x in lines) == played


def test_a_resting_dealer_does_not_play_the_deal() -> None:
    record, _, _ = played_record(4, 1)
    lines = seat_lines(record)
    deals = sum(1 for d in record["deals"])
    assert all(line.deals < deals for line in lines)


def test_a_broken_record_is_refused() -> None:
    record, _, _ = played_record(3, 1)
    broken = {**record, "deals": [{**record["deals"][0], "actions": [{"seat": 9, "type": "pass"}]}]}
    with pytest.raises(BadRecord):
        seat_lines(broken)
