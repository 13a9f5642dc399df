"""Writes of the social app (docs/social.md): follow, block, mute. Keyword-only, atomic, each raises
a ``social.errors`` error before it changes anything.

Everything one person does about another (follow, block, challenge, answer) holds the
pair's lock (:func:`pairs_lock`) first, so that two of them racing each other run one
after the other: a follow racing a block once survived it (both read the other's rows
before either committed), and the blocked person kept seeing the blocker online."""

from __future__ import annotations

from django.db import connection, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from accounts.models import User
from social import errors
from social.models import Block, Follow, Mute


def player_get(*, username: str) -> User:
    """The person named ``username`` (case-insensitive), or NotFound."""
    target = User.objects.filter(username__iexact=(username or "").strip()).first()
    if target is None or not target.is_active:
        raise errors.NotFound()
    return target


# The advisory locks' first key: a pair of people (the second is the pair's hash).
PAIR_LOCK_CLASS = 32_040


def pairs_lock(a: int, b: int, *more: tuple[int, int]) -> None:
    """Hold, until the transaction ends, the lock of the pair of people ``a`` and ``b``
    (in either order), and of each pair in ``more``: a PostgreSQL advisory transaction
    lock per unordered pair, taken in one order (the pairs sorted) so that two callers
    never wait on each other. Nothing on SQLite, the embedded default, which runs one
    writing transaction at a time. Call it inside the transaction, before reading."""
    if connection.vendor != "postgresql":
        return
    pairs = sorted({(min(x, y), max(x, y)) for x, y in ((a, b), *more)})
    with connection.cursor() as cursor:
        for low, high in pairs:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(%s, hashtext(%s))",
                [PAIR_LOCK_CLASS, f"{low}:{high}"],
            )


def _other(user: User, target: User) -> None:
    if target.pk == user.pk:
        raise errors.Invalid(_("That is you."))


def blocked_between(a_id: int, b_id: int) -> bool:
    """Whether either of the two blocks the other."""
    return Block.objects.filter(
        Q(blocker_id=a_id, blocked_id=b_id) | Q(blocker_id=b_id, blocked_id=a_id)
    ).exists()


@transaction.atomic
def follow_create(*, user: User, target: User) -> Follow:
    """``user`` follows ``target`` (again: nothing changes). Refused between two people
    one of whom blocks the other."""
    _other(user, target)
    pairs_lock(user.pk, target.pk)
    if blocked_between(user.pk, target.pk):
        raise errors.Blocked()
    follow, _created = Follow.objects.get_or_create(follower=user, followed=target)
    return follow


@transaction.atomic
def follow_delete(*, user: User, target: User) -> bool:
    """``user`` no longer follows ``target``; False if he did not."""
    pairs_lock(user.pk, target.pk)
    deleted, _ = Follow.objects.filter(follower=user, followed=target).delete()
    return bool(deleted)


@transaction.atomic
def block_create(*, user: User, target: User) -> Block:
    """``user`` blocks ``target``: neither follows the other any longer, ``target``
    cannot challenge or message ``user`` nor join his tables, and ``user`` never sees
    ``target``'s chat (live, on his open sockets)."""
    _other(user, target)
    pairs_lock(user.pk, target.pk)
    block, created = Block.objects.get_or_create(blocker=user, blocked=target)
    Follow.objects.filter(
        Q(follower=user, followed=target) | Q(follower=target, followed=user)
    ).delete()
    if created:
        _tell_sockets(user.pk, target.pk)
    return block


@transaction.atomic
def block_delete(*, user: User, target: User) -> bool:
    pairs_lock(user.pk, target.pk)
    deleted, _ = Block.objects.filter(blocker=user, blocked=target).delete()
    if deleted:
        _tell_sockets(user.pk, target.pk)
    return bool(deleted)


def _tell_sockets(*user_ids: int) -> None:
    """After the commit, these people's social sockets read whom they ignore again."""
    from social import realtime

    def tell() -> None:
        for user_id in user_ids:
            realtime.user_changed(user_id)

    transaction.on_commit(tell)


@transaction.atomic
def mute_create(*, user: User, target: User) -> Mute:
    """``user`` no longer sees ``target``'s chat (for himself; live on his sockets)."""
    _other(user, target)
    mute, created = Mute.objects.get_or_create(user=user, muted=target)
    if created:
        _tell_sockets(user.pk)
    return mute


@transaction.atomic
def mute_delete(*, user: User, target: User) -> bool:
    deleted, _ = Mute.objects.filter(user=user, muted=target).delete()
    if deleted:
        _tell_sockets(user.pk)
    return bool(deleted)
