"""A duplicate round's boards, read out of its tables' records once the round has
revealed them (docs/duplicate.md): every table's result of every board side by side,
compared by matchpoints (``tournaments.duplicate``)."""

from __future__ import annotations

import contextlib
import hashlib
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.utils.translation import gettext as _

from games.engine.replay import replay
from games.models import MatchResult
from tournaments import pairing
from tournaments.duplicate import BoardResult, BoardScore, board_scores
from tournaments.models import DuplicateDealing, Round, Tournament
from tournaments.selectors.common import ENTERED
from tournaments.selectors.lists import bot_level
from tournaments.selectors.rounds import players_in_play, rounds_played


@dataclass(frozen=True)
class BoardRow:
    table: int
    position: int
    name: str
    score: BoardScore
    table_id: int | None = None  # the live table, whose replay shows its hands
    mine: bool = False  # the viewer's own result


@dataclass(frozen=True)
class MyBoard:
    """The viewer's result of one board against the room (docs/duplicate.md)."""

    number: int
    row: BoardRow


@dataclass(frozen=True)
class BoardView:
    number: int  # 1-based, as the page shows it
    rows: list[BoardRow]
    dealer: int = 0  # the position that dealt this board (the deal moves left each board)


@dataclass(frozen=True)
class RoundBoards:
    number: int
    commitment: str
    round_seed: str
    boards: list[BoardView]
    mine: list[MyBoard]  # the viewer's boards, when he played the round


def round_board_results(round_: Round) -> tuple[list[BoardResult], dict[int | None, str]]:
    """Every seat's result of every board of the round's finished tables, and the names
    of the entrants (and bots). Board k is a table's k-th counted deal; its dealing is
    the deal's place in the table's record, redeals included (docs/duplicate.md)."""
    out: list[BoardResult] = []
    names: dict[int | None, str] = {}
    bot = _("Bot (%(level)s)") % {"level": bot_level(round_.tournament)}
    assignments = round_.assignments.exclude(table=None).prefetch_related("seats__user")
    records: dict[int | None, Any] = dict(
        MatchResult.objects.filter(
            table__in=[assignment.table_id for assignment in assignments]
        ).values_list("table_id", "record")
    )
    for assignment in assignments:
        record = records.get(assignment.table_id)
        if record is None:
            continue
        seats = {s.number: s for s in assignment.seats.all()}
        for s in seats.values():
            names[s.user_id] = s.user.get_display_name() if s.user else bot
        first_dealer = record["first_dealer"]
        n = len(seats)
        # By seat, the dealings the clock or a bot played for the person (games' record).
        played_for = [set(d) for d in record.get("meta", {}).get("played_for", [])]
        replayed: dict[str, Any] = replay(record)
        board = 0
        for index, entry in enumerate(replayed.get("deals", [])):
            if entry["outcome"] == "redeal":
                continue
            for seat in range(n):
                out.append(
                    BoardResult(
                        round=round_.number,
                        board=board,
                        table=assignment.number,
                        position=(seat - first_dealer) % n,
                        entrant=seats[seat].user_id,
                        points=entry["deltas"][seat],
                        dealing=index,
                        declarer=entry["declarer"] == seat,
                        contract=entry["contract"],
                        outcome=entry["outcome"],
                        seat=seat,
                        played_for=(
                            seats[seat].user_id is not None
                            and seat < len(played_for)
                            and index in played_for[seat]
                        ),
                    )
                )
            board += 1
    return out, names


def round_boards(tournament: Tournament, number: int, user: Any = None) -> RoundBoards | None:
    """The boards of a duplicate round, or None: not a duplicate event, no such round,
    or the round is not over (its boards are secret until then); ``user``'s own results
    are marked and listed apart."""
    if tournament.format != Tournament.Format.DUPLICATE:
        return None
    round_ = Round.objects.filter(tournament=tournament, number=number).first()
    dealing = DuplicateDealing.objects.filter(tournament=tournament, round_number=number).first()
    if round_ is None or dealing is None or dealing.revealed_at is None:
        return None
    results, names = round_board_results(round_)
    tables = dict(round_.assignments.values_list("number", "table_id"))
    me = user.pk if getattr(user, "is_authenticated", False) else None
    by_board: dict[int, list[BoardRow]] = defaultdict(list)
    for score in board_scores(results, bots=tournament.duplicate_bots):
        r = score.result
        row = BoardRow(
            r.table,
            r.position,
            names.get(r.entrant, ""),
            score,
            tables.get(r.table),
            mine=me is not None and r.entrant == me,
        )
        by_board[r.board].append(row)
    boards = [
        BoardView(
            b + 1,
            sorted(rows, key=lambda row: (row.position, row.table)),
            dealer=b % max(tournament.players_per_table, 1),
        )
        for b, rows in sorted(by_board.items())
    ]
    mine = [MyBoard(b.number, row) for b in boards for row in b.rows if row.mine]
    return RoundBoards(number, dealing.commitment, dealing.round_seed, boards, mine)


@dataclass(frozen=True)
class OpenDealing:
    """The next duplicate round's published commitment, while it takes seeds."""

    round_number: int
    commitment: str
    my_seed: str | None  # the visitor's own seed, if he gave one
    may_give: bool  # an entrant who has not given one yet


def open_dealing(tournament: Tournament, user: Any) -> OpenDealing | None:
    """The earliest round of a duplicate event still taking the entrants' seeds."""
    if (
        tournament.format != Tournament.Format.DUPLICATE
        or tournament.status not in Tournament.ACTIVE
    ):
        return None
    dealing = (
        # A dealing beyond the rounds (committed before an organiser cut them) is never played.
        DuplicateDealing.objects.filter(
            tournament=tournament, sealed_at=None, round_number__lte=tournament.rounds or 0
        )
        .order_by("round_number")
        .first()
    )
    if dealing is None:
        return None
    who = user if getattr(user, "is_authenticated", False) else None
    mine = (
        dealing.entrant_seeds.filter(user=who).values_list("seed", flat=True).first()
        if who
        else None
    )
    entered = (
        who is not None and tournament.registrations.filter(user=who, status__in=ENTERED).exists()
    )
    return OpenDealing(dealing.round_number, dealing.commitment, mine, entered and mine is None)


# -- the round-robin movement's rounds to come ---------------------------------------------


@dataclass(frozen=True)
class PlannedSeat:
    user_id: int | None  # None: a bot
    name: str  # a bot by its level


@dataclass(frozen=True)
class PlannedTable:
    number: int
    seats: list[PlannedSeat]  # by position, the first dealer first
    mine: bool = False

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]


@dataclass(frozen=True)
class PlannedRound:
    number: int
    tables: list[PlannedTable]


PLAN_CACHE_SECONDS = 24 * 3600


def movement_ahead(tournament: Tournament, user: Any = None) -> list[PlannedRound]:
    """A round-robin duplicate event's rounds still to be seated, as its movement will
    seat them if nobody leaves or joins (docs/duplicate.md, "Movement"): who meets whom
    in every round to come, so that the players and the organiser see the evening ahead.
    Empty for every other event, before round 1 is seated and once the last one is.

    The plan is what seating computes (``pairing.movement_ahead``, a pure function of the
    rounds played, the field, the rounds and the seed); it is kept in the cache under
    exactly those, so a page asks the search once per seating or change of the field."""
    if (
        tournament.format != Tournament.Format.DUPLICATE
        or tournament.movement != Tournament.Movement.ROUND_ROBIN
        or tournament.status != Tournament.Status.RUNNING
    ):
        return []
    last = (
        Round.objects.filter(tournament=tournament)
        .order_by("-number")
        .values_list("number", flat=True)
    )
    seated = last.first() or 0
    if seated == 0 or seated >= (tournament.rounds or 0):
        return []
    names = {r.user_id: r.user.get_display_name() for r in players_in_play(tournament)}
    field = sorted(names)
    if len(field) < 2:
        return []
    played = rounds_played(tournament, before=seated + 1)
    k, rounds = tournament.players_per_table, tournament.rounds or 0
    key = (
        "movement-ahead:"
        + hashlib.sha256(
            repr((tournament.pk, tournament.seed, rounds, k, field, played)).encode()
        ).hexdigest()
    )
    ahead = _cached(key)
    if ahead is None:
        ahead = pairing.movement_ahead(field, played, rounds=rounds, seats=k, seed=tournament.seed)
        _cache(key, ahead)
    bot = _("Bot (%(level)s)") % {"level": bot_level(tournament)}
    me = getattr(user, "pk", None) if getattr(user, "is_authenticated", False) else None
    return [
        PlannedRound(
            number=seated + 1 + i,
            tables=[
                PlannedTable(
                    number=j,
                    seats=[
                        PlannedSeat(p, names.get(p, "?") if p is not None else bot) for p in table
                    ],
                    mine=me is not None and me in table,
                )
                for j, table in enumerate(tables, start=1)
            ],
        )
        for i, tables in enumerate(ahead)
    ]


# The cache only spares the search: a page is drawn without it when Redis is away.
def _cached(key: str) -> Any:
    try:
        return cache.get(key)
    except Exception:  # the cache backend's own connection errors
        return None


def _cache(key: str, value: Any) -> None:
    with contextlib.suppress(Exception):  # as above
        cache.set(key, value, PLAN_CACHE_SECONDS)
