"""Where the tournaments meet the live tables (``games``) and the ratings (``ratings``).

Everything the tournaments do to a live table goes through the games app's services
here, so that the state machine in ``tournaments.services`` reads in its own terms:
open a table with these players (and bots) in these seats, read how far a table has
got, stop it after its current deal, make a disqualified player resign.

From the ratings app: a player's rating and rated matches (entry conditions, seeding),
the amendment of a result (the ratings recompute from it), and a duplicate round's board
comparison (the ratings rate the round's tables by it).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.urls import NoReverseMatch, reverse

from accounts.types import User
from games import errors as game_errors
from games import services as game_services
from games import state as table_state
from games.models import FinishedBy, MatchResult, Table
from ratings import elo
from ratings import selectors as rating_selectors
from ratings import services as rating_services

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Opened:
    table: Table
    seats: list[Any]  # by the live table's seat number: a user, or None for a bot
    first_dealer: int | None  # the seat that deals first, once the table has started


@dataclass(frozen=True)
class Progress:
    """How far a started table has got."""

    status: str
    deals: int  # deals completed
    scores: list[int]  # by seat
    resigned: list[bool]  # by seat


def table_open(
    *,
    seating: Sequence[Any],
    players: int,
    preset: str,
    options: dict[str, Any],
    rated: bool,
    move_seconds: int,
    bot_level: str,
    dealing_source: dict[str, Any] | None = None,
) -> Opened:
    """Open and start a live table with ``seating`` (users, ``None`` for bots) in
    seat-position order: position 0 deals first, 1 sits on the forced hundred, ...

    The games app seats a table's creator at seat 0, so the seating is turned round the
    table until a person is at seat 0 (the order round the table, and so who bids after
    whom, does not change) and the first dealer is the seat position 0 lands on.
    """
    turn = next(i for i, user in enumerate(seating) if user is not None)
    seats = list(seating[turn:]) + list(seating[:turn])
    dealer = (-turn) % players
    creator = seats[0]
    with transaction.atomic():
        table = game_services.table_create(
            user=creator,
            players=players,
            preset=preset,
            options=options or None,
            rated=rated,
            # Public: anyone may watch a tournament's tables and replay them. It is never
            # listed as open: it is full and started in this same transaction.
            private=False,
            move_seconds=move_seconds,
            dealing_source=dealing_source,
        )
        for number in range(1, players):
            user = seats[number]
            if user is None:
                game_services.seat_fill_with_bot(
                    table=table, level=bot_level, by=creator, number=number
                )
            else:
                game_services.table_join(table=table, user=user, invite_code=table.invite_code)
        # The one caller that starts tables with bots outside the caps on them
        # (games.services.limits): a player at his cap must still be seated for his round.
        table = game_services.table_start(
            table=table, user=creator, first_dealer=dealer, uncapped=True
        )
    return Opened(table=table, seats=seats, first_dealer=table.first_dealer)


def table_progress(table: Table) -> Progress:
    """Deals done and scores of a started table (read under the table's row lock when
    the caller holds it)."""
    resigned = [s.resigned for s in table.seats.order_by("number")]
    if table.first_dealer is None:
        return Progress(table.status, 0, [0] * table.players, resigned)
    with table_state.locked(table) as state:
        return Progress(table.status, len(state.match.results), list(state.match.scores), resigned)


def table_dealings_reveal(table_id: int) -> None:
    """A duplicate round is over: its table's seeds and the record's dealings are public."""
    game_services.table_dealings_reveal(table=table_id)


def table_lock(table_id: int) -> Table:
    """The table's row, locked until the end of the caller's transaction."""
    return Table.objects.select_for_update().get(pk=table_id)


def table_stop(table: Table) -> None:
    """The organiser stops a table: a match in play ends at once with a result up to its
    last complete deal (``abandoned``), recorded like any other."""
    try:
        game_services.table_abandon(table=table.pk)
    except game_errors.TableError:
        log.info("table %s had already ended", table.pk)


def table_finish_after_deal(table: Table) -> bool:
    """The round's time is up: the match ends with a result when its deal in play is
    complete (``time``). False when the table is no longer playing."""
    return game_services.table_finish_after_deal(table=table.pk, finished_by=FinishedBy.TIME)


def table_finish_now(table: Table) -> MatchResult | None:
    """The grace after the time limit is over too: the match ends now, with a result up
    to its last complete deal (``time``); None when it had already ended."""
    try:
        return game_services.table_finish_now(table=table.pk, finished_by=FinishedBy.TIME)
    except game_errors.TableError:
        log.info("table %s had already ended", table.pk)
        return None


def player_resign(*, table_id: int, user: User) -> None:
    """A bot plays the player's seat to the end and he finishes last."""
    try:
        game_services.table_resign(table=table_id, user=user)
    except game_errors.TableError:
        log.info(
            "user %s could not resign at table %s (already ended or resigned)", user.pk, table_id
        )


def result_of(result_id: int) -> MatchResult | None:
    return MatchResult.objects.select_related("table").filter(pk=result_id).first()


def result_ending(table_id: int) -> str:
    """How the table's match ended, in one sentence ("" when it was won or has no result)."""
    result = MatchResult.objects.filter(table_id=table_id).first()
    return result.ending() if result is not None else ""


def table_url(table_id: int) -> str:
    try:
        return reverse("games:table", args=[table_id])
    except NoReverseMatch:
        return f"/tables/{table_id}/"


def replay_url(table_id: int) -> str:
    try:
        return reverse("games:replay", args=[table_id])
    except NoReverseMatch:
        return f"/tables/{table_id}/replay/"


# -- ratings ------------------------------------------------------------------------------


def player_rating(*, user: User, players: int) -> tuple[float, int]:
    """(rating, rated matches) of the user at tables of ``players``; unrated: the start."""
    for rating in rating_selectors.player_ratings(user=user):
        if rating.players == players:
            return float(rating.rating), int(rating.games)
    return float(elo.START_RATING), 0


def ratings_amend(
    *, result: MatchResult, placements: list[int], by: User | None, reason: str
) -> None:
    """An amended result's placements go to the ratings too (they recompute from it)."""
    if not result.table.rated:
        return
    rating_services.result_correct(result=result, placements=placements, reason=reason, by=by)


def ratings_duplicate_round(
    *,
    key: str,
    players: int,
    result_ids: Sequence[int],
    groups: Sequence[Sequence[tuple[int, int, float, bool]]],
) -> None:
    """A rated duplicate round is over: the ratings record its board comparison now and
    rate its tables by it after the commit (docs/ratings.md, "Duplicate events")."""
    from ratings.tasks import apply_duplicate_round

    dup = rating_services.duplicate_round_record(
        key=key, players=players, result_ids=result_ids, groups=groups
    )
    if dup is not None:
        round_id = dup.pk
        transaction.on_commit(lambda: apply_duplicate_round.delay(round_id))
