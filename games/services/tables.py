"""A table's life before and around play: open, join, leave, bots, start, resign,
abandon, finish early with a result, a player back, the players' seeds."""

from __future__ import annotations

import logging
import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from accounts.types import User, Visitor, person
from games import errors, selectors
from games import state as table_state
from games.bots import LEVELS
from games.engine import (
    Match,
    Options,
)
from games.engine.fair import validate_client_seed
from games.models import BY_THE_RULES, Dealing, FinishedBy, MatchResult, Seat, Table
from games.services import actions, broadcast, common, limits, turns
from games.signals import match_finished, table_joining, table_opened
from games.table_rules import MOVE_SECONDS_RANGE, table_options, target_refusal

log = logging.getLogger(__name__)


@transaction.atomic
def table_create(
    *,
    user: User,
    players: int = 3,
    preset: str = "classic",
    options: dict[str, Any] | None = None,
    rated: bool = False,
    private: bool = False,
    move_seconds: int = 30,
    dealing_source: dict[str, Any] | None = None,
) -> Table:
    """Open a table with its creator in seat 0. Rated tables play a preset unchanged
    (the ratings compare like with like). ``dealing_source``: a duplicate round's
    sequence (``round_seed``, ``round_commitment``, ``entrant_seeds``) to deal from."""
    opts = table_options(players=players, preset=preset, options=options)
    rules = Options.preset(preset).replace(players=players)
    if dealing_source and opts.deals is not None:
        # A duplicate round's match: its boards, each from 0:0:0 if the event says so.
        rules = rules.replace(deals=opts.deals, boards_from_zero=opts.boards_from_zero)
    if rated and opts != rules:
        raise errors.Malformed("a rated table plays its preset's options unchanged")
    low, high = MOVE_SECONDS_RANGE
    if not low <= move_seconds <= high:
        raise errors.Malformed(f"move_seconds must be a whole number from {low} to {high}")
    table = Table.objects.create(
        created_by=user,
        players=opts.players,
        preset=preset,
        options=opts.to_dict(),
        rated=bool(rated),
        is_private=bool(private),
        move_seconds=move_seconds,
        dealing_source=dealing_source,
    )
    Seat.objects.create(table=table, number=0, user=user)
    actions.dealing_create(table, 0)
    broadcast.seats_announce(table)
    return table


@transaction.atomic
def table_open(*, user: User, chat: bool = True, **fields: Any) -> Table:
    """A person opens a table from the lobby or the API: :func:`table_create` within the
    cap on open tables. Tables that start at once (play against bots, a tournament's
    round) are created directly and count against nothing. ``chat=False``: the table's
    chat is off from the start (the social app's receiver of :data:`table_opened` keeps it)."""
    _open_tables_check(user)
    refusal = target_refusal(
        table_options(
            players=fields.get("players", 3),
            preset=fields.get("preset", "classic"),
            options=fields.get("options"),
        )
    )
    if refusal is not None:
        raise errors.Malformed(refusal)
    table = table_create(user=user, **fields)
    table_opened.send(sender=Table, table=table, user=user, chat=chat)
    return table


def _open_tables_check(user: User) -> None:
    """A person may hold only a few open (not started) tables (GAMES_OPEN_TABLES_PER_USER):
    1,500 of them once made the lobby crawl. The person's row lock makes two concurrent
    creations count one after the other."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    held = Table.objects.filter(created_by=user, status=Table.Status.OPEN).count()
    if held >= settings.GAMES_OPEN_TABLES_PER_USER:
        raise errors.TooManyTables()


def _free_seat(table: Table, seats: list[Seat]) -> int:
    taken = {s.number for s in seats}
    for number in range(table.players):
        if number not in taken:
            return number
    raise errors.TableFull()


@transaction.atomic
def table_join(*, table: Table | int, user: User, invite_code: str | None = None) -> Seat:
    table = common.locked_table(common.table_pk(table))
    if table.status != Table.Status.OPEN:
        raise errors.NotOpen()
    if table.is_private and invite_code != table.invite_code:
        raise errors.Forbidden("this table is private: join it with its invite link")
    seats = list(table.seats.all())
    if any(s.user_id == user.pk for s in seats):
        raise errors.AlreadySeated()
    table_joining.send(sender=Table, table=table, user=user)
    seat = Seat.objects.create(table=table, number=_free_seat(table, seats), user=user)
    broadcast.seats_announce(table)
    return seat


@transaction.atomic
def table_leave(*, table: Table | int, user: User) -> None:
    """Leave a table that has not started; the last person out closes it."""
    table = common.locked_table(common.table_pk(table))
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
    broadcast.seats_announce(table)


@transaction.atomic
def seat_fill_with_bot(
    *, table: Table | int, level: str, by: User, number: int | None = None
) -> Seat:
    """Seat a bot; only a person seated at the table may do it."""
    if level not in LEVELS:
        raise errors.Malformed(f"unknown bot level {level!r}; choose one of {', '.join(LEVELS)}")
    table = common.locked_table(common.table_pk(table))
    if table.status != Table.Status.OPEN:
        raise errors.NotOpen()
    seats = list(table.seats.all())
    if not any(s.user_id == by.pk for s in seats):
        raise errors.NotSeated("only a player at the table may add bots")
    if number is None:
        number = _free_seat(table, seats)
    elif not 0 <= number < table.players:
        raise errors.Malformed(f"seat must be 0..{table.players - 1}")
    elif any(s.number == number for s in seats):
        raise errors.TableFull("that seat is taken")
    seat = Seat.objects.create(table=table, number=number, bot_level=level)
    broadcast.seats_announce(table)
    return seat


@transaction.atomic
def table_start(
    *,
    table: Table | int,
    user: User,
    first_dealer: int | None = None,
    address: str = "",
    started_from: str = "",
    uncapped: bool = False,
) -> Table:
    """Start the match: every seat taken; the creator (or, if he left, any person
    seated) starts it. The first dealer is drawn by lot (docs/spec.md §2.1) unless the
    caller sets it (a tournament balances who deals first over its rounds).

    A table with bots counts against the caps of :mod:`games.services.limits`, whoever
    starts it: ``user``'s own, and those of the client ``address`` he starts it from
    (or, given instead, ``started_from``: the key of the address a challenge was sent
    from). Only a tournament's tables pass ``uncapped=True`` (a player at his cap must
    still be seated for his round)."""
    levels = set(
        Seat.objects.filter(table_id=common.table_pk(table))
        .exclude(bot_level="")
        .values_list("bot_level", flat=True)
    )
    started_from = (started_from or limits.address_key(address)) if levels else ""
    if levels and not uncapped:
        # Before the table's lock: the person's lock first, as table_play_bots takes them.
        limits.bot_tables_check(user=user, key=started_from, levels=levels)
    table = common.locked_table(common.table_pk(table))
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
    elif not 0 <= first_dealer < table.players:
        raise errors.Malformed(f"first_dealer must be a seat 0..{table.players - 1}")
    table.first_dealer = first_dealer
    table.started_at = now
    table.version = 0
    table.started_from = started_from
    state = table_state.TableState(
        table_id=table.pk,
        version=0,
        match=Match.empty(Options.from_dict(table.options), first_dealer=first_dealer),
        dealing=-1,
    )
    events, _ = actions.dealing_start(table, state, now)
    table.deadline = turns.turn_deadline(table, state, seats, now)
    table.save(
        update_fields=[
            "status", "first_dealer", "started_at", "version", "deadline", "started_from"
        ]
    )  # fmt: skip
    table_state.forget(table.pk)
    broadcast.views_announce(table, state, seats, events, sheet_rows=[], revealed=None)
    broadcast.turn_schedule(table, state, seats)
    broadcast.seats_announce(table)
    return table


@transaction.atomic
def table_play_bots(
    *,
    user: User,
    level: str = "basic",
    preset: str = "classic",
    move_seconds: int = 60,
    deals: int | None = None,
    address: str = "",
) -> Table:
    """ "Play against bots now": a table of three with two bots, started at once, within
    the caps on tables of bots (:mod:`games.services.limits`) of the person and of his
    ``address``; with ``deals``, a quick match of that many deals (docs/spec.md §3.7)."""
    options = {"deals": deals} if deals is not None else None
    table = table_create(
        user=user, players=3, preset=preset, options=options, move_seconds=move_seconds
    )
    for _ in range(2):
        seat_fill_with_bot(table=table, level=level, by=user)
    return table_start(table=table, user=user, address=address)


@transaction.atomic
def table_rematch(*, table: Table | int, user: User, address: str | None = None) -> Table:
    """ "Play again" after a match: the same kind of table (players, preset and options,
    rated, private, clock) with the same bots in the same places round the table, opened
    and started through :func:`table_open`, :func:`seat_fill_with_bot` and
    :func:`table_start`, so the caps on open tables and on tables of bots apply as to any.
    The player who asks first sits at seat 0 and the others keep their order after him.
    With bots only it starts at once; the other people of the match join it by asking in
    their turn (the creator starts it when they are in). Asking again gives the same
    rematch."""
    # The person's lock before any table's, the order table_start takes them in.
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    old = common.locked_table(common.table_pk(table))
    selectors.rematch_check(table=old, user=user)
    if old.rematch_id is not None:
        new = Table.objects.get(pk=old.rematch_id)
        if new.status == Table.Status.OPEN and not new.seats.filter(user=user).exists():
            table_join(table=new, user=user, invite_code=new.invite_code)
        return new
    seats = list(old.seats.all())
    mine = next(s.number for s in seats if s.user_id == user.pk)
    new = table_open(
        user=user,
        players=old.players,
        preset=old.preset,
        options=old.options,
        rated=old.rated,
        private=old.is_private,
        move_seconds=old.move_seconds,
    )
    for seat in seats:
        if seat.is_bot:
            number = (seat.number - mine) % old.players
            seat_fill_with_bot(table=new, level=seat.bot_level, by=user, number=number)
    old.rematch = new
    old.save(update_fields=["rematch"])
    if all(s.is_bot or s.user_id == user.pk for s in seats):
        return table_start(table=new, user=user, address=address or "")
    return new


@transaction.atomic
def table_resign(*, table: Table | int, user: User) -> None:
    """Give up: a bot plays the seat to the end and the player finishes last. When the
    last person at the table resigns, nobody is left to play: the match ends at once with
    its result (``finished_by`` ``resigned``: scores up to the last complete deal, the
    resigned players last)."""
    table, seat = _locked_playing_seat(common.table_pk(table), user)
    if seat.resigned:
        raise errors.Illegal("you have already resigned")
    seat.resigned = True
    seat.save(update_fields=["resigned"])
    seats = list(table.seats.select_related("user"))
    if all(s.resigned or s.is_bot for s in seats):
        # Nobody is left to play: the match ends here, with its result (resigned last).
        _finish_now(table, FinishedBy.RESIGNED)
    else:
        broadcast.turn_reschedule(table, seats)
    broadcast.seats_announce(table)


def _locked_playing_seat(table_id: int, user: User) -> tuple[Table, Seat]:
    """The table under its row lock, playing, and the seat ``user`` holds there (resigned
    or not): NotPlaying, NotSeated otherwise."""
    table = common.locked_table(table_id)
    if table.status != Table.Status.PLAYING:
        raise errors.NotPlaying()
    seat = table.seats.filter(user=user).first()
    if seat is None:
        raise errors.NotSeated()
    return table, seat


@transaction.atomic
def table_abandon(*, table: Table | int) -> None:
    """Stop a table for good (the admin site's action, an organiser). A match in play
    ends with a result up to its last complete deal (``abandoned``); an open table that
    never started just closes."""
    table = common.locked_table(common.table_pk(table))
    if table.status in (Table.Status.FINISHED, Table.Status.ABANDONED):
        raise errors.Illegal("the table has already ended")
    if table.status == Table.Status.PLAYING:
        _finish_now(table, FinishedBy.ABANDONED)
    else:
        table.status = Table.Status.ABANDONED
        table.finished_at = timezone.now()
        table.deadline = None
        table.save(update_fields=["status", "finished_at", "deadline"])
    broadcast.seats_announce(table)


@transaction.atomic
def table_finish_after_deal(*, table: Table | int, finished_by: str = FinishedBy.TIME) -> bool:
    """End the match with a result as soon as the deal in play is complete (a round's
    time limit, an arena's end): the places go by the scores, resigned players last.
    Returns False when the table is not playing (nothing changes). Calling it again
    keeps the first moment and reason."""
    if finished_by not in FinishedBy.values or finished_by in BY_THE_RULES:
        raise errors.Malformed(f"a match cannot be finished early by {finished_by!r}")
    table = common.locked_table(common.table_pk(table))
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
    if finished_by not in FinishedBy.values or finished_by in BY_THE_RULES:
        raise errors.Malformed(f"a match cannot be finished early by {finished_by!r}")
    table = common.locked_table(common.table_pk(table))
    if table.status != Table.Status.PLAYING:
        raise errors.NotPlaying()
    result = _finish_now(table, finished_by)
    broadcast.seats_announce(table)
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
        result = actions.match_result_create(table, state, seats, now, finished_by=finished_by)
        # The other processes drop their copies as the update reaches them.
        broadcast.views_announce(
            table,
            state,
            seats,
            [],
            sheet_rows=[],
            revealed=None,
            change={"version": table.version, "ended": True},
        )
    table_id = table.pk
    transaction.on_commit(lambda: table_state.ended(table_id))
    transaction.on_commit(
        lambda: match_finished.send(sender=MatchResult, result_id=result.pk, table_id=table_id)
    )
    return result


@transaction.atomic
def seat_return(*, table_id: int, user: Visitor) -> None:
    """A person back after the clock made a bot play for him: he plays again."""
    who = person(user)
    if who is None:
        raise errors.NotSeated()
    table, seat = _locked_playing_seat(table_id, who)
    if seat.resigned:
        raise errors.Illegal("you have resigned from this match")
    if seat.away or seat.timeouts_in_row:
        seat.away = False
        seat.timeouts_in_row = 0
        seat.save(update_fields=["away", "timeouts_in_row"])
        broadcast.turn_reschedule(table, list(table.seats.select_related("user")))
        broadcast.seats_announce(table)


@transaction.atomic
def dealing_add_seed(*, table_id: int, user: Visitor, dealing: int, seed: str) -> None:
    """A player's client adds its seed to a dealing whose commitment is published and
    whose cards are not dealt yet (docs/fair-dealing.md). One seed per seat."""
    try:
        seed = validate_client_seed(seed)
    except ValueError as exc:
        raise errors.InvalidSeed(str(exc)) from None
    who = person(user)
    if who is None:
        raise errors.NotSeated()
    seat = Seat.objects.filter(table_id=table_id, user=who).first()
    if seat is None:
        raise errors.NotSeated()
    row = Dealing.objects.select_for_update().filter(table_id=table_id, number=dealing).first()
    if row is None or row.dealt_at is not None:
        raise errors.InvalidSeed("that dealing is not waiting for seeds")
    if row.from_dealer:
        raise errors.InvalidSeed(
            "a duplicate round's dealings take no seeds at the table: give yours to the round"
        )
    key = str(seat.number)
    if key in row.client_seeds:
        raise errors.InvalidSeed("your seed for that dealing is already in")
    row.client_seeds = {**row.client_seeds, key: seed}
    row.save(update_fields=["client_seeds"])


@transaction.atomic
def table_dealings_reveal(*, table: Table | int) -> int:
    """A duplicate round is over: its table's dealings are revealed, and a finished
    match's record gets each deal's seeds and its place in the round's sequence
    (docs/fair-dealing.md "Duplicate rounds"). Returns the dealings revealed."""
    table = common.locked_table(common.table_pk(table))
    revealed = Dealing.objects.filter(table=table, revealed=False).exclude(dealt_at=None)
    count = revealed.update(revealed=True)
    result = MatchResult.objects.filter(table=table).first()
    if result is not None and table.dealing_source:
        dealings = {d.number: d for d in Dealing.objects.filter(table=table, revealed=True)}
        for number, deal in enumerate(result.record.get("deals", [])):
            dealing = dealings.get(number)
            if dealing is not None:
                deal["dealing"] = {
                    **selectors.dealing_revealed(dealing),
                    "duplicate": selectors.duplicate_entry(table.dealing_source, number),
                }
                for key in ("number", "dealer"):
                    deal["dealing"].pop(key)
        result.save(update_fields=["record"])
    return count
