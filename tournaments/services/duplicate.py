"""Duplicate rounds' dealing (docs/duplicate.md, docs/fair-dealing.md "Duplicate rounds"):
commit a round's secret before the round is seated, take the entrants' seeds until its
tables start, give the tables the sequence's seeds, reveal the secret when the round ends.

    commit (round n: when round n − 1 is seated, round 1 at the event's start)
      → entrants add seeds → seal (the round's tables start) → reveal (the round is over)
      → rate (a rated event: the round's board comparison goes to the ratings)
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime

from django.db import IntegrityError, transaction

from accounts.types import User
from games.engine.fair import (
    InvalidSeed,
    commitment,
    duplicate_server_seed,
    new_server_seed,
    validate_client_seed,
)
from games.models import MatchResult
from tournaments import errors, live
from tournaments.models import DuplicateDealing, EntrantSeed, Registration, Round, Tournament
from tournaments.selectors.duplicate import round_board_results
from tournaments.services.common import current_time


def duplicate_commit(
    *, tournament: Tournament, number: int, now: datetime | None = None
) -> DuplicateDealing:
    """The committed dealing of round ``number``: a fresh secret round seed whose SHA-256
    is published at once. Idempotent: a round is committed once."""
    found = DuplicateDealing.objects.filter(tournament=tournament, round_number=number).first()
    if found is not None:
        return found
    seed = new_server_seed()
    try:
        with transaction.atomic():
            return DuplicateDealing.objects.create(
                tournament=tournament,
                round_number=number,
                round_seed=seed.hex(),
                commitment=commitment(seed),
                committed_at=current_time(now),
            )
    except IntegrityError:
        return DuplicateDealing.objects.get(tournament=tournament, round_number=number)


@transaction.atomic
def entrant_seed_give(
    *, tournament: Tournament, user: User, seed: str, now: datetime | None = None
) -> EntrantSeed:
    """An entrant adds his own seed to the next round's dealing: once a round, before its
    tables start (docs/fair-dealing.md: any one honest seed makes the boards unpredictable)."""
    try:
        seed = validate_client_seed(seed)
    except InvalidSeed as exc:
        raise errors.Invalid(str(exc)) from None
    if not Registration.objects.filter(
        tournament=tournament,
        user=user,
        status__in=(Registration.Status.REGISTERED, Registration.Status.CHECKED_IN),
    ).exists():
        raise errors.NotRegistered()
    dealing = (
        DuplicateDealing.objects.select_for_update()
        # A dealing beyond the rounds (committed before an organiser cut them) is never played.
        .filter(tournament=tournament, sealed_at=None, round_number__lte=tournament.rounds or 0)
        .order_by("round_number")
        .first()
    )
    if dealing is None:
        raise errors.WrongState("no round is taking seeds now")
    if EntrantSeed.objects.filter(dealing=dealing, user=user).exists():
        raise errors.Invalid("you have already given a seed for this round")
    return EntrantSeed.objects.create(
        dealing=dealing, user=user, seed=seed, given_at=current_time(now)
    )


def duplicate_seal(*, dealing: DuplicateDealing, now: datetime | None = None) -> None:
    """The round's tables start: no more seeds."""
    if dealing.sealed_at is None:
        dealing.sealed_at = current_time(now)
        dealing.save(update_fields=["sealed_at"])


def duplicate_reveal(*, dealing: DuplicateDealing, now: datetime | None = None) -> None:
    """The round is over: its seed is public (the pages and the records show it)."""
    if dealing.revealed_at is None:
        dealing.revealed_at = current_time(now)
        dealing.save(update_fields=["revealed_at"])


def entrant_seeds(dealing: DuplicateDealing) -> dict[int, str]:
    """The entrants' seeds by entrant number (the user's id)."""
    return dict(dealing.entrant_seeds.values_list("user_id", "seed"))


def dealing_server_seed(dealing: DuplicateDealing, index: int) -> bytes:
    """The server seed of the round's ``index``-th dealing: every table's ``index``-th
    deal (redeals included) is dealt from it. Only once sealed: the seeds are final."""
    if dealing.sealed_at is None:
        raise errors.WrongState("the round's seeds are not final until its tables start")
    return duplicate_server_seed(bytes.fromhex(dealing.round_seed), entrant_seeds(dealing), index)


def duplicate_rate_round(*, tournament: Tournament, number: int) -> None:
    """A rated event's round is over: the ratings get its board comparison — every board
    group (the results of those who held the same dealing at the same position) as (result
    id, seat, points) — and rate its tables by it (docs/ratings.md, "Duplicate events").
    Bots are in the groups when the event compares them; the ratings never move a bot.
    A board the clock or a bot played for an absent person is marked (its fourth item):
    it is left out of his rating, the others' comparison with it stands.
    Idempotent: the ratings record a round once."""
    if not tournament.rated or tournament.format != Tournament.Format.DUPLICATE:
        return
    dealing = DuplicateDealing.objects.filter(tournament=tournament, round_number=number).first()
    round_ = Round.objects.filter(tournament=tournament, number=number).first()
    if dealing is None or round_ is None:
        return
    table_numbers = dict(round_.assignments.exclude(table=None).values_list("table_id", "number"))
    result_of = {
        table_numbers[table_id]: pk
        for table_id, pk in MatchResult.objects.filter(table__in=table_numbers).values_list(
            "table_id", "pk"
        )
    }
    left_out = tournament.duplicate_bots == Tournament.DuplicateBots.EXCLUDE
    groups: dict[tuple[int, int, int], list[tuple[int, int, float, bool]]] = defaultdict(list)
    for r in round_board_results(round_)[0]:
        if (r.entrant is None and left_out) or r.seat is None or r.table not in result_of:
            continue
        groups[(r.board, r.dealing, r.position)].append(
            (result_of[r.table], r.seat, r.points, r.played_for)
        )
    live.ratings_duplicate_round(
        key=dealing.commitment,
        players=tournament.players_per_table,
        result_ids=sorted(result_of.values()),
        groups=[groups[k] for k in sorted(groups)],
    )
