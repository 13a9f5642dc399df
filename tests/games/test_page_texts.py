"""The game pages (server side): what the table header, the lobby and "my
matches" tell a newcomer."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games import scheduler, services
from games.models import Table
from tests.factories import UserFactory
from tests.games.helpers import (
    committed,
    current,
    human_turn,
    open_table,
    play_to_end,
    started_table,
)

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


def play_until_my_turn_in_deal(table: Table, *, deal: int) -> int:
    """Run the bots and play the people (a basic bot's choice) until it is seat 0's turn in
    deal ``deal`` (0-based dealing number) or later; returns that dealing."""
    for _ in range(5000):
        with committed():
            if scheduler.run_pending(limit=1):
                continue
        state = current(table)
        if state.match.to_act == 0 and state.dealing >= deal:
            return state.dealing
        assert human_turn(table), "nobody can move"
    raise AssertionError("never got there")


@db
def test_my_matches_says_from_which_deal_a_bot_played_a_resigned_seat(client):
    # Two people (when the last person resigns, the match is abandoned instead).
    table, users = started_table(humans=2, bots=1, preset="simple", options={"target": 300})
    dealing = play_until_my_turn_in_deal(table, deal=1)
    with committed():
        services.table_resign(table=table, user=users[0])
    play_to_end(table)
    client.force_login(users[0])

    page = client.get(reverse("games:matches")).content.decode()

    assert f"played by a bot from deal {dealing + 1}" in page


@db
def test_my_matches_says_nothing_of_bots_when_the_person_played_to_the_end(client):
    table, users = started_table(humans=1, bots=2, preset="simple", options={"target": 300})
    play_to_end(table)
    client.force_login(users[0])

    page = client.get(reverse("games:matches")).content.decode()

    assert "played by a bot" not in page


@db
def test_the_lobby_explains_every_bot_level_and_warns_that_random_bots_may_never_finish(client):
    client.force_login(UserFactory())

    page = client.get(reverse("games:lobby")).content.decode()

    levels = re.search(r'<ul class="help bot-levels">(.*?)</ul>', page, re.S)
    assert levels is not None
    items = re.findall(r"<li><strong>(.*?)</strong>(.*?)</li>", levels.group(1), re.S)
    assert [name for name, _help in items] == ["Random", "Basic", "Strong", "Master"]
    items = [help_text for _name, help_text in items]
    assert "without ending" in items[0]
    assert "a match may never end" in page  # the choice itself carries the note


@db
def test_play_against_bots_now_defaults_to_basic_bots_whose_matches_end(client):
    user = UserFactory()
    client.force_login(user)

    client.post(reverse("games:play_bots"))

    table = Table.objects.get(created_by=user)
    assert set(table.seats.filter(user__isnull=True).values_list("bot_level", flat=True)) == {
        "basic"
    }


@db
def test_my_matches_dates_read_as_the_rest_of_the_site_with_the_time_zone(client):
    _table, users = started_table(humans=1, bots=2)
    client.force_login(users[0])

    page = client.get(reverse("games:matches")).content.decode()

    moment = re.search(r'<time datetime="[^"]+">([^<]+)</time>', page)
    assert moment is not None and moment.group(1).endswith(" UTC")
    assert re.fullmatch(r"\d{1,2} [A-Z][a-z]+ \d{4}, \d\d:\d\d UTC", moment.group(1))


@db
def test_a_refusal_shown_on_a_page_starts_with_a_capital_letter(client):
    table, users = open_table(humans=1, bots=1, players=3)
    client.force_login(users[0])

    page = client.post(reverse("games:start", args=[table.pk]), follow=True).content.decode()

    notice = re.search(r'<ul class="messages">\s*<li class="error">([^<]+)</li>', page)
    assert notice is not None and notice.group(1)[0].isupper()
