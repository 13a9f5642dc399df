"""Reads of the live tables: lists, the messages a connection starts with, records.

What a seat may see always comes from the engine's views (``match.view(seat)``); nothing
here serialises engine state by itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import QuerySet

from accounts.types import User, Visitor
from games import errors, placing
from games import state as table_state
from games.engine import Match

from .models import Dealing, MatchResult, Seat, Table, TableAction


def table_list_open() -> QuerySet[Table]:
    """Public tables waiting for players, newest first, with their seats."""
    return (
        Table.objects.filter(status=Table.Status.OPEN, is_private=False)
        .prefetch_related("seats__user")
        .order_by("-created_at")
    )


def table_list_for_user(*, user: User) -> QuerySet[Table]:
    """The tables a person sits at: running and open first, then finished ones."""
    return (
        Table.objects.filter(seats__user=user)
        .exclude(status=Table.Status.ABANDONED, started_at__isnull=True)
        .prefetch_related("seats__user")
        .select_related("result")
        .order_by("finished_at", "-created_at")
        .distinct()
    )


def table_get(*, table_id: int) -> Table:
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise errors.TableNotFound()
    return table


def seat_of(*, table_id: int, user: Visitor | None) -> int | None:
    """The seat number of ``user`` at a table, or None (a spectator)."""
    if user is None or not user.is_authenticated:
        return None
    return (
        Seat.objects.filter(table_id=table_id, user=user).values_list("number", flat=True).first()
    )


def may_watch(*, table: Table, user: Visitor | None, invite_code: str | None) -> bool:
    """Anyone may watch a public table; a private one needs a seat or its invite code;
    a duplicate round's table, a seat until the round is over (its boards are played at
    the other tables too, docs/duplicate.md)."""
    if boards_secret(table):
        return seat_of(table_id=table.pk, user=user) is not None
    if not table.is_private or invite_code == table.invite_code:
        return True
    return seat_of(table_id=table.pk, user=user) is not None


def boards_secret(table: Table) -> bool:
    """A duplicate round's table whose dealt boards the round has not revealed yet."""
    return bool(table.dealing_source) and (
        Dealing.objects.filter(table=table, from_dealer=True, revealed=False)
        .exclude(dealt_at=None)
        .exists()
    )


def seat_summary(seat: Seat) -> dict[str, Any]:
    return {
        "number": seat.number,
        "name": seat.name(),
        "user_id": seat.user_id,
        "bot": seat.bot_level or None,
        "away": seat.away,
        "resigned": seat.resigned,
    }


def table_version(table: Table) -> int:
    """The version clients see: the number of actions applied since the start, whose
    first deal is version 0; -1 before the start, so that the update that starts the
    match is newer than every ``state`` of the open table (docs/protocol.md §3.4)."""
    return table.version if table.started_at is not None else -1


def table_summary(table: Table, seats: list[Seat] | None = None) -> dict[str, Any]:
    """The table as every client sees it: options, seats, status and the clock."""
    if seats is None:
        seats = list(table.seats.select_related("user"))
    by_number = {s.number: seat_summary(s) for s in seats}
    return {
        "id": table.pk,
        "status": table.status,
        "players": table.players,
        "preset": table.preset,
        "options": table.options,
        "rated": table.rated,
        "private": table.is_private,
        "move_seconds": table.move_seconds,
        "created_by": table.created_by_id,
        "seats": [by_number.get(n) for n in range(table.players)],
        "deadline": table.deadline.isoformat() if table.deadline else None,
        "version": table_version(table),
    }


def table_for(
    table: Table, seats: list[Seat], *, seated: bool, result: MatchResult | None
) -> dict[str, Any]:
    """The table as the REST API shows it to a person (``games.api``): with its
    ``result`` once finished, and its ``invite_code`` for the players seated at it."""
    data = table_summary(table, seats)
    if seated:
        data["invite_code"] = table.invite_code
    finished = result is not None and table.status == Table.Status.FINISHED
    data["result"] = result_summary(result) if finished else None  # type: ignore[arg-type]
    return data


def next_dealing(table: Table, state: table_state.TableState | None) -> dict[str, Any] | None:
    """The dealing whose commitment is published and whose cards are not dealt yet:
    clients may add their seeds to it (docs/fair-dealing.md)."""
    if table.status in (Table.Status.FINISHED, Table.Status.ABANDONED):
        return None
    number = 0 if state is None else state.dealing + 1
    if (
        state is not None
        and state.next_dealing is not None
        and state.next_dealing["number"] == number
    ):
        return state.next_dealing
    row = (
        Dealing.objects.filter(table_id=table.pk, number=number)
        .values("number", "commitment")
        .order_by()
        .first()
    )
    found = dict(row) if row is not None else None
    if state is not None:
        state.next_dealing = found
    return found


def dealing_revealed(dealing: Dealing) -> dict[str, Any]:
    return {
        "number": dealing.number,
        "dealer": dealing.dealer,
        "commitment": dealing.commitment,
        "server_seed": dealing.server_seed,
        "client_seeds": dealing.client_seeds,
    }


def revealed_dealings(table: Table, sheet: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every revealed dealing of a table: from its rows, or, once the retention task has
    deleted them (games/retention.py), from the result's record (the dealer from the
    score sheet: one row per deal)."""
    if table.log_archived_at is None:
        return [
            dealing_revealed(d)
            for d in Dealing.objects.filter(table=table, revealed=True).order_by("number")
        ]
    record = MatchResult.objects.values_list("record", flat=True).get(table_id=table.pk)
    revealed = []
    for number, deal in enumerate(record["deals"]):
        kept = deal.get("dealing")
        if kept is not None:
            dealer = sheet[number]["dealer"] if number < len(sheet) else None
            revealed.append({"number": number, "dealer": dealer, **kept})
    return revealed


def table_state_message(*, table_id: int, user: Visitor | None) -> dict[str, Any]:
    """The full state a connection of ``user`` gets on connect, on ``sync`` and after
    seats change: the table, the view of the seat ``user`` holds in the seats read here
    (the public view when none), the score sheet and the next dealing."""
    for _ in range(4):
        try:
            return _state_message(table_id, user)
        except errors.StaleVersion:
            continue  # the table moved between reading its row and its state: read again
    return _state_message(table_id, user)


def _state_message(table_id: int, user: Visitor | None) -> dict[str, Any]:
    table = table_get(table_id=table_id)
    seats = list(table.seats.select_related("user"))
    user_id = user.pk if user is not None and user.is_authenticated else None
    seat = next((s.number for s in seats if user_id is not None and s.user_id == user_id), None)
    result = MatchResult.objects.filter(table=table).first()
    message: dict[str, Any] = {
        "type": "state",
        "table_id": table.pk,
        "version": table_version(table),
        "seat": seat,
        "table": table_for(table, seats, seated=seat is not None, result=result),
        "view": None,
        "sheet": [],
        "dealing": None,
        "revealed": [],
        "result": None,
    }
    if table.first_dealer is not None and table.status != Table.Status.OPEN:
        with table_state.locked(table) as state:
            message["view"] = state.match.view(seat).to_dict()
            message["sheet"] = list(state.sheet)
            message["dealing"] = next_dealing(table, state)
        message["revealed"] = revealed_dealings(table, message["sheet"])
    else:
        message["dealing"] = next_dealing(table, None)
    if result is not None:
        message["result"] = result_summary(result)
    return message


def amendments(table_ids: Iterable[int]) -> dict[int, placing.Amendment]:
    """The amended tables among ``table_ids``, as the apps that amend results say
    (games.signals.result_amendments: games imports none of them)."""
    from games.signals import result_amendments

    ids = list(dict.fromkeys(table_ids))
    found: dict[int, placing.Amendment] = {}
    if not ids:
        return found
    for _receiver, answer in result_amendments.send(sender=placing.Amendment, table_ids=ids):
        if isinstance(answer, dict):
            found.update(answer)
    return found


def result_summary(result: MatchResult) -> dict[str, Any]:
    """A finished match's result; ``placements`` are the places that count: an
    organiser's amendment when there is one (``amended`` then gives his reason and the
    places as played)."""
    amendment = amendments([result.table_id]).get(result.table_id)
    return {
        "final_scores": result.final_scores,
        "placements": list(amendment.places) if amendment else result.placements,
        "winner_seat": result.winner_seat,
        "deals": result.deals,
        "finished_by": result.finished_by,
        "finished_at": result.finished_at.isoformat(),
        "amended": {"reason": amendment.reason, "played_placements": result.placements}
        if amendment
        else None,
    }


def duplicate_entry(source: dict[str, Any], index: int) -> dict[str, Any]:
    """A revealed duplicate dealing's ``duplicate`` object (docs/fair-dealing.md)."""
    return {
        "round_commitment": source["round_commitment"],
        "round_seed": source["round_seed"],
        "entrant_seeds": dict(source["entrant_seeds"]),
        "index": index,
    }


def match_record(*, table: Table, match: Match, seats: list[Seat]) -> dict[str, Any]:
    """The ``thousand/1`` record of a match (docs/spec.md §8), each deal with its dealing's
    seeds under ``"dealing"`` (docs/fair-dealing.md), and who sat where under ``"meta"``."""
    record = match.to_record()
    dealings = {d.number: d for d in Dealing.objects.filter(table=table, revealed=True)}
    for number, deal in enumerate(record["deals"]):
        dealing = dealings.get(number)
        if dealing is not None:
            deal["dealing"] = {
                "commitment": dealing.commitment,
                "server_seed": dealing.server_seed,
                "client_seeds": dealing.client_seeds,
            }
            if dealing.from_dealer and table.dealing_source:
                deal["dealing"]["duplicate"] = duplicate_entry(table.dealing_source, number)
    record["meta"] = {
        "table": table.pk,
        "preset": table.preset,
        "rated": table.rated,
        "seats": [seat_summary(s) for s in seats],
    }
    return record


def seats_played_for(*, table: Table, seats: list[Seat]) -> list[list[int]]:
    """By seat, the dealings (the record's deal indexes, redeals included) in which the
    clock or a bot chose at least one action for the person in that seat: he was away
    (his clock ran out) or had resigned. A bot's own seat has none. The record keeps it as
    ``meta.played_for`` (docs/spec.md §8; a duplicate event scores such boards as the
    person's worst and leaves them out of his rating, docs/duplicate.md)."""
    people = [s.number for s in seats if s.user_id is not None]
    found: list[set[int]] = [set() for _ in seats]
    rows = (
        TableAction.objects.filter(table_id=table.pk, seat__in=people)
        .exclude(source=TableAction.Source.HUMAN)
        .values_list("seat", "dealing")
        .distinct()
    )
    for seat, dealing in rows:
        if 0 <= seat < len(found):
            found[seat].add(dealing)
    return [sorted(d) for d in found]


def match_record_export(*, table_id: int) -> dict[str, Any]:
    """The record of a finished match; a running match has none (it would show the
    cards still in play)."""
    result = MatchResult.objects.filter(table_id=table_id).select_related("table").first()
    if result is None:
        raise errors.NotFinished("the match has no record until it is finished")
    if boards_secret(result.table):
        raise errors.NotFinished(
            "a duplicate round's boards are secret until every table has played them"
        )
    return result.record


def rematch_check(*, table: Table, user: User, ended: bool = True) -> None:
    """Why ``user`` may not play ``table`` again ("play again"), raised as the table error;
    nothing raised: he may. He must have played the match, it must be nobody else's to
    seat again (a duplicate round's; a tournament's, :data:`games.signals.table_rematching`)
    and, unless ``ended`` is False (the page asks while the match is still on), it must
    have ended."""
    from games.signals import table_rematching

    if ended and table.status != Table.Status.FINISHED:
        raise errors.Illegal("the match has not ended: play it again once it is over")
    if table.dealing_source:
        raise errors.Forbidden("a duplicate round's table is not played again")
    if not table.seats.filter(user=user).exists():
        raise errors.NotSeated("only a player of this match may play it again")
    table_rematching.send(sender=Table, table=table)


CASUAL_RECENT = 10


def player_casual_matches(*, user: User, recent: int = CASUAL_RECENT) -> dict[str, Any]:
    """A person's finished unrated ("casual") matches, apart from the rated ones the
    ratings count: how many, how many won (first place, an organiser's amended place
    where there is one) and the latest ``recent`` of them, newest first."""
    results = list(
        MatchResult.objects.filter(table__seats__user=user, table__rated=False)
        .select_related("table")
        .prefetch_related("table__seats")
        .order_by("-finished_at")
        .distinct()
    )
    amended = amendments(r.table_id for r in results)
    rows = []
    for result in results:
        seat = next(s.number for s in result.table.seats.all() if s.user_id == user.pk)
        amendment = amended.get(result.table_id)
        place = amendment.places[seat] if amendment is not None else int(result.placements[seat])
        rows.append(
            {
                "table_id": result.table_id,
                "finished_at": result.finished_at,
                "players": result.table.players,
                "place": place,
                "score": result.final_scores[seat],
                "amended": amendment,
            }
        )
    return {
        "matches": len(rows),
        "wins": sum(1 for row in rows if row["place"] == 1),
        "recent": rows[:recent],
    }
