"""A person's social settings (docs/social.md, "Settings"): whom he takes challenges
from, and who may see that he is online and at which table."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from social import errors
from social.models import SocialSettings


@transaction.atomic
def social_settings_update(
    *, user: User, challenges: str | None = None, presence: str | None = None
) -> SocialSettings:
    """Change ``user``'s settings (None: that one stays as it is)."""
    if challenges is not None and challenges not in SocialSettings.Challenges.values:
        raise errors.Invalid(_("Choose whom you take challenges from."))
    if presence is not None and presence not in SocialSettings.Presence.values:
        raise errors.Invalid(_("Choose who may see that you are online."))
    row, _created = SocialSettings.objects.select_for_update().get_or_create(user=user)
    if challenges is not None:
        row.challenges = challenges
    if presence is not None:
        row.presence = presence
    row.save(update_fields=["challenges", "presence"])
    return row
