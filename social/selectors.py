"""Reads of the social app (docs/social.md): the Friends list with presence, whom a person
ignores in chat, what a chat socket starts with."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.types import Visitor, person
from core import moderation
from games import selectors as table_selectors
from games.models import Seat, Table
from social import errors, presence, realtime
from social.models import (
    Block,
    Challenge,
    ChatMessage,
    ChatSettings,
    Follow,
    Mute,
    SocialSettings,
    TableChat,
)
from social.presence import Presence


@dataclass(frozen=True, slots=True)
class Friend:
    user_id: int
    username: str
    name: str
    online: bool
    table_id: int | None  # the table whose page he has open, if the reader may watch it
    playing: bool  # seated at that table
    follows_you: bool
    private_table: bool = False  # at a table the reader may not watch (a private one)


def social_settings(*, user: User) -> SocialSettings:
    """``user``'s social settings (the defaults, unsaved, if he never changed them)."""
    return SocialSettings.objects.filter(user=user).first() or SocialSettings(user=user)


def presence_seen(*, viewer: Visitor | None, user_ids: Iterable[int]) -> dict[int, Presence]:
    """The presence of each of ``user_ids`` as ``viewer`` may see it: offline unless the
    person's setting lets ``viewer`` see him (everybody, the people he follows, nobody),
    never across a block, and the table only if ``viewer`` may watch it (a private
    table's id, or a duplicate round's while its boards are secret, is never shown to
    someone who cannot). A person always sees himself."""
    ids = list(dict.fromkeys(user_ids))
    me = person(viewer)
    rules = dict(SocialSettings.objects.filter(user_id__in=ids).values_list("user_id", "presence"))
    follow_me: set[int] = set()
    across_block: set[int] = set()
    if me is not None:
        follow_me = set(
            Follow.objects.filter(follower_id__in=ids, followed=me).values_list(
                "follower_id", flat=True
            )
        )
        across_block = set(
            Block.objects.filter(blocker_id__in=ids, blocked=me).values_list(
                "blocker_id", flat=True
            )
        ) | set(
            Block.objects.filter(blocker=me, blocked_id__in=ids).values_list(
                "blocked_id", flat=True
            )
        )

    def shown(uid: int) -> bool:
        if me is not None and uid == me.pk:
            return True
        if uid in across_block:
            return False
        rule = rules.get(uid, SocialSettings.Presence.EVERYBODY)
        if rule == SocialSettings.Presence.FOLLOWED:
            return uid in follow_me
        return rule == SocialSettings.Presence.EVERYBODY

    here = presence.of([uid for uid in ids if shown(uid)])
    tables = {p.table_id for p in here.values() if p.table_id is not None}
    watchable = {
        t.pk
        for t in Table.objects.filter(pk__in=tables)
        if table_selectors.may_watch(table=t, user=viewer, invite_code=None)
    }
    return {
        uid: Presence(
            online=p.online,
            table_id=p.table_id if p.table_id in watchable else None,
            hidden_table=p.table_id is not None and p.table_id not in watchable,
        )
        for uid in ids
        for p in [here.get(uid, presence.OFFLINE)]
    }


def friends(*, user: User) -> list[Friend]:
    """The people ``user`` follows, online ones first, each with where he is now (as
    far as each lets him see it: :func:`presence_seen`)."""
    followed = list(
        User.objects.filter(followers__follower=user).order_by("display_name", "username")
    )
    ids = [u.pk for u in followed]
    here = presence_seen(viewer=user, user_ids=ids)
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
            # presence_seen gives only a table the reader may watch; a private one (a
            # challenge's, one opened as private) is named without its link.
            table_id=here[u.pk].table_id,
            playing=(here[u.pk].table_id, u.pk) in seated,
            follows_you=u.pk in back,
            private_table=here[u.pk].hidden_table,
        )
        for u in followed
    ]
    rows.sort(key=lambda f: not f.online)
    return rows


SEARCH_MIN = 2
SEARCH_LIMIT = 20


def players_search(*, user: User, query: str, limit: int = SEARCH_LIMIT) -> list[User]:
    """Active players whose user name or display name holds ``query`` (at least
    ``SEARCH_MIN`` characters, any case), those that begin with it first; never the
    reader himself, nor anybody across a block."""
    query = " ".join((query or "").split())[:150]
    if len(query) < SEARCH_MIN:
        return []
    across = Block.objects.filter(Q(blocker=user) | Q(blocked=user)).values_list(
        "blocker_id", "blocked_id"
    )
    apart = {uid for pair in across for uid in pair}
    rows = (
        User.objects.filter(is_active=True)
        .filter(Q(username__icontains=query) | Q(display_name__icontains=query))
        .exclude(pk__in=apart | {user.pk})
        .order_by("username")[: limit * 3]
    )
    folded = query.casefold()

    def begins(u: User) -> bool:
        return u.username.casefold().startswith(folded) or (
            u.display_name.casefold().startswith(folded)
        )

    return sorted(rows, key=lambda u: not begins(u))[:limit]


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


# ------------------------------------------------------------------ chat


@dataclass(frozen=True, slots=True)
class TournamentAccess:
    read: bool
    write: bool
    playing_now: list[int]  # people seated at its tables playing now
    closed: bool = False  # the tournament was cancelled: its chat is read, never written


def tournament_chat_access(*, user: Visitor | None, tournament_id: int) -> TournamentAccess:
    """Who reads and writes a tournament's chat: its entrants, its organiser, its other
    moderators (a club's, ``core.moderation``) and the staff. What is said there while its
    tables play skips the people seated at them."""
    from tournaments.models import Assignment, Registration, Tournament

    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        raise errors.NotFound(_("No such tournament."))
    me = person(user)
    allowed = me is not None and (
        me.is_staff
        or tournament.created_by_id == me.pk
        or Registration.objects.filter(
            tournament=tournament,
            user=me,
            status__in=(Registration.Status.REGISTERED, Registration.Status.CHECKED_IN),
        ).exists()
        or may_moderate(user=me, tournament_id=tournament.pk)
    )
    playing = [
        uid
        for uid in Seat.objects.filter(
            table__in=Assignment.objects.filter(
                round__tournament=tournament, table__status=Table.Status.PLAYING
            ).values("table_id"),
            user__isnull=False,
        ).values_list("user_id", flat=True)
        if uid is not None
    ]
    closed = tournament.status == Tournament.Status.CANCELLED
    return TournamentAccess(
        read=allowed, write=allowed and not closed, playing_now=playing, closed=closed
    )


def readable_messages(
    *,
    user: Visitor | None,
    table_id: int | None = None,
    tournament_id: int | None = None,
    invite_code: str | None = None,
) -> QuerySet[ChatMessage]:
    """The messages of a table's (or a tournament's) chat that ``user`` may read: the one
    rule for reading a chat and for acting on one of its messages (docs/social.md).

    None hidden by a moderator. A table's: only if he may watch it (a private table, with
    a seat or its invite code: ``watchable_table``); while it plays, a seated player reads
    only the players' room. A tournament's: its entrants, its organiser and the staff;
    while he plays, only the organiser's announcements. Raises ``NotFound`` or
    ``Forbidden`` when he may not read the place at all."""
    messages = ChatMessage.objects.filter(hidden_at__isnull=True)
    me = person(user)
    if table_id is not None:
        table = watchable_table(table_id=table_id, user=user, invite_code=invite_code)
        seated = me is not None and Seat.objects.filter(table=table, user=me).exists()
        messages = messages.filter(table=table)
        if seated and table.status == Table.Status.PLAYING:
            messages = messages.filter(room=ChatMessage.Room.PLAYERS)
        return messages
    if tournament_id is None:
        raise errors.Invalid()
    access = tournament_chat_access(user=user, tournament_id=tournament_id)
    if not access.read:
        raise errors.Forbidden(_("Only the entrants and the organiser read this chat."))
    messages = messages.filter(tournament_id=tournament_id)
    if me is not None and me.pk in access.playing_now:
        messages = messages.filter(announcement=True)
    return messages


def message_readable(
    *, user: User, message_id: int, invite_code: str | None = None
) -> ChatMessage | None:
    """The message ``message_id`` if ``user`` may read it where it was said
    (:func:`readable_messages`, with the invite code his page holds); None both when there
    is no such message and when he may not read it, so that nobody learns which ids
    exist in chats he cannot read."""
    place = ChatMessage.objects.filter(pk=message_id).values("table_id", "tournament_id").first()
    if place is None:
        return None
    try:
        readable = readable_messages(
            user=user,
            table_id=place["table_id"],
            tournament_id=place["tournament_id"],
            invite_code=invite_code,
        )
    except errors.SocialError:
        return None
    return readable.filter(pk=message_id).select_related("table").first()


def watchable_table(*, table_id: int, user: Visitor | None, invite_code: str | None) -> Table:
    """The table, if ``user`` may watch it (a private one: seated, or with its invite
    code); NotFound or Forbidden otherwise."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise errors.NotFound(_("No such table."))
    if not table_selectors.may_watch(table=table, user=user, invite_code=invite_code):
        raise errors.Forbidden()
    return table


def chat_off_for(user_id: int) -> bool:
    return ChatSettings.objects.filter(user_id=user_id, chat_off=True).exists()


def table_chat_off(table_id: int) -> bool:
    return TableChat.objects.filter(table_id=table_id, chat_off=True).exists()


def tournament_of(table_id: int) -> int | None:
    """The tournament a table belongs to (a round's table), if any."""
    from tournaments.models import Assignment

    return (
        Assignment.objects.filter(table_id=table_id)
        .values_list("round__tournament_id", flat=True)
        .first()
    )


def site_moderator(user: User) -> bool:
    """The staff who moderate the whole site: superusers and staff given the
    permission to change chat messages."""
    return user.is_active and user.is_staff and user.has_perm("social.change_chatmessage")


def moderated_events(user: User, field: str = "pk") -> Q:
    """The events ``user`` moderates, not being a site moderator, as a condition on
    ``field`` (a tournament's id): those he organises, and those another app gives him
    (a club's moderators its events: ``core.moderation``). Read each time."""
    from tournaments.models import Tournament

    mine = Tournament.objects.filter(created_by_id=user.pk).values("pk")
    condition = Q(**{f"{field}__in": mine})
    for events in moderation.moderated_tournaments(user):
        condition |= Q(**{f"{field}__in": events})
    return condition


def moderates_an_event(user: User) -> bool:
    """Whether ``user`` moderates at least one event's chat (the admin's queue opens)."""
    from tournaments.models import Tournament

    return user.is_active and Tournament.objects.filter(moderated_events(user)).exists()


def may_moderate(*, user: User, tournament_id: int | None) -> bool:
    """The site's moderators everywhere; an event's organiser in his event (its chat and
    its tables' chat), and whoever ``core.moderation`` names for it (a club's moderators
    in the club's events)."""
    if site_moderator(user):
        return True
    if tournament_id is None or not user.is_active:
        return False
    from tournaments.models import Tournament

    return Tournament.objects.filter(moderated_events(user), pk=tournament_id).exists()


@dataclass(frozen=True, slots=True)
class Room:
    """What a social socket on a table's or a tournament's page starts with."""

    group: str
    me: int | None
    writes: bool  # he may write here (signed in, chat on, the table's chat on)
    room: str | None  # where what he writes goes
    chat_off: bool  # his own switch
    table_chat_off: bool
    switches_table: bool  # he may turn the table's chat off (its creator, a moderator)
    moderator: bool
    ignored: set[int]
    follows: list[int]
    history: list[dict[str, Any]]
    closed: bool = False  # a cancelled tournament's chat: nobody writes any more


def chat_room(
    *,
    user: Visitor | None,
    table_id: int | None = None,
    tournament_id: int | None = None,
    invite_code: str | None = None,
) -> Room:
    """The chat of a table's (or a tournament's) page for ``user``: the last
    ``SOCIAL_CHAT_HISTORY`` messages he may read, oldest first, and what he may do."""
    me = person(user)
    messages = readable_messages(
        user=user, table_id=table_id, tournament_id=tournament_id, invite_code=invite_code
    ).select_related("author")
    off = me is not None and chat_off_for(me.pk)
    ignored = ignored_ids(user_id=me.pk) if me is not None else set()
    if table_id is not None:
        table = watchable_table(table_id=table_id, user=user, invite_code=invite_code)
        seated = me is not None and Seat.objects.filter(table=table, user=me).exists()
        group = realtime.table_group(table.pk)
        switched_off = table_chat_off(table.pk)
        switches = me is not None and (table.created_by_id == me.pk or me.is_staff)
        room: str | None = ChatMessage.Room.PLAYERS if seated else ChatMessage.Room.SPECTATORS
        writes = me is not None and not off and not switched_off
        closed = False
        moderator = me is not None and may_moderate(user=me, tournament_id=tournament_of(table.pk))
    else:
        assert tournament_id is not None  # readable_messages refuses neither place
        access = tournament_chat_access(user=user, tournament_id=tournament_id)
        group = realtime.tournament_group(tournament_id)
        switched_off = False
        switches = False
        room = ChatMessage.Room.TOURNAMENT
        writes = me is not None and not off and access.write
        closed = access.closed
        moderator = me is not None and may_moderate(user=me, tournament_id=tournament_id)
    history: list[dict[str, Any]] = []
    if not off:
        history = [
            realtime.message_payload(m)
            for m in messages.exclude(author_id__in=ignored)[: settings.SOCIAL_CHAT_HISTORY]
        ][::-1]
    follows = (
        list(Follow.objects.filter(follower=me).values_list("followed_id", flat=True))
        if me is not None
        else []
    )
    return Room(
        group=group,
        me=me.pk if me is not None else None,
        writes=writes,
        room=room if writes else None,
        chat_off=off,
        table_chat_off=switched_off,
        switches_table=switches,
        moderator=moderator,
        ignored=ignored,
        follows=follows,
        history=history,
        closed=closed,
    )


def chat_state(room: Room) -> dict[str, Any]:
    """The ``chat.state`` message a socket starts with."""
    return {
        "type": "chat.state",
        "me": room.me,
        "writes": room.writes,
        "room": room.room,
        "chat_off": room.chat_off,
        "table_chat_off": room.table_chat_off,
        "switches_table": room.switches_table,
        "closed": room.closed,
        "moderator": room.moderator,
        "follows": room.follows,
        "messages": room.history,
        "max_length": settings.SOCIAL_CHAT_MAX_LENGTH,
    }


# ------------------------------------------------------------------ challenges


def option_changes(preset: str, options: dict[str, Any], players: int) -> list[list[Any]]:
    """``[name, value]`` for each option of a table that differs from its preset's."""
    from games.engine import PRESETS
    from games.pages.options import OPTIONS

    base = PRESETS[preset].replace(players=players).to_dict() if preset in PRESETS else {}
    return [
        [info.name, options[info.name]]
        for info in OPTIONS
        if info.name in options and options[info.name] != base.get(info.name)
    ]


def challenge_payload(challenge: Challenge) -> dict[str, Any]:
    """A challenge as the sockets and the API show it."""
    invites = list(challenge.invites.select_related("user"))
    return {
        "type": "challenge",
        "id": challenge.pk,
        "status": challenge.status,
        "from": {
            "id": challenge.challenger_id,
            "username": challenge.challenger.username,
            "name": challenge.challenger.get_display_name(),
        },
        "invited": [
            {"id": i.user_id, "name": i.user.get_display_name(), "answer": i.answer}
            for i in invites
        ],
        "players": challenge.players,
        "preset": challenge.preset,
        # The options that differ from the preset's, by the engine's names; the page
        # puts them into words in its own language (social.js).
        "changes": option_changes(challenge.preset, challenge.options, challenge.players),
        "move_seconds": challenge.move_seconds,
        "rated": challenge.rated,
        "expires_at": challenge.expires_at.isoformat(),
        "table_id": challenge.table_id,
    }


def challenges_open_for(*, user: User) -> list[dict[str, Any]]:
    """The pending challenges a person sent or was sent (his notification area)."""
    rows = (
        Challenge.objects.filter(status=Challenge.Status.PENDING, expires_at__gt=timezone.now())
        .filter(Q(challenger=user) | Q(invites__user=user))
        .select_related("challenger")
        .distinct()
    )
    return [challenge_payload(c) for c in rows]


def online_seen(*, viewer: Visitor | None, user_ids: Iterable[int]) -> set[int]:
    """Which of ``user_ids`` ``viewer`` may see online now (:func:`presence_seen`)."""
    return {uid for uid, p in presence_seen(viewer=viewer, user_ids=user_ids).items() if p.online}


def entrants_online(*, tournament_id: int, viewer: Visitor | None) -> list[int]:
    """The user ids of a tournament's entrants ``viewer`` may see online now (the dots
    before their names on its page, which anybody may open); ``errors.NotFound`` for
    no such tournament."""
    from tournaments.models import Registration, Tournament

    if not Tournament.objects.filter(pk=tournament_id).exists():
        raise errors.NotFound(_("No such tournament."))
    users = Registration.objects.filter(tournament_id=tournament_id).values_list(
        "user_id", flat=True
    )
    return sorted(online_seen(viewer=viewer, user_ids=users))
