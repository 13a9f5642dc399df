"""Everything that changes a live table. The one path that moves a game forward is
:func:`action_submit`: the engine decides, the log grows by one row and the version by
one, atomically; then the views go out (after the commit) and whatever comes next is
scheduled (a bot's turn, the clock). People, bots and the clock all act through it.
Every rejection raises a :class:`games.errors.TableError` and changes nothing.

Two ways through it, with the same outcome:

- the common case on PostgreSQL (:func:`_submit_optimistic`): the process keeps the
  table's engine state (``games.state``), the engine applies the action there, and one
  statement appends the log row and bumps the version *if the table is still at the
  version the player saw*, with the same seats, playing, and its row not locked;
- everything else (:func:`_submit`): ``SELECT … FOR UPDATE`` of the table row, the state
  caught up to it, the engine decides, the writes, commit. A deal's end, the match's end,
  a seat to update, a rejection to explain and every conflict go this way.
"""

from __future__ import annotations

import json
import logging
import secrets
import typing
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from games import errors, realtime, scheduler, selectors
from games import state as table_state
from games.bots import LEVELS, make_bot
from games.engine import (
    Action,
    EngineError,
    IllegalAction,
    MalformedAction,
    Match,
    NotYourTurn,
    Options,
    action_from_dict,
)
from games.engine.fair import commitment, new_server_seed, validate_client_seed

from .models import Dealing, FinishedBy, MatchResult, Seat, Table, TableAction
from .placing import places_by_score
from .signals import match_finished, table_changed
from .table_rules import MOVE_SECONDS_RANGE, table_options

log = logging.getLogger(__name__)


@dataclass
class Applied:
    """What :func:`action_submit` did: the new version, or ``duplicate`` when the
    client message id had already been applied (nothing changed)."""

    version: int
    duplicate: bool = False
    events: list[dict[str, Any]] = field(default_factory=list)


# -- tables before play --------------------------------------------------------------


@transaction.atomic
def table_create(
    *,
    user: Any,
    players: int = 3,
    preset: str = "classic",
    options: dict[str, Any] | None = None,
    rated: bool = False,
    private: bool = False,
    move_seconds: int = 30,
) -> Table:
    """Open a table with its creator in seat 0. Rated tables play a preset unchanged
    (the ratings compare like with like)."""
    opts = table_options(players=players, preset=preset, options=options)
    if rated and opts != Options.preset(preset).replace(players=players):
        raise errors.Malformed("a rated table plays its preset's options unchanged")
    low, high = MOVE_SECONDS_RANGE
    if (
        not isinstance(move_seconds, int)
        or isinstance(move_seconds, bool)
        or not low <= move_seconds <= high
    ):
        raise errors.Malformed(f"move_seconds must be a whole number from {low} to {high}")
    table = Table.objects.create(
        created_by=user,
        players=opts.players,
        preset=preset,
        options=opts.to_dict(),
        rated=bool(rated),
        is_private=bool(private),
        move_seconds=move_seconds,
    )
    Seat.objects.create(table=table, number=0, user=user)
    _dealing_create(table, 0)
    _after_seats_change(table)
    return table


@transaction.atomic
def table_open(*, user: Any, **fields: Any) -> Table:
    """A person opens a table from the lobby or the API: :func:`table_create` within the
    cap on open tables. Tables that start at once (play against bots, a tournament's
    round) are created directly and count against nothing."""
    _open_tables_check(user)
    return table_create(user=user, **fields)


def _open_tables_check(user: Any) -> None:
    """A person may hold only a few open (not started) tables (GAMES_OPEN_TABLES_PER_USER):
    1,500 of them once made the lobby crawl. The person's row lock makes two concurrent
    creations count one after the other."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    held = Table.objects.filter(created_by=user, status=Table.Status.OPEN).count()
    if held >= settings.GAMES_OPEN_TABLES_PER_USER:
        raise errors.TooManyTables()


def _locked_table(table_id: int) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise errors.TableNotFound() from None


def _free_seat(table: Table, seats: list[Seat]) -> int:
    taken = {s.number for s in seats}
    for number in range(table.players):
        if number not in taken:
            return number
    raise errors.TableFull()


@transaction.atomic
def table_join(*, table: Table | int, user: Any, invite_code: str | None = None) -> Seat:
    table = _locked_table(_pk(table))
    if table.status != Table.Status.OPEN:
        raise errors.NotOpen()
    if table.is_private and invite_code != table.invite_code:
        raise errors.Forbidden("this table is private: join it with its invite link")
    seats = list(table.seats.all())
    if any(s.user_id == user.pk for s in seats):
        raise errors.AlreadySeated()
    seat = Seat.objects.create(table=table, number=_free_seat(table, seats), user=user)
    _after_seats_change(table)
    return seat


@transaction.atomic
def table_leave(*, table: Table | int, user: Any) -> None:
    """Leave a table that has not started; the last person out closes it."""
    table = _locked_table(_pk(table))
    if table.status != Table.Status.OPEN:
        raise errors.NotOpen("the match has started: resign instead")
    seat = table.seats.filter(user=user).first()
    if seat is None:
        raise errors.NotSeated()
    seat.delete()
    if not table.seats.filter(user__isnull=False).exists():
        table.status = Table.Status.ABANDONED
        table.finished_at = timezone.now()
        table.save(update_fields=["status", "finished_at"])
    _after_seats_change(table)


@transaction.atomic
def seat_fill_with_bot(
    *, table: Table | int, level: str, by: Any, number: int | None = None
) -> Seat:
    """Seat a bot; only a person seated at the table may do it."""
    if level not in LEVELS:
        raise errors.Malformed(f"unknown bot level {level!r}; choose one of {', '.join(LEVELS)}")
    table = _locked_table(_pk(table))
    if table.status != Table.Status.OPEN:
        raise errors.NotOpen()
    seats = list(table.seats.all())
    if not any(s.user_id == by.pk for s in seats):
        raise errors.NotSeated("only a player at the table may add bots")
    if number is None:
        number = _free_seat(table, seats)
    elif not isinstance(number, int) or isinstance(number, bool) or not 0 <= number < table.players:
        raise errors.Malformed(f"seat must be 0..{table.players - 1}")
    elif any(s.number == number for s in seats):
        raise errors.TableFull("that seat is taken")
    seat = Seat.objects.create(table=table, number=number, bot_level=level)
    _after_seats_change(table)
    return seat


@transaction.atomic
def table_start(*, table: Table | int, user: Any, first_dealer: int | None = None) -> Table:
    """Start the match: every seat taken; the creator (or, if he left, any person
    seated) starts it. The first dealer is drawn by lot (docs/spec.md §2.1) unless the
    caller sets it (a tournament balances who deals first over its rounds)."""
    table = _locked_table(_pk(table))
    if table.status != Table.Status.OPEN:
        raise errors.NotOpen()
    seats = list(table.seats.select_related("user"))
    mine = [s for s in seats if s.user_id == user.pk]
    if not mine:
        raise errors.NotSeated()
    creator_seated = any(s.user_id == table.created_by_id for s in seats)
    if creator_seated and user.pk != table.created_by_id:
        raise errors.Forbidden("only the table's creator may start it")
    if len(seats) != table.players:
        raise errors.Illegal("every seat must be taken (add bots to fill them)")
    now = timezone.now()
    table.status = Table.Status.PLAYING
    if first_dealer is None:
        first_dealer = secrets.randbelow(table.players)
    elif (
        not isinstance(first_dealer, int)
        or isinstance(first_dealer, bool)
        or not 0 <= first_dealer < table.players
    ):
        raise errors.Malformed(f"first_dealer must be a seat 0..{table.players - 1}")
    table.first_dealer = first_dealer
    table.started_at = now
    table.version = 0
    state = table_state.TableState(
        table_id=table.pk,
        version=0,
        match=Match.empty(Options.from_dict(table.options), first_dealer=first_dealer),
        dealing=-1,
    )
    events = _deal_next(table, state, now)
    table.deadline = _deadline(table, state, seats, now)
    table.save(update_fields=["status", "first_dealer", "started_at", "version", "deadline"])
    table_state.forget(table.pk)
    _announce(table, state, seats, events, sheet_rows=[], revealed=None)
    _schedule_next(table, state, seats)
    _after_seats_change(table)
    return table


@transaction.atomic
def table_play_bots(
    *, user: Any, level: str = "basic", preset: str = "classic", move_seconds: int = 60
) -> Table:
    """ "Play against bots now": a table of three with two bots, started at once."""
    table = table_create(user=user, players=3, preset=preset, move_seconds=move_seconds)
    for _ in range(2):
        seat_fill_with_bot(table=table, level=level, by=user)
    return table_start(table=table, user=user)


@transaction.atomic
def table_resign(*, table: Table | int, user: Any) -> None:
    """Give up: a bot plays the seat to the end and the player finishes last. When the
    last person at the table resigns the match is abandoned."""
    table = _locked_table(_pk(table))
    if table.status != Table.Status.PLAYING:
        raise errors.NotPlaying()
    seat = table.seats.filter(user=user).first()
    if seat is None:
        raise errors.NotSeated()
    if seat.resigned:
        raise errors.Illegal("you have already resigned")
    seat.resigned = True
    seat.save(update_fields=["resigned"])
    seats = list(table.seats.select_related("user"))
    if all(s.resigned or s.is_bot for s in seats):
        # Nobody is left to play: the match ends here, with its result (resigned last).
        _finish_now(table, FinishedBy.RESIGNED)
    else:
        _reschedule(table, seats)
    _after_seats_change(table)


@transaction.atomic
def table_abandon(*, table: Table | int) -> None:
    """Stop a table for good (the admin site's action, an organiser). A match in play
    ends with a result up to its last complete deal (``abandoned``); an open table that
    never started just closes."""
    table = _locked_table(_pk(table))
    if table.status in (Table.Status.FINISHED, Table.Status.ABANDONED):
        raise errors.Illegal("the table has already ended")
    if table.status == Table.Status.PLAYING:
        _finish_now(table, FinishedBy.ABANDONED)
    else:
        table.status = Table.Status.ABANDONED
        table.finished_at = timezone.now()
        table.deadline = None
        table.save(update_fields=["status", "finished_at", "deadline"])
    _after_seats_change(table)


@transaction.atomic
def table_finish_after_deal(*, table: Table | int, finished_by: str = FinishedBy.TIME) -> bool:
    """End the match with a result as soon as the deal in play is complete (a round's
    time limit, an arena's end): the places go by the scores, resigned players last.
    Returns False when the table is not playing (nothing changes). Calling it again
    keeps the first moment and reason."""
    if finished_by not in FinishedBy.values or finished_by == FinishedBy.WON:
        raise errors.Malformed(f"a match cannot be finished early by {finished_by!r}")
    table = _locked_table(_pk(table))
    if table.status != Table.Status.PLAYING:
        return False
    if table.finish_after_deals is not None:
        return True
    with table_state.locked(table) as state:
        done = len(state.match.results)
    table.finish_after_deals = done + 1
    table.finishing_by = finished_by
    table.save(update_fields=["finish_after_deals", "finishing_by"])
    return True


@transaction.atomic
def table_finish_now(*, table: Table | int, finished_by: str = FinishedBy.TIME) -> MatchResult:
    """End the match at once with a result: the record, scores and places up to the last
    complete deal (the deal in play is dropped, its cards never shown)."""
    if finished_by not in FinishedBy.values or finished_by == FinishedBy.WON:
        raise errors.Malformed(f"a match cannot be finished early by {finished_by!r}")
    table = _locked_table(_pk(table))
    if table.status != Table.Status.PLAYING:
        raise errors.NotPlaying()
    result = _finish_now(table, finished_by)
    _after_seats_change(table)
    return result


def _finish_now(table: Table, finished_by: str) -> MatchResult:
    """Under the table's row lock: the match ends now, with a result."""
    now = timezone.now()
    seats = list(Seat.objects.filter(table_id=table.pk).select_related("user").order_by("number"))
    table.status = Table.Status.FINISHED
    table.finished_at = now
    table.deadline = None
    table.save(update_fields=["status", "finished_at", "deadline"])
    with table_state.locked(table) as state:
        result = _result_write(table, state, seats, now, finished_by=finished_by)
        _announce(table, state, seats, [], sheet_rows=[], revealed=None)
    table_id = table.pk
    transaction.on_commit(lambda: table_state.forget(table_id))
    transaction.on_commit(
        lambda: match_finished.send(sender=MatchResult, result_id=result.pk, table_id=table_id)
    )
    return result


@transaction.atomic
def seat_return(*, table_id: int, user: Any) -> None:
    """A person back after the clock made a bot play for him: he plays again."""
    if _user_id(user) is None:
        raise errors.NotSeated()
    table = _locked_table(table_id)
    if table.status != Table.Status.PLAYING:
        raise errors.NotPlaying()
    seat = table.seats.filter(user=user).first()
    if seat is None:
        raise errors.NotSeated()
    if seat.resigned:
        raise errors.Illegal("you have resigned from this match")
    if seat.away or seat.timeouts_in_row:
        seat.away = False
        seat.timeouts_in_row = 0
        seat.save(update_fields=["away", "timeouts_in_row"])
        _reschedule(table, list(table.seats.select_related("user")))
        _after_seats_change(table)


@transaction.atomic
def dealing_add_seed(*, table_id: int, user: Any, dealing: int, seed: str) -> None:
    """A player's client adds its seed to a dealing whose commitment is published and
    whose cards are not dealt yet (docs/fair-dealing.md). One seed per seat."""
    try:
        seed = validate_client_seed(seed)
    except ValueError as exc:
        raise errors.InvalidSeed(str(exc)) from None
    if not isinstance(dealing, int) or isinstance(dealing, bool):
        raise errors.Malformed("dealing must be a number")
    if _user_id(user) is None:
        raise errors.NotSeated()
    seat = Seat.objects.filter(table_id=table_id, user=user).first()
    if seat is None:
        raise errors.NotSeated()
    row = Dealing.objects.select_for_update().filter(table_id=table_id, number=dealing).first()
    if row is None or row.dealt_at is not None:
        raise errors.InvalidSeed("that dealing is not waiting for seeds")
    key = str(seat.number)
    if key in row.client_seeds:
        raise errors.InvalidSeed("your seed for that dealing is already in")
    row.client_seeds = {**row.client_seeds, key: seed}
    row.save(update_fields=["client_seeds"])


# -- the one path that moves a game ---------------------------------------------------


def action_submit(
    *,
    table_id: int,
    action: Action | dict[str, Any],
    expected_version: int,
    user: Any = None,
    seat: int | None = None,
    source: str = TableAction.Source.HUMAN,
    client_id: str | None = None,
) -> Applied:
    """Apply one action at a table, for the seat ``user`` holds (a person: the seat is
    decided from the seats as they are when the action is written, under the table's row
    lock or checked against ``seats_version``, never from a seat number a connection
    remembered), or for ``seat`` (a bot, the clock). Raises a TableError (and changes
    nothing) for a malformed or illegal action, a user with no seat (or resigned), another
    seat's turn, a stale ``expected_version`` or a table that is not playing; a
    ``client_id`` that was already applied for this seat returns ``Applied(duplicate=True)``."""
    if (user is None) == (seat is None):
        raise TypeError("action_submit takes either user or seat")
    if not isinstance(action, _ACTION_TYPES):
        try:
            action = action_from_dict(action)
        except (MalformedAction, EngineError) as exc:
            raise errors.Malformed(str(exc)) from None
    if not isinstance(expected_version, int) or isinstance(expected_version, bool):
        raise errors.Malformed("version must be a number")
    if client_id is not None and (not isinstance(client_id, str) or not 0 < len(client_id) <= 64):
        raise errors.Malformed("id must be a string of 1 to 64 characters")
    who = _Actor(seat=seat, user_id=None if user is None else _user_id(user))
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
            return Applied(version=version or 0, duplicate=True)
        raise


_ACTION_TYPES = typing.get_args(Action)


@dataclass(frozen=True, slots=True)
class _Actor:
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


def _user_id(user: Any) -> int | None:
    return user.pk if getattr(user, "is_authenticated", False) else None


def _submit(
    table_id: int,
    who: _Actor,
    action: Action,
    expected_version: int,
    source: str,
    client_id: str | None,
) -> Applied:
    table = _locked_table(table_id)
    if table.status != Table.Status.PLAYING:
        raise errors.NotPlaying()
    with table_state.locked(table) as state:
        seat_number = who.seat_in(_seats(table, state))
        if seat_number is None:
            raise errors.NotSeated()
        if client_id is not None and (seat_number, client_id) in state.client_ids:
            return Applied(version=table.version, duplicate=True)
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
    who: _Actor,
    action: Action,
    expected_version: int,
    source: str,
    client_id: str | None,
) -> Applied | None:
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
        # The seats kept with the state are those of ``state.seats_version``; the
        # statement that writes the action checks the table is still at it, so a seat
        # decided here is the one the user holds when the action is written.
        seats = state.seats
        seat_number = who.seat_in(seats)
        seat = (
            seats[seat_number]
            if seat_number is not None and 0 <= seat_number < len(seats)
            else None
        )
        if (
            seat is None
            or seat_number is None
            or state.match.to_act != seat_number
            or (client_id is not None and (seat_number, client_id) in state.client_ids)
            or source == TableAction.Source.TIMEOUT
            or (source == TableAction.Source.HUMAN and (seat.away or seat.timeouts_in_row))
        ):
            return None
        sheet_before = len(state.sheet)
        try:
            events = state.apply(seat_number, action)
        except EngineError:
            return None  # nothing changed; the locked path gives the reason
        try:
            match = state.match
            if match.awaiting_deal or match.over:
                applied = _commit_at_deal_end(
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


def _commit_optimistic(
    table: Table,
    state: table_state.TableState,
    seat_number: int,
    action: Action,
    events: list[Any],
    source: str,
    client_id: str | None,
) -> Applied | None:
    now = timezone.now()
    version = state.version + 1
    seats = state.seats or []
    deadline = _deadline(table, state, seats, now)
    row = TableAction(
        table_id=table.pk,
        version=version,
        dealing=state.dealing,
        seat=seat_number,
        action=action.to_dict(),
        source=source,
        client_id=client_id,
        created_at=now,
    )
    if not _log_append(row, seats_version=state.seats_version, deadline=deadline):
        return None
    table.version = state.version = version
    table.deadline = deadline
    if client_id is not None:
        state.client_ids.add((seat_number, client_id))
    _announce(table, state, seats, events, sheet_rows=[], revealed=None)
    _schedule_next(table, state, seats)
    return Applied(version=version, events=[table_state.event_to_dict(e) for e in events])


# The log row's columns that _log_append writes, after its table.
_LOGGED = ("version", "dealing", "seat", "action", "source", "client_id", "created_at")
_LOGGED_FIELDS: list[Any] = [TableAction._meta.get_field(name) for name in _LOGGED]


def _log_append(row: TableAction, *, seats_version: int, deadline: Any) -> bool:
    """Append ``row`` to the log and move the table to ``row.version`` with its new
    deadline, both or neither, and only if the table is at the version before, playing,
    with ``seats_version``, and its row is not locked by another transaction. One
    PostgreSQL statement: one round trip, no transaction to open."""
    connection = transaction.get_connection()
    params = [
        row.version,
        Table._meta.get_field("deadline").get_db_prep_save(deadline, connection),
        row.table_id,
        row.version - 1,
        seats_version,
        Table.Status.PLAYING.value,
        row.table_id,
        *(f.get_db_prep_save(getattr(row, f.attname), connection) for f in _LOGGED_FIELDS),
    ]
    return bool(table_state.execute_prepared(_LOG_APPEND_SQL, params).rowcount == 1)


def _log_append_sql() -> str:
    table, log = Table._meta, TableAction._meta

    def col(meta: Any, name: str) -> str:
        return str(meta.get_field(name).column)

    return (
        f"WITH moved AS (UPDATE {table.db_table} SET {col(table, 'version')} = %s, {col(table, 'deadline')} = %s"
        f" WHERE {col(table, 'id')} = %s AND {col(table, 'version')} = %s"
        f" AND {col(table, 'seats_version')} = %s AND {col(table, 'status')} = %s"
        f" AND {col(table, 'id')} = (SELECT {col(table, 'id')} FROM {table.db_table}"
        f" WHERE {col(table, 'id')} = %s FOR UPDATE SKIP LOCKED) RETURNING {col(table, 'id')})"
        f" INSERT INTO {log.db_table} ({', '.join(col(log, f) for f in ('table', *_LOGGED))})"
        f" SELECT {col(table, 'id')}, {', '.join(['%s'] * len(_LOGGED))} FROM moved"
    )


_LOG_APPEND_SQL = _log_append_sql()


def _commit_at_deal_end(
    table_id: int,
    state: table_state.TableState,
    seat_number: int,
    action: Action,
    events: list[Any],
    source: str,
    client_id: str | None,
    sheet_before: int,
) -> Applied | None:
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
) -> Applied:
    now = timezone.now()
    dealing = state.dealing
    table.version += 1
    TableAction.objects.create(
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
    seats = _seats(table, state)
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
    result: MatchResult | None = None
    match = state.match
    # A match asked to finish after this deal (the round's time limit) ends here.
    cut = (
        match.awaiting_deal
        and table.finish_after_deals is not None
        and len(match.results) >= table.finish_after_deals
    )
    if match.awaiting_deal and not cut:
        revealed = Dealing.objects.get(table_id=table.pk, number=dealing)
        revealed.revealed = True
        revealed.save(update_fields=["revealed"])
        events.extend(_deal_next(table, state, now))
    elif match.over or cut:
        revealed = Dealing.objects.get(table_id=table.pk, number=dealing)
        revealed.revealed = True
        revealed.save(update_fields=["revealed"])
        table.status = Table.Status.FINISHED
        table.finished_at = now
        fields += ["status", "finished_at"]
        result = written = _result_write(
            table, state, seats, now, finished_by=table.finishing_by if cut else FinishedBy.WON
        )
        transaction.on_commit(
            lambda: match_finished.send(sender=MatchResult, result_id=written.pk, table_id=table.pk)
        )
    table.deadline = _deadline(table, state, seats, now)
    table.save(update_fields=fields)
    state.table = table
    _announce(
        table,
        state,
        seats,
        events,
        sheet_rows=state.sheet[sheet_before:],
        revealed=revealed,
        result=result,
    )
    _schedule_next(table, state, seats)
    return Applied(version=table.version, events=[table_state.event_to_dict(e) for e in events])


def _deal_next(table: Table, state: table_state.TableState, now: Any) -> list[Any]:
    """Deal the next dealing from its seeds, and publish the commitment of the one
    after it, so that players' clients can add their seeds while this deal is played."""
    number = state.dealing + 1
    dealing = Dealing.objects.select_for_update().get(table_id=table.pk, number=number)
    events = state.start_dealing(dealing)
    dealing.dealer = state.match.deal.dealer if state.match.deal is not None else None
    dealing.dealt_at = now
    dealing.save(update_fields=["dealer", "dealt_at"])
    upcoming = _dealing_create(table, number + 1)
    state.next_dealing = {"number": upcoming.number, "commitment": upcoming.commitment}
    return events


def _dealing_create(table: Table, number: int) -> Dealing:
    seed = new_server_seed()
    return Dealing.objects.create(
        table=table, number=number, server_seed=seed.hex(), commitment=commitment(seed)
    )


def _result_write(
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
    return MatchResult.objects.create(
        table=table,
        finished_at=now,
        final_scores=scores,
        placements=placements(scores, match.winner, resigned),
        winner_seat=match.winner,
        deals=len(match.results),
        finished_by=finished_by,
        record=record,
    )


def placements(scores: list[int], winner: int | None, resigned: list[bool]) -> list[int]:
    """Places by seat (1 = first): the winner first, the rest by final score, equal
    scores sharing a place; a player who resigned finishes last."""
    return places_by_score(
        scores, winner=winner, last={seat for seat, gone in enumerate(resigned) if gone}
    )


def _seats(table: Table, state: table_state.TableState) -> list[Seat]:
    """The table's seats in seat order, kept with the state between actions and read
    again only when ``table.seats_version`` says they changed."""
    if state.seats is None or state.seats_version != table.seats_version:
        state.seats = list(
            Seat.objects.filter(table_id=table.pk).select_related("user").order_by("number")
        )
        state.seats_version = table.seats_version
    return state.seats


def _deadline(table: Table, state: table_state.TableState, seats: list[Seat], now: Any) -> Any:
    """When the seat to act runs out of time. For a seat a bot plays it is a safety net:
    the sweep plays for it if its scheduled turn got lost (a worker died)."""
    seat = state.match.to_act
    if seat is None or table.status != Table.Status.PLAYING:
        return None
    if seats[seat].played_by_bot:
        return now + timedelta(seconds=settings.GAMES_BOT_DELAY + settings.GAMES_BOT_GRACE)
    return now + timedelta(seconds=table.move_seconds)


def _schedule_next(table: Table, state: table_state.TableState, seats: list[Seat]) -> None:
    seat = state.match.to_act
    if seat is None or table.status != Table.Status.PLAYING or not seats[seat].played_by_bot:
        return
    table_id, version = table.pk, table.version
    transaction.on_commit(
        lambda: realtime.after_sent(
            lambda: scheduler.bot_turn_later(table_id, version, settings.GAMES_BOT_DELAY)
        )
    )


def _reschedule(table: Table, seats: list[Seat]) -> None:
    """After a seat changed hands (resigned, away, back): a fresh clock for the seat
    to act, and a bot's turn if a bot plays it now."""
    with table_state.locked(table) as state:
        table.deadline = _deadline(table, state, seats, timezone.now())
        table.save(update_fields=["deadline"])
        _schedule_next(table, state, seats)


def _announce(
    table: Table,
    state: table_state.TableState,
    seats: list[Seat],
    events: list[Any],
    *,
    sheet_rows: list[dict[str, Any]],
    revealed: Dealing | None,
    result: MatchResult | None = None,
) -> None:
    """After the commit: every seat gets its own view, spectators the public one; the
    ``table`` in it as the REST API shows it (the invite code to the seats only)."""
    base = {
        "type": "update",
        "table_id": table.pk,
        "version": table.version,
        "events": [table_state.event_to_dict(e) for e in events],
        "sheet_rows": sheet_rows,
        "dealing": selectors.next_dealing(table, state),
        "revealed": [] if revealed is None else [selectors.dealing_revealed(revealed)],
    }
    public = selectors.table_for(table, seats, seated=False, result=result)
    seated = {**public, "invite_code": table.invite_code}
    match = state.match
    # What every seat shares is encoded once; the table (two ways) and each seat's view
    # are spliced in as the last keys (one JSON object per seat).
    shared = json.dumps(base, separators=(",", ":"))[:-1] + ',"table":'
    to_seats = shared + json.dumps(seated, separators=(",", ":")) + ',"view":'
    to_public = shared + json.dumps(public, separators=(",", ":")) + ',"view":'
    messages = [
        (
            realtime.seat_group(table.pk, seat),
            (to_public if seat is None else to_seats)
            + json.dumps(match.view(seat).to_dict(), separators=(",", ":"))
            + "}",
        )
        for seat in (*range(table.players), None)
    ]
    # Who holds each seat as this action commits (the seats the write was checked
    # against): a connection forwards its seat's view only while its user holds that seat.
    holders: list[int | None] = [None] * table.players
    for s in seats:
        holders[s.number] = s.user_id
    transaction.on_commit(lambda: realtime.send(messages, seats=holders))


def _after_seats_change(table: Table) -> None:
    """Seats or status changed: connections re-read the table, the lobby refreshes."""
    table_id = table.pk
    Table.objects.filter(pk=table_id).update(seats_version=F("seats_version") + 1)
    text = json.dumps({"type": "refresh", "table_id": table_id})

    def send() -> None:
        groups = [realtime.seat_group(table_id, s) for s in (*range(table.players), None)]
        realtime.send([(g, text) for g in groups] + [(realtime.LOBBY_GROUP, text)], "table.refresh")
        table_changed.send(sender=Table, table_id=table_id)

    transaction.on_commit(send)


def _pk(table: Table | int) -> int:
    return table if isinstance(table, int) else table.pk


# -- bots and the clock ------------------------------------------------------------------


def bot_play(*, table_id: int, version: int) -> bool:
    """Play a bot's turn if the table is still at ``version`` and a bot plays the seat
    to act. Idempotent: a stale call does nothing. The bot decides outside the row lock
    (a strong bot thinks for a few hundred milliseconds)."""
    return _play_for_seat(table_id, version, on_clock=False)


def clock_expire(*, table_id: int, version: int) -> bool:
    """The clock of the seat to act ran out: a bot plays for it (``basic`` for a person,
    marked ``timeout``; a bot seat's own level, when its scheduled turn was lost)."""
    return _play_for_seat(table_id, version, on_clock=True)


def _play_for_seat(table_id: int, version: int, *, on_clock: bool) -> bool:
    table = Table.objects.filter(pk=table_id).first()
    if table is None or table.status != Table.Status.PLAYING or table.version != version:
        return False
    if on_clock and (table.deadline is None or table.deadline > timezone.now()):
        return False
    try:
        with table_state.locked(table) as state:
            seat = state.match.to_act
            if seat is None:
                return False
            seats = _seats(table, state)
            view = state.match.view(seat)
    except errors.StaleVersion:
        return False
    by_bot = seats[seat].played_by_bot
    if not by_bot and not on_clock:
        return False
    level = seats[seat].bot_level or "basic"
    action = make_bot(level, seed=table_id * 1_000_003 + version).decide(view)
    source = TableAction.Source.BOT if by_bot else TableAction.Source.TIMEOUT
    try:
        action_submit(
            table_id=table_id, seat=seat, action=action, expected_version=version, source=source
        )
    except (errors.StaleVersion, errors.NotYourTurn, errors.NotPlaying):
        return False
    return True


def clocks_sweep(limit: int = 500) -> int:
    """Play for every seat whose clock has run out; returns how many were played."""
    due = list(
        Table.objects.filter(status=Table.Status.PLAYING, deadline__lte=timezone.now())
        .order_by("deadline")
        .values_list("pk", "version")[:limit]
    )
    played = 0
    for table_id, version in due:
        try:
            played += clock_expire(table_id=table_id, version=version)
        except Exception:
            log.exception("clock of table %s failed", table_id)
    return played
