"""Who moderates an event's chat beyond those the chat's own app names.

The social app keeps the chat and its moderation (its staff everywhere, an event's
organiser in his event); a club, which sits beside it in the layers and may not import it
(nor it the club), gives its moderators the club's events. So the club registers, from its
``AppConfig.ready``, a *provider*: a function of a person that answers the events he
moderates as a subquery of tournament ids (``Tournament.objects.filter(…).values("pk")``);
the social app asks :func:`moderated_tournaments` and filters by ``tournament__in``. No
provider, no extra event: the chat's own rule alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Provider = Callable[[Any], Any]

_providers: list[Provider] = []


def provide(provider: Provider) -> None:
    """Register ``provider`` (once: again is a no-op, so ``ready`` may run twice)."""
    if provider not in _providers:
        _providers.append(provider)


def moderated_tournaments(user: Any) -> list[Any]:
    """The providers' subqueries of the events ``user`` moderates (one per provider)."""
    return [provider(user) for provider in _providers]
