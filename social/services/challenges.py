""" "Play me" (docs/social.md): a challenge to one or two people, answered live.

The table is made only when everybody invited has accepted, through the live tables'
own services (``table_create``, ``table_join``, ``seat_fill_with_bot``,
``table_start``): a private table, every invited person seated, bots in the other
seats, the match started; each one's page is sent there. A decline, the challenger's
cancel or the expiry (``SOCIAL_CHALLENGE_SECONDS``) closes it. Nobody challenges across a
block.

Against spam: one challenge waits at a time between two people (either way), a person
has at most ``SOCIAL_CHALLENGES_PER_USER`` waiting, and a person may take challenges only
from people he follows (``SocialSettings.challenges``). The table counts against the
challenger's caps on tables of bots (``games.services.limits``, through
``table_start``), his own and those of the address he sent the challenge from.
Creating and answering hold the locks of the pairs (``pairs_lock``), so a block made at
the same moment is seen.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import NoticeKind, User
from accounts.services import notice_queue
from core.errors import ServiceError
from games import errors as table_errors
from games import services as table_services
from games.bots import LEVELS
from games.engine.options import Options
from games.services import limits as bot_limits
from games.table_rules import MOVE_SECONDS_RANGE, table_options, target_refusal
from social import errors, presence, realtime
from social.models import Challenge, ChallengeInvite, Follow, SocialSettings
from social.selectors import challenge_payload
from social.services.relations import blocked_between, pairs_lock

S = Challenge.Status
A = ChallengeInvite.Answer

MAX_INVITED = 2


def _tell(challenge: Challenge) -> None:
    """After the commit, everybody in the challenge sees its state."""
    pk = challenge.pk

    def send() -> None:
        fresh = Challenge.objects.select_related("challenger").get(pk=pk)
        payload = challenge_payload(fresh)
        for uid in {fresh.challenger_id, *(i["id"] for i in payload["invited"])}:
            realtime.user_notify(uid, payload)

    transaction.on_commit(send)


@transaction.atomic
def challenge_create(
    *,
    user: User,
    invited: list[User],
    players: int = 3,
    preset: str = "classic",
    options: dict[str, Any] | None = None,
    move_seconds: int = 30,
    rated: bool = False,
    bot_level: str = "basic",
    address: str = "",
) -> Challenge:
    """``user`` challenges ``invited`` (one or two people) to a table of ``players``;
    bots of ``bot_level`` take the seats left. Checked like the lobby's form, and
    against spam (the module's text); ``address``: the client's, whose cap on tables
    of bots the table counts against."""
    people = list({u.pk: u for u in invited}.values())
    if not 1 <= len(people) <= min(MAX_INVITED, players - 1):
        raise errors.Invalid(
            _("Invite one or two people, fewer than the table's seats.")
            if players > 2
            else _("A table for two has room for one invited person.")
        )
    if any(u.pk == user.pk for u in people):
        raise errors.Invalid(_("That is you."))
    if any(not u.is_active for u in people):
        raise errors.NotFound()
    pairs_lock(user.pk, people[0].pk, *[(user.pk, u.pk) for u in people[1:]])
    if any(blocked_between(user.pk, u.pk) for u in people):
        raise errors.Blocked()
    _spam_check(user, people)
    if bot_level not in LEVELS:
        raise errors.Invalid(_("Unknown bot level."))
    low, high = MOVE_SECONDS_RANGE
    if not low <= move_seconds <= high:
        raise errors.Invalid(
            _("The clock is from %(low)s to %(high)s seconds.") % {"low": low, "high": high}
        )
    try:
        opts = table_options(players=players, preset=preset, options=options)
    except (ValueError, ServiceError) as exc:
        raise errors.Invalid(str(exc)) from None
    refusal = target_refusal(opts)
    if refusal is not None:
        raise errors.Invalid(refusal)
    if rated and opts != Options.preset(preset).replace(players=players):
        raise errors.Invalid(_("A rated table plays its preset unchanged."))
    started_from = bot_limits.address_key(address)
    if players - 1 - len(people) > 0:
        # Told now, not when the last one accepts: a challenger at his cap.
        try:
            bot_limits.bot_tables_check(user=user, key=started_from, levels={bot_level})
        except table_errors.TooManyBotTables as exc:
            raise errors.TooManyBotTables(exc.message) from None
    challenge = Challenge.objects.create(
        challenger=user,
        players=players,
        preset=preset,
        options=opts.to_dict(),
        move_seconds=move_seconds,
        rated=rated,
        bot_level=bot_level,
        expires_at=timezone.now() + timedelta(seconds=settings.SOCIAL_CHALLENGE_SECONDS),
        started_from=started_from,
    )
    ChallengeInvite.objects.bulk_create(
        ChallengeInvite(challenge=challenge, user=u) for u in people
    )
    _tell(challenge)
    _mail_the_away(challenge, people)
    return challenge


def _mail_the_away(challenge: Challenge, people: list[User]) -> None:
    """An invited person with no socket open (social.presence) is mailed the challenge,
    if he chose that notice (accounts decides); one on the site sees it live."""
    online = presence.online_ids(u.pk for u in people)
    name = challenge.challenger.get_display_name()
    minutes = max(1, settings.SOCIAL_CHALLENGE_SECONDS // 60)
    for person in people:
        if person.pk not in online:
            notice_queue(
                user=person,
                kind=NoticeKind.CHALLENGE,
                subject=lambda: _("%(name)s challenges you to a game") % {"name": name},
                body=lambda: (
                    _(
                        "%(name)s challenges you to a game of Thousand. The challenge waits "
                        "%(minutes)s minutes: sign in to the site to accept or decline it."
                    )
                    % {"name": name, "minutes": minutes}
                ),
                link=reverse("social:friends"),
            )


def _pending() -> QuerySet[Challenge]:
    return Challenge.objects.filter(status=S.PENDING, expires_at__gt=timezone.now())


def _spam_check(user: User, people: list[User]) -> None:
    """Under the pairs' locks: each invited person takes challenges from ``user``, none
    waits between them already, and ``user`` has fewer than SOCIAL_CHALLENGES_PER_USER
    waiting (his row lock makes his concurrent challenges count one after the other)."""
    for person in people:
        takes = SocialSettings.objects.filter(user=person).values_list("challenges", flat=True)
        if takes.first() == SocialSettings.Challenges.FOLLOWED and not (
            Follow.objects.filter(follower=person, followed=user).exists()
        ):
            raise errors.ChallengesClosed(
                _("%(name)s takes challenges only from people he follows.")
                % {"name": person.get_display_name()}
            )
    for person in people:
        waiting = _pending().filter(
            Q(challenger=user, invites__user=person) | Q(challenger=person, invites__user=user)
        )
        if waiting.exists():
            raise errors.ChallengePending(
                _(
                    "A challenge between you and %(name)s is already waiting for an answer: "
                    "wait for it, or cancel yours first."
                )
                % {"name": person.get_display_name()}
            )
    User.objects.select_for_update().filter(pk=user.pk).first()
    limit = settings.SOCIAL_CHALLENGES_PER_USER
    if _pending().filter(challenger=user).count() >= limit:
        raise errors.TooManyChallenges(
            ngettext(
                "You have %(limit)d challenge waiting for answers, as many as you may: "
                "cancel it or wait for the answers.",
                "You have %(limit)d challenges waiting for answers, as many as you may: "
                "cancel one or wait for the answers.",
                limit,
            )
            % {"limit": limit}
        )


def _locked(challenge_id: int) -> Challenge:
    challenge = (
        Challenge.objects.select_for_update()
        .select_related("challenger")
        .filter(pk=challenge_id)
        .first()
    )
    if challenge is None:
        raise errors.NotFound(_("No such challenge."))
    return challenge


def _lock_pairs(challenge_id: int) -> None:
    """The locks of the challenger's pair with each invited person (who never change),
    taken before the challenge's row as challenge_create takes them."""
    challenger = Challenge.objects.filter(pk=challenge_id).values_list("challenger_id", flat=True)
    invited = ChallengeInvite.objects.filter(challenge_id=challenge_id).values_list(
        "user_id", flat=True
    )
    by = challenger.first()
    pairs = [(by, uid) for uid in invited if by is not None]
    if pairs:
        pairs_lock(*pairs[0], *pairs[1:])


def _close_if_expired(challenge: Challenge) -> bool:
    if challenge.status == S.PENDING and challenge.expires_at <= timezone.now():
        challenge.status = S.EXPIRED
        challenge.save(update_fields=["status"])
        _tell(challenge)
        return True
    return False


def challenge_answer(*, user: User, challenge_id: int, accept: bool) -> Challenge:
    """An invited person accepts or declines. The last acceptance makes the table."""
    expired = False
    with transaction.atomic():
        _lock_pairs(challenge_id)
        challenge = _locked(challenge_id)
        invite = challenge.invites.filter(user=user).first()
        if invite is None:
            raise errors.NotFound(_("No such challenge."))
        expired = _close_if_expired(challenge)
        if not expired:
            if challenge.status != S.PENDING or invite.answer != A.WAITING:
                raise errors.WrongState(_("This challenge is closed."))
            invite.answer = A.ACCEPTED if accept else A.DECLINED
            invite.answered_at = timezone.now()
            invite.save(update_fields=["answer", "answered_at"])
            if not accept:
                challenge.status = S.DECLINED
                challenge.save(update_fields=["status"])
            elif not challenge.invites.exclude(answer=A.ACCEPTED).exists():
                try:
                    _seat_everybody(challenge)
                except table_errors.TooManyBotTables:
                    # Nothing written: his answer waits, to be given again later.
                    raise errors.TooManyBotTables() from None
            _tell(challenge)
    if expired:  # committed: the challenge is closed for good
        raise errors.WrongState(_("This challenge has expired."))
    return challenge


def _seat_everybody(challenge: Challenge) -> None:
    """The private table: the challenger, every invited person, bots; started."""
    invited = [i.user for i in challenge.invites.select_related("user")]
    if any(blocked_between(challenge.challenger_id, u.pk) for u in invited):
        raise errors.Blocked()
    challenger = challenge.challenger
    preset_options = Options.preset(challenge.preset).replace(players=challenge.players)
    table = table_services.table_create(
        user=challenger,
        players=challenge.players,
        preset=challenge.preset,
        options=None if challenge.options == preset_options.to_dict() else challenge.options,
        rated=challenge.rated,
        private=True,
        move_seconds=challenge.move_seconds,
    )
    for person in invited:
        table_services.table_join(table=table, user=person, invite_code=table.invite_code)
    for _seat in range(challenge.players - 1 - len(invited)):
        table_services.seat_fill_with_bot(table=table, level=challenge.bot_level, by=challenger)
    # The challenger's caps on tables of bots, his own and his address's (when he sent it).
    table_services.table_start(table=table, user=challenger, started_from=challenge.started_from)
    challenge.status = S.ACCEPTED
    challenge.table = table
    challenge.save(update_fields=["status", "table"])


@transaction.atomic
def challenge_cancel(*, user: User, challenge_id: int) -> Challenge:
    challenge = _locked(challenge_id)
    if challenge.challenger_id != user.pk:
        raise errors.NotFound(_("No such challenge."))
    if _close_if_expired(challenge) or challenge.status != S.PENDING:
        raise errors.WrongState(_("This challenge is closed."))
    challenge.status = S.CANCELLED
    challenge.save(update_fields=["status"])
    _tell(challenge)
    return challenge


@transaction.atomic
def challenges_expire() -> int:
    """Close every pending challenge past its time (the periodic sweep); returns how
    many. Each person in it sees it close."""
    due = list(
        Challenge.objects.select_for_update(skip_locked=True).filter(
            status=S.PENDING, expires_at__lte=timezone.now()
        )
    )
    for challenge in due:
        _close_if_expired(challenge)
    return len(due)
