"""Issue 17 on the game pages (server side): what the table header, the lobby and "my
matches" tell a newcomer."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.games.helpers import open_table

db = pytest.mark.django_db


def header(html: str) -> str:
    """The text of the table page's header (``.table-head``), tags stripped."""
    match = re.search(r'<div class="table-head">(.*?)</div>', html, re.S)
    assert match is not None
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", match.group(1)))


@db
def test_table_header_names_the_changes_a_table_made_to_its_preset(client):
    table, users = open_table(
        preset="classic", options={"dark": True, "golden": True, "barrel_bidding": "closed"}
    )
    client.force_login(users[0])

    text = header(client.get(reverse("games:table", args=[table.pk])).content.decode())

    assert "Classic with changes:" in text
    assert "Dark game (тёмная): on" in text
    assert "Golden round (золотой кон): on" in text
    assert "Bidding on the barrel: closed" in text


@db
def test_table_header_says_only_the_preset_when_nothing_was_changed(client):
    table, users = open_table(preset="classic")
    client.force_login(users[0])

    text = header(client.get(reverse("games:table", args=[table.pk])).content.decode())

    assert "Classic" in text and "with changes" not in text
