"""What the parts of the table services share: the row lock, ids, and the outcome of
an action."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from accounts.types import Visitor
from games import errors
from games.models import Table

log = logging.getLogger(__name__)


@dataclass
class Applied:
    """What :func:`actions.action_submit` did: the new version, or ``duplicate`` when the
    client message id had already been applied (nothing changed)."""

    version: int
    duplicate: bool = False
    events: list[dict[str, Any]] = field(default_factory=list)


def locked_table(table_id: int) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise errors.TableNotFound() from None


def user_id_of(user: Visitor) -> int | None:
    return user.pk if getattr(user, "is_authenticated", False) else None


def table_pk(table: Table | int) -> int:
    return table if isinstance(table, int) else table.pk
