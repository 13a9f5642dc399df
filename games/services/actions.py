"""The one path that moves a game forward (:func:`action_submit`): the engine decides,
the log grows by one row and the version by one, atomically; the optimistic statement in
the common case, the row lock otherwise (the package's docstring says which when)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.types import Visitor
from games import errors, selectors
from games import state as table_state
from games.engine import (
    Action,
    Ending,
    EngineError,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
)
from games.engine.fair import commitment, duplicate_server_seed, new_server_seed
from games.models import Dealing, FinishedBy, MatchResult, Seat, Table, TableAction
from games.placing import places_by_score
from games.services import broadcast, common, log_sql
from games.services.turns import table_seats, turn_deadline
from games.signals import match_finished

log = logging.getLogger(__name__)


def action_submit(
    *,
    table_id: int,
    action: Action,
    expected_version: int,
    user: Visitor | None = None,
    seat: int | None = None,
    source: str = TableAction.Source.HUMAN,
    client_id: str | None = None,
) -> common.Applied:
    """Apply one action at a table, for the seat ``user`` holds (a person: the seat is
    decided from the seats as they are when the action is written, under the table's row
    lock or checked against ``seats_version``, never from a seat number a connection
    remembered), or for ``seat`` (a bot, the clock). The values are typed: a client's
    message is parsed before it gets here (``games.messages``). Raises a TableError (and
    changes nothing) for an illegal action, a user with no seat (or resigned), another
    seat's turn, a stale ``expected_version`` or a table that is not playing; a
    ``client_id`` that was already applied for this seat returns ``Applied(duplicate=True)``."""
    if (user is None) == (seat is None):
        raise TypeError("action_submit takes either user or seat")
    who = Actor(seat=seat, user_id=None if user is None else common.user_id_of(user))
    try:
        applied = _submit_optimistic(table_id, who, action, expected_version, source, client_id)
        if applied is not None:
            return applied
        with transaction.atomic():
            return _submit(table_id, who, action, expected_version, source, client_id)
    except IntegrityError:
        # Two requests with the same client id raced past the check: the other applied.
        table_state.forget(table_id)
        if client_id is not None:
            version = Table.objects.filter(pk=table_id).values_list("version", flat=True).first()
            return common.Applied(version=version or 0, duplicate=True)
        raise


@dataclass(frozen=True, slots=True)
class Actor:
    """Who acts: a seat by number (a bot, the clock), or the person ``user_id``, whose
    seat is looked up in the seats of the moment (None: an anonymous connection)."""

    seat: int | None
    user_id: int | None

    def seat_in(self, seats: list[Seat]) -> int | None:
        """The seat this actor plays among ``seats``; None when a person holds none, or
        has resigned (a bot plays his seat to the end)."""
        if self.seat is not None:
            return self.seat
        if self.user_id is None:
            return None
        for s in seats:
            if s.user_id == self.user_id:
                return None if s.resigned else s.number
        return None


def _submit(
    table_id: int,
    who: Actor,
    action: Action,
    expected_version: int,
    source: str,
    client_id: str | None,
) -> common.Applied:
    table = common.locked_table(table_id)
    if table.status != Table.Status.PLAYING:
        raise errors.NotPlaying()
    with table_state.locked(table) as state:
        seat_number = who.seat_in(table_seats(table, state))
        if seat_number is None:
            raise errors.NotSeated()
        if client_id is not None and (seat_number, client_id) in state.client_ids:
            return common.Applied(version=table.version, duplicate=True)
        if expected_version != table.version:
            raise errors.StaleVersion()
        to_act = state.match.to_act
        if to_act is None:
            raise errors.NotPlaying()
        if seat_number != to_act:
            raise errors.NotYourTurn()
        sheet_before = len(state.sheet)
        try:
            events = state.apply(seat_number, action)
        except NotYourTurn as exc:
            raise errors.NotYourTurn(str(exc)) from None
        except (IllegalAction, MalformedAction, EngineError) as exc:
            raise errors.Illegal(str(exc)) from None
        try:
            return _commit_action(
                table, state, seat_number, action, events, source, client_id, sheet_before
            )
        except BaseException:
            table_state.forget(table.pk)
            raise


def _submit_optimistic(
    table_id: int,
    who: Actor,
    action: Action,
    expected_version: int,
    source: str,
    client_id: str | None,
) -> common.Applied | None:
    """The common case without the row lock: this process keeps the table's state, the
    engine accepts the action there, and one statement appends the log row and bumps the
    version only if the table is still at ``expected_version`` with the same seats and
    still playing (optimistic concurrency: the version is the check). ``None`` when it
    does not apply (no state kept here, a seat to update, a deal or the match ending, a
    rejection to explain, or another writer got there first); then :func:`_submit` decides
    under the row lock, as if this had not been tried."""
    state = table_state.cached(table_id)
    if state is None or transaction.get_connection().vendor != "postgresql":
        return None
    # Lock order: this holds the state's lock and so must never wait for the table's row
    # lock (the locked path takes the row lock first, then the state's lock). The
    # statements below skip a row that another transaction holds, and give up.
    with state.lock:
        table = state.table
        if (
            not state.valid
            or table is None
            or table.status != Table.Status.PLAYING
            or state.seats is None
        ):
            return None
        if state.version != expected_version and not (
            state.version < expected_version and table_state.catch_up(state, expected_version)
        ):
            return None
        seat_number = plain_seat(state, who, source, client_id)
        if seat_number is None:
            return None
        sheet_before = len(state.sheet)
        try:
            events = state.apply(seat_number, action)
        except EngineError:
            return None  # nothing changed; the locked path gives the reason
        try:
            match = state.match
            if match.awaiting_deal or match.over:
                applied = commit_at_deal_end(
                    table_id, state, seat_number, action, events, source, client_id, sheet_before
                )
            else:
                applied = _commit_optimistic(
                    table, state, seat_number, action, events, source, client_id
                )
        except BaseException:
            table_state.forget(table_id)
            raise
        if applied is None:
            # Another writer moved the table on: the state here has an action too many.
            table_state.forget(table_id)
        return applied


def plain_seat(
    state: table_state.TableState, who: Actor, source: str, client_id: str | None
) -> int | None:
    """The seat ``who`` acts for when the action needs nothing but the match to change
    (his turn, no seat to update, not a repeated client id); None otherwise, and then
    the locked path decides. The seats kept with the state are those of
    ``state.seats_version``; the statement that writes the action checks the table is
    still at it, so a seat decided here is the one the user holds when it is written.
    The caller holds ``state.lock`` and has checked the state is at the expected version."""
    seats = state.seats
    if seats is None:
        return None
    seat_number = who.seat_in(seats)
    if seat_number is None or not 0 <= seat_number < len(seats):
        return None
    seat = seats[seat_number]
    if (
        state.match.to_act != seat_number
        or (client_id is not None and (seat_number, client_id) in state.client_ids)
        or source == TableAction.Source.TIMEOUT
        or (source == TableAction.Source.HUMAN and (seat.away or seat.timeouts_in_row))
    ):
        return None
    return seat_number


def plain_row(
    table: Table,
    state: table_state.TableState,
    seat_number: int,
    action: Action,
    source: str,
    client_id: str | None,
    now: Any,
) -> tuple[TableAction, Any]:
    """The log row of a plain action (already applied to ``state``) and the table's new
    deadline."""
    row = TableAction(
        table_id=table.pk,
        version=state.version + 1,
        dealing=state.dealing,
        seat=seat_number,
        action=action.to_dict(),
        source=source,
        client_id=client_id,
        created_at=now,
    )
    return row, turn_deadline(table, state, state.seats or [], now)


def plain_committed(
    table: Table,
    state: table_state.TableState,
    row: TableAction,
    deadline: Any,
    events: list[Any],
    *,
    after_commit: Callable[[Callable[[], None]], None] = transaction.on_commit,
) -> common.Applied:
    """A plain action's row is committed: the state and the table follow it, the views
    go out and the next turn is scheduled (``after_commit``: when the caller's commit
    is done; the owner's write has committed already)."""
    table.version = state.version = row.version
    table.deadline = deadline
    if row.client_id is not None:
        state.client_ids.add((row.seat, row.client_id))
    seats = state.seats or []
    broadcast.views_announce(
        table,
        state,
        seats,
        events,
        sheet_rows=[],
        revealed=None,
        change=_plain_change(row),
        after_commit=after_commit,
    )
    broadcast.turn_schedule(table, state, seats, after_commit=after_commit)
    return common.Applied(
        version=row.version, events=[table_state.event_to_dict(e) for e in events]
    )


def _commit_optimistic(
    table: Table,
    state: table_state.TableState,
    seat_number: int,
    action: Action,
    events: list[Any],
    source: str,
    client_id: str | None,
) -> common.Applied | None:
    row, deadline = plain_row(table, state, seat_number, action, source, client_id, timezone.now())
    if not log_sql.log_append(row, seats_version=state.seats_version, deadline=deadline):
        return None
    return plain_committed(table, state, row, deadline, events)


def _plain_change(row: TableAction) -> dict[str, Any]:
    """What an action that changed only the match (no deal dealt or revealed, no seat,
    the match goes on) tells the other server processes (``games.state.follow``)."""
    return {
        "version": row.version,
        "seat": row.seat,
        "action": row.action,
        "client_id": row.client_id,
    }


def commit_at_deal_end(
    table_id: int,
    state: table_state.TableState,
    seat_number: int,
    action: Action,
    events: list[Any],
    source: str,
    client_id: str | None,
    sheet_before: int,
) -> common.Applied | None:
    """The action (already applied to ``state``) ended a deal or the match: the next
    dealing, the reveal or the result are written under the row lock, as in :func:`_submit`."""
    with transaction.atomic():
        table = Table.objects.select_for_update(skip_locked=True).filter(pk=table_id).first()
        if (
            table is None
            or table.status != Table.Status.PLAYING
            or table.version != state.version
            or table.seats_version != state.seats_version
        ):
            return None
        return _commit_action(
            table, state, seat_number, action, events, source, client_id, sheet_before
        )


def _commit_action(
    table: Table,
    state: table_state.TableState,
    seat_number: int,
    action: Action,
    events: list[Any],
    source: str,
    client_id: str | None,
    sheet_before: int,
) -> common.Applied:
    now = timezone.now()
    dealing = state.dealing
    table.version += 1
    row = TableAction.objects.create(
        table=table,
        version=table.version,
        dealing=dealing,
        seat=seat_number,
        action=action.to_dict(),
        source=source,
        client_id=client_id,
    )
    state.version = table.version
    if client_id is not None:
        state.client_ids.add((seat_number, client_id))
    seats = table_seats(table, state)
    seat = seats[seat_number]
    fields = ["version", "deadline"]
    if source == TableAction.Source.HUMAN and (seat.away or seat.timeouts_in_row):
        seat.away = False
        seat.timeouts_in_row = 0
        seat.save(update_fields=["away", "timeouts_in_row"])
        fields.append("seats_version")
    elif source == TableAction.Source.TIMEOUT:
        seat.timeouts_in_row += 1
        # Two timeouts in a row: a bot plays the seat until its person acts again.
        seat.away = seat.timeouts_in_row >= 2
        seat.save(update_fields=["away", "timeouts_in_row"])
        fields.append("seats_version")
    if "seats_version" in fields:
        table.seats_version += 1
        state.seats_version = table.seats_version

    revealed = None
    dealt: Dealing | None = None
    result: MatchResult | None = None
    match = state.match
    # A match asked to finish after this deal (the round's time limit) ends here.
    cut = (
        match.awaiting_deal
        and table.finish_after_deals is not None
        and len(match.results) >= table.finish_after_deals
    )
    if match.awaiting_deal and not cut:
        revealed = _dealing_reveal(table, dealing)
        dealt_events, dealt = dealing_start(table, state, now)
        events.extend(dealt_events)
    elif match.over or cut:
        revealed = _dealing_reveal(table, dealing)
        table.status = Table.Status.FINISHED
        table.finished_at = now
        fields += ["status", "finished_at"]
        result = written = match_result_create(
            table, state, seats, now, finished_by=table.finishing_by if cut else _ended_by(match)
        )
        transaction.on_commit(
            lambda: match_finished.send(sender=MatchResult, result_id=written.pk, table_id=table.pk)
        )
    table.deadline = turn_deadline(table, state, seats, now)
    table.save(update_fields=fields)
    state.table = table
    change: dict[str, Any] | None = None
    if result is not None:
        # No process keeps a finished table's state (games.state.acquire): this one
        # drops it after the commit, the others as the update reaches them.
        table_id = table.pk
        transaction.on_commit(lambda: table_state.ended(table_id))
        change = {"version": table.version, "ended": True}
    elif fields == ["version", "deadline"]:
        change = _plain_change(row)
        if dealt is not None:
            # The next deal's seeds, so that the other processes deal it as this one did
            # without reading the log (games.state.follow). They stay between the
            # server processes: a socket forwards only the message's text, never this.
            change["deal"] = {
                "number": dealt.number,
                "server_seed": dealt.server_seed,
                "client_seeds": dealt.client_seeds,
                "from_dealer": dealt.from_dealer,
            }
    broadcast.views_announce(
        table,
        state,
        seats,
        events,
        sheet_rows=state.sheet[sheet_before:],
        revealed=revealed,
        result=result,
        change=change,
    )
    broadcast.turn_schedule(table, state, seats)
    return common.Applied(
        version=table.version, events=[table_state.event_to_dict(e) for e in events]
    )


def _dealing_reveal(table: Table, number: int) -> Dealing | None:
    """The dealing just played is revealed, unless it is a duplicate round's: its cards
    stay secret until every table of the round has played them."""
    if table.dealing_source:
        return None
    revealed = Dealing.objects.get(table_id=table.pk, number=number)
    revealed.revealed = True
    revealed.save(update_fields=["revealed"])
    return revealed


def dealing_start(
    table: Table, state: table_state.TableState, now: Any
) -> tuple[list[Any], Dealing]:
    """Deal the next dealing from its seeds, and publish the commitment of the one
    after it, so that players' clients can add their seeds while this deal is played.
    Returns the deal's events and the dealing dealt."""
    number = state.dealing + 1
    dealing = Dealing.objects.select_for_update().get(table_id=table.pk, number=number)
    events = state.start_dealing(dealing)
    dealing.dealer = state.match.deal.dealer if state.match.deal is not None else None
    dealing.dealt_at = now
    dealing.save(update_fields=["dealer", "dealt_at"])
    upcoming = dealing_create(table, number + 1)
    state.next_dealing = {"number": upcoming.number, "commitment": upcoming.commitment}
    return events, dealing


def dealing_create(table: Table, number: int) -> Dealing:
    """The table's dealing ``number``: a fresh secret seed, or, at a duplicate round's
    table, the round's sequence's ``number``-th seed (docs/fair-dealing.md)."""
    source = table.dealing_source
    if source:
        seed = duplicate_server_seed(
            bytes.fromhex(source["round_seed"]),
            {int(k): v for k, v in source["entrant_seeds"].items()},
            number,
        )
    else:
        seed = new_server_seed()
    return Dealing.objects.create(
        table=table,
        number=number,
        server_seed=seed.hex(),
        commitment=commitment(seed),
        from_dealer=bool(source),
    )


def match_result_create(
    table: Table,
    state: table_state.TableState,
    seats: list[Seat],
    now: Any,
    *,
    finished_by: str = FinishedBy.WON,
) -> MatchResult:
    """The match's one result. A match cut short (``finished_by`` other than ``won``)
    counts up to its last complete deal: the scores after it, the places by them, and a
    record of the complete deals only (the deal in play had cards still hidden)."""
    match = state.match
    scores = list(match.scores)
    resigned = [s.resigned for s in seats]
    record = selectors.match_record(table=table, match=match, seats=seats)
    record["deals"] = record["deals"][: len(match.results)]
    record["meta"]["finished_by"] = finished_by
    places = placements(scores, match.winner, resigned)
    record["meta"]["placements"] = places
    record["meta"]["played_for"] = selectors.seats_played_for(table=table, seats=seats)
    return MatchResult.objects.create(
        table=table,
        finished_at=now,
        final_scores=scores,
        placements=places,
        winner_seat=match.winner,
        deals=len(match.results),
        finished_by=finished_by,
        record=record,
    )


def _ended_by(match: Any) -> str:
    """How the rules ended ``match``: won, or after its N-th counted deal (§3.7)."""
    return FinishedBy.DEALS if match.finished_by is Ending.DEALS else FinishedBy.WON


def placements(scores: list[int], winner: int | None, resigned: list[bool]) -> list[int]:
    """Places by seat (1 = first): the winner first, the rest by final score, equal
    scores sharing a place; a player who resigned finishes last."""
    return places_by_score(
        scores, winner=winner, last={seat for seat, gone in enumerate(resigned) if gone}
    )
