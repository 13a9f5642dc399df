"""Clubs: the organisations people join, with their own organisers, members and events.

- :class:`Club` — a name and slug that cannot impersonate another club's (accounts/names.py),
  its languages and time zone, and who may join: anyone, anyone who asks, or by invitation.
- :class:`Membership` — a person in a club, with the rights his club's role-managers gave him
  (:data:`RIGHTS`); each right is a column, so "who may run this club's events" is one query.
- :class:`JoinRequest`, :class:`Invitation` — the ways into a club that is not open.
- :class:`ClubEvent` — a tournament that belongs to a club (members only, or open).
- :class:`ClubMessage` — an announcement to every member, in each one's notification area.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.names import name_key
from tournaments.models import Tournament

# The rights a membership may carry (docs/clubs.md says what each allows).
RIGHTS = ("settings", "events", "moderation", "members", "messages", "roles")
RIGHT_LABELS = {
    "settings": _("settings"),
    "events": _("events"),
    "moderation": _("moderation"),
    "members": _("members"),
    "messages": _("messages to all"),
    "roles": _("managing roles"),
}


class Club(models.Model):
    class Access(models.TextChoices):
        PUBLIC = "public", _("anyone may join")
        ASK = "ask", _("anyone may ask to join")
        PRIVATE = "private", _("by invitation or request")

    name = models.CharField(_("name"), max_length=80)
    slug = models.SlugField(_("address"), max_length=40, unique=True)
    # What the name and slug look like (accounts.names.name_key): two clubs whose names or
    # slugs a reader cannot tell apart cannot both exist.
    name_key = models.CharField(max_length=200, unique=True, editable=False)
    slug_key = models.CharField(max_length=120, unique=True, editable=False)
    description = models.TextField(_("description"), blank=True, max_length=4000)
    languages = models.JSONField(_("languages"), default=list, blank=True)
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC")
    access = models.CharField(
        _("who may join"), max_length=8, choices=Access.choices, default=Access.PUBLIC
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="clubs_created",
        verbose_name=_("founder"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    archived_at = models.DateTimeField(_("archived"), null=True, blank=True)

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ("name",)

    def __str__(self) -> str:
        return self.name

    def save(self, *args: object, **kwargs: object) -> None:
        self.name_key = name_key(self.name)
        self.slug_key = name_key(self.slug)
        super().save(*args, **kwargs)  # type: ignore[arg-type]


class Membership(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_memberships"
    )
    joined_at = models.DateTimeField(_("joined"), default=timezone.now)
    right_settings = models.BooleanField(_("settings"), default=False)
    right_events = models.BooleanField(_("events"), default=False)
    right_moderation = models.BooleanField(_("moderation"), default=False)
    right_members = models.BooleanField(_("members"), default=False)
    right_messages = models.BooleanField(_("messages to all"), default=False)
    right_roles = models.BooleanField(_("managing roles"), default=False)
    messages_off = models.BooleanField(_("club messages off"), default=False)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="clubs_membership_once"),
        ]
        indexes = [models.Index(fields=["user", "club"], name="clubs_membership_user_idx")]

    def __str__(self) -> str:
        return f"{self.user} @ {self.club}"

    def rights(self) -> tuple[str, ...]:
        return tuple(r for r in RIGHTS if getattr(self, f"right_{r}"))

    def has_right(self, right: str) -> bool:
        return bool(getattr(self, f"right_{right}"))


class JoinRequest(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("waiting")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="join_requests")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_join_requests"
    )
    message = models.CharField(_("message"), max_length=300, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        verbose_name = _("join request")
        verbose_name_plural = _("join requests")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=Q(status="pending"),
                name="clubs_joinrequest_one_pending",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} → {self.club}"


class Invitation(models.Model):
    """A link that lets whoever holds it join, until it expires or is revoked."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    token = models.CharField(max_length=43, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(_("expires"))
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)
    uses = models.PositiveIntegerField(_("used"), default=0)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    def __str__(self) -> str:
        return f"{self.club}: {self.expires_at:%Y-%m-%d}"

    def is_valid(self, now: object = None) -> bool:
        moment = now or timezone.now()
        return self.revoked_at is None and self.expires_at > moment  # type: ignore[operator]


class Series(models.Model):
    """A recurring evening: every ``weekday`` at ``start_time`` in ``time_zone``, a tournament
    of ``tournament_fields`` created ``days_ahead`` days before (clubs/recurrence.py)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="series")
    name = models.CharField(_("name"), max_length=100)
    weekday = models.PositiveSmallIntegerField(_("weekday"), help_text=_("Monday 0 … Sunday 6."))
    start_time = models.TimeField(_("starts at (local time)"))
    time_zone = models.CharField(_("time zone"), max_length=64)
    tournament_fields = models.JSONField(_("tournament settings"), default=dict)
    members_only = models.BooleanField(_("members only"), default=False)
    days_ahead = models.PositiveSmallIntegerField(_("created days ahead"), default=7)
    registration_hours = models.PositiveSmallIntegerField(
        _("registration opens hours before"), default=48
    )
    skipped = models.JSONField(_("skipped dates"), default=list, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    stopped_at = models.DateTimeField(_("stopped"), null=True, blank=True)

    class Meta:
        verbose_name = _("recurring evening")
        verbose_name_plural = _("recurring evenings")

    def __str__(self) -> str:
        return f"{self.club}: {self.name}"


class ClubEvent(models.Model):
    """A tournament that belongs to a club; a members-only one takes only its members."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="events")
    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="club_event"
    )
    members_only = models.BooleanField(_("members only"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    # The recurring evening it is an occurrence of, and that occurrence's local date: one
    # event per date, however often the beat runs.
    series = models.ForeignKey(
        Series, on_delete=models.SET_NULL, null=True, blank=True, related_name="events"
    )
    occurrence = models.DateField(null=True, blank=True)

    class Meta:
        verbose_name = _("club event")
        verbose_name_plural = _("club events")
        constraints = [
            models.UniqueConstraint(
                fields=["series", "occurrence"],
                condition=Q(series__isnull=False),
                name="clubs_event_one_per_occurrence",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club}: {self.tournament}"


class Season(models.Model):
    """A club's events between two dates, scored by place (clubs/seasons.py): a season table,
    never to be taken for the site's skill rating."""

    class Scheme(models.TextChoices):
        TABLE = "table", _("placement points by table place")
        EVENT = "event", _("by event place (a point for each player placed below)")
        LIST = "list", _("a custom list of points by event place")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=100)
    starts_on = models.DateField(_("from"))
    ends_on = models.DateField(_("to"))
    scheme = models.CharField(
        _("points by"), max_length=8, choices=Scheme.choices, default=Scheme.LIST
    )
    points = models.JSONField(
        _("points per place"),
        default=list,
        blank=True,
        help_text=_("The custom list only: points for the 1st, 2nd, … event place."),
    )
    best = models.PositiveSmallIntegerField(_("best results counted"), null=True, blank=True)
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)
    # The table as it stood when the season closed (an amendment after it changes nothing).
    final = models.JSONField(null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ("-starts_on",)

    def __str__(self) -> str:
        return f"{self.club}: {self.name}"


class EventResults(models.Model):
    """A club event's results as a season scores them, stored each time its standings are
    written (clubs.series.event_seasons_refresh): three columns with an entry for each
    player listed, ``[user ids, places (null: disqualified, unranked), what his tables
    earned (a duplicate event: his matchpoints)]``. Replaced whole, never added to."""

    event = models.OneToOneField(
        ClubEvent, on_delete=models.CASCADE, primary_key=True, related_name="season_results"
    )
    rows = models.JSONField(default=list)
    written_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.event}: results"


class SeasonTable(models.Model):
    """An open season's table as last computed from its events' stored results
    (clubs.series.season_table_store): the ``key`` it was computed for (the scoring and the
    events) and its ``rows`` without the players' names. Served while the key holds;
    replaced whole, never added to, so a result counts exactly once."""

    season = models.OneToOneField(
        Season, on_delete=models.CASCADE, primary_key=True, related_name="stored"
    )
    key = models.JSONField()
    rows = models.JSONField(default=list)
    computed_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.season}: table"


class ClubMessage(models.Model):
    """An announcement from a holder of the messages right to every member; each member
    who has not left the club's messages off finds it in his notification area (its
    surrounding words in his own language, the sender's words as written)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="messages")
    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("sender"),
    )
    subject = models.CharField(_("subject"), max_length=120)
    text = models.TextField(_("text"), max_length=2000)
    recipients = models.PositiveIntegerField(_("recipients"), default=0)
    sent_at = models.DateTimeField(_("sent"), default=timezone.now)

    class Meta:
        verbose_name = _("club message")
        verbose_name_plural = _("club messages")
        ordering = ("-sent_at", "-pk")
        indexes = [models.Index(fields=["club", "-sent_at"], name="clubs_message_club_sent")]

    def __str__(self) -> str:
        return f"{self.club}: {self.subject}"
