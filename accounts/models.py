from collections.abc import Collection
from typing import Any, ClassVar

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.contrib.auth.models import UserManager as DjangoUserManager
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Value
from django.db.models.functions import Lower
from django.db.models.lookups import Exact
from django.utils.translation import gettext_lazy as _
from django_countries.fields import CountryField

from accounts.countries import PlayerCountries
from accounts.names import (
    MESSAGES,
    RESERVED_KEYS,
    has_base_character,
    name_key,
    refused_character,
)
from accounts.timezones import validate_time_zone


class UserManager(DjangoUserManager["User"]):
    def get_by_natural_key(self, username: str | None) -> "User":
        """Find a player by username in any case: sign-in, API tokens, createsuperuser.

        Names are unique regardless of case (the constraint below), so this finds at
        most one; it compares ``lower()`` on both sides, as the constraint's index does.
        """
        return self.get(Exact(Lower(self.model.USERNAME_FIELD), Lower(Value(username))))


class User(AbstractUser):
    """A player. ``username`` is the unique sign-in name; ``display_name`` is shown at tables."""

    display_name = models.CharField(
        _("display name"),
        max_length=40,
        blank=True,
        help_text=_("Shown to other players. Leave empty to use your username."),
    )
    country = CountryField(_("country"), blank=True, countries=PlayerCountries)
    preferred_language = models.CharField(
        _("preferred language"),
        max_length=8,
        choices=settings.LANGUAGES,
        blank=True,
        help_text=_("The site's language when you are signed in."),
    )
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        blank=True,
        validators=[validate_time_zone],
        help_text=_("Dates and times are shown in this zone. Empty: the site's zone."),
    )

    # An address given but not yet confirmed by the link mailed to it; ``email`` (unique
    # regardless of case) holds only a confirmed one, the only one mail is sent to.
    email_pending = models.EmailField(_("address awaiting confirmation"), blank=True)
    # When the player closed his account: erased ACCOUNTS_CLOSE_GRACE_SECONDS later.
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True, editable=False)

    # What the names look like (accounts.names.name_key), kept by save(): a new name that
    # looks like another player's is refused without reading every account.
    username_key = models.CharField(max_length=200, db_index=True, editable=False, default="")
    display_name_key = models.CharField(
        max_length=200, db_index=True, editable=False, default="", blank=True
    )

    # Advanced whenever what signs the player in is revoked (accounts.services.
    # credential_generation_advance): an open websocket remembers the one it was signed in
    # with and closes when it changes (core.ws_guard). Only that service writes it.
    credential_generation = models.PositiveIntegerField(default=0, editable=False)

    objects: ClassVar[UserManager] = UserManager()

    NAME_FIELDS: ClassVar[tuple[str, str]] = ("username", "display_name")
    # The names as read from the database (None: a new account): the rules added since an
    # account was named judge only a name that is new or changed (clean).
    _loaded_names: dict[str, str] | None = None

    class Meta:
        swappable = "AUTH_USER_MODEL"
        # "account" reads right in every admin sentence in Russian and Ukrainian too:
        # аккаунт / обліковий запис are the same in the nominative and the accusative
        # ("Выберите аккаунт для изменения"), unlike пользователь.
        verbose_name = _("account")
        verbose_name_plural = _("accounts")
        constraints = [
            models.UniqueConstraint(
                Lower("username"),
                name="accounts_user_username_ci_unique",
                violation_error_message=_("A user with that username already exists."),
            ),
            models.UniqueConstraint(
                Lower("email"),
                condition=~models.Q(email=""),
                name="accounts_user_email_ci_unique",
                violation_error_message=_("This address belongs to another account."),
            ),
        ]

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.username_key = name_key(self.username)
        self.display_name_key = name_key(self.display_name) if self.display_name else ""
        update_fields = kwargs.get("update_fields")
        if update_fields is None and not self._state.adding and not kwargs.get("force_insert"):
            # A whole save of an account loaded before a revocation must not write back
            # the generation it read: the revocation would be undone.
            update_fields = [
                f.name
                for f in self._meta.concrete_fields
                if not f.primary_key and f.name != "credential_generation"
            ]
            kwargs["update_fields"] = update_fields
        if update_fields is not None:
            extra = {"username": "username_key", "display_name": "display_name_key"}
            kwargs["update_fields"] = {
                *update_fields,
                *(extra[f] for f in update_fields if f in extra),
            }
        super().save(*args, **kwargs)
        self._loaded_names = self._names()

    @classmethod
    def from_db(
        cls, db: str | None, field_names: Collection[str], values: Collection[Any], **kwargs: Any
    ) -> "User":
        instance = super().from_db(db, field_names, values, **kwargs)
        instance._loaded_names = instance._names()
        return instance

    def _names(self) -> dict[str, str]:
        return {f: self.__dict__[f] for f in self.NAME_FIELDS if f in self.__dict__}

    def _name_is_new(self, field: str) -> bool:
        """Whether ``field`` holds a name not yet stored for this account."""
        loaded = self._loaded_names
        return loaded is None or loaded.get(field) != getattr(self, field)

    def clean(self) -> None:
        """Names that cannot impersonate (accounts/names.py): no control or format
        characters, at least one base character (a new or changed name only), no reserved
        word, nothing that looks like another player's name."""
        super().clean()
        problems: dict[str, Any] = {}
        # A name already held is not judged again: a superuser made as ``admin`` by
        # createsuperuser, or a name from before a rule, still saves his other settings.
        row = (
            User.objects.filter(pk=self.pk).values("username", "display_name").first()
            if self.pk
            else None
        )
        held: dict[str, Any] = dict(row) if row else {}
        for field in ("username", "display_name"):
            value = getattr(self, field) or ""
            if not value or value == held.get(field):
                continue
            key = name_key(value)
            if refused_character(value) is not None:
                problems[field] = MESSAGES["character"]
            elif self._name_is_new(field) and not has_base_character(value):
                problems[field] = MESSAGES["base"]
            elif key in RESERVED_KEYS:
                problems[field] = MESSAGES["reserved"]
            elif field == "display_name" and key == name_key(self.username or ""):
                continue  # one's own username, in other letters or case
            elif self._looks_like_another(field, value, key):
                problems[field] = MESSAGES["confusable"]
        if problems:
            raise ValidationError(problems)

    def _looks_like_another(self, field: str, value: str, key: str) -> bool:
        others = User.objects.exclude(pk=self.pk)
        if field == "username":
            # The same username in another case: the unique constraint says so itself.
            others = others.exclude(username__iexact=value)
        return others.filter(models.Q(username_key=key) | models.Q(display_name_key=key)).exists()

    def get_display_name(self) -> str:
        return self.display_name or self.username

    def __str__(self) -> str:
        return self.get_display_name()


class Mail(models.Model):
    """One mail in the outbox: written in the recipient's language when asked for, sent by
    the ``mail`` queue's worker (accounts.tasks), retried, then marked failed."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting")
        SENT = "sent", _("sent")
        FAILED = "failed", _("failed")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    kind = models.CharField(_("kind"), max_length=40)
    to = models.EmailField(_("to"))
    subject = models.CharField(_("subject"), max_length=200)
    text = models.TextField(_("text"))
    html = models.TextField(_("HTML"), blank=True)
    # Extra headers (a notice's List-Unsubscribe and List-Unsubscribe-Post, RFC 8058).
    headers = models.JSONField(_("headers"), default=dict, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    last_error = models.TextField(_("last error"), blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)

    class Meta:
        verbose_name = _("mail")
        verbose_name_plural = _("mail outbox")
        ordering = ("-created_at",)
        indexes = [models.Index(fields=["status", "created_at"])]

    def __str__(self) -> str:
        return f"{self.kind} → {self.to}"


class SignIn(models.Model):
    """A browser signed in to an account: its session, what it said it was, when it was
    last seen. The sessions page lists these; signing one out deletes its session."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sign_ins"
    )
    session_key = models.CharField(max_length=40, unique=True)
    user_agent = models.CharField(_("device"), max_length=300, blank=True)
    created_at = models.DateTimeField(_("signed in at"), auto_now_add=True)
    last_seen = models.DateTimeField(_("last seen"), auto_now_add=True)

    class Meta:
        verbose_name = _("sign-in")
        verbose_name_plural = _("sign-ins")
        ordering = ("-last_seen",)

    def __str__(self) -> str:
        return f"{self.user_id} {self.user_agent[:40]}"


class NoticeKind(models.TextChoices):
    """What a player may choose to be told of by mail (accounts.services.notice_queue):
    each kind is off until he turns it on, and each mail of a kind can turn it off."""

    TOURNAMENT_REMINDER = (
        "tournament_reminder",
        _("Tournaments you entered: check-in, reminders before the start, the organiser's news"),
    )
    TOURNAMENT_START = (
        "tournament_start",
        _("Your tournament table is ready: the start, each round"),
    )
    CHALLENGE = "challenge", _("A challenge while you are not on the site")
    RESULT_AMENDED = "result_amended", _("A result of yours amended, a disqualification")
    CLUB_MESSAGE = "club_message", _("A message from your club")


class NoticeChoice(models.Model):
    """A kind of notice the player asked to get by mail (no row: not sent)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notice_choices"
    )
    kind = models.CharField(_("kind"), max_length=40, choices=NoticeKind.choices)
    created_at = models.DateTimeField(_("chosen at"), auto_now_add=True)

    class Meta:
        verbose_name = _("e-mail notice chosen")
        verbose_name_plural = _("e-mail notices chosen")
        constraints = [
            models.UniqueConstraint(fields=["user", "kind"], name="accounts_notice_choice_unique")
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.kind}"
