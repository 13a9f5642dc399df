"""Reads of the club (docs/social.md): the Friends list with presence, whom a person
ignores in chat."""

from __future__ import annotations

from dataclasses import dataclass

from accounts.models import User
from accounts.types import Visitor, person
from club import presence
from club.models import Block, Follow, Mute
from games.models import Seat, Table


@dataclass(frozen=True, slots=True)
class Friend:
    user_id: int
    username: str
    name: str
    online: bool
    table_id: int | None  # the table whose page he has open
    playing: bool  # seated at that table
    follows_you: bool


def friends(*, user: User) -> list[Friend]:
    """The people ``user`` follows, online ones first, each with where he is now."""
    followed = list(
        User.objects.filter(followers__follower=user).order_by("display_name", "username")
    )
    ids = [u.pk for u in followed]
    here = presence.of(ids)
    back = set(
        Follow.objects.filter(follower_id__in=ids, followed=user).values_list(
            "follower_id", flat=True
        )
    )
    tables = {p.table_id for p in here.values() if p.table_id is not None}
    seated = set(
        Seat.objects.filter(table_id__in=tables, user_id__in=ids)
        .exclude(table__status__in=(Table.Status.FINISHED, Table.Status.ABANDONED))
        .values_list("table_id", "user_id")
    )
    rows = [
        Friend(
            user_id=u.pk,
            username=u.username,
            name=u.get_display_name(),
            online=here[u.pk].online,
            table_id=here[u.pk].table_id,
            playing=(here[u.pk].table_id, u.pk) in seated,
            follows_you=u.pk in back,
        )
        for u in followed
    ]
    rows.sort(key=lambda f: not f.online)
    return rows


def blocked(*, user: User) -> list[User]:
    return list(User.objects.filter(blocked_by__blocker=user).order_by("username"))


def ignored_ids(*, user_id: int) -> set[int]:
    """Whose chat ``user_id`` never sees: the people he blocks or muted, and those who
    block him (docs/social.md)."""
    ids = set(Block.objects.filter(blocker_id=user_id).values_list("blocked_id", flat=True))
    ids |= set(Block.objects.filter(blocked_id=user_id).values_list("blocker_id", flat=True))
    ids |= set(Mute.objects.filter(user_id=user_id).values_list("muted_id", flat=True))
    return ids


@dataclass(frozen=True, slots=True)
class Relation:
    following: bool
    blocking: bool


def relation(*, user: Visitor | None, target: User) -> Relation | None:
    """What ``user`` has done about ``target`` (None: anonymous, or himself)."""
    me = person(user)
    if me is None or me.pk == target.pk:
        return None
    return Relation(
        following=Follow.objects.filter(follower=me, followed=target).exists(),
        blocking=Block.objects.filter(blocker=me, blocked=target).exists(),
    )
