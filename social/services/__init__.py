"""Writes of the social app (docs/social.md), split along their seams and re-exported here, so
callers import ``from social import services``: follow, block and mute, and the lock of a
pair of people (``relations``); whom a person takes challenges from and who sees him
online (``social``); chat and its moderation (``chat``); "Play me" (``challenges``);
announcements and reminders of the tournaments (``tournaments``)."""

from social.services.challenges import (
    challenge_answer,
    challenge_cancel,
    challenge_create,
    challenges_expire,
)
from social.services.chat import (
    chat_ban,
    chat_expire,
    chat_report,
    chat_say,
    chat_switch,
    message_hide,
    reports_dismiss,
    table_chat_switch,
)
from social.services.relations import (
    block_create,
    block_delete,
    blocked_between,
    follow_create,
    follow_delete,
    mute_create,
    mute_delete,
    pairs_lock,
    player_get,
)
from social.services.social import social_settings_update
from social.services.tournaments import announcement_to_chat, reminders_send

__all__ = [
    "announcement_to_chat",
    "block_create",
    "block_delete",
    "blocked_between",
    "challenge_answer",
    "challenge_cancel",
    "challenge_create",
    "challenges_expire",
    "chat_ban",
    "chat_expire",
    "chat_report",
    "chat_say",
    "chat_switch",
    "follow_create",
    "follow_delete",
    "message_hide",
    "mute_create",
    "mute_delete",
    "pairs_lock",
    "player_get",
    "reminders_send",
    "reports_dismiss",
    "social_settings_update",
    "table_chat_switch",
]
