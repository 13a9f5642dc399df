"""Who sits where: Swiss, arena and knockout seating, and the round-robin movement of
duplicate events, at tables of 2, 3 or 4.

Pure Python (no Django): the services feed it plain numbers and store what it returns.

Vocabulary
----------
- A *table* is returned as a tuple in seat-number order: ``table[0]`` sits at seat 0, and so
  on. ``None`` is a seat played by a bot. Seat 0 deals the first deal of the match, seat 1
  (left of the dealer) sits on the forced hundred, seat 2 speaks first (docs/spec.md §2; with two
  players seat 1 opens, §4; with four, seat 0 rests in the first deal, §5). The services
  start every tournament match with seat 0 as the first dealer, so balancing the seat
  numbers balances who deals first and who bids first.
- A *history* is every table played so far in the event, in the same form.
- A field that does not divide by the table size gets ``tables * seats - players`` bots
  (at most ``seats - 1``), spread one a table over the tables at the bottom of the order
  (:func:`table_plan`). In the standings a bot is never listed, so it never takes a place.

Swiss (:func:`swiss_seating`) minimises, in this order of importance (the weights are
powers of ten far enough apart that each tier outweighs everything below it at two
tables, for events of up to a few dozen rounds):

1. pairs of players seated together who have met before (``REPEAT``);
2. further meetings of such a pair (``AGAIN``), and a bot table for a player who has
   already had one (``BOT_AGAIN``, like chess's "no second bye");
3. the spread of standings points at a table (``SPREAD`` per point);
4. seat numbers the players at a table cannot all balance (``SEAT`` per unit of
   :func:`seat_cost`): like colours in chess, two players who both need to deal first
   are better at different tables;
5. the spread of standings places at a table (``RANK`` per place).

except that a seat that would leave a player's seat counts three or more apart costs
more than any spread of points (``UNEVEN``): as in chess, where a third colour in a row
is avoided before score groups are kept together.

Small fields are solved exactly by enumerating every seating; larger ones start from a
greedy seating from the top of the standings (MahjongPantheon's Swiss seating) and improve
it by swapping players between tables until no swap that involves a table with a repeat
(a second bot table, a seat three apart) lowers the cost, restarting from small random
changes while repeats remain; then neighbouring tables swap players to narrow spreads
and balance seats. The search's budget is counted in work (``WORK_BUDGET``, ``KICKS``),
not in time, so the result depends only on the input and the seed, on any machine.

Seat numbers within each table are then chosen as an assignment problem (Tabbycat's
British Parliamentary positions): a player's cost for a seat grows steeply with how often
he has sat there beyond his least used seat (:func:`seat_cost`); every permutation of the
table is tried (at most 4! = 24).

The parts: ``common`` (the input, the table plan, seat numbers, the check of a round),
``swiss``, ``arena``, ``knockout`` and ``movement`` (a duplicate event's round-robin plan
of every round, its own docstring says how); everything public is re-exported here.
"""

from __future__ import annotations

from tournaments.pairing.arena import arena_seating
from tournaments.pairing.common import (
    AGAIN,
    BOT_AGAIN,
    RANK,
    REPEAT,
    SEAT,
    SEATS,
    SPREAD,
    UNEVEN,
    Entrant,
    History,
    PairingError,
    PlayerId,
    TableSeats,
    Waiting,
    assign_seats,
    bots_needed,
    check_round,
    seat_cost,
    table_plan,
)
from tournaments.pairing.knockout import (
    knockout_advance_count,
    knockout_next_seeds,
    knockout_plan,
    knockout_qualifiers,
    knockout_seating,
)
from tournaments.pairing.movement import (
    MOVEMENT_BUDGET,
    affine_classes,
    circle_classes,
    design_classes,
    movement_ahead,
    movement_plan,
    movement_round,
)
from tournaments.pairing.swiss import (
    EXACT_LIMIT,
    GREEDY_WINDOW,
    KICKS,
    WORK_BUDGET,
    seating_count,
    swiss_seating,
)

__all__ = [
    "AGAIN",
    "BOT_AGAIN",
    "EXACT_LIMIT",
    "GREEDY_WINDOW",
    "KICKS",
    "MOVEMENT_BUDGET",
    "RANK",
    "REPEAT",
    "SEAT",
    "SEATS",
    "SPREAD",
    "UNEVEN",
    "WORK_BUDGET",
    "Entrant",
    "History",
    "PairingError",
    "PlayerId",
    "TableSeats",
    "Waiting",
    "affine_classes",
    "arena_seating",
    "assign_seats",
    "bots_needed",
    "check_round",
    "circle_classes",
    "design_classes",
    "knockout_advance_count",
    "knockout_next_seeds",
    "knockout_plan",
    "knockout_qualifiers",
    "knockout_seating",
    "movement_ahead",
    "movement_plan",
    "movement_round",
    "seat_cost",
    "seating_count",
    "swiss_seating",
    "table_plan",
]
