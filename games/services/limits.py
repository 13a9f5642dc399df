"""The caps on tables of bots a person starts.

One account once started twelve tables of master bots in half a second and every bot
table of everyone else stalled behind them. A person may have only a few tables with
bots playing at once (``GAMES_BOT_TABLES_PER_USER``), of them only
``GAMES_MASTER_TABLES_PER_USER`` with master bots (a master decision takes the bots'
pool over a second, a basic one well under a millisecond), and one address only
``GAMES_BOT_TABLES_PER_ADDRESS`` (several accounts from one machine). Only tables still
playing count: a finished or abandoned one frees its slot.

Every door that starts a table with bots goes through this one check, because
:func:`games.services.table_start` makes it for every such table: play against bots,
a lobby table (the page or the API), a challenge's table (the challenger's, from the
address he sent it from), a rematch. Only a tournament's tables, started by its
organiser's services (``tournaments/live.py``), pass ``uncapped=True`` and count against
nothing; a test holds that no other caller does.

Race-safe: the person's row lock makes his concurrent starts count one after the other,
and on PostgreSQL a transaction-scoped advisory lock on the address does the same for an
address (SQLite, the embedded default, runs one writing transaction at a time).
"""

from __future__ import annotations

import hashlib
import hmac

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Exists, OuterRef, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.types import User
from games import errors
from games.models import Seat, Table

# The advisory locks' first key: the tables of bots per address (the second is the
# address's hash).
ADDRESS_LOCK_CLASS = 32_032


def address_key(address: str) -> str:
    """A keyed hash of a client address: what a table keeps (never the address)."""
    if not address:
        return ""
    digest = hmac.new(settings.SECRET_KEY.encode(), address.encode(), hashlib.sha256)
    return digest.hexdigest()[:32]


def _playing_with_bots(level: str | None = None) -> QuerySet[Table]:
    bots = Seat.objects.filter(table=OuterRef("pk")).exclude(bot_level="")
    if level is not None:
        bots = bots.filter(bot_level=level)
    return Table.objects.filter(Exists(bots), status=Table.Status.PLAYING)


def bot_tables_check(*, user: User, key: str, levels: set[str]) -> None:
    """Refuse (``TooManyBotTables``) a table with bots of ``levels`` that ``user`` would
    start from the address whose :func:`address_key` is ``key`` ("": unknown, only his
    own caps apply) beyond the caps. Call it inside the transaction that starts the
    table."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    if key and connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(%s, hashtext(%s))", [ADDRESS_LOCK_CLASS, key]
            )
    limit = settings.GAMES_BOT_TABLES_PER_USER
    if _playing_with_bots().filter(created_by=user).count() >= limit:
        raise errors.TooManyBotTables(
            ngettext(
                "You already have %(limit)d table against bots playing: finish or resign it first.",
                "You already have %(limit)d tables against bots playing, as many as you may "
                "at once: finish or resign one first.",
                limit,
            )
            % {"limit": limit}
        )
    masters = settings.GAMES_MASTER_TABLES_PER_USER
    if "master" in levels and (
        _playing_with_bots("master").filter(created_by=user).count() >= masters
    ):
        raise errors.TooManyBotTables(
            ngettext(
                "Master bots think long, so you may play only %(limit)d table against them "
                "at a time: finish or resign it first, or choose another level.",
                "Master bots think long, so you may play only %(limit)d tables against them "
                "at a time: finish or resign one first, or choose another level.",
                masters,
            )
            % {"limit": masters}
        )
    if key and (
        _playing_with_bots().filter(started_from=key).count()
        >= settings.GAMES_BOT_TABLES_PER_ADDRESS
    ):
        raise errors.TooManyBotTables(
            _(
                "Too many tables against bots are playing from your address already: finish "
                "or resign one first."
            )
        )
