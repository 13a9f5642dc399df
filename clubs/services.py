"""Writes of the clubs app: founding and changing a club, joining and leaving, requests and
invitations, members' rights, a club's events, and its messages to all members. Each is atomic and checks the actor's
right (``selectors.can``, read from the database each time) before it changes anything."""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import NoticeKind
from accounts.names import has_base_character, is_reserved, name_key, refused_character
from accounts.services import notice_queue
from accounts.timezones import validate_time_zone
from accounts.types import User
from clubs import errors, selectors
from clubs.models import (
    RIGHTS,
    Club,
    ClubEvent,
    ClubMessage,
    Invitation,
    JoinRequest,
    Membership,
)
from core.unstorable import storable
from tournaments import services as tournament_services
from tournaments.models import Notification, Tournament
from tournaments.notices import notifications_create

CLUBS_PER_DAY = 3  # clubs one person may found in 24 hours
INVITATION_DAYS = (1, 30)  # the shortest and longest life of an invitation link
SLUG_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")
LANGUAGE_CODES = frozenset(code for code, _name in settings.LANGUAGES)
MESSAGES_PER_DAY = 3  # messages to all members one club may send in 24 hours
SUBJECT_MAX = 120
MESSAGE_MAX = 2000


def _require(*, user: User, club: Club, right: str) -> None:
    if not selectors.can(user=user, club=club, right=right):
        raise errors.Forbidden()


def _check_name(name: str, *, club: Club | None) -> str:
    name = name.strip()
    if not name or len(name) > 80:
        raise errors.Invalid(_("A club's name has 1 to 80 characters."))
    if refused_character(name) is not None or not has_base_character(name):
        raise errors.Invalid(_("A club's name may not contain control or invisible characters."))
    if is_reserved(name):
        raise errors.Invalid(_("This name is reserved."))
    others = Club.objects.exclude(pk=club.pk) if club is not None else Club.objects.all()
    if others.filter(name_key=name_key(name)).exists():
        raise errors.Invalid(_("This name looks too much like another club's name."))
    return name


def _check_slug(slug: str) -> str:
    slug = slug.strip().lower()
    if not 3 <= len(slug) <= 40 or not set(slug) <= SLUG_CHARS or slug.strip("-") != slug:
        raise errors.Invalid(
            _("A club's address has 3 to 40 Latin letters, digits and inner hyphens.")
        )
    if is_reserved(slug) or slug in {"new", "invite", "create"}:
        raise errors.Invalid(_("This address is reserved."))
    if Club.objects.filter(slug_key=name_key(slug)).exists():
        raise errors.Invalid(_("This address looks too much like another club's address."))
    return slug


def _check_details(fields: dict[str, Any]) -> dict[str, Any]:
    if "languages" in fields:
        languages = list(dict.fromkeys(fields["languages"] or ()))
        if not set(languages) <= LANGUAGE_CODES:
            raise errors.Invalid(_("Unknown language."))
        fields["languages"] = languages
    if "time_zone" in fields:
        try:
            validate_time_zone(fields["time_zone"])
        except ValidationError as exc:
            raise errors.Invalid(_("Unknown time zone.")) from exc
    if "access" in fields and fields["access"] not in Club.Access.values:
        raise errors.Invalid(_("Unknown kind of access."))
    if len(fields.get("description") or "") > 4000:
        raise errors.Invalid(_("The description is too long."))
    return fields


@transaction.atomic
def club_create(
    *,
    user: User,
    name: str,
    slug: str,
    description: str = "",
    languages: list[str] | tuple[str, ...] = (),
    time_zone: str = "UTC",
    access: str = Club.Access.PUBLIC,
) -> Club:
    """A new club; its founder is its first member, with every right."""
    since = timezone.now() - timedelta(days=1)
    if not user.is_superuser and user.clubs_created.filter(created_at__gte=since).count() >= (
        CLUBS_PER_DAY
    ):
        raise errors.TooMany()
    fields = _check_details(
        {
            "description": description,
            "languages": languages,
            "time_zone": time_zone,
            "access": access,
        }
    )
    club = Club(
        name=_check_name(name, club=None), slug=_check_slug(slug), created_by=user, **fields
    )
    try:
        with transaction.atomic():
            club.save()
    except IntegrityError as exc:  # a club of that name or address was founded meanwhile
        raise errors.Invalid(_("A club of that name or address exists.")) from exc
    Membership.objects.create(club=club, user=user, **{f"right_{r}": True for r in RIGHTS})
    return club


@transaction.atomic
def club_update(*, user: User, club: Club, **fields: Any) -> Club:
    """Change a club's name, description, languages, time zone or access (the settings
    right). Its address stays: links to it live elsewhere."""
    _require(user=user, club=club, right="settings")
    allowed = {"name", "description", "languages", "time_zone", "access"}
    if not set(fields) <= allowed:
        raise errors.Invalid(_("These settings cannot be changed here."))
    fields = _check_details(dict(fields))
    if "name" in fields:
        fields["name"] = _check_name(fields["name"], club=club)
    for key, value in fields.items():
        setattr(club, key, value)
    club.save()
    return club


@transaction.atomic
def club_archive(*, user: User, club: Club) -> Club:
    """Close a club for good: its page and records stay, nobody joins, no event is added."""
    _require(user=user, club=club, right="settings")
    if club.archived_at is None:
        club.archived_at = timezone.now()
        club.save(update_fields=["archived_at"])
    return club


def _open(club: Club) -> None:
    if club.archived_at is not None:
        raise errors.WrongState(_("This club is archived."))


def _add_member(*, club: Club, user: User) -> Membership:
    membership, _created = Membership.objects.get_or_create(club=club, user=user)
    JoinRequest.objects.filter(club=club, user=user, status=JoinRequest.Status.PENDING).update(
        status=JoinRequest.Status.ACCEPTED
    )
    return membership


@transaction.atomic
def club_join(*, user: User, club: Club, message: str = "") -> Membership | JoinRequest:
    """Join a public club at once; ask to join any other (its members' managers answer)."""
    _open(club)
    existing = selectors.membership_of(user=user, club=club)
    if existing is not None:
        return existing
    if club.access == Club.Access.PUBLIC:
        return _add_member(club=club, user=user)
    request, _created = JoinRequest.objects.get_or_create(
        club=club,
        user=user,
        status=JoinRequest.Status.PENDING,
        defaults={"message": message.strip()[:300]},
    )
    return request


@transaction.atomic
def club_leave(*, user: User, club: Club) -> None:
    """Leave a club; its last manager of roles may not while others remain (the club would
    have nobody to give rights)."""
    membership = selectors.membership_of(user=user, club=club)
    if membership is None:
        raise errors.WrongState(_("You are not a member of this club."))
    _keep_a_manager(club=club, leaving=membership)
    membership.delete()


def _keep_a_manager(*, club: Club, leaving: Membership) -> None:
    if not leaving.right_roles:
        return
    others = Membership.objects.filter(club=club).exclude(pk=leaving.pk)
    if others.exists() and not others.filter(right_roles=True).exists():
        raise errors.WrongState(
            _("Give someone the right to manage roles first: the club would have nobody to.")
        )


@transaction.atomic
def join_request_answer(*, user: User, join_request: JoinRequest, accept: bool) -> JoinRequest:
    """Accept or decline a request (the members right)."""
    request = JoinRequest.objects.select_for_update().get(pk=join_request.pk)
    _require(user=user, club=request.club, right="members")
    if request.status != JoinRequest.Status.PENDING:
        raise errors.WrongState()
    if accept:
        _open(request.club)
        _add_member(club=request.club, user=request.user)
    request.status = JoinRequest.Status.ACCEPTED if accept else JoinRequest.Status.DECLINED
    request.answered_by = user
    request.save(update_fields=["status", "answered_by"])
    return request


@transaction.atomic
def invitation_create(*, user: User, club: Club, days: int = 7) -> Invitation:
    """A link that lets anyone who holds it join for ``days`` days (the members right)."""
    _require(user=user, club=club, right="members")
    _open(club)
    if not INVITATION_DAYS[0] <= days <= INVITATION_DAYS[1]:
        raise errors.Invalid(_("An invitation lasts 1 to 30 days."))
    return Invitation.objects.create(
        club=club,
        token=secrets.token_urlsafe(32),
        created_by=user,
        expires_at=timezone.now() + timedelta(days=days),
    )


@transaction.atomic
def invitation_revoke(*, user: User, invitation: Invitation) -> Invitation:
    _require(user=user, club=invitation.club, right="members")
    if invitation.revoked_at is None:
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])
    return invitation


@transaction.atomic
def invitation_accept(*, user: User, token: str) -> Membership:
    """Join the club of a valid invitation link."""
    invitation = (
        Invitation.objects.select_for_update().select_related("club").filter(token=token).first()
    )
    if invitation is None or not invitation.is_valid():
        raise errors.NotFound(_("This invitation has expired or was revoked."))
    _open(invitation.club)
    existing = selectors.membership_of(user=user, club=invitation.club)
    if existing is not None:
        return existing
    invitation.uses += 1
    invitation.save(update_fields=["uses"])
    return _add_member(club=invitation.club, user=user)


def _target(club: Club, member: User) -> Membership:
    membership = selectors.membership_of(user=member, club=club)
    if membership is None:
        raise errors.NotFound(_("No such member."))
    return membership


@transaction.atomic
def member_remove(*, user: User, club: Club, member: User) -> None:
    """Remove a member (the members right); one who manages roles only by another who does."""
    _require(user=user, club=club, right="members")
    membership = _target(club, member)
    if membership.right_roles and not selectors.can(user=user, club=club, right="roles"):
        raise errors.Forbidden(_("Only a manager of roles may remove another."))
    _keep_a_manager(club=club, leaving=membership)
    membership.delete()


@transaction.atomic
def member_set_rights(*, user: User, club: Club, member: User, rights: set[str]) -> Membership:
    """Give a member exactly ``rights`` (the roles right); they count from the next request."""
    _require(user=user, club=club, right="roles")
    if not rights <= set(RIGHTS):
        raise errors.Invalid(_("Unknown right."))
    membership = _target(club, member)
    if membership.right_roles and "roles" not in rights:
        others = Membership.objects.filter(club=club, right_roles=True).exclude(pk=membership.pk)
        if not others.exists():
            raise errors.WrongState(_("The club needs at least one manager of roles."))
    for right in RIGHTS:
        setattr(membership, f"right_{right}", right in rights)
    membership.save()
    return membership


@transaction.atomic
def member_set_messages(*, user: User, club: Club, off: bool) -> Membership:
    """A member's own switch: with it off, the club's messages no longer reach his
    notification area (he still reads them on the club's page)."""
    membership = selectors.membership_of(user=user, club=club)
    if membership is None:
        raise errors.NotFound(_("You are not a member of this club."))
    membership.messages_off = off
    membership.save(update_fields=["messages_off"])
    return membership


@transaction.atomic
def club_event_create(
    *, user: User, club: Club, members_only: bool = False, **fields: Any
) -> ClubEvent:
    """A draft tournament of the club (the events right); scheduled and run as any other."""
    _require(user=user, club=club, right="events")
    _open(club)
    tournament = tournament_services.tournament_create(created_by=user, **fields)
    return ClubEvent.objects.create(club=club, tournament=tournament, members_only=members_only)


@transaction.atomic
def club_event_attach(
    *, user: User, club: Club, tournament: Tournament, members_only: bool = False
) -> ClubEvent:
    """Make a tournament the club's: one of no club by one who may run the club's events, or
    moving it from another club, which only a superuser may."""
    _require(user=user, club=club, right="events")
    _open(club)
    existing = selectors.event_of(tournament)
    if existing is not None:
        if not user.is_superuser:
            raise errors.Forbidden(_("Only a superuser moves an event between clubs."))
        existing.club = club
        existing.members_only = members_only
        existing.save(update_fields=["club", "members_only"])
        return existing
    if not user.is_superuser and tournament.created_by_id != user.pk:
        raise errors.Forbidden()
    return ClubEvent.objects.create(club=club, tournament=tournament, members_only=members_only)


def _check_message(subject: str, text: str) -> tuple[str, str]:
    if not storable(subject or "") or not storable(text or ""):
        raise errors.Invalid(
            _("The text holds a character that cannot be stored (a NUL or a lone surrogate).")
        )
    subject = " ".join((subject or "").split())
    text = (text or "").strip()
    if not subject:
        raise errors.Invalid(_("Write a subject."))
    if not text:
        raise errors.Invalid(_("Write a message."))
    if len(subject) > SUBJECT_MAX:
        raise errors.Invalid(_("A subject has at most %(n)s characters.") % {"n": SUBJECT_MAX})
    if len(text) > MESSAGE_MAX:
        raise errors.Invalid(_("A message has at most %(n)s characters.") % {"n": MESSAGE_MAX})
    if refused_character(subject) is not None:
        raise errors.Invalid(_("A subject may not contain control or invisible characters."))
    return subject, text


@transaction.atomic
def club_message_send(*, club: Club, sender: User, subject: str, text: str) -> ClubMessage:
    """A message to every member (the messages right): stored, and one line in the
    notification area of each member who has not left the club's messages off (the words
    around it in his language, read when he reads it). At most ``MESSAGES_PER_DAY`` a
    club in 24 hours, whoever sends them."""
    _require(user=sender, club=club, right="messages")
    # The club's row is locked, so two messages sent at once cannot both pass the limit.
    club = Club.objects.select_for_update().get(pk=club.pk)
    _open(club)
    subject, text = _check_message(subject, text)
    since = timezone.now() - timedelta(days=1)
    if ClubMessage.objects.filter(club=club, sent_at__gte=since).count() >= MESSAGES_PER_DAY:
        raise errors.TooMany(
            _("The club has sent as many messages as it may today: try again tomorrow.")
        )
    readers = list(
        Membership.objects.filter(club=club, messages_off=False).values_list("user_id", flat=True)
    )
    message = ClubMessage.objects.create(
        club=club, sender=sender, subject=subject, text=text, recipients=len(readers)
    )
    notifications_create(
        tournament=None,
        user_ids=readers,
        kind=Notification.Kind.GROUP_MESSAGE,
        text=subject,
        url=reverse("clubs:message", args=[club.slug, message.pk]),
        params={"sender": club.name, "subject": subject, "club_message": message.pk},
    )
    sent = message.pk
    transaction.on_commit(lambda: club_message_notice(message_id=sent, user_ids=readers))
    return message


def club_message_notice(*, message_id: int, user_ids: list[int]) -> None:
    """After the commit: the message by e-mail to each reader who chose club messages among
    his e-mail notices (accounts decides: a confirmed address, the kind chosen, his
    language, the unsubscribe link). The organiser's words go as he wrote them."""
    message = ClubMessage.objects.select_related("club").filter(pk=message_id).first()
    if message is None:
        return
    club_name, subject, text = message.club.name, message.subject, message.text
    link = reverse("clubs:message", args=[message.club.slug, message.pk])
    wanting = User.objects.filter(
        pk__in=user_ids, notice_choices__kind=NoticeKind.CLUB_MESSAGE
    ).distinct()
    with transaction.atomic():
        for reader in wanting:
            notice_queue(
                user=reader,
                kind=NoticeKind.CLUB_MESSAGE,
                subject=lambda: (
                    _("%(club)s: %(subject)s") % {"club": club_name, "subject": subject}
                ),
                body=text,
                link=link,
            )
