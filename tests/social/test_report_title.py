"""A chat report's admin page is titled by what it is, never a bare "#3:"."""

from __future__ import annotations

import pytest
from django.urls import reverse

from social import services
from tests.factories import UserFactory
from tests.games.helpers import started_table
from tests.social.helpers import signed_in_client

pytestmark = pytest.mark.django_db


def test_a_report_without_a_reason_is_titled_by_its_message():
    table, (ann, bob) = started_table(humans=2, bots=1)
    message = services.chat_say(user=bob, table_id=table.pk, text="rude")
    report = services.chat_report(user=ann, message_id=message.pk)
    client = signed_in_client(UserFactory(is_staff=True, is_superuser=True))

    page = client.get(reverse("admin:social_chatreport_change", args=[report.pk])).content.decode()

    title = page[page.index("<title>") : page.index("</title>")]
    assert f"Report of message #{message.pk}" in title and f"#{message.pk}:" not in title
