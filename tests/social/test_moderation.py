"""The moderation queue in the admin: reports with their context, escaped; hide, mute
and dismiss from it; an organiser sees and moderates his own event only."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from social import errors, services
from social.models import ChatBan, ChatMessage, ChatReport
from tests.factories import UserFactory
from tests.games.helpers import started_table
from tests.social.helpers import signed_in_client
from tests.tournaments.helpers import TournamentFactory, entered

pytestmark = pytest.mark.django_db

QUEUE = reverse("admin:social_chatreport_changelist")
XSS = '<script>alert("x")</script>'


def _reported_table_message(text: str = "you fool") -> tuple[ChatReport, Any]:
    table, (ann, bob) = started_table(humans=2, bots=1)
    services.chat_say(user=ann, table_id=table.pk, text="before it")
    message = services.chat_say(user=bob, table_id=table.pk, text=text)
    services.chat_say(user=ann, table_id=table.pk, text="after it")
    return services.chat_report(user=ann, message_id=message.pk, reason=XSS), bob


def _event_report(organiser: Any) -> ChatReport:
    t = TournamentFactory(created_by=organiser)
    ann, bob = entered(t, 2, checked_in=False)
    message = services.chat_say(user=bob, tournament_id=t.pk, text="rude")
    return services.chat_report(user=ann, message_id=message.pk)


def _moderator() -> Client:
    return signed_in_client(UserFactory(is_staff=True, is_superuser=True))


def _organiser_client(organiser: Any) -> Client:
    return signed_in_client(organiser)


def test_the_queue_shows_the_message_and_its_context_escaped() -> None:
    report, author = _reported_table_message(text=XSS)
    author.display_name = XSS
    author.save()
    client = _moderator()
    queue = client.get(QUEUE).content.decode()
    page = client.get(reverse("admin:social_chatreport_change", args=[report.pk])).content.decode()
    for html in (queue, page):
        assert "<script>alert" not in html
        assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html
    context = page[page.index('<ol class="chat-context">') :]
    assert (
        context.index("before it")
        < context.index("&lt;script&gt;alert")
        < context.index("after it")
    )


def test_hiding_from_the_queue_hides_the_message_and_closes_its_reports() -> None:
    report, _author = _reported_table_message()
    _moderator().post(QUEUE, {"action": "hide_messages", "_selected_action": [report.pk]})
    report.refresh_from_db()
    assert report.message.hidden_at is not None and report.handled_at is not None


def test_muting_from_the_queue_site_wide_refuses_the_authors_next_message() -> None:
    report, author = _reported_table_message()
    _moderator().post(QUEUE, {"action": "mute_1440_site", "_selected_action": [report.pk]})
    ban = ChatBan.objects.get()
    assert ban.user == author and ban.tournament is None
    with pytest.raises(errors.Muted):
        services.chat_say(user=author, table_id=report.message.table_id, text="again")


def test_dismissing_closes_a_report_and_leaves_the_message() -> None:
    report, _author = _reported_table_message()
    _moderator().post(QUEUE, {"action": "dismiss", "_selected_action": [report.pk]})
    report.refresh_from_db()
    assert report.handled_at is not None and report.message.hidden_at is None


def test_an_organiser_sees_and_moderates_only_his_own_event() -> None:
    organiser = UserFactory(is_staff=True)
    own = _event_report(organiser)
    other, _author = _reported_table_message()
    client = _organiser_client(organiser)
    queue = client.get(QUEUE)
    assert queue.status_code == 200
    shown = set(queue.context["cl"].result_list)
    assert shown == {own}
    client.post(QUEUE, {"action": "mute_60_event", "_selected_action": [own.pk]})
    ban = ChatBan.objects.get()
    assert ban.tournament_id == own.message.tournament_id
    # Site-wide is the site's moderators' own: refused, nothing made.
    client.post(QUEUE, {"action": "mute_1440_site", "_selected_action": [own.pk]})
    assert ChatBan.objects.count() == 1
    assert other.handled_at is None


def test_an_organiser_cannot_hide_a_message_of_another_event() -> None:
    organiser = UserFactory(is_staff=True)
    _event_report(organiser)
    other, _author = _reported_table_message()
    with pytest.raises(errors.NotFound):
        services.message_hide(by=organiser, message_id=other.message_id)
    assert ChatMessage.objects.get(pk=other.message_id).hidden_at is None


def test_staff_with_the_chat_permission_moderate_everywhere() -> None:
    staff = UserFactory(is_staff=True)
    staff.user_permissions.add(Permission.objects.get(codename="change_chatmessage"))
    report, _author = _reported_table_message()
    services.message_hide(by=staff, message_id=report.message_id)
    assert ChatMessage.objects.get(pk=report.message_id).hidden_at is not None


def test_a_player_without_staff_never_reaches_the_queue() -> None:
    answer = signed_in_client(UserFactory()).get(QUEUE)
    assert answer.status_code == 302  # to the admin's sign-in


def test_muting_in_the_event_from_a_casual_table_holds_at_that_table_only() -> None:
    report, author = _reported_table_message()
    _moderator().post(QUEUE, {"action": "mute_60_event", "_selected_action": [report.pk]})
    elsewhere, _people = started_table(humans=1, bots=2)
    services.chat_say(user=author, table_id=elsewhere.pk, text="still here")  # not refused
    with pytest.raises(errors.Muted):
        services.chat_say(user=author, table_id=report.message.table_id, text="again")


@pytest.mark.parametrize(
    "page",
    [
        "admin:social_chatreport_changelist",
        "admin:social_chatmessage_changelist",
        "admin:social_chatban_changelist",
    ],
)
def test_the_social_admin_lists_give_times_in_the_viewers_zone_with_its_name(page: str) -> None:
    _report, author = _reported_table_message()
    moderator = UserFactory(is_staff=True, is_superuser=True, time_zone="Europe/Kyiv")
    services.chat_ban(by=moderator, user=author, minutes=60)
    html = signed_in_client(moderator).get(reverse(page)).content.decode()
    assert "EET" in html
